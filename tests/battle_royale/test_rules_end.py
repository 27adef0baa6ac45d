"""Rulings 11 and 12: players out, end of game, winners."""

from br_helpers import draw_first, game, kinds, play, set_hand, set_position, to_doom_roll

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


def test_active_player_out_by_the_doom_explosion_reports_the_blast_then_the_turn_ends():
    """Ruling 11a: the explosion under way is finished (the blast is reported), then the
    turn ends; purple's turns are skipped from then on."""
    s = game(3)
    set_position(s, {"b2": "P1 G1", "d4": "G1 T1", "c3": "T1"})
    s.eliminator = parse_field("b2")
    to_doom_roll(s)
    events = play(s, "roll explosion")
    assert s.out == [True, False, False] and not s.is_terminal
    assert s.phase == "blast" and s.active == 0  # the blast under way is reported first
    events += play(s, "done")
    assert s.active == 1 and s.phase == "turn_start"
    assert kinds(events).count("player_out") == 1 and "turn_cut_short" in kinds(events)


def test_active_player_out_in_movement_is_out_at_once_ruling_11a():
    """ "Wenn du keine Figur mehr in der Arena hast, bist du aus dem Spiel ausgeschieden":
    purple pushes its own last figure off the arena with an any-colour card. The push is
    resolved, then purple's turn ends at once: the card is discarded, no card is drawn, no
    Doom phase; grey's turn begins."""
    s = game(3)
    set_position(s, {"d2": "G1", "e2": "P1 G4", "b4": "T2 G1"})
    set_hand(s, 0, ["1x3-any", "2x2", "2x3", "3x2"])
    pile = dict(s.draw_piles[0])
    play(s, "play 1x3-any", "figure d2 grey", "step E", "stop")
    assert s.phase == "push" and s.current_player == 0
    events = play(s, "push purple")
    assert s.prisoners[0][0] == 1 and s.out == [True, False, False] and not s.is_terminal
    assert kinds(events) == ["figure_pushed", "player_out", "turn_cut_short", "turn_started"]
    assert s.active == 1 and s.phase == "turn_start"
    assert s.draw_piles[0] == pile and s.discards[0]["1x3-any"] == 1
    assert sum(s.hands[0].values()) == 3  # no card drawn after the card played


def test_active_player_out_by_the_cards_extra_action_gets_no_doom_roll_ruling_11a():
    """The card's extra explosion takes purple's last figure: the blast is reported, then
    the turn ends without the Doom roll that would follow the extra action."""
    s = game(3)
    set_position(s, {"b2": "P1 G1", "d4": "G1 T1", "c3": "T1"})
    s.eliminator = parse_field("b2")
    set_hand(s, 0, ["1x3+explosion", "2x2", "2x3", "3x2"])
    play(s, "play 1x3+explosion", "end")
    draw_first(s)
    assert s.phase == "blast" and s.out[0] and s.doom_stage == "extra"
    events = play(s, "done")
    assert "doom_rolled" not in kinds(events) and kinds(events)[0] == "turn_cut_short"
    assert s.active == 1 and s.phase == "turn_start"


def test_active_player_out_by_a_special_action_applied_by_hand_ruling_11a():
    """A special action before movement, applied by hand, knocks purple's last figure off:
    after the corrections purple's turn ends before any card is played."""
    s = game(3, special_actions=True)
    set_position(s, {"b2": "P1 G1", "d4": "G1 T1", "c3": "T1"})
    s.prisoners[0][1] = 3
    play(s, "special special-3", "knockoff b2 purple")
    assert s.phase == "special_effect" and s.out[0]
    events = play(s, "done")
    assert kinds(events) == ["turn_cut_short", "turn_started"]
    assert s.active == 1 and sum(s.hands[0].values()) == 4


def test_two_players_the_other_player_wins_at_once_when_the_active_goes_out():
    s = game(2)
    set_position(s, {"d2": "G1", "e2": "P1 G4", "c3": "T2"})
    set_hand(s, 0, ["1x3-any", "2x2", "2x3", "3x2"])
    events = play(s, "play 1x3-any", "figure d2 grey", "step E", "stop", "push purple")
    assert s.is_terminal and s.winners == [1] and events[-1].kind == "game_over"


def test_a_move_that_leaves_every_figure_on_the_centre_ends_the_game_at_once():
    from br_helpers import set_hand

    s = game(3)
    set_position(s, {"c3": "P1 G1 T1", "c4": "P1"})
    set_hand(s, 0, ["2x2", "2x3", "3x2", "4x1"])
    events = play(s, "play 2x2", "figure c4 purple", "step N", "stop")
    assert s.is_terminal and s.winners == [0]
    assert events[-1].kind == "game_over"
