"""Rulings 7-10: Battle Royale, move Eliminator, explosion, free choice."""

import pytest
from br_helpers import count, game, kinds, play, set_position, to_doom_roll

from companion.games.battle_royale import IllegalActionError
from companion.games.battle_royale.actions import Capture, ChooseAction, MoveEliminator
from companion.games.battle_royale.layout import CENTRE, parse_field

BACKGROUND = {"e3": "P1 G1 T1 R1"}  # keeps every colour in the arena, a tie: no battle


def doom_state(spec, players=4, layout="first-game"):
    s = game(players, layout=layout)
    set_position(s, {**BACKGROUND, **spec} if players == 4 else spec)
    to_doom_roll(s)
    return s


def prisoners_of(state, seat):
    return {state.colours[k]: n for k, n in enumerate(state.prisoners[seat]) if n}


def test_rulebook_majority_example_one():
    """Purple 3, grey 2, turquoise 1: purple captures grey or turquoise."""
    s = doom_state({"b2": "P3 G2 T1"})
    play(s, "roll battle_royale")
    assert s.phase == "capture" and s.current_player == 0
    assert set(s.legal_actions()) == {Capture("grey"), Capture("turquoise")}
    play(s, "capture turquoise")
    assert prisoners_of(s, 0) == {"turquoise": 1}
    assert count(s, "b2", "T") == 0


def test_rulebook_majority_example_two():
    """Turquoise and grey 2 each, purple and red 1: each majority captures one figure."""
    s = doom_state({"b2": "T2 G2 P1 R1"})
    play(s, "roll battle_royale")
    # seat order from the active player (purple, seat 0): grey (1) then turquoise (2)
    assert s.current_player == 1
    play(s, "capture red")
    # only purple is left for turquoise: no choice to make
    assert prisoners_of(s, 1) == {"red": 1} and prisoners_of(s, 2) == {"purple": 1}
    assert s.phase != "capture"


def test_rulebook_tie_example_nothing_happens():
    """Purple, grey and red 1 each (turquoise 0): no winner."""
    s = doom_state({"b2": "P1 G1 R1"})
    events = play(s, "roll battle_royale")
    assert "captured" not in kinds(events)
    assert s.phase == "turn_start" and s.active == 1


def test_special_case_the_majority_closest_clockwise_to_the_active_player_captures():
    s = doom_state({"b2": "G2 R2 P1"})
    play(s, "roll battle_royale")
    # active purple (0): grey (1) sits closer clockwise than red (3)
    assert prisoners_of(s, 1) == {"purple": 1} and prisoners_of(s, 3) == {}


def test_active_player_in_the_majority_captures_first():
    s = doom_state({"b2": "P2 R2 G1"})
    play(s, "roll battle_royale")
    assert prisoners_of(s, 0) == {"grey": 1} and prisoners_of(s, 3) == {}


def test_one_colour_alone_and_the_centre_never_battle():
    s = doom_state({"b2": "P3", "c3": "P3 G1"})
    events = play(s, "roll battle_royale")
    assert "captured" not in kinds(events)


def test_fields_are_resolved_in_reading_order():
    s = doom_state({"d4": "P2 G1", "b2": "R2 T1", "d2": "G2 P1"})
    events = play(s, "roll battle_royale")
    fields = [e.data["field"] for e in events if e.kind == "captured"]
    assert fields == ["b2", "d2", "d4"]


def test_move_eliminator_one_position_in_eight_directions_not_under_a_hole():
    s = doom_state({})
    play(s, "roll move_eliminator")
    targets = {a.position for a in s.legal_actions()}
    assert targets == {parse_field(n) for n in ("b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4")}
    play(s, "eliminator b2")
    s2 = doom_state({})
    s2.eliminator = parse_field("b2")
    play(s2, "roll move_eliminator")
    targets = {a.position for a in s2.legal_actions()}
    assert parse_field("a1") not in targets  # a hole in the first-game layout
    assert CENTRE in targets  # under the centre is allowed
    with pytest.raises(IllegalActionError, match="not under a hole") as err:
        play(s2, "eliminator a1")
    assert err.value.rule == "rule 8 (move Eliminator)"


def test_move_eliminator_with_no_field_around_does_nothing():
    s = game(4, layout="cross")
    set_position(s, {"e3": "P1 G1 T1 R1"})
    s.eliminator = parse_field("a1")  # a hole; b1, a2 and b2 around it
    s.present[parse_field("b1")] = s.present[parse_field("a2")] = False
    s.present[parse_field("b2")] = False
    to_doom_roll(s)
    events = play(s, "roll move_eliminator")
    assert "nothing_happens" in kinds(events) and s.phase == "turn_start"


def test_explosion_under_the_centre_becomes_move_eliminator():
    s = doom_state({})
    events = play(s, "roll explosion")
    assert "field_exploded" not in kinds(events)
    assert s.phase == "move_eliminator"


def test_explosion_under_a_hole_becomes_move_eliminator():
    s = doom_state({})
    s.eliminator = parse_field("a1")
    play(s, "roll explosion")
    assert s.phase == "move_eliminator"
    assert MoveEliminator(parse_field("b2")) in s.legal_actions()


LINE = "#....\n##...\n.#C..\n.....\n....."  # a1 - a2 - b2 - b3 - c3


def test_explosion_removes_the_field_to_the_box_and_loose_fields_collapse():
    s = game(4, layout=LINE)
    set_position(s, {"a1": "G1", "a2": "T1", "b2": "P2 R1", "b3": "R1", "c3": "P1 G1 T1 R1"})
    s.eliminator = parse_field("b2")
    to_doom_roll(s)
    events = play(s, "roll explosion")
    assert kinds(events)[1:4] == ["explosion_armed", "field_exploded", "fields_collapsed"]
    collapsed = next(e for e in events if e.kind == "fields_collapsed")
    assert collapsed.data["fields"] == ["a1", "a2"]
    assert s.fields() == [parse_field("b3"), CENTRE]
    assert s.box == [2, 1, 1, 1]  # box, not prisoners
    assert all(s.prisoner_total(seat) == 0 for seat in range(4))
    assert s.eliminator == parse_field("b2")  # stays, now under a hole
    assert s.phase == "blast"  # players report figures knocked off elsewhere


def test_explosion_that_leaves_every_figure_on_the_centre_ends_the_game():
    s = game(4, layout=LINE)
    set_position(s, {"b2": "P2 R1", "c3": "P1 G2 T1 R1"})
    s.eliminator = parse_field("b2")
    to_doom_roll(s)
    events = play(s, "roll explosion")
    assert s.is_terminal and s.winners == [1]  # grey has most figures on the centre
    assert "every figure left stands on the centre" in events[-1].text


def test_blast_corrections_then_play_goes_on():
    s = game(4)
    set_position(s, {"b2": "P1", "d4": "P2 G1 T1 R1", "c3": "G1 T1 R1"})
    s.eliminator = parse_field("b2")
    to_doom_roll(s)
    play(s, "roll explosion")
    play(s, "knockoff d4 purple", "shift d4 grey d3", "done")
    assert count(s, "d4", "P") == 1 and count(s, "d3", "G") == 1
    assert s.box[0] == 2
    assert s.phase == "turn_start" and s.active == 1


def test_free_choice_offers_the_three_actions():
    s = doom_state({})
    play(s, "roll free_choice")
    assert set(s.legal_actions()) == {
        ChooseAction("battle_royale"),
        ChooseAction("move_eliminator"),
        ChooseAction("explosion"),
    }
    play(s, "choose move_eliminator")
    assert s.phase == "move_eliminator"


def test_doom_roll_is_a_chance_node_with_the_die_probabilities():
    s = doom_state({})
    outcomes = {a.face: p for a, p in s.chance_outcomes()}
    assert outcomes == s.config.doom_distribution()
    assert sum(outcomes.values()) == 1
