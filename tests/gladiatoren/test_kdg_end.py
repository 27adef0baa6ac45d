"""Ruling 8: the end of the game and the scores."""

from __future__ import annotations

import pytest
from kdg_helpers import first, play, position_game, team

from companion.games.kampf_der_gladiatoren import TERMINAL, IllegalActionError
from companion.games.kampf_der_gladiatoren.data import default_data

ALL_BUT_LION = [{"animal": a.id, "by": 2} for a in default_data().animals if a.id != "lion"]


def test_the_game_ends_at_once_when_one_player_has_gladiators_left():
    state = position_game(
        [team("R sword sword", "E"), team("Y sword", "F"), team("B sword sword sword", "Q")],
        players=3,
        stables={"1": {"net": 3}},
    )
    events = play(state, "challenge E F", "roll 1 0 2")
    assert "team_wiped" in [e.kind for e in events]
    assert not state.is_terminal  # red and blue still have gladiators
    state = position_game(
        [team("R sword sword", "E"), team("Y sword", "F")],
        players=3,
        stables={"1": {"net": 3}, "2": {"spear": 1}},
    )
    events = play(state, "challenge E F", "roll 1 0 2")
    over = first(events, "game_over")
    assert state.is_terminal and state.current_player == TERMINAL
    assert state.legal_actions() == []
    # red adds its 2 survivors to the 1 gladiator it took: 3 points, yellow 3: a shared win
    assert state.scores() == [3, 3, 1] and state.winners == [0, 1]
    assert over.data["survivors"] == [2, 0, 0] and not state.teams
    assert "only red" in state.end_reason
    with pytest.raises(IllegalActionError) as err:
        play(state, "challenge F E")
    assert err.value.rule == "rule 8 (end of game)"


def test_the_game_ends_when_all_animals_are_defeated_and_everyone_collects():
    state = position_game(
        [team("R sword sword sword", "E"), team("Y sword sword", "Q"), team("B spear", "O")],
        [{"animal": "lion", "field": "F", "stars": 1}],
        players=3,
        defeated=ALL_BUT_LION,
    )
    events = play(state, "challenge E F", "roll 1 0 3")
    assert first(events, "animal_defeated").data["to"] == 0
    assert state.is_terminal and state.end_reason == "all 12 animals are defeated"
    assert state.survivors == [3, 2, 1]
    # red: 3 survivors + lion (2); yellow: 2; blue: 1 + 11 animals (22)
    assert state.scores() == [5, 2, 23] and state.winners == [2]


def test_scores_count_one_per_gladiator_and_two_per_animal():
    state = position_game(
        [team("R sword", "E"), team("Y sword", "F")],
        stables={"0": {"sword": 2, "net": 1}},
        defeated=[{"animal": "wolf", "by": 0}, {"animal": "bear", "by": None}],
    )
    assert state.score(0) == 3 + 2 and state.score(1) == 0
    assert state.animals_defeated() == 2


def test_a_position_with_one_player_left_is_over_at_once():
    state = position_game([team("R sword", "E")], [{"animal": "lion", "field": "F"}])
    assert state.is_terminal and state.scores() == [1, 0]
