"""Ruling 4: descending initiative with roll-offs for ties; movement, melee OR affinity,
remaining movement; victory checked after the round; stalemates; combo corrections."""

from fractions import Fraction

import pytest
from skm_helpers import profile, resolve_ties, roll, start

from companion.games.arena_skirmish import ConfigError, IllegalActionError, SkirmishConfig
from companion.games.arena_skirmish import actions as A

FAR = {1: ("a1", "S"), 2: ("e5", "N"), 3: ("a5", "N"), 4: ("e1", "S")}


def four(inis, **config):
    profiles = [profile(i + 1, initiative=ini) for i, ini in enumerate(inis)]
    return start(profiles, [[1, 3], [2, 4]], FAR, **config)


def test_descending_initiative():
    s = four([3, 8, 5, 1])
    order = []
    while s.round == 1:
        order.append(s.active_gladiator)
        assert s.current_player == s.gladiators[s.active_gladiator].owner
        s.apply(A.EndActivation())
    assert order == [2, 3, 1, 4]
    assert s.round == 2 and s.active_gladiator == 2


def test_ties_are_rolled_off_each_round():
    s = four([6, 6, 6, 1])
    assert s.phase == "tie_break" and s.tied == [1, 2, 3]
    assert [p for _, p in s.chance_outcomes()] == [Fraction(1, 3)] * 3
    s.apply(A.TieBreak(3))
    assert s.active_gladiator == 3
    s.apply(A.EndActivation())
    assert s.phase == "tie_break" and s.tied == [1, 2]
    s.apply(A.TieBreak(2))
    s.apply(A.EndActivation())
    assert s.active_gladiator == 1  # the last of the tie: no roll-off needed
    s.apply(A.EndActivation())
    s.apply(A.EndActivation())  # 4
    assert s.round == 2 and s.phase == "tie_break" and s.tied == [1, 2, 3]


def test_round_order_view():
    s = four([3, 8, 5, 1])
    s.apply(A.EndActivation())
    assert s.round_order() == [2, 3, 1, 4] and s.acted == [2]


def kill_setup(**config):
    # 1 (purple) strikes 2 (grey, life 1) from behind; 3 (grey) stands far away
    profiles = [
        profile(1, initiative=9, attack=2),
        profile(2, initiative=5, life=1),
        profile(3, initiative=1, movement=0),
    ]
    return start(
        profiles, [[1], [2, 3]], {1: ("c4", "N"), 2: ("c3", "N"), 3: ("e1", "S")}, **config
    )


def test_victory_is_checked_after_the_round():
    profiles = [profile(1, initiative=9, attack=2), profile(2, initiative=5, life=1)]
    s = start(profiles, [[1], [2]], {1: ("c4", "N"), 2: ("c3", "N")})
    s.apply(A.Melee(2))
    events = roll(s, *([2] * s.attack["dice"]))
    kinds = [e.kind for e in events]
    # the last enemy fell: nothing else can happen, so the round ends and victory is checked
    assert kinds[-3:] == ["activation_ended", "round_ended", "game_over"]
    assert s.is_terminal and s.winners == [0] and "only purple" in s.end_reason
    assert s.legal_actions() == []
    err = pytest.raises(IllegalActionError, s.apply, A.EndActivation()).value
    assert "game is over" in err.reason


def test_the_game_goes_on_while_two_players_stand():
    s = kill_setup()
    s.apply(A.Melee(2))
    roll(s, *([2] * s.attack["dice"]))
    assert not s.is_terminal and s.phase == "rest"
    s.apply(A.EndActivation())
    assert s.active_gladiator == 3
    s.apply(A.EndActivation())
    assert s.round == 2 and not s.is_terminal


def test_round_limit_ranks_by_points_standing():
    profiles = [
        profile(1, initiative=9, points=30),
        profile(2, initiative=5, points=20),
        profile(3, initiative=1, points=20),
    ]
    s = start(
        profiles, [[1], [2, 3]], {1: ("a1", "S"), 2: ("e5", "N"), 3: ("e1", "S")}, round_limit=2
    )
    for _ in range(6):
        s.apply(A.EndActivation())
    assert s.is_terminal and s.winners == [1] and "round 2 was the last" in s.end_reason


def test_points_victory_counts_removed_enemies():
    with pytest.raises(ConfigError, match="round_limit"):
        SkirmishConfig(victory="points")
    s = kill_setup(victory="points", round_limit=1)
    s.apply(A.Melee(2))
    roll(s, *([2] * s.attack["dice"]))
    assert s.scored == [10, 0]
    s.apply(A.EndActivation())
    s.apply(A.EndActivation())
    assert s.is_terminal and s.winners == [0] and "removed enemies" in s.end_reason


def test_stalemate_ends_the_game():
    # both movement 1 on a raised platform cell: every step off it is a climb (cost 2)
    rows = ["00000", "00A00", "01B00", "00000", "00010"]
    profiles = [
        profile(1, initiative=9, movement=1, points=20),
        profile(2, initiative=5, movement=1, points=10),
    ]
    s = start(profiles, [[1], [2]], {1: ("b3", "N"), 2: ("d5", "N")}, rows=rows)
    assert s.reach(1) == {s.map.cell_of("b3")}
    s.apply(A.EndActivation())
    s.apply(A.EndActivation())
    assert s.is_terminal and "can ever reach an enemy" in s.end_reason and s.winners == [0]


def test_no_stalemate_while_someone_can_still_walk_over():
    profiles = [profile(1, initiative=9, movement=2), profile(2, initiative=5, movement=0)]
    s = start(profiles, [[1], [2]], {1: ("a1", "S"), 2: ("e5", "N")})
    s.apply(A.EndActivation())
    s.apply(A.EndActivation())
    assert not s.is_terminal and s.round == 2


def test_combo_window_applies_profile_text_by_hand():
    s = kill_setup()
    s.apply(A.Combo())
    assert s.phase == "combo" and A.Done() in s.legal_actions()
    s.apply(A.Adjust(2, "life", -1))  # life 1 -> 0: removed
    assert not s.gladiators[2].alive
    s.apply(A.Adjust(1, "points", 1))
    s.apply(A.Done())
    assert s.phase == "move" and s.points_left == 5
    assert A.Adjust(1, "life", 1) not in s.legal_actions()
    err = pytest.raises(IllegalActionError, s.apply, A.Adjust(1, "life", 1)).value
    assert "combo window" in err.reason


def test_combo_removing_the_last_enemy_ends_the_game():
    profiles = [profile(1, initiative=9), profile(2, initiative=5, life=1)]
    s = start(profiles, [[1], [2]], {1: ("a1", "S"), 2: ("e5", "N")})
    s.apply(A.Combo())
    s.apply(A.Adjust(2, "life", -1))
    s.apply(A.Done())
    assert s.is_terminal and s.winners == [0]


def test_resolve_ties_helper_prefers():
    s = four([6, 6, 6, 1])
    resolve_ties(s, prefer=2)
    assert s.active_gladiator == 2
