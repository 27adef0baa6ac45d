"""Ruling 2: entry into the arena (Der Einzug in die Arena)."""

from __future__ import annotations

import pytest
from kdg_helpers import kinds, play

from companion.games.kampf_der_gladiatoren import (
    GladiatorenConfig,
    IllegalActionError,
    new_game,
)
from companion.games.kampf_der_gladiatoren import actions as A


def test_oldest_player_first_then_clockwise_and_first_round_is_new_carriers():
    state = new_game(GladiatorenConfig(players=3, start_player=1))
    assert state.phase == "entry" and state.current_player == 1
    assert {a.kind for a in state.legal_actions()} == {"carrier"}  # no carrier yet: place one
    play(state, "carrier A spear")
    assert state.current_player == 2
    play(state, "carrier Q net")
    assert state.current_player == 0
    play(state, "carrier I sword")
    assert state.current_player == 1
    # from the second round: add to a carrier or place a new one
    assert {a.kind for a in state.legal_actions()} == {"carrier", "add"}
    play(state, "add A sword")
    team = state.team_at(state.arena.index("A"))
    assert team.owner == 1 and team.active == [1, 0, 1, 0, 0]


def test_new_carrier_not_next_to_an_own_carrier_while_other_free_fields_exist():
    state = new_game(GladiatorenConfig(players=2))
    play(state, "carrier E sword", "carrier Q sword")
    fields = {a.field for a in state.legal_actions() if isinstance(a, A.PlaceCarrier)}
    assert fields.isdisjoint({"A", "B", "D", "F", "H", "I"})  # E's neighbours
    assert "C" in fields and "E" not in fields
    with pytest.raises(IllegalActionError) as err:
        play(state, "carrier F sword")
    assert err.value.rule == "rule 2 (entry)" and "next to an own carrier" in err.value.reason


def test_when_only_fields_next_to_own_carriers_are_free_they_may_be_used():
    state = new_game(GladiatorenConfig(players=2))
    # fill the arena by hand except the neighbours of red's carrier on E
    play(state, "carrier E sword")
    free = {"A", "B", "D", "F", "H", "I"}
    for f in state.field_ids:
        if f not in free and f != "E":
            state.board[state.arena.index(f)] = ("animal", 0)
    state._legal = None
    state.entry_seat = 0
    state._legal = None
    fields = {a.field for a in state.legal_actions() if isinstance(a, A.PlaceCarrier)}
    assert fields == free


def test_empty_piles_narrow_the_choice():
    state = new_game(GladiatorenConfig(players=2))
    state.supply = [0, 0, 3, 0, 1]
    state._legal = None
    assert {a.gladiator for a in state.legal_actions()} == {"sword", "shield"}
    with pytest.raises(IllegalActionError, match="pile is empty"):
        play(state, "carrier A net")


def test_full_carrier_cannot_take_more_and_a_full_player_passes():
    state = new_game(GladiatorenConfig(players=2))
    state.carriers_left = [1, 4]
    play(state, "carrier A sword", "carrier Q sword")
    for _ in range(3):
        play(state, "add A sword")
        assert state.current_player == 1
        play(state, "add Q sword")
    # red: one carrier, full: every turn now passes to yellow
    assert state.current_player == 1
    events = play(state, "carrier C sword")
    assert "entry_passed" in kinds(events) and state.current_player == 1
    with pytest.raises(IllegalActionError):
        state.apply(A.AddGladiator("A", "sword"))


def test_entry_ends_when_all_carriers_are_full_and_the_rest_goes_to_the_box():
    state = new_game(GladiatorenConfig(players=5))
    while state.phase == "entry":
        state.apply(state.legal_actions()[0])
    assert len(state.teams) == 15 and all(t.size == 4 for t in state.teams.values())
    assert sum(state.supply) == 0 and sum(state.box) == 0  # 5 x 3 x 4 = all 60 gladiators
    state = new_game(GladiatorenConfig(players=2))
    while state.phase == "entry":
        state.apply(state.legal_actions()[-1])
    assert len(state.teams) == 8 and sum(state.box) == 60 - 32
    assert state.phase == "draw_animal"
