"""Ruling 6: combat against an animal, and the rulebook's example Red vs the lion."""

from __future__ import annotations

import pytest
from kdg_helpers import first, kinds, play, position_game, team

from companion.games.kampf_der_gladiatoren import IllegalActionError
from companion.games.kampf_der_gladiatoren.rules import KINDS

# The rulebook's Red: a net ("Seinen Netzwerfer darf er gegen ein Tier nicht einsetzen"),
# 2 swords ("Er nimmt 3 Würfel") and a trident ("Er wählt den Zweizackträger"); the lion has
# "einen Zweizack mehr als das Team": 2 tridents (ruling 6c).
RED = "R net sword sword trident"


def lion_game(red: str = RED, lion_stars: int = 0, players: int = 2):
    teams = [team(red, "E"), team("Y sword", "Q")]
    if players == 3:
        teams.append(team("B sword", "O"))
    return position_game(
        teams, [{"animal": "lion", "field": "F", "stars": lion_stars}], players=players
    )


def lion(state) -> int:
    return state.animal_index("lion")


def glad(*names: str) -> list[int]:
    return [names.count(k) for k in KINDS]


@pytest.mark.parametrize("roll", ["roll 1 0 2", "roll 1 1 1"])
def test_rulebook_example_red_challenges_the_lion(roll):
    """ "Beispiel: Rot fordert den Löwen zum Kampf": a double star defeats the lion."""
    state = lion_game()
    events = play(state, "challenge E F")
    # no spear on either side: the challenger rolls first; no nets against animals
    assert first(events, "first_roller").data["side"] == 0
    assert "neutralised" not in kinds(events) and state.phase == "roll"
    assert first(events, "strike").data == {"side": 0, "dice": 3}
    events = play(state, roll)
    assert first(events, "hit_stars").data["added"] == 2  # a double star is 2 hit stars
    if roll == "roll 1 1 1":
        assert first(events, "shields").data["cancelled"] == 1  # the shield stops the single
    assert first(events, "animal_defeated").data == {"animal": "lion", "field": "F", "to": 0}
    assert state.stable_animals(0) == ["lion"] and state.score(0) == 2
    assert state.animal_stars[lion(state)] == 0  # the stars go back to the supply
    assert first(events, "victor_moved").data == {"from": "E", "to": "F"}  # French text
    assert not [e for e in events if e.kind == "strike" and e.data["side"] == 1]
    assert state.phase == "turn" and state.active == 1


def test_rulebook_example_the_same_with_another_roll():
    """ "Das gleiche Beispiel mit einem anderen Würfelwurf", replayed as printed: Red (one
    trident) cannot reroll, the lion (2 tridents, one more) can; Red gives up the trident."""
    state = lion_game()
    box = list(state.box)
    play(state, "challenge E F")
    events = play(state, "roll 0 2 1")  # no reroll for Red: 1 trident against the lion's 2
    assert state.phase != "reroll" and first(events, "shields").data["cancelled"] == 1
    assert state.animal_stars[lion(state)] == 1  # 1 star: the lion fights back
    assert first(events, "strike").data == {"side": 1, "dice": 1}  # 1 sword, no base die
    events = play(state, "roll 0 0 1")  # a miss, but the lion has more tridents
    assert state.phase == "reroll"
    # the companion rolls for the lion; the reroll is decided by the seat acting for it,
    # the challenger's left neighbour
    assert state.current_player == 1
    play(state, "reroll")
    events = play(state, "roll 1 0 0")  # a double star: "Rot verliert sofort einen"
    assert state.phase == "give_up" and state.current_player == 0
    events = play(state, "give trident")  # "Er wählt den Zweizackträger"
    lost = first(events, "gladiator_lost")
    assert lost.data["to"] == "box" and lost.data["taker"] is None  # the lion takes nobody
    assert [b - a for a, b in zip(box, state.box, strict=True)] == glad("trident")
    assert state.stables == [glad(), glad()]
    assert state.animal_stars[lion(state)] == 1  # the star stays on the lion's field
    assert "combat_ended" in kinds(events)


def test_hit_stars_on_an_animal_stay_until_it_is_defeated_and_the_final_hit_scores():
    state = lion_game(players=3, lion_stars=1)
    state.active = 1
    state._legal = None
    # yellow's lone sword on Q walks to the lion and deals the last hit
    events = play(state, "challenge Q>J F", "roll 0 1 1")
    assert first(events, "shields").data["cancelled"] == 1
    assert state.animal_stars[lion(state)] == 1 and state.combat.striker == 1
    play(state, "roll 0 0 1", "keep")
    state.active, state.phase = 1, "turn"
    state._legal = None
    events = play(state, "challenge J F", "roll 0 2 0")
    assert first(events, "animal_defeated").data["to"] == 1
    assert state.stable_animals(1) == ["lion"] and state.scores()[1] == 2


def test_the_animals_symbols_count_like_gladiators():
    # the tiger (default data: 1 spear, 2 swords) rolls first against a team without spears
    state = position_game(
        [team(RED, "E"), team("Y sword", "Q")], [{"animal": "tiger", "field": "F"}]
    )
    events = play(state, "challenge E F")
    assert first(events, "first_roller").data["side"] == 1
    assert first(events, "strike").data == {"side": 1, "dice": 2}
    # a team's spears against the animal's
    state = position_game(
        [team("R spear spear sword", "E"), team("Y sword", "Q")],
        [{"animal": "tiger", "field": "F"}],
    )
    assert first(play(state, "challenge E F"), "first_roller").data["side"] == 0


def test_an_animal_that_takes_the_last_gladiator_moves_into_the_field():
    state = lion_game(red="R sword", players=3)
    box = list(state.box)
    play(state, "challenge E F", "roll 0 0 2", "roll 0 0 1")
    assert state.phase == "reroll"
    events = play(state, "reroll", "roll 1 0 0")
    assert "team_wiped" in kinds(events)
    assert first(events, "victor_moved").data == {"from": "F", "to": "E"}
    assert state.animal_field[lion(state)] == state.arena.index("E")
    assert [b - a for a, b in zip(box, state.box, strict=True)] == glad("sword")


# --- ruling 6a: who acts for the animal ---------------------------------------------------


def test_the_challenger_names_who_acts_for_the_animal_ruling_6a():
    """ "der Spieler benennt einen Mitspieler, der für das Tier handelt": Red names Blue (seat
    2), who then decides the lion's reroll; without a name the left neighbour acts."""
    state = lion_game(players=3)
    legal = {a.notation for a in state.legal_actions()}
    assert {"challenge E F", "challenge E F for 2"} <= legal  # default and the other player
    assert "challenge E F for 0" not in legal and "challenge E F for 1" not in legal
    play(state, "challenge E F for 2", "roll 0 0 3", "roll 0 0 1")  # both miss
    assert state.phase == "reroll" and state.current_player == 2 and state.combat.proxy == 2
    named = lion_game(players=3)
    play(named, "challenge E F", "roll 0 0 3", "roll 0 0 1")
    assert named.current_player == 1 and named.combat.proxy == 1  # the left neighbour


def test_naming_is_offered_only_when_the_animal_may_reroll_ruling_6a():
    """The lion's one choice is the reroll: against 2 tridents it has none, so nobody is
    named (the left neighbour stands in)."""
    state = lion_game("R net sword trident trident", players=3)
    assert [a.notation for a in state.legal_actions() if a.target == "F"] == ["challenge E F"]


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ("challenge E F for 0", "names a fellow player"),
        ("challenge E F for 7", "names a fellow player"),
        ("challenge E F for 1", "the left neighbour) acts for the animal anyway"),
    ],
)
def test_a_bad_name_is_refused_with_the_rule(move, words):
    state = lion_game(players=3)
    with pytest.raises(IllegalActionError) as info:
        play(state, move)
    assert info.value.rule == "rule 6 (animals)" and words in info.value.reason


def test_naming_for_an_animal_that_cannot_reroll_is_refused():
    state = lion_game("R net sword trident trident", players=3)
    with pytest.raises(IllegalActionError, match="never rerolls"):
        play(state, "challenge E F for 2")


def test_a_name_survives_the_journal_and_a_default_challenge_keeps_its_old_form():
    from companion.games.kampf_der_gladiatoren import action_from_dict, parse_action

    named = parse_action("challenge E>H F for 2")
    assert named.to_dict() == {
        "kind": "challenge",
        "team": "E",
        "to": "H",
        "target": "F",
        "proxy": 2,
    }
    assert action_from_dict(named.to_dict()) == named
    plain = parse_action("challenge E F")
    assert plain.to_dict() == {"kind": "challenge", "team": "E", "to": "E", "target": "F"}
    assert parse_action("animal lion E I for 1").proxy == 1
    assert action_from_dict({**plain.to_dict(), "proxy": None}) == plain
