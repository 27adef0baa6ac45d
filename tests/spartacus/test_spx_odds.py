"""Rule C14: exact odds of an attack, checked by brute force and by Monte-Carlo."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from spx_helpers import DATA, fight, initiative, play, spec

from companion.games.spartacus.combat import Modifiers
from companion.games.spartacus.odds import (
    attack_odds,
    brute_force,
    monte_carlo,
    multiset_probability,
    percent,
    policy_reroll,
)

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


@pytest.mark.parametrize(
    ("n_att", "n_def", "mods", "att_rr", "def_rr"),
    [
        (2, 2, Modifiers(), False, False),
        (3, 1, Modifiers(), False, False),
        (1, 3, Modifiers(), False, False),
        (3, 2, Modifiers((SPARTACUS,), (AGRON,), 1, 1, 0), True, False),
        (2, 2, FULL, True, True),
        (3, 2, Modifiers((TRIPLE,), (IGNORE,)), False, True),
    ],
)
def test_exact_odds_equal_brute_force(n_att, n_def, mods, att_rr, def_rr) -> None:
    odds = attack_odds(n_att, n_def, mods, attack_reroll=att_rr, defence_reroll=def_rr)
    assert odds.joint == brute_force(
        n_att, n_def, mods, attack_reroll=att_rr, defence_reroll=def_rr
    )


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


def test_attacker_levels_only_when_the_defender_stands() -> None:
    mods = Modifiers(defence_abilities=(AGRON,))
    odds = attack_odds(3, 3, mods, defender_life=3, attacker_life=3)
    assert odds.attacker_levels["yield"] == sum(
        p for (w, c), p in odds.joint.items() if w == 0 and c >= 1
    )


def test_policy_reroll_lowest_low_die_not_in_a_trigger() -> None:
    assert policy_reroll((6, 4, 3)) == 3
    assert policy_reroll((6, 5, 4)) is None
    assert policy_reroll((5, 2, 2, 1), (SPARTACUS,)) == 1
    assert policy_reroll((5, 2, 2), (SPARTACUS,)) is None  # the 2s make a pair


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
