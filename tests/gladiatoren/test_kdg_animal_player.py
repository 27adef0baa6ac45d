"""Ruling 7: a player without gladiators challenges with an animal (Ein Spieler hat keine
Gladiatoren mehr)."""

from __future__ import annotations

import pytest
from kdg_helpers import first, kinds, play, position_game, team

from companion.games.kampf_der_gladiatoren.rules import KINDS


def glad(*names: str) -> list[int]:
    return [names.count(k) for k in KINDS]


def no_gladiators(animals=None, **kw):
    """Red (seat 0) has no gladiators; yellow and blue have teams."""
    teams = [team("Y sword", "I"), team("Y sword", "K"), team("B sword sword", "Q")]
    animals = animals if animals is not None else [{"animal": "lion", "field": "E"}]
    return position_game(teams, animals, players=3, **kw)


def test_only_animal_challenges_are_offered():
    state = no_gladiators()
    legal = state.legal_actions()
    assert legal and {a.kind for a in legal} == {"animal"}
    notations = {a.notation for a in legal}
    assert "animal lion E I" in notations  # on the board, challenging a neighbour
    assert "animal lion H I" in notations  # moved over free fields first
    assert "animal wolf J I" in notations  # from beside the arena onto a free field
    assert not any(a.to == "E" and a.animal != "lion" for a in legal)  # E is taken
    from companion.games.kampf_der_gladiatoren import IllegalActionError

    with pytest.raises(IllegalActionError) as err:
        play(state, "challenge I E")
    assert "no gladiators left" in err.value.reason
    with pytest.raises(IllegalActionError, match="not next to"):
        play(state, "animal wolf A Q")


def test_a_beside_animal_goes_only_where_it_can_challenge():
    state = no_gladiators()
    for action in state.legal_actions():
        field = state.arena.index(action.to)
        assert state.arena.index(action.target) in state.adj[field]


def test_what_the_animal_defeats_scores_for_the_player_and_the_animal_stays_unowned():
    state = no_gladiators()
    events = play(state, "animal lion E I")
    assert first(events, "challenged").data["seat"] == 0
    play(state, "roll 1 0 0", "keep")  # the lion's double star: yellow's only gladiator
    assert state.stables[0] == glad("sword")  # the gladiator goes to red, not to the box
    lion = state.animal_index("lion")
    assert state.animal_owner[lion] is None and state.animal_loc[lion] == "board"
    assert state.animal_field[lion] == state.arena.index("I")  # it moved into the field
    # the lion belongs to nobody: on red's next turn it (or any other) may be chosen again
    assert state.active == 1
    assert {"lion", "wolf"} <= {a.animal for a in state._turn_actions(0)}


def test_the_controlling_player_decides_the_animals_reroll():
    state = no_gladiators()
    play(state, "animal lion E I", "roll 0 0 1")
    assert state.phase == "reroll" and state.current_player == 0  # red plays the lion


def test_an_animal_can_challenge_another_animal_and_score_it():
    state = no_gladiators([{"animal": "lion", "field": "E"}, {"animal": "wolf", "field": "A"}])
    events = play(state, "animal lion E A")
    # the wolf (1 spear in the default data) rolls first; its reroll is decided by the
    # challenger's left neighbour
    assert first(events, "first_roller").data["side"] == 1
    play(state, "roll 0 0 1", "roll 1 0 0", "keep")  # the lion's double: 2 hit stars
    wolf = state.animal_index("wolf")
    assert state.animal_owner[wolf] == 0 and state.stable_animals(0) == ["wolf"]
    assert state.score(0) == 2


def test_an_animal_defeated_by_an_unowned_animal_goes_to_the_box():
    state = no_gladiators([{"animal": "wolf", "field": "E"}, {"animal": "lion", "field": "A"}])
    play(state, "animal wolf E A")  # the wolf has the spear: it rolls first
    play(state, "roll 0 0 1", "roll 1 0 0")
    assert state.current_player == 1  # the unowned lion's choice: red's left neighbour
    events = play(state, "keep")
    assert first(events, "animal_defeated").data == {"animal": "wolf", "field": "E", "to": None}
    assert state.animal_loc[state.animal_index("wolf")] == "box"
    assert state.score(0) == 0


def test_a_team_that_defeats_a_played_animal_scores_it():
    state = no_gladiators()
    play(state, "animal lion E I", "roll 0 0 1", "keep")
    events = play(state, "roll 1 0 1")  # yellow strikes back: 2 hit stars, the lion is done
    assert first(events, "animal_defeated").data["to"] == 1
    assert state.stable_animals(1) == ["lion"]
    assert "victor_moved" in kinds(events)


def test_a_player_with_an_animal_names_who_acts_for_the_animal_it_challenges_ruling_6a():
    """The wolf (no trident) challenges the lion (2 tridents): Red names Blue (seat 2) to
    act for the lion, so Blue decides its reroll."""
    state = no_gladiators([{"animal": "wolf", "field": "E"}, {"animal": "lion", "field": "A"}])
    assert "animal wolf E A for 2" in {a.notation for a in state.legal_actions()}
    play(state, "animal wolf E A for 2", "roll 0 0 1", "roll 1 0 0")
    assert state.phase == "reroll" and state.current_player == 2
