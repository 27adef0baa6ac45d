"""Ruling 4: a turn: challenge a neighbour, maybe after moving over free fields."""

from __future__ import annotations

import pytest
from kdg_helpers import kinds, play, position_game, team

from companion.games.kampf_der_gladiatoren import IllegalActionError
from companion.games.kampf_der_gladiatoren import actions as A

# default arena (honeycomb):      A B C
#                                D E F G
#                                 H I J
#                                K L M N
#                                 O P Q


def challenges(state) -> set[str]:
    return {a.notation for a in state.legal_actions()}


def test_a_team_must_challenge_an_adjacent_enemy_team_or_animal():
    state = position_game(
        [
            team("R spear sword sword shield", "E"),
            team("R sword", "F"),
            team("Y sword sword sword sword", "I"),
            team("Y net", "Q"),
        ],
        [{"animal": "lion", "field": "A"}],
    )
    assert state.phase == "turn" and state.current_player == 0
    # E (4 gladiators, enemies next to it) may not move: it challenges I or the lion on A;
    # F (1 gladiator) may move; its own neighbour E is never a target
    legal = challenges(state)
    assert {"challenge E I", "challenge E A"} <= legal
    assert not any(n.startswith("challenge E>") for n in legal)
    assert "challenge E F" not in legal and "challenge F E" not in legal
    with pytest.raises(IllegalActionError) as err:
        play(state, "challenge E F")
    assert err.value.rule == "rule 4 (a turn)" and "own teams" in err.value.reason
    with pytest.raises(IllegalActionError, match="may not move"):
        play(state, "challenge E>H L")
    with pytest.raises(IllegalActionError, match="not next to"):
        play(state, "challenge E Q")


def test_a_team_with_three_or_fewer_gladiators_may_move_first():
    state = position_game(
        [team("R spear sword sword", "E"), team("Y sword", "I"), team("Y net", "Q")]
    )
    legal = challenges(state)
    assert "challenge E I" in legal
    assert "challenge E>H I" in legal  # moved next to I again
    assert "challenge E>P Q" in legal  # far away, over free fields
    events = play(state, "challenge E>P Q")
    assert kinds(events)[:2] == ["moved", "challenged"]
    assert state.board[state.arena.index("E")] is None
    assert state.team_at(state.arena.index("P")).owner == 0


def test_a_team_without_enemy_or_animal_neighbours_may_move_even_with_four():
    # ruling 4a: own teams next to it do not stop it (French text: "ni équipe adverse")
    state = position_game(
        [
            team("R sword sword sword sword", "A"),
            team("R net", "B"),
            team("Y sword", "Q"),
            team("Y net", "O"),
        ]
    )
    legal = challenges(state)
    assert "challenge A>H L" not in legal  # L is empty: it must stop where it can challenge
    assert {"challenge A>M Q", "challenge A>L O", "challenge A>P O"} <= legal


def test_movement_never_jumps_and_stops_where_it_can_challenge():
    # red on A is walled in by its own team on B and the yellow team on D and E
    state = position_game(
        [
            team("R sword", "A"),
            team("R sword sword sword sword", "B"),
            team("Y sword sword sword sword", "D"),
            team("Y sword sword sword sword", "E"),
            team("Y net", "Q"),
        ]
    )
    legal = {a for a in state.legal_actions() if a.team == "A"}
    assert {a.notation for a in legal} == {"challenge A D", "challenge A E"}
    with pytest.raises(IllegalActionError, match="over free fields"):
        play(state, "challenge A>H I")
    # every offered move ends next to a target
    state = position_game([team("R sword", "A"), team("Y net", "Q")])
    for action in state.legal_actions():
        assert state.arena.index(action.target) in state.adj[state.arena.index(action.to)]
        assert state.board[state.arena.index(action.to)] is None or action.to == action.team


def test_play_passes_clockwise_and_teams_may_fight_again():
    state = position_game(
        [team("R sword", "E"), team("Y sword", "F"), team("B sword", "Q")], players=3, active=2
    )
    assert state.current_player == 2
    state.apply(state.legal_actions()[0])
    while state.combat is not None:
        state.apply(
            state.chance_outcomes()[0][0]
            if state.is_chance_node  # blanks
            else state.legal_actions()[0]
        )
    assert state.active == 0 and state.turn == 2
    assert "challenge E F" in challenges(state)


def test_a_player_who_cannot_challenge_passes():
    # the arena is full of teams; red has no gladiators and no animal can come on
    fields = "ABCDEFGHIJKLMNOPQ"
    teams = [team(f"{'YB'[i % 2]} sword", f) for i, f in enumerate(fields)]
    state = position_game(teams, players=3, active=0)
    assert state.active == 1 and state.turn == 2
    assert kinds(state._events)[:3] == ["setup", "turn_started", "turn_passed"]


def test_a_round_in_which_nobody_can_challenge_ends_the_game(monkeypatch):
    from companion.games.kampf_der_gladiatoren.state import GladiatorenState

    monkeypatch.setattr(GladiatorenState, "_turn_actions", lambda self, seat: [])
    state = position_game([team("R sword", "E"), team("Y sword sword", "Q")])
    assert state.is_terminal and state.end_reason == "nobody can challenge any more"
    assert state.scores() == [1, 2] and state.winners == [1]


def test_challenge_notation():
    assert A.Challenge("E", "H", "L").notation == "challenge E>H L"
    assert A.Challenge("E", "E", "L").notation == "challenge E L"
