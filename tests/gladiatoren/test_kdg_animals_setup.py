"""Ruling 3: the animals are shuffled, drawn in turn and placed until the arena is full."""

from __future__ import annotations

from fractions import Fraction

import pytest
from kdg_helpers import kinds, play

from companion.games.kampf_der_gladiatoren import (
    CHANCE,
    GladiatorenConfig,
    IllegalActionError,
    new_game,
)
from companion.games.kampf_der_gladiatoren import actions as A


def after_entry(players: int, start: int = 0):
    state = new_game(GladiatorenConfig(players=players, start_player=start))
    while state.phase == "entry":
        state.apply(state.legal_actions()[0])
    return state


def test_the_draw_is_a_uniform_chance_node_over_the_animals_left():
    state = after_entry(4)
    assert state.phase == "draw_animal" and state.current_player == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 12 and {p for _, p in outcomes} == {Fraction(1, 12)}
    play(state, "draw lion")
    assert state.phase == "place_animal"
    play(state, f"place {state.field_ids[state.free_fields()[0]]}")
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 11 and {p for _, p in outcomes} == {Fraction(1, 11)}
    assert "lion" not in {a.animal for a, _ in outcomes}
    with pytest.raises(IllegalActionError, match="not in the face-down stack"):
        play(state, "draw lion")


def test_players_place_in_turn_from_the_oldest_until_the_arena_is_full():
    state = after_entry(3, start=2)
    free = state.free_fields()
    assert len(free) == 17 - 12
    placers = []
    events = []
    while state.phase in ("draw_animal", "place_animal"):
        action = (
            state.chance_outcomes()[0][0] if state.is_chance_node else state.legal_actions()[-1]
        )
        events = state.apply(action)
        placers += [e.data["seat"] for e in events if e.kind == "animal_placed"]
    assert placers == [2, 0, 1, 2, 0]
    assert not state.free_fields()
    beside = [i for i, loc in enumerate(state.animal_loc) if loc == "beside"]
    assert len(beside) == 12 - 5
    assert state.phase == "turn" and state.active == 2 and state.turn == 1
    assert "animals_beside" in kinds(events)


def test_the_last_free_field_is_filled_without_a_question():
    state = after_entry(5)
    assert len(state.free_fields()) == 2
    play(state, "draw wolf")
    play(state, f"place {state.field_ids[state.free_fields()[0]]}")
    events = play(state, "draw tiger")
    assert "animal_placed" in kinds(events) and "animals_beside" in kinds(events)
    assert state.phase == "turn"
    assert sorted(
        state.animal_ids[i] for i, loc in enumerate(state.animal_loc) if loc == "board"
    ) == ["tiger", "wolf"]


def test_placing_needs_a_free_field():
    state = after_entry(2)
    play(state, "draw lion")
    taken = state.field_ids[next(t.field for t in state.teams.values())]
    with pytest.raises(IllegalActionError) as err:
        state.apply(A.PlaceAnimal(taken))
    assert err.value.rule == "rule 3 (animals)" and "not free" in err.value.reason
