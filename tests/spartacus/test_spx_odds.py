"""Rule C14: exact odds of an attack, checked by brute force and by Monte-Carlo."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spx_helpers import DATA, fight, initiative, play, spec

from companion.games.spartacus import actions as A
from companion.games.spartacus import odds_tables
from companion.games.spartacus.combat import Faces, Modifiers, attack_outcome, sort_faces
from companion.games.spartacus.odds import (
    attack_odds,
    attack_reroll_choice,
    brute_force,
    clear_caches,
    defence_reroll_choice,
    monte_carlo,
    multiset_probability,
    multisets,
    percent,
    replace_die,
    reroll_choices,
)
from companion.games.spartacus.state import SpartacusState

SPARTACUS = DATA.abilities["pair-extra-wound"]
AGRON = DATA.abilities["defence-triple-counter"]
IGNORE = DATA.abilities["defence-pair-ignore"]
TRIPLE = DATA.abilities["attack-triple-extra"]
FULL = Modifiers(
    (SPARTACUS, TRIPLE), (AGRON, IGNORE), extra_wound=1, ignore_defender=1, ignore_attacker=1
)


def test_one_die_against_one_die() -> None:
    odds = attack_odds(1, 1)
    assert odds.wounds == {0: Fraction(21, 36), 1: Fraction(15, 36)}
    assert sum(odds.joint.values()) == 1


BRUTE_FORCE_CASES = [
    (2, 2, Modifiers(), False, False),
    (3, 1, Modifiers(), False, False),
    (1, 3, Modifiers(), False, False),
    (2, 2, Modifiers(), True, True),
    (2, 2, FULL, True, True),
    (3, 1, FULL, True, True),
    (1, 3, FULL, True, True),
    (2, 2, Modifiers((SPARTACUS,), (AGRON,), extra_wound=1), True, False),
    (2, 2, Modifiers((TRIPLE,), (IGNORE,), ignore_defender=1), False, True),
]


@pytest.mark.parametrize(("n_att", "n_def", "mods", "att_rr", "def_rr"), BRUTE_FORCE_CASES)
def test_c14_exact_odds_equal_brute_force(n_att, n_def, mods, att_rr, def_rr) -> None:
    """Brute force: every ordered roll, every reroll choice (which die) and every new die,
    the choices taken one by one as ruling C7b says."""
    odds = attack_odds(n_att, n_def, mods, attack_reroll=att_rr, defence_reroll=def_rr)
    assert odds.joint == brute_force(
        n_att, n_def, mods, attack_reroll=att_rr, defence_reroll=def_rr
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("n_att", "n_def", "mods", "att_rr", "def_rr"),
    [
        (3, 2, Modifiers((SPARTACUS,), (AGRON,), extra_wound=1), True, True),
        (2, 3, Modifiers((SPARTACUS,), (AGRON, IGNORE), ignore_attacker=1), True, True),
    ],
)
def test_c14_exact_odds_equal_brute_force_larger(n_att, n_def, mods, att_rr, def_rr) -> None:
    test_c14_exact_odds_equal_brute_force(n_att, n_def, mods, att_rr, def_rr)


@pytest.mark.parametrize(("extra", "ignored"), [(124, 0), (130, 0), (200, 199)])
def test_c14_wounds_past_a_byte_use_the_wide_table(extra, ignored) -> None:
    """The outcome table is counted in bytes while every final sum fits one (the adds
    wrap around on the way) and widened when not (a data file's equipment may add many
    wounds): the odds stay brute force's."""
    mods = Modifiers((SPARTACUS,), (IGNORE,), extra_wound=extra, ignore_defender=ignored)
    for n_att, n_def in ((3, 2), (2, 3)):
        odds = attack_odds(n_att, n_def, mods)
        assert odds.joint == brute_force(n_att, n_def, mods)
        assert max(odds.wounds) >= n_att


ABILITIES = tuple(DATA.abilities.values())
ABILITY_LISTS = st.lists(st.sampled_from(ABILITIES), max_size=2, unique_by=lambda a: a.id)
REROLLS = st.sampled_from([(True, True), (True, False), (False, True), (False, False)])


def _modifiers(attack, defence, extra, ignore_def, ignore_att) -> Modifiers:
    return Modifiers(
        tuple(a for a in attack if a.roll == "attack"),
        tuple(a for a in defence if a.roll == "defence"),
        extra_wound=extra,
        ignore_defender=ignore_def,
        ignore_attacker=ignore_att,
    )


# every vocabulary ability on either side (pairs, triples, one face; extra, counter and
# ignored wounds) and equipment
ANY_MODIFIERS = st.builds(
    _modifiers,
    ABILITY_LISTS,
    ABILITY_LISTS,
    st.integers(0, 1),
    st.integers(0, 2),
    st.integers(0, 1),
)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(n_att=st.integers(1, 3), n_def=st.integers(1, 2), mods=ANY_MODIFIERS, rerolls=REROLLS)
def test_c14_any_abilities_and_equipment_equal_brute_force(n_att, n_def, mods, rerolls) -> None:
    """Every vocabulary ability on either side (pairs, triples, one face; extra, counter and
    ignored wounds), equipment and rerolls: the odds' tables against every ordered roll."""
    att_rr, def_rr = rerolls
    odds = attack_odds(n_att, n_def, mods, attack_reroll=att_rr, defence_reroll=def_rr)
    assert odds.joint == brute_force(
        n_att, n_def, mods, attack_reroll=att_rr, defence_reroll=def_rr
    )


def _joint_from_choices(
    n_att: int, n_def: int, mods: Modifiers, att_rr: bool, def_rr: bool
) -> dict[tuple[int, int], Fraction]:
    """The joint distribution counted pair by pair of sorted rolls (each weighted by its
    ordered rolls): the reroll choices of :func:`reroll_choices`, then the 36 new-die
    outcomes one by one, without the tables' flows."""
    counts: dict[tuple[int, int], int] = {}
    for a, wa in multisets(n_att):
        for d, wd in multisets(n_def):
            a_face, d_face = reroll_choices(a, d, mods, att_rr, def_rr)
            for x in range(1, 7):
                fa = a if a_face is None else replace_die(a, a_face, x)
                for y in range(1, 7):
                    fd = d if d_face is None else replace_die(d, d_face, y)
                    o = attack_outcome(fa, fd, mods)
                    key = (o.to_defender, o.to_attacker)
                    counts[key] = counts.get(key, 0) + wa * wd
    den = 6**n_att * 6**n_def * 36
    return {k: Fraction(w, den) for k, w in sorted(counts.items())}


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(
    n_att=st.integers(1, 3),
    n_def=st.integers(1, 3),
    mods=ANY_MODIFIERS,
    rerolls=REROLLS,
    block_bytes=st.sampled_from([1, 200, 1 << 19]),
)
def test_c14_odds_in_blocks_equal_the_choices_counted_pair_by_pair(
    n_att, n_def, mods, rerolls, block_bytes
) -> None:
    """Issue 18: the tables add the pairs' weights into the grid of chosen states a block
    of attack rolls at a time, and flow the states to the final rolls a block of final
    attack rolls at a time, only over the faces each roll shows (rolls with few different
    faces, like 6-6-6, are last). Whatever the block (one roll, a few, all), the
    distribution is the one the reroll choices give pair by pair."""
    att_rr, def_rr = rerolls
    expected = _joint_from_choices(n_att, n_def, mods, att_rr, def_rr)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(odds_tables, "BLOCK_BYTES", block_bytes)
        clear_caches()
        odds = attack_odds(n_att, n_def, mods, attack_reroll=att_rr, defence_reroll=def_rr)
    clear_caches()
    assert odds.joint == expected


@pytest.mark.slow
def test_c14_eight_against_eight_sums_to_one_whatever_the_blocks() -> None:
    """The largest table the companion shows (8 against 8, abilities, equipment, both
    rerolls: totals up to 6^16 x 36): every way is counted once, in blocks of any size."""
    mods = Modifiers((SPARTACUS,), (AGRON,), extra_wound=1)
    odds = attack_odds(8, 8, mods, attack_reroll=True, defence_reroll=True)
    assert sum(odds.joint.values()) == 1
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(odds_tables, "BLOCK_BYTES", 50_000)
        clear_caches()
        again = attack_odds(8, 8, mods, attack_reroll=True, defence_reroll=True)
    clear_caches()
    assert again.joint == odds.joint


@pytest.mark.slow
def test_five_against_five_matches_monte_carlo() -> None:
    mods = Modifiers((SPARTACUS,), (AGRON,), extra_wound=1)
    odds = attack_odds(5, 5, mods, attack_reroll=True, defence_reroll=True)
    samples = 20_000
    sim = monte_carlo(
        5, 5, mods, samples=samples, rng=random.Random(7), attack_reroll=True, defence_reroll=True
    )
    for key in set(odds.joint) | set(sim):
        p = float(odds.joint.get(key, 0))
        # 4.5 standard errors: a false alarm about once in 150 000 runs per cell
        tolerance = 4.5 * (p * (1 - p) / samples) ** 0.5 + 1e-3
        assert abs(sim.get(key, 0.0) - p) <= tolerance, (key, p, sim.get(key))


def test_defeat_levels_from_the_current_dice() -> None:
    odds = attack_odds(6, 1, defender_life=4, attacker_life=18)
    levels = odds.defender_levels
    assert sum(levels.values()) == 1
    w = odds.wounds
    assert levels["none"] == w.get(0, 0) + w.get(1, 0)
    assert levels["yield"] == w.get(2, 0)
    assert levels["injury"] == w.get(3, 0)
    assert levels["decapitation"] == sum(p for n, p in w.items() if n >= 4)


def test_c10b_attacker_levels_count_the_counter_wound_even_when_the_defender_falls() -> None:
    # "Unabhängig vom Angriffswurf seines Gegners verursacht Agron automatisch eine Wunde"
    mods = Modifiers(defence_abilities=(AGRON,))
    odds = attack_odds(3, 3, mods, defender_life=3, attacker_life=3)
    assert odds.attacker_levels["yield"] == sum(p for (_, c), p in odds.joint.items() if c >= 1)
    both = sum(p for (w, c), p in odds.joint.items() if w >= 1 and c >= 1)
    assert both > 0  # the defender falls and the attacker yields in the same attack


def test_c10a_the_extra_wound_comes_with_every_attack() -> None:
    # "Nachdem gewürfelt wurde, aber bevor Eigenschaften durch Verletzungen gesenkt werden,
    # wird eine zusätzliche Wunde verursacht"
    odds = attack_odds(1, 1, Modifiers(extra_wound=1))
    assert odds.wounds == {1: Fraction(21, 36), 2: Fraction(15, 36)}


def test_c7b_rulebook_examples_for_the_reroll_choices() -> None:
    # Agron's 4,3,3,2 with the helm: "er entscheidet sich, die '2' erneut zu würfeln"
    for attack in ((6, 5, 4, 1), (5, 5, 3, 1), (4, 4, 1)):
        assert defence_reroll_choice(attack, (4, 3, 3, 2), Modifiers((), (AGRON,)), None) == 2
    # Sally's sword, 6-4-3 against 6-4-2: rerolling the 3 gives 1 wound on average, like
    # keeping (0, 0, 1, 1, 2, 2 for a new 1..6): a tie, and on a tie the odds keep
    # ("Nicht jeden Wurf wiederholen, den man wiederholen darf")
    assert attack_reroll_choice((6, 4, 3), (6, 4, 2), Modifiers(), False) is None
    assert attack_reroll_choice((6, 4, 1), (6, 4, 2), Modifiers(), False) == 1
    # Spartacus keeps a pair and rerolls the lone low die
    assert attack_reroll_choice((5, 2, 2, 1), (6, 6, 6, 6), Modifiers((SPARTACUS,)), False) == 1


def test_c7b_the_reroll_is_chosen_after_seeing_the_defence() -> None:
    # "Der Spieler kann frei bestimmen, welchen Wurf er wiederholen möchte." - "Haben zwei
    # Spieler Wiederholungswürfe, sollten diese gleichzeitig durchgeführt werden": both
    # rolls lie on the table before anyone rerolls. The same attack roll: against a high
    # defence the 3 is worth rerolling, against a low one it already wounds and rerolling
    # could only lose that
    assert attack_reroll_choice((6, 5, 3), (5, 5, 4), Modifiers(), False) == 3
    assert attack_reroll_choice((6, 5, 3), (2, 2, 2), Modifiers(), False) is None
    # the defender answers the attacker's choice, which it knows (ruling C7a)
    assert reroll_choices((6, 5, 3), (5, 5, 4), Modifiers(), True, True) == (3, 4)
    assert reroll_choices((6, 5, 3), (2, 2, 2), Modifiers(), True, True) == (None, 2)


def _expected_wounds(
    n_att: int, n_def: int, mods: Modifiers, choose: Callable[[Faces, Faces], tuple]
) -> Fraction:
    """Expected wounds to the defender over every ordered roll of both sides and every new
    die, each side rerolling the face ``choose(attack, defence)`` names (None keeps)."""
    memo: dict[tuple[Faces, Faces], int] = {}
    total = 0
    for a in product(range(1, 7), repeat=n_att):
        for d in product(range(1, 7), repeat=n_def):
            a_face, d_face = choose(sort_faces(a), sort_faces(d))
            for x in range(1, 7):
                fa = sort_faces(a) if a_face is None else replace_die(a, a_face, x)
                for y in range(1, 7):
                    fd = sort_faces(d) if d_face is None else replace_die(d, d_face, y)
                    if (fa, fd) not in memo:
                        memo[(fa, fd)] = attack_outcome(fa, fd, mods).to_defender
                    total += memo[(fa, fd)]
    return Fraction(total, 6**n_att * 6**n_def * 36)


def _fixed_rule(faces: Faces) -> int | None:
    """The odds' old reroll rule: the lowest die showing 1-3, without looking at the other
    roll."""
    return faces[-1] if faces[-1] <= 3 else None


def test_c7b_expected_wounds_equal_the_brute_force_optimum() -> None:
    """Issue 17: the odds' reroll choices are the best the rules allow, so the expected
    wounds they show are those of the best play found by trying every choice (brute
    force), not those of a fixed rule (which put them 0.02-0.03 too low at 5 against 5)."""
    mods = Modifiers((SPARTACUS,), (AGRON,), extra_wound=1)
    odds = attack_odds(2, 2, mods, attack_reroll=True, defence_reroll=True)
    optimum = brute_force(2, 2, mods, attack_reroll=True, defence_reroll=True)
    assert odds.expected_wounds == sum(w * p for (w, _), p in optimum.items())
    chosen = _expected_wounds(2, 2, mods, lambda a, d: reroll_choices(a, d, mods, True, True))
    assert chosen == odds.expected_wounds
    # the attacker alone rerolls: the best choice after seeing the defence deals more
    # wounds on average than the fixed rule (both counted the same way, every die)
    plain = Modifiers()
    best_play = attack_odds(2, 2, plain, attack_reroll=True).expected_wounds
    fixed = _expected_wounds(2, 2, plain, lambda a, d: (_fixed_rule(a), None))
    assert best_play == _expected_wounds(
        2, 2, plain, lambda a, d: (attack_reroll_choice(a, d, plain, False), None)
    )
    assert best_play - fixed > Fraction(1, 50)  # 8279/7776 against 7987/7776


def test_c7b_optimal_rerolls_never_lower_the_expected_wounds() -> None:
    mods = Modifiers((SPARTACUS,), ())
    plain = attack_odds(4, 3, mods).expected_wounds
    assert attack_odds(4, 3, mods, attack_reroll=True).expected_wounds > plain
    assert attack_odds(4, 3, mods, defence_reroll=True).expected_wounds < plain


def test_multiset_probability() -> None:
    assert multiset_probability([6, 6]) == Fraction(1, 36)
    assert multiset_probability([6, 5]) == Fraction(2, 36)
    assert percent(Fraction(1, 3)) == "33.3%"


def test_fight_odds_use_the_fighters_dice_and_equipment() -> None:
    state = fight(
        spec("A", a=4, equipment=("gladius", "segen")),
        spec("Agron", d=4, equipment=("helm",), abilities=("defence-triple-counter",)),
    )
    initiative(state, "I")
    play(state, "step E")
    f = state.fight
    odds = f.odds("I")
    expected = attack_odds(
        4,
        4,
        Modifiers((), (AGRON,), ignore_attacker=1),
        attack_reroll=True,
        defence_reroll=True,
        defender_life=10,
        attacker_life=10,
    )
    assert odds.joint == expected.joint
    assert (
        f.odds("I", rerolls=False).joint
        == attack_odds(4, 4, Modifiers((), (AGRON,), ignore_attacker=1)).joint
    )


def _engine_distribution(state: SpartacusState, mods: Modifiers) -> dict[tuple[int, int], Fraction]:
    """Play one attack in the engine for every chance outcome (the reroll choices as ruling
    C7b says): the exact distribution of (wounds to the defender, to the attacker)."""
    config, prefix = state.config, list(state.history)
    out: dict[tuple[int, int], Fraction] = {}

    def walk(history: list, p: Fraction) -> None:
        game = SpartacusState.replay(config, history)
        f = game.fight
        if f.phase == "reroll_choice":
            side = f.decider()
            att, dfn = f.rolls[f.attacker], f.rolls[f.other(f.attacker)]
            if side == f.attacker:
                face = attack_reroll_choice(att, dfn, mods, defence_reroll="II" in f.reroll_pending)
            else:
                face = defence_reroll_choice(att, dfn, mods, f.reroll_faces.get(f.attacker))
            walk([*history, A.KeepRoll(side) if face is None else A.Reroll(side, face)], p)
            return
        if f.is_chance:
            for action, q in game.chance_outcomes():
                walk([*history, action], p * q)
            return
        resolved = f.outcome
        key = (resolved.to_defender, resolved.to_attacker)
        out[key] = out.get(key, Fraction(0)) + p

    walk(prefix, Fraction(1))
    return dict(sorted(out.items()))


def _about_to_attack(attacker, defender) -> tuple[SpartacusState, Modifiers]:
    """A fight where ``attacker`` (side I) steps next to ``defender`` and attacks: the state
    before the attack roll and the attack's modifiers."""
    state = fight(attacker, defender)
    initiative(state, "I")
    play(state, "step E", "attack")
    return state, state.fight.modifiers("I")


@pytest.mark.slow
def test_c10_c14_the_engine_fight_deals_what_the_odds_say() -> None:
    """Rulings C10a (extra wound) and C10b (Agron's counter wound): every roll played
    through the fight, weighted by its chance, against the odds."""
    state, mods = _about_to_attack(
        spec("A", a=2, equipment=("axt",), abilities=("pair-extra-wound",)),
        spec("Agron", d=3, abilities=("defence-triple-counter",)),
    )
    assert mods.extra_wound == 1 and mods.defence_abilities == (AGRON,)
    assert _engine_distribution(state, mods) == state.fight.odds("I").joint


@pytest.mark.slow
def test_c7b_c14_the_engine_fight_with_both_rerolls_deals_what_the_odds_say() -> None:
    state, mods = _about_to_attack(
        spec("A", a=2, equipment=("gladius",), abilities=("pair-extra-wound",)),
        spec("B", d=1, equipment=("helm",)),
    )
    odds = state.fight.odds("I")
    assert odds.joint == attack_odds(2, 1, mods, attack_reroll=True, defence_reroll=True).joint
    assert _engine_distribution(state, mods) == odds.joint
