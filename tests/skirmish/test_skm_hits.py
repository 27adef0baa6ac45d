"""Ruling 8: every die hits; the face picks the place; thresholds; values at 0; removal.
Exact damage odds agree with brute force over every roll."""

import itertools
from fractions import Fraction

import pytest
from skm_helpers import profile, resolve_ties, roll, start

from companion.games.arena_skirmish import actions as A
from companion.games.arena_skirmish.combat import (
    FACE_LOCATION,
    Stats,
    damage_distribution,
    location_outcomes,
    resolve_hits,
)

FULL = Stats(life=6, movement=4, attack=3, affinity=2)


def test_faces_pick_the_place():
    assert FACE_LOCATION == {1: "head", 2: "body", 3: "body", 4: "arms", 5: "legs", 6: "legs"}


@pytest.mark.parametrize(
    ("faces", "after"),
    [
        ((2,), Stats(5, 4, 3, 2)),
        ((3, 3, 2), Stats(3, 4, 3, 2)),  # -1 life per body die
        ((5,), Stats(6, 3, 3, 2)),
        ((5, 6, 6), Stats(6, 1, 3, 2)),  # -1 movement per leg die
        ((1, 1), Stats(6, 4, 3, 2)),  # fewer than three head dice: nothing
        ((1, 1, 1), Stats(6, 4, 3, 1)),  # three: -1 affinity
        ((1, 1, 1, 1, 1, 1), Stats(6, 4, 3, 1)),  # six: still once
        ((4, 4), Stats(6, 4, 3, 2)),
        ((4, 4, 4), Stats(6, 4, 2, 2)),  # three arm dice: -1 attack
        ((4, 4, 4, 4, 4, 4, 4), Stats(6, 4, 2, 2)),
        ((1, 2, 3, 4, 5, 6), Stats(4, 2, 3, 2)),
    ],
)
def test_hit_locations(faces, after):
    assert resolve_hits(FULL, faces).after == after


def test_a_hit_on_a_value_at_zero_goes_to_the_body():
    zero = Stats(life=9, movement=0, attack=0, affinity=0)
    r = resolve_hits(zero, (1, 4, 5, 6))
    assert r.after == Stats(5, 0, 0, 0) and r.to_body == 4
    # legs die by die: movement 1 and three leg dice -> -1 movement, two to the body
    r = resolve_hits(Stats(9, 1, 2, 2), (5, 5, 6))
    assert r.after == Stats(7, 0, 2, 2) and r.to_body == 2
    # head and arms: the value before the attack counts (1 -> 0 is no body hit)
    r = resolve_hits(Stats(9, 4, 1, 1), (1, 1, 1, 4, 4, 4))
    assert r.after == Stats(9, 4, 0, 0) and r.to_body == 0
    # a value at 0 sends every head/arm die to the body, even fewer than three
    r = resolve_hits(Stats(9, 4, 0, 2), (4,))
    assert r.after == Stats(8, 4, 0, 2)


def test_life_zero_removes():
    r = resolve_hits(Stats(2, 4, 3, 2), (2, 3, 2))
    assert r.removed and r.after.life == 0


def test_distribution_sums_to_one_and_matches_brute_force():
    for stats in (FULL, Stats(2, 1, 0, 1), Stats(1, 0, 0, 0), Stats(3, 2, 1, 0)):
        for dice in range(0, 5):
            dist = damage_distribution(stats, dice)
            assert sum(dist.life_lost.values()) == 1
            assert sum(dist.movement_lost.values()) == 1
            life: dict[int, Fraction] = {}
            removed = Fraction(0)
            p = Fraction(1, 6**dice)
            for faces in itertools.product(range(1, 7), repeat=dice):
                r = resolve_hits(stats, faces)
                life[r.life_lost] = life.get(r.life_lost, Fraction(0)) + p
                removed += p if r.removed else 0
            assert {k: v for k, v in dist.life_lost.items() if v} == life
            assert dist.removed == removed


def test_known_odds():
    one = damage_distribution(Stats(1, 4, 3, 2), 1)
    assert one.removed == Fraction(1, 3)  # a body die
    at_zero = damage_distribution(Stats(1, 0, 0, 0), 1)
    assert at_zero.removed == 1  # every place is at 0: every die goes to the body
    three = damage_distribution(FULL, 3)
    assert three.affinity_lost == Fraction(1, 216) and three.attack_lost == Fraction(1, 216)
    assert sum(p for _, p in location_outcomes(7)) == 1


def test_in_game_hits_apply_and_removal_is_immediate():
    profiles = [
        profile(1, initiative=9, attack=3),
        profile(2, initiative=5, life=2),
        profile(3, initiative=1),
    ]
    s = start(profiles, [[1], [2, 3]], {1: ("c4", "N"), 2: ("c3", "N"), 3: ("e1", "S")})
    s.apply(A.Melee(2))
    assert s.phase == "hit"
    dice = s.attack["dice"]
    assert dice == 3 + 2  # from behind
    outcomes = s.chance_outcomes()
    assert [a.face for a, _ in outcomes] == [1, 2, 3, 4, 5, 6]
    assert all(p == Fraction(1, 6) for _, p in outcomes)
    events = roll(s, 2, 3, 5, 5, 1)
    kinds = [e.kind for e in events]
    assert "hits_resolved" in kinds and "gladiator_removed" in kinds
    g = s.gladiators[2]
    assert not g.alive and g.cell is None and s.occupant[s.map.cell_of("c3")] == -1
    assert s.phase == "rest"
    s.apply(A.EndActivation())
    resolve_ties(s)
    assert s.active_gladiator == 3  # the removed gladiator (initiative 5) never acts


def test_dice_counts_are_one_chance_node_per_die():
    profiles = [profile(1, initiative=9, attack=2), profile(2, initiative=1, life=9)]
    s = start(profiles, [[1], [2]], {1: ("c4", "N"), 2: ("c3", "S")})
    s.apply(A.Melee(2))
    assert s.attack["dice"] == 2
    s.apply(A.HitDie(4))
    assert s.is_chance_node and s.attack["faces"] == [4]
    s.apply(A.HitDie(4))
    assert not s.is_chance_node and s.gladiators[2].attack == 2  # two arm dice: nothing
