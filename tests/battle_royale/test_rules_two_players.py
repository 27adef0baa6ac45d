"""Ruling 13: the two-player rules with a neutral third colour."""

import pytest
from br_helpers import count, draw_first, game, kinds, play, set_hand, set_position, to_doom_roll

from companion.games.battle_royale.actions import Capture, ChooseAction, DeclineCapture
from companion.games.battle_royale.layout import CENTRE, neighbours, parse_field


def two(turn=4, spec=None):
    s = game(2)
    if spec is not None:
        set_position(s, spec)
    s.turn = turn
    return s


def test_setup_two_neutral_figures_on_the_centre_and_its_8_neighbours():
    s = game(2)
    assert s.colours == ("purple", "grey", "turquoise")
    ring = {CENTRE, *(n for _, n in neighbours(CENTRE, True))}
    for cell in s.fields():
        assert s.counts[cell][2] == (2 if cell in ring else 0)
    assert s.arena_total[2] == 18


def test_extra_roll_after_every_turn_only_an_explosion_counts():
    s = two(spec={"b2": "P3 G1", "d4": "P1 G1"})
    to_doom_roll(s)
    play(s, "roll move_eliminator", "eliminator b2")
    assert s.phase == "extra_roll"
    events = play(s, "extra-roll battle_royale")
    assert "captured" not in kinds(events) and "nothing_happens" in kinds(events)
    assert s.active == 1
    to_doom_roll(s)
    play(s, "roll move_eliminator", "eliminator c2")
    s.eliminator = parse_field("d4")
    events = play(s, "extra-roll explosion")
    assert "field_exploded" in kinds(events)


@pytest.mark.parametrize("turn", [1, 2, 3])
def test_no_battle_royale_in_the_first_three_turns(turn):
    s = two(turn=turn, spec={"b2": "P3 G1", "d4": "P1 G1"})
    to_doom_roll(s)
    events = play(s, "roll battle_royale")
    assert "captured" not in kinds(events)
    assert any("first 3 turns" in e.text for e in events)


def test_free_choice_cannot_pick_battle_royale_early():
    s = two(turn=2, spec={"b2": "P3 G1", "d4": "P1 G1"})
    to_doom_roll(s)
    play(s, "roll free_choice")
    assert ChooseAction("battle_royale") not in s.legal_actions()
    s2 = two(turn=4, spec={"b2": "P3 G1", "d4": "P1 G1"})
    to_doom_roll(s2)
    play(s2, "roll free_choice")
    assert ChooseAction("battle_royale") in s2.legal_actions()


def test_card_battle_royale_early_does_nothing():
    s = two(turn=3, spec={"b2": "P3 G1", "d4": "P1 G1"})
    set_hand(s, 0, ["1x2+br", "2x2", "3x2", "4x1"])
    play(s, "play 1x2+br", "end")
    events = draw_first(s)
    assert "captured" not in kinds(events) and s.phase == "doom_roll"


def test_battle_royale_from_turn_four():
    s = two(turn=4, spec={"b2": "P3 G1", "d4": "P1 G1"})
    to_doom_roll(s)
    play(s, "roll battle_royale")
    assert s.prisoners[0][1] == 1


def test_neutral_majority_costs_the_player_with_more_figures_in_the_arena():
    s = two(spec={"b2": "T3 P1 G1", "d4": "G2"})  # grey has 3 in the arena, purple 1
    to_doom_roll(s)
    events = play(s, "roll battle_royale")
    lost = [e for e in events if e.kind == "figure_lost"]
    assert lost and lost[0].data["colour"] == "grey"
    assert s.box[1] == 1 and count(s, "b2", "G") == 0


def test_neutral_majority_tie_costs_the_active_player():
    s = two(spec={"b2": "T3 P1 G1", "d4": "P1 G1"})
    to_doom_roll(s)
    play(s, "roll battle_royale")
    assert s.box[0] == 1 and s.box[1] == 0


def test_neutral_majority_with_one_player_there_costs_that_player():
    s = two(spec={"b2": "T3 G2", "d4": "P2 G1"})
    to_doom_roll(s)
    play(s, "roll battle_royale")
    assert s.box[1] == 1


def test_shared_majority_with_neutral_may_capture_the_other_player():
    s = two(spec={"b2": "T2 P2 G1", "d4": "P1 G1"})
    to_doom_roll(s)
    play(s, "roll battle_royale")
    assert s.phase == "capture" and s.current_player == 0
    assert set(s.legal_actions()) == {Capture("grey"), DeclineCapture()}
    play(s, "capture grey")
    assert s.prisoners[0][1] == 1
    s2 = two(spec={"b2": "T2 P2 G1", "d4": "P1 G1"})
    to_doom_roll(s2)
    play(s2, "roll battle_royale", "decline")
    assert s2.prisoner_total(0) == 0


def test_shared_majority_with_neutral_and_no_opponent_there_does_nothing():
    s = two(spec={"b2": "T2 P2", "d4": "P1 G1"})
    to_doom_roll(s)
    events = play(s, "roll battle_royale")
    assert "captured" not in kinds(events) and s.phase == "extra_roll"


def test_neutral_can_be_pushed_and_taken_prisoner():
    s = two(spec={"d2": "P1", "e2": "T5", "c3": "G1"})
    set_hand(s, 0, ["2x2", "2x3", "3x2", "4x1"])
    play(s, "play 2x2", "figure d2 purple", "step E", "stop")
    assert s.prisoners[0][2] == 1


def test_neutral_figures_are_not_moved_with_an_ordinary_card():
    s = two(spec={"b2": "P1 T2", "c3": "G1"})
    set_hand(s, 0, ["2x2", "2x3", "3x2", "4x1"])
    play(s, "play 2x2")
    assert all(a.colour == "purple" for a in s.legal_actions() if hasattr(a, "colour"))


def test_an_any_colour_card_may_move_neutral_figures():
    """Ruling 13a: neutral figures do not move on their own, but a card may move them."""
    s = two(spec={"b2": "P1 T2", "c3": "G1"})
    set_hand(s, 0, ["1x3-any", "2x2", "3x2", "4x1"])
    play(s, "play 1x3-any", "figure b2 turquoise", "step N", "stop")
    assert count(s, "b1", "T") == 1
