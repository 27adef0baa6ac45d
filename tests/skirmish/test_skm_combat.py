"""Rulings 6 and 7: melee and affinity dice, with the reference page's tables as data."""

import pytest
from skm_helpers import OPEN5, profile, start

from companion.games.arena_skirmish import IllegalActionError
from companion.games.arena_skirmish import actions as A
from companion.games.arena_skirmish.combat import (
    AFFINITY_TABLE,
    affinity_breakdown,
    affinity_relation,
    class_relation,
    melee_breakdown,
)

# The reference page, as printed: "Klassenverhältnis: leicht < mittel < schwer < leicht"
# (a < b: b beats a).
CLASS_CHAIN = ["light", "medium", "heavy", "light"]

# "Typ / gegen  Feuer  Wasser  Luft  Erde", as printed (attacker row, target column).
PRINTED_AFFINITY = """
Feuer	Kein Schaden	Unvorteilhaft	Kein Bonus/Malus	Vorteilhaft
Wasser	Vorteilhaft	Kein Schaden	Unvorteilhaft	Kein Bonus/Malus
Luft	Kein Bonus/Malus	Vorteilhaft	Kein Schaden	Unvorteilhaft
Erde	Unvorteilhaft	Kein Bonus/Malus	Vorteilhaft	Kein Schaden
"""
GERMAN = {"Feuer": "fire", "Wasser": "water", "Luft": "air", "Erde": "earth"}
VERDICT = {
    "Kein Schaden": "no damage",
    "Unvorteilhaft": "unfavourable",
    "Kein Bonus/Malus": "neutral",
    "Vorteilhaft": "favourable",
}


def test_affinity_table_is_the_printed_one():
    columns = ["fire", "water", "air", "earth"]
    rows = [line.split("\t") for line in PRINTED_AFFINITY.strip().splitlines()]
    assert len(rows) == 4
    for row in rows:
        attacker = GERMAN[row[0]]
        for target, cell in zip(columns, row[1:], strict=True):
            assert affinity_relation(attacker, target) == VERDICT[cell], (attacker, target)
    assert set(AFFINITY_TABLE) == set(columns)


def test_class_relation_follows_the_printed_chain():
    for weaker, stronger in zip(CLASS_CHAIN, CLASS_CHAIN[1:], strict=False):
        assert class_relation(stronger, weaker) == "favourable"
        assert class_relation(weaker, stronger) == "unfavourable"
    for c in ("light", "medium", "heavy"):
        assert class_relation(c, c) == "neutral"
    # the ruling's words: light beats heavy, medium beats light, heavy beats medium
    assert class_relation("light", "heavy") == "favourable"
    assert class_relation("medium", "light") == "favourable"
    assert class_relation("heavy", "medium") == "favourable"


# Reference page "Nahkampfboni/-mali": each line alone, on attack value 3.
# (attack, attacker class, target class, position, target in front, height) -> dice
MELEE_CASES = [
    ("plain: base dice = attack value", 3, "medium", "medium", "front", True, 0, 3),
    ("Attacke von hinten: +2", 3, "medium", "medium", "behind", True, 0, 5),
    ("Attacke von der Seite: +1", 3, "medium", "medium", "side", True, 0, 4),
    ("Attacke zur Seite: -1", 3, "medium", "medium", "front", False, 0, 2),
    ("Attacke von oben: +1", 3, "medium", "medium", "front", True, 1, 4),
    ("Attacke nach unten (attacker lower): -1", 3, "medium", "medium", "front", True, -1, 2),
    ("higher by two levels counts once", 3, "medium", "medium", "front", True, 2, 4),
    ("vorteilhafte Klasse: Attackenwert *2", 3, "light", "heavy", "front", True, 0, 6),
    ("unvorteilhafte Klasse: Attackenwert -1", 3, "heavy", "light", "front", True, 0, 2),
    ("all together, favourable", 2, "heavy", "medium", "behind", False, 1, 2 * 2 + 2 - 1 + 1),
    ("all together, unfavourable", 2, "medium", "heavy", "side", False, -1, 2 - 1 + 1 - 1 - 1),
    ("doubling applies to the base, not the modifiers", 1, "medium", "light", "behind", True, 0, 4),
]


@pytest.mark.parametrize(
    ("label", "attack", "ac", "tc", "pos", "front", "height", "dice"),
    MELEE_CASES,
    ids=[c[0] for c in MELEE_CASES],
)
def test_melee_modifiers(label, attack, ac, tc, pos, front, height, dice):
    b = melee_breakdown(attack, ac, tc, pos, front, height)
    assert b.dice == dice and b.allowed == (dice >= 1)
    assert sum(delta for _, delta in b.lines) == dice


@pytest.mark.parametrize(
    ("attack", "ac", "tc", "pos", "front", "height"),
    [
        (1, "heavy", "light", "front", True, 0),  # 1 - 1 = 0
        (1, "medium", "medium", "front", False, -1),  # 1 - 1 - 1 = -1
        (0, "medium", "medium", "front", True, 0),
    ],
)
def test_fewer_than_one_die_is_no_attack(attack, ac, tc, pos, front, height):
    b = melee_breakdown(attack, ac, tc, pos, front, height)
    assert not b.allowed and "fewer than 1 die" in b.reason


# Reference page "Affinitätsboni/-mali": facing as melee, no class, no height.
AFFINITY_CASES = [
    ("neutral (opposite element)", 2, "fire", "air", "front", True, 2),
    ("vorteilhafte Affinität: x2", 2, "fire", "earth", "front", True, 4),
    ("unvorteilhafte Affinität: -1", 2, "fire", "water", "front", True, 1),
    ("von hinten: +2", 2, "water", "earth", "behind", True, 4),
    ("von der Seite: +1", 2, "air", "fire", "side", True, 3),
    ("zur Seite: -1", 2, "earth", "water", "front", False, 1),
    ("favourable from behind, not facing", 1, "earth", "air", "behind", False, 1 * 2 + 2 - 1),
    ("unfavourable at 1: no attack", 1, "air", "earth", "front", True, 0),
]


@pytest.mark.parametrize(
    ("label", "aff", "ae", "te", "pos", "front", "dice"),
    AFFINITY_CASES,
    ids=[c[0] for c in AFFINITY_CASES],
)
def test_affinity_modifiers(label, aff, ae, te, pos, front, dice):
    b = affinity_breakdown(aff, ae, te, pos, front)
    assert b.dice == dice and b.allowed == (dice >= 1)


@pytest.mark.parametrize("element", ["fire", "water", "air", "earth"])
def test_same_element_cannot_be_attacked_by_affinity(element):
    b = affinity_breakdown(3, element, element, "behind", True)
    assert not b.allowed and "same element" in b.reason


def test_affinity_needs_a_value_of_at_least_one():
    assert not affinity_breakdown(0, "fire", "earth", "behind", True).allowed


# -- the same, in a game: positions and facings on the grid -------------------------------


def duel(attacker: dict, target: dict, a_place, t_place, rows=None):
    profiles = [profile(1, initiative=9, **attacker), profile(2, initiative=1, **target)]
    return start(profiles, [[1], [2]], {1: a_place, 2: t_place}, rows=rows)


@pytest.mark.parametrize(
    ("a_place", "t_place", "position", "in_front"),
    [
        (("c4", "N"), ("c3", "N"), "behind", True),  # target faces away from the attacker
        (("c4", "N"), ("c3", "S"), "front", True),  # face to face
        (("c4", "N"), ("c3", "E"), "side", True),
        (("c4", "E"), ("c3", "N"), "behind", False),  # attacker looks away from the target
        (("b3", "E"), ("c3", "W"), "front", True),
        (("b3", "S"), ("c3", "N"), "side", False),
    ],
)
def test_relative_position_on_the_grid(a_place, t_place, position, in_front):
    s = duel({}, {}, a_place, t_place)
    assert s.relative_position(1, 2) == (position, in_front, 0)


def test_melee_needs_orthogonal_contact():
    s = duel({}, {}, ("c4", "N"), ("d3", "N"))  # diagonal
    assert not [a for a in s.legal_actions() if a.kind in ("melee", "affinity")]
    err = pytest.raises(IllegalActionError, s.apply, A.Melee(2)).value
    assert err.rule == "ruling 6 (melee)" and "direct contact" in err.reason
    s2 = duel({}, {}, ("c5", "N"), ("c3", "N"))  # a field between
    assert A.Melee(2) not in s2.legal_actions()


def test_melee_in_game_with_height_and_class():
    rows = ["00000", "00A00", "01B00", "00000", "00000"]  # b3 is level 1
    s = duel(
        {"attack": 2, "weight": "light"}, {"weight": "heavy"}, ("b3", "E"), ("c3", "N"), rows=rows
    )
    b = s.breakdown(1, 2, "melee")
    assert b.dice == 2 * 2 + 1 + 1  # favourable x2, at the side, higher
    events = s.apply(A.Melee(2))
    assert s.phase == "hit" and s.attack["dice"] == 6
    assert events[0].kind == "attack_declared" and events[0].data["dice"] == 6


def test_no_attack_with_fewer_than_one_die_in_game():
    s = duel(
        {"attack": 1, "weight": "heavy", "affinity": 0},
        {"weight": "light"},
        ("c4", "N"),
        ("c3", "S"),
    )
    assert A.Melee(2) not in s.legal_actions()
    assert "fewer than 1 die" in pytest.raises(IllegalActionError, s.apply, A.Melee(2)).value.reason


def test_affinity_in_game_ignores_class_and_height():
    rows = ["00000", "00A00", "01B00", "00000", "00000"]
    s = duel(
        {"affinity": 2, "element": "water", "weight": "light"},
        {"element": "fire", "weight": "heavy"},
        ("b3", "E"),
        ("c3", "W"),
        rows=rows,
    )
    b = s.breakdown(1, 2, "affinity")
    assert b.dice == 4  # favourable x2, front, facing; no class, no height
    s.apply(A.AffinityAttack(2))
    assert s.attack["kind"] == "affinity" and s.attack["dice"] == 4


def test_affinity_not_offered_against_the_same_element_or_without_affinity():
    s = duel({"affinity": 2, "element": "fire"}, {"element": "fire"}, ("c4", "N"), ("c3", "N"))
    assert A.AffinityAttack(2) not in s.legal_actions() and A.Melee(2) in s.legal_actions()
    err = pytest.raises(IllegalActionError, s.apply, A.AffinityAttack(2)).value
    assert err.rule == "ruling 7 (affinity)" and "same element" in err.reason
    s2 = duel({"affinity": 0, "element": "water"}, {"element": "fire"}, ("c4", "N"), ("c3", "N"))
    assert A.AffinityAttack(2) not in s2.legal_actions()


def test_own_team_is_never_a_target():
    profiles = [profile(1, initiative=9), profile(2, initiative=1), profile(3, initiative=2)]
    s = start(profiles, [[1, 3], [2]], {1: ("c4", "N"), 3: ("c3", "S"), 2: ("e1", "S")}, rows=OPEN5)
    assert A.Melee(3) not in s.legal_actions()
    assert "own team" in pytest.raises(IllegalActionError, s.apply, A.Melee(3)).value.reason


def test_melee_or_affinity_not_both():
    s = duel(
        {"affinity": 2, "element": "water"},
        {"element": "fire", "life": 20},
        ("c4", "N"),
        ("c3", "N"),
    )
    s.apply(A.AffinityAttack(2))
    for _ in range(s.attack["dice"]):
        s.apply(A.HitDie(5))
    assert s.phase == "rest"
    assert not [a for a in s.legal_actions() if a.kind in ("melee", "affinity")]
    assert (
        "one melee OR affinity"
        in pytest.raises(IllegalActionError, s.apply, A.Melee(2)).value.reason
    )
