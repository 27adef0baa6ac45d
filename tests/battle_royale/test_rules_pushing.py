"""Ruling 5: pushing on an overfull field, chains, out of the arena."""

import pytest
from br_helpers import count, game, kinds, play, set_hand, set_position

from companion.games.battle_royale import IllegalActionError
from companion.games.battle_royale.actions import Push


@pytest.fixture
def state():
    s = game(4)  # capacity 6
    set_hand(s, 0, ["2x2", "2x3", "3x2", "4x1"])
    return s


def test_rulebook_push_goes_on_in_the_direction_of_entry(state):
    set_position(state, {"b2": "P1", "c2": "P1 G2 T2 R1", "c3": "R1"})
    play(state, "play 2x2", "figure b2 purple", "step E", "stop")
    assert state.phase == "push"
    assert set(state.legal_actions()) == {
        Push("purple"),
        Push("grey"),
        Push("turquoise"),
        Push("red"),
    }
    events = play(state, "push grey")
    assert count(state, "c2", "G") == 1 and count(state, "d2", "G") == 1
    pushed = [e for e in events if e.kind == "figure_pushed"]
    assert pushed[0].data == {"colour": "grey", "from": "c2", "to": "d2", "fate": "field"}
    assert state.phase == "move"


def test_the_figure_that_just_arrived_is_not_pushed(state):
    set_position(state, {"b2": "P1", "c2": "G3 T3", "c3": "R1"})
    play(state, "play 2x2", "figure b2 purple", "step E", "stop")
    with pytest.raises(IllegalActionError, match="just arrived") as err:
        play(state, "push purple")
    assert err.value.rule == "rule 5 (pushing)"


def test_chain_reaction_in_the_same_direction(state):
    set_position(state, {"b2": "P1", "c2": "G3 T3", "d2": "G3 T3", "c3": "R1"})
    play(state, "play 2x2", "figure b2 purple", "step E", "stop", "push grey")
    # d2 now holds 7: push again, eastwards; the grey that arrived there is protected
    assert state.phase == "push"
    assert Push("grey") in state.legal_actions()  # one of the 3 grey already there
    play(state, "push turquoise")
    assert count(state, "e2", "T") == 1
    assert state.field_total(7) == 6 and state.field_total(8) == 6


def test_pushed_off_the_arena_becomes_a_prisoner(state):
    set_position(state, {"d2": "P1", "e2": "G3 T3", "c3": "R1"})
    events = play(state, "play 2x2", "figure d2 purple", "step E", "stop", "push grey")
    assert state.prisoners[0][state.colour_index("grey")] == 1
    assert events[-1].data["fate"] == "prisoner" and events[-1].data["to"] is None


def test_own_figure_pushed_out_becomes_the_pushers_prisoner_ruling_5a(state):
    """ "Nimm diese Figur zu dir und lege sie als Gefangenen vor dich." has no exception for
    one's own colour: an own figure pushed off the arena is a prisoner too, not boxed."""
    set_position(state, {"d2": "P1", "e2": "P3 G3", "c3": "R1 T1"})
    events = play(state, "play 2x2", "figure d2 purple", "step E", "stop", "push purple")
    assert state.prisoners[0][0] == 1 and state.prisoner_total(0) == 1
    assert state.box[0] == 0 and state.arena_total[0] == 3
    assert events[-1].data == {"colour": "purple", "from": "e2", "to": None, "fate": "prisoner"}


def test_own_figure_pushed_into_a_hole_becomes_the_pushers_prisoner_ruling_5a(state):
    set_position(state, {"a3": "P1", "a2": "P3 G3", "c3": "R1 T1"})  # a1 is a hole
    events = play(state, "play 2x2", "figure a3 purple", "step N", "stop", "push purple")
    assert "into the hole at a1 (prisoner)" in events[-1].text
    assert state.prisoners[0][0] == 1 and state.box[0] == 0


def test_pushed_into_a_hole_leaves_the_game(state):
    # first-game layout: a1 is a hole
    set_position(state, {"a3": "P1", "a2": "G3 T3", "c3": "R1"})
    events = play(state, "play 2x2", "figure a3 purple", "step N", "stop", "push turquoise")
    assert "into the hole at a1" in events[-1].text
    assert state.prisoners[0][state.colour_index("turquoise")] == 1


def test_a_single_colour_to_push_needs_no_choice(state):
    set_position(state, {"d2": "P1", "e2": "G6", "c3": "R1 T1"})
    events = play(state, "play 2x2", "figure d2 purple", "step E", "stop")
    assert "figure_pushed" in kinds(events)
    assert state.phase == "move"
    assert count(state, "e2", "G") == 5


def test_field_two_over_capacity_pushes_until_it_holds_the_maximum(state):
    set_position(state, {"d2": "P1", "e2": "G4 T4", "c3": "R1"})  # 8 after a blast
    play(state, "play 2x2", "figure d2 purple", "step E", "stop")
    play(state, "push grey", "push turquoise", "push grey")
    assert state.field_total(9) == 6
    assert state.prisoner_total(0) == 3
    assert state.phase == "move"


def test_passing_through_a_full_field_pushes_nothing(state):
    set_position(state, {"b2": "P1", "c2": "G3 T3", "c3": "R1"})
    play(state, "play 2x2", "figure b2 purple", "step E", "step E")
    assert count(state, "d2", "P") == 1 and state.field_total(7) == 6


def test_pushing_own_colour_pushes_an_unmoved_figure_which_may_still_move(state):
    """Rulings 4c and 5c."""
    set_hand(state, 0, ["3x2", "2x3", "2x2", "4x1"])
    set_position(state, {"b2": "P2", "c2": "P1 G2 T2 R1", "c3": "R1"})
    play(state, "play 3x2", "figure b2 purple", "step E", "stop", "push purple")
    assert count(state, "d2", "P") == 1
    # the pushed purple figure on d2 had not moved: it may move now
    play(state, "figure d2 purple", "step S", "stop")
    assert count(state, "d3", "P") == 1
