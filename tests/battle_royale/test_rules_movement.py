"""Ruling 4: movement, and ruling 6: cards after moving."""

from fractions import Fraction

import pytest
from br_helpers import count, draw_first, game, kinds, play, set_hand, set_position

from companion.games.battle_royale import IllegalActionError, parse_action
from companion.games.battle_royale.actions import StartFigure
from companion.games.battle_royale.layout import parse_field


@pytest.fixture
def state():
    s = game(4)
    set_position(s, {"b2": "P2", "c3": "G1 T1 R1", "d4": "P1 G1"})
    return s


def test_rulebook_three_step_example_turns_at_every_step(state):
    """'right, then straight ahead, then right again' with a 2 figures | 3 steps card."""
    set_hand(state, 0, ["2x3", "2x2", "3x2", "4x1"])
    events = play(state, "play 2x3", "figure b2 purple", "step E", "step N", "step E")
    # three steps used: the figure stops by itself on d1
    assert count(state, "d1", "P") == 1 and count(state, "b2", "P") == 1
    assert "figure_moved" in kinds(events)
    assert state.phase == "move" and state.figures_moved == 1


def test_two_by_two_card_moves_one_figure_two_and_another_one(state):
    set_hand(state, 0, ["2x2", "2x3", "3x2", "4x1"])
    play(state, "play 2x2", "figure b2 purple", "step E", "step E")
    play(state, "figure d4 purple", "step W", "stop")
    # both figures moved: movement ends by itself and a card is drawn
    assert state.phase == "draw_card"
    assert count(state, "d2", "P") == 1 and count(state, "c4", "P") == 1


def test_moving_no_figure_is_legal(state):
    set_hand(state, 0, ["2x2", "2x3", "3x2", "4x1"])
    play(state, "play 2x2", "end")
    assert state.phase == "draw_card"


def test_only_orthogonal_steps_without_a_diagonal_card(state):
    set_hand(state, 0, ["2x2", "2x3", "3x2", "4x1"])
    play(state, "play 2x2", "figure b2 purple")
    with pytest.raises(IllegalActionError, match="orthogonally") as err:
        play(state, "step SE")
    assert err.value.rule == "rule 4 (movement)"


def test_diagonal_card_allows_diagonal_steps(state):
    set_hand(state, 0, ["2x2-diagonal", "2x3", "3x2", "4x1"])
    play(state, "play 2x2-diagonal", "figure b2 purple", "step SE")
    assert count(state, "c3", "P") == 1


def test_never_onto_a_hole_or_off_the_arena():
    s = game(4)  # first-game layout: the corners are holes
    set_position(s, {"b1": "P1", "c1": "P1", "c3": "G1 T1 R1"})
    set_hand(s, 0, ["2x2", "2x3", "3x2", "4x1"])
    play(s, "play 2x2", "figure b1 purple")
    with pytest.raises(IllegalActionError, match="a1 is a hole"):
        play(s, "step W")
    with pytest.raises(IllegalActionError, match="leaves the arena"):
        play(s, "step N")


def test_a_figure_never_enters_a_field_twice_in_one_turn(state):
    set_hand(state, 0, ["2x3", "2x2", "3x2", "4x1"])
    play(state, "play 2x3", "figure b2 purple", "step E")
    with pytest.raises(IllegalActionError, match="already been on b2"):
        play(state, "step W")  # its start field counts


def test_steps_are_capped_by_the_card(state):
    set_hand(state, 0, ["4x1", "2x3", "3x2", "2x2"])
    play(state, "play 4x1", "figure b2 purple", "step E")
    assert state.phase == "move"  # one step: the figure stopped by itself


def test_figures_are_distinct(state):
    set_hand(state, 0, ["3x2", "2x3", "2x2", "4x1"])
    play(state, "play 3x2", "figure b2 purple", "step E", "stop")
    legal = state.legal_actions()
    assert StartFigure(parse_field("c2"), "purple") not in legal  # the moved one
    assert StartFigure(parse_field("b2"), "purple") in legal  # the other one on b2
    with pytest.raises(IllegalActionError, match="already moved"):
        play(state, "figure c2 purple")


def test_only_own_colour_without_an_any_colour_card(state):
    set_hand(state, 0, ["2x2", "2x3", "3x2", "1x3-any"])
    play(state, "play 2x2")
    with pytest.raises(IllegalActionError, match="moves only purple figures"):
        play(state, "figure c3 grey")


def test_any_colour_card_moves_other_colours(state):
    set_hand(state, 0, ["1x3-any", "2x3", "3x2", "2x2"])
    play(state, "play 1x3-any", "figure c3 grey", "step N", "stop")
    assert count(state, "c2", "G") == 1


def test_stop_needs_a_step(state):
    set_hand(state, 0, ["2x2", "2x3", "3x2", "4x1"])
    play(state, "play 2x2", "figure b2 purple")
    with pytest.raises(IllegalActionError, match="at least one step"):
        play(state, "stop")


def test_played_card_is_discarded_and_one_drawn(state):
    set_hand(state, 0, ["2x2", "2x3", "3x2", "4x1"])
    pile_before = dict(state.draw_piles[0])
    play(state, "play 2x2", "end")
    assert state.discards[0]["2x2"] == 1
    outcomes = state.chance_outcomes()
    total = sum(pile_before.values())
    assert {a.card: p for a, p in outcomes} == {
        c: Fraction(n, total) for c, n in pile_before.items() if n
    }
    draw_first(state)
    assert sum(state.hands[0].values()) == 4
    assert state.phase == "doom_roll"


def test_empty_draw_pile_is_reshuffled_from_the_discards(state):
    set_hand(state, 0, ["2x2", "2x3", "3x2", "4x1"])
    state.draw_piles[0] = dict.fromkeys(state.draw_piles[0], 0)
    state.discards[0]["1x4"] = 1
    events = play(state, "play 2x2", "end")
    assert "pile_reshuffled" in kinds(events)
    assert {a.card: p for a, p in state.chance_outcomes()} == {
        "1x4": Fraction(1, 2),
        "2x2": Fraction(1, 2),
    }
    assert sum(state.discards[0].values()) == 0


def test_card_extra_action_runs_after_movement_before_the_doom_roll(state):
    set_hand(state, 0, ["2x1+move", "2x3", "3x2", "4x1"])
    play(state, "play 2x1+move", "end")
    draw_first(state)
    assert state.phase == "move_eliminator"
    play(state, "eliminator b2")
    assert state.phase == "doom_roll"


def test_cannot_play_a_card_not_in_hand(state):
    set_hand(state, 0, ["2x2", "2x3", "3x2", "4x1"])
    with pytest.raises(IllegalActionError, match="no card '1x4' in hand") as err:
        state.apply(parse_action("play 1x4"))
    assert err.value.rule == "rule 6 (cards)"
