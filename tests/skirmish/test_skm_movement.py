"""Ruling 5: movement points - forward steps, 90-degree turns, climbing, never diagonal or
through another gladiator; ruling 4: remaining movement after an attack costs double."""

import pytest
from skm_helpers import profile, roll, start

from companion.games.arena_skirmish import IllegalActionError
from companion.games.arena_skirmish import actions as A

# b2 level 1, b3 level 2, d2 blocked, d3 level 1; entrances c2 (A) and c3 (B)
ROWS = ["00000", "01A#0", "02B10", "00000", "00000"]


def game(placements, movement=4, **kw):
    profiles = [profile(1, initiative=9, movement=movement, **kw), profile(2, initiative=1)]
    return start(profiles, [[1], [2]], placements, rows=ROWS)


def test_a_step_forward_costs_one_point():
    s = game({1: ("c5", "N"), 2: ("e1", "S")})
    assert s.active_gladiator == 1 and s.points_left == 4
    events = s.apply(A.Step())
    assert s.gladiators[1].cell == s.map.cell_of("c4") and s.points_left == 3
    assert events[0].data["cost"] == 1


def test_each_90_degree_turn_costs_one_point_and_180_costs_two():
    s = game({1: ("c5", "N"), 2: ("e1", "S")})
    s.apply(A.TurnLeft())
    assert s.gladiators[1].facing == 3 and s.points_left == 3  # W
    s.apply(A.TurnLeft())
    assert s.gladiators[1].facing == 2 and s.points_left == 2  # S: 180 degrees for 2
    s.apply(A.TurnRight())
    assert s.gladiators[1].facing == 3 and s.points_left == 1


def test_a_step_up_or_down_one_level_costs_two_points():
    s = game({1: ("a2", "E"), 2: ("e1", "S")})
    s.apply(A.Step())  # a2 (0) -> b2 (1)
    assert s.map.name_of(s.gladiators[1].cell) == "b2" and s.points_left == 2
    s.apply(A.Step())  # b2 (1) -> c2 (0)
    assert s.map.name_of(s.gladiators[1].cell) == "c2" and s.points_left == 0


def test_more_than_one_level_is_impossible():
    s = game({1: ("a3", "E"), 2: ("e1", "S")})  # b3 is level 2
    assert A.Step() not in s.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        s.apply(A.Step())
    assert err.value.rule == "ruling 5 (movement)" and "2 levels up" in err.value.reason


def test_movement_one_never_climbs():
    s = game({1: ("a2", "E"), 2: ("e1", "S")}, movement=1)
    assert A.Step() not in s.legal_actions()
    assert "costs 2" in str(pytest.raises(IllegalActionError, s.apply, A.Step()).value)


def test_blocked_cells_and_the_map_edge_stop_a_step():
    s = game({1: ("c2", "E"), 2: ("e1", "S")})  # d2 is blocked
    assert A.Step() not in s.legal_actions()
    assert "blocked" in pytest.raises(IllegalActionError, s.apply, A.Step()).value.reason
    s2 = game({1: ("a1", "N"), 2: ("e1", "S")})
    assert A.Step() not in s2.legal_actions()
    assert "leaves the map" in pytest.raises(IllegalActionError, s2.apply, A.Step()).value.reason


@pytest.mark.parametrize("other_team", [True, False])
def test_never_through_another_gladiator(other_team):
    profiles = [profile(1, initiative=9), profile(2, initiative=1), profile(3, initiative=2)]
    teams = [[1], [2, 3]] if other_team else [[1, 3], [2]]
    s = start(profiles, teams, {1: ("c5", "N"), 2: ("e1", "S"), 3: ("c4", "E")}, rows=ROWS)
    assert A.Step() not in s.legal_actions()
    err = pytest.raises(IllegalActionError, s.apply, A.Step()).value
    assert "never through another gladiator" in err.reason


def test_steps_go_forward_only_never_diagonally():
    s = game({1: ("c5", "N"), 2: ("e1", "S")})
    kinds = {a.kind for a in s.legal_actions()}
    assert kinds <= {"step", "left", "right", "end", "combo", "melee", "affinity"}
    before = s.gladiators[1].cell
    s.apply(A.Step())
    assert s.map.direction_between(before, s.gladiators[1].cell) == 0  # straight north


def test_points_run_out():
    s = game({1: ("c5", "N"), 2: ("e1", "S")}, movement=2)
    s.apply(A.TurnLeft())
    s.apply(A.TurnRight())
    assert s.points_left == 0
    assert {a.kind for a in s.legal_actions()} == {"end", "combo"}
    assert "1 movement point" in str(pytest.raises(IllegalActionError, s.apply, A.TurnLeft()).value)


def test_remaining_movement_after_an_attack_costs_double():
    # 1 at c5 facing N, enemy 2 at c4 facing N (1 stands behind it)
    profiles = [profile(1, initiative=9, movement=6), profile(2, initiative=1, life=9)]
    s = start(profiles, [[1], [2]], {1: ("c5", "N"), 2: ("c4", "N")}, rows=ROWS)
    s.apply(A.TurnLeft())  # 1 point, 5 left; the target is now at 1's side
    s.apply(A.TurnRight())  # 4 left
    s.apply(A.Melee(2))
    roll(s, *([5] * s.attack["dice"]))  # legs only: the target stays
    assert s.phase == "rest" and s.points_left == 4
    s.apply(A.TurnLeft())  # a turn now costs 2
    assert s.points_left == 2
    s.apply(A.Step())  # c5 -> b5, flat: 2
    assert s.points_left == 0 and s.map.name_of(s.gladiators[1].cell) == "b5"
    assert A.Melee(2) not in s.legal_actions()  # one attack per activation


def test_climbing_in_remaining_movement_costs_four():
    profiles = [profile(1, initiative=9, movement=5), profile(2, initiative=1, life=9)]
    # 1 at a2 facing S, enemy at a1 behind it; after the strike, 1 turns E to climb b2
    s = start(profiles, [[1], [2]], {1: ("a2", "N"), 2: ("a1", "N")}, rows=ROWS)
    s.apply(A.Melee(2))
    roll(s, *([5] * s.attack["dice"]))
    s.apply(A.TurnRight())  # 2 points, 3 left
    assert s.points_left == 3 and A.Step() not in s.legal_actions()  # the climb needs 4
    err = pytest.raises(IllegalActionError, s.apply, A.Step()).value
    assert "costs 4" in err.reason
