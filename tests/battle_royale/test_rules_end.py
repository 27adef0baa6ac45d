"""Rulings 11 and 12: players out, end of game, winners."""

from br_helpers import game, kinds, play, set_position, to_doom_roll

from companion.games.battle_royale.layout import parse_field


def test_the_last_colour_in_the_arena_wins_at_once():
    s = game(3)
    set_position(s, {"b2": "P3 G1", "d4": "P1 T1"})
    s.prisoners[1][0] = 9
    to_doom_roll(s)
    events = play(s, "roll battle_royale")
    # b2: purple captures grey -> grey out; d4 is a tie.
    assert "player_out" in kinds(events)
    assert not s.is_terminal and s.out == [False, True, False]
    assert s.active == 2  # grey is skipped


def test_neutral_figures_do_not_keep_the_game_going():
    s = game(2)
    set_position(s, {"b2": "P2 G1 T2", "d4": "T1"})
    s.turn = 4
    to_doom_roll(s)
    events = play(s, "roll battle_royale", "capture grey")
    assert s.is_terminal and s.winners == [0]
    assert events[-1].kind == "game_over"


def test_all_figures_on_the_centre_most_there_wins_then_prisoners():
    s = game(3)
    set_position(s, {"b2": "P1", "c3": "P2 G2 T1"})
    s.prisoners[1][2] = 3
    s.eliminator = parse_field("b2")
    to_doom_roll(s)
    play(s, "roll explosion")
    assert s.is_terminal and s.winners == [1]  # purple and grey 2 each; grey has prisoners


def test_tie_on_centre_and_prisoners_is_a_shared_win():
    s = game(3)
    set_position(s, {"b2": "T1", "c3": "P2 G2 T1"})
    s.eliminator = parse_field("b2")
    to_doom_roll(s)
    play(s, "roll explosion")
    assert s.winners == [0, 1]


def test_only_the_centre_left_ends_the_game():
    s = game(4, layout="#....\n##...\n.#C..\n.....\n.....")
    set_position(s, {"b3": "P1 G1 T1 R2", "c3": "P1 G1 T1 R1"})
    s.eliminator = parse_field("b3")
    to_doom_roll(s)
    play(s, "roll explosion")
    assert s.fields() == [12] and s.is_terminal and s.winners == [0, 1, 2, 3]


def test_no_player_figure_left_most_prisoners_wins():
    s = game(3, layout="#....\n##...\n.#C..\n.....\n.....")
    set_position(s, {"b3": "P1 G1 T1"})
    s.prisoners[2][0] = 2
    s.eliminator = parse_field("b3")
    to_doom_roll(s)
    events = play(s, "roll explosion")
    assert s.winners == [2]
    assert "most prisoners wins" in events[-1].text


def test_game_over_accepts_no_action():
    import pytest

    from companion.games.battle_royale import IllegalActionError, parse_action

    s = game(2)
    set_position(s, {"b2": "P2 G1 T2"})
    s.turn = 4
    to_doom_roll(s)
    play(s, "roll battle_royale", "capture grey")
    assert s.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        s.apply(parse_action("end"))


def test_active_player_out_in_own_turn_finishes_it_and_is_skipped_after():
    """Ruling 11a."""
    s = game(3)
    set_position(s, {"b2": "P1 G1", "d4": "G1 T1", "c3": "T1"})
    s.eliminator = parse_field("b2")
    to_doom_roll(s)
    events = play(s, "roll explosion")
    assert s.out == [True, False, False] and not s.is_terminal
    assert s.phase == "blast" and s.active == 0  # purple's turn still runs
    play(s, "done")
    assert s.active == 1
    assert "player_out" in kinds(events)


def test_a_move_that_leaves_every_figure_on_the_centre_ends_the_game_at_once():
    from br_helpers import set_hand

    s = game(3)
    set_position(s, {"c3": "P1 G1 T1", "c4": "P1"})
    set_hand(s, 0, ["2x2", "2x3", "3x2", "4x1"])
    events = play(s, "play 2x2", "figure c4 purple", "step N", "stop")
    assert s.is_terminal and s.winners == [0]
    assert events[-1].kind == "game_over"
