"""Assist mode: the table's pieces are the truth; the companion runs turns, the Doom die,
the Eliminator and the holes. See docs/rules/battle-royale-assist.md."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.dice import Roller
from companion.games.battle_royale import BattleRoyaleConfig, IllegalActionError
from companion.games.battle_royale import actions as A
from companion.games.battle_royale.actions import ActionFormatError
from companion.games.battle_royale.assist import (
    ASSIST_ACTION_TYPES,
    ASSIST_EVENT_KINDS,
    ASSIST_PHASES,
    CHANCE,
    TERMINAL,
    AssistState,
    CardExtra,
    DeclareOut,
    DeclareWinner,
    Fired,
    Removed,
    Resolved,
    assist_action_from_dict,
    new_assist_game,
    parse_assist_action,
    replay_assist,
)
from companion.games.battle_royale.layout import (
    CELLS,
    CENTRE,
    connected_to_centre,
    neighbours,
    parse_field,
)

# a1-a2-b2-b3-c3: exploding b2 cuts a1 and a2 off the centre
CHAIN = "#....\n##...\n.#C..\n.....\n....."
# only b3 besides the centre: exploding b3 leaves only the centre
LAST = ".....\n.....\n.#C..\n.....\n....."
# a1 is a hole and so are all its neighbours (a2, b1, b2)
CORNER = "..###\n..###\n##C##\n#####\n#####"


def game(players: int = 3, start: int | None = 0, layout: str = "first-game") -> AssistState:
    return AssistState(BattleRoyaleConfig(players=players, start_player=start, layout=layout))


def do(state: AssistState, *moves: str) -> list:
    events = []
    for move in moves:
        events.extend(state.apply(parse_assist_action(move)))
    return events


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def cells(*names: str) -> list[int]:
    return [parse_field(n) for n in names]


def rejected(state: AssistState, action: A.Action) -> IllegalActionError:
    """Apply an illegal action: it raises, and the state is unchanged."""
    before = state.snapshot()
    history = list(state.history)
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert state.snapshot() == before and state.history == history
    err = info.value
    assert err.rule in str(err) and err.reason
    return err


# --- setup ---------------------------------------------------------------------------------


def test_start_player_drawn_is_a_chance_node():
    s = game(4, start=None)
    assert s.phase == "start_player" and s.current_player == CHANCE and s.turn == 0
    outcomes = s.chance_outcomes()
    assert outcomes == [(A.StartPlayer(i), Fraction(1, 4)) for i in range(4)]
    events = s.apply(A.StartPlayer(2))
    assert kinds(events) == ["setup", "turn_started"]
    assert (s.phase, s.active, s.turn, s.start_player) == ("movement", 2, 1, 2)


def test_configured_start_player_begins_at_once():
    s = game(3, start=1)
    assert (s.phase, s.active, s.turn, s.current_player) == ("movement", 1, 1, 1)
    assert kinds(s.initial_events) == ["turn_started"]
    assert s.eliminator == CENTRE and s.out == [False] * 3
    layout = BattleRoyaleConfig().arena_layout.fields
    assert s.fields() == sorted(layout)
    assert s.colours == ("purple", "grey", "turquoise") and s.neutral_colour is None
    assert game(2).neutral_colour == "turquoise"
    assert new_assist_game().players == 4


# --- movement ------------------------------------------------------------------------------


def test_movement_phase_offers_continue_card_extras_declarations_and_corrections():
    s = game(4)
    legal = s.legal_actions()
    assert legal[0] == A.Continue()
    assert {a for a in legal if isinstance(a, CardExtra)} == {
        CardExtra(f) for f in ("battle_royale", "move_eliminator", "explosion", "free_choice")
    }
    assert {a for a in legal if isinstance(a, DeclareOut)} == {DeclareOut(i) for i in range(4)}
    assert len([a for a in legal if isinstance(a, DeclareWinner)]) == 15
    assert {a.field for a in legal if isinstance(a, A.RemoveField)} == set(s.fields()) - {CENTRE}
    assert len([a for a in legal if isinstance(a, A.SetEliminator)]) == CELLS - 1


def test_continue_leads_to_the_doom_roll_with_the_dies_probabilities():
    s = game()
    do(s, "continue")
    assert s.phase == "doom_roll" and s.is_chance_node and s.current_player == CHANCE
    outcomes = dict(s.chance_outcomes())
    expected = s.config.doom_distribution()
    assert outcomes == {A.DoomRoll(f): p for f, p in expected.items()}
    assert sum(outcomes.values()) == 1
    assert set(s.legal_actions()) == set(outcomes)


def test_chance_and_choices_are_not_mixed():
    s = game()
    err = rejected(s, A.DoomRoll("explosion"))
    assert err.rule == "chance"
    do(s, "continue")
    assert rejected(s, A.Continue()).rule == "chance"
    assert rejected(s, A.ExtraRoll("explosion")).rule == "chance"


# --- Doom faces ----------------------------------------------------------------------------


def test_battle_royale_waits_for_the_players_then_the_next_turn_starts():
    s = game(3)
    events = do(s, "continue", "roll battle_royale")
    assert kinds(events) == ["doom_rolled", "doom_action"]
    assert s.phase == "battle_royale"
    legal = s.legal_actions()
    assert legal[0] == Resolved()
    assert not any(a.is_correction for a in legal)
    events = do(s, "resolved")
    assert kinds(events) == ["confirmed", "turn_started"]
    assert (s.phase, s.active, s.turn) == ("movement", 1, 2)


def test_move_eliminator_to_one_of_the_8_neighbouring_fields():
    s = game(3, layout="cross")  # c2, b3's opposite d3 and c4 are holes around the centre
    do(s, "continue", "roll move_eliminator")
    assert s.phase == "move_eliminator"
    assert s.eliminator_targets() == cells("b2", "d2", "b3", "d3", "b4", "d4")
    assert set(s.legal_actions()) == {A.MoveEliminator(c) for c in s.eliminator_targets()}
    events = do(s, "eliminator b2")
    assert kinds(events) == ["eliminator_moved", "turn_started"]
    assert s.eliminator == parse_field("b2") and s.active == 1
    do(s, "continue", "roll move_eliminator")
    assert CENTRE in s.eliminator_targets()  # the centre is allowed
    assert parse_field("a1") not in s.eliminator_targets()  # a hole in the cross layout


@pytest.mark.parametrize(
    "target, why",
    [
        ("c2", "c2 is a hole"),
        ("c3", "must move"),
        ("e3", "not next to"),
    ],
)
def test_move_eliminator_rejections_name_rule_8(target, why):
    s = game(3, layout="cross")
    do(s, "continue", "roll move_eliminator")
    err = rejected(s, A.MoveEliminator(parse_field(target)))
    assert err.rule == "rule 8 (move Eliminator)"
    assert why in err.reason and "choose b2" in err.reason


def test_move_eliminator_without_a_field_around_means_nothing_happens():
    s = game(3, layout=CORNER)
    do(s, "set-eliminator a1", "continue")
    events = do(s, "roll move_eliminator")
    assert "nothing_happens" in kinds(events)
    assert s.eliminator == parse_field("a1") and s.active == 1 and s.phase == "movement"


def test_explosion_under_the_centre_becomes_move_eliminator():
    s = game(3)
    events = do(s, "continue", "roll explosion")
    assert kinds(events) == ["doom_rolled", "doom_action"]
    assert events[1].data == {"face": "move_eliminator", "source": "explosion"}
    assert s.phase == "move_eliminator" and s.explosion_armed_field() is None
    assert s.present == game(3).present


def test_explosion_under_a_hole_becomes_move_eliminator_never_under_a_hole():
    s = game(3, layout="cross")
    do(s, "set-eliminator c2", "continue", "roll explosion")
    assert s.phase == "move_eliminator"
    assert s.eliminator_targets() == cells("b1", "c1", "d1", "b2", "d2", "b3", "c3", "d3")
    s = game(3, layout=CORNER)
    events = do(s, "set-eliminator a1", "continue", "roll explosion")
    assert kinds(events)[-1] == "turn_started" and "nothing_happens" in kinds(events)


def test_explosion_under_a_field_is_armed_then_fired_then_cleared():
    s = game(3)
    do(s, "set-eliminator b2", "continue")
    events = do(s, "roll explosion")
    assert kinds(events) == ["doom_rolled", "explosion_armed"]
    assert events[-1].data == {"field": "b2", "cell": parse_field("b2")}
    assert s.phase == "armed" and s.explosion_armed_field() == parse_field("b2")
    assert s.snapshot()["armed"] == parse_field("b2")
    assert s.legal_actions() == [Fired()]
    events = do(s, "fired")
    assert kinds(events) == ["field_exploded"]
    assert not s.present[parse_field("b2")] and s.exploded_field == parse_field("b2")
    assert s.collapsed_fields == [] and s.phase == "remove_fields"
    assert s.eliminator == parse_field("b2")  # it stays, now under a hole
    assert s.legal_actions()[0] == Removed()
    events = do(s, "removed")
    assert kinds(events) == ["confirmed", "turn_started"] and s.active == 1


def test_fired_collapses_every_field_cut_off_from_the_centre():
    s = game(3, layout=CHAIN)
    do(s, "set-eliminator b2", "continue", "roll explosion")
    events = do(s, "fired")
    assert kinds(events) == ["field_exploded", "fields_collapsed"]
    assert events[1].data == {"fields": ["a1", "a2"], "cells": cells("a1", "a2")}
    assert s.collapsed_fields == cells("a1", "a2")
    assert s.fields() == cells("b3", "c3")
    assert s.phase == "remove_fields"
    do(s, "removed")
    assert s.phase == "movement" and s.active == 1


def test_only_the_centre_left_asks_the_players_for_the_winner():
    s = game(3, layout=LAST)
    do(s, "set-eliminator b3", "continue", "roll explosion")
    events = do(s, "fired")
    assert kinds(events) == ["field_exploded", "winner_needed"]
    assert s.phase == "declare_winner" and s.fields() == [CENTRE]
    legal = s.legal_actions()
    assert legal and all(isinstance(a, DeclareWinner) for a in legal)
    assert rejected(s, DeclareOut(1)).rule == "rule 11 (players out)"
    events = do(s, "winner 2 0")
    assert kinds(events) == ["game_over"]
    assert s.winners == [0, 2] and s.phase == "game_over" and s.current_player == TERMINAL
    assert "centre" in s.end_reason
    assert s.legal_actions() == [] and s.chance_outcomes() == []
    assert rejected(s, A.Continue()).rule == "rule 12 (end of game)"


def test_free_choice_offers_the_three_doom_actions():
    s = game(3)
    do(s, "set-eliminator d4", "continue", "roll free_choice")
    assert s.phase == "choose"
    assert s.legal_actions() == [
        A.ChooseAction(f) for f in ("battle_royale", "move_eliminator", "explosion")
    ]
    assert rejected(s, A.ChooseAction("free_choice")).rule == "rule 10 (free choice)"
    events = do(s, "choose explosion")
    assert kinds(events) == ["doom_action", "explosion_armed"]
    assert events[0].data == {"face": "explosion", "source": "choice"}


# --- card extra actions --------------------------------------------------------------------


def test_card_extra_runs_before_the_doom_roll():
    s = game(3)
    events = do(s, "card-extra move_eliminator")
    assert events[0].kind == "doom_action" and events[0].data["source"] == "card"
    assert s.phase == "move_eliminator" and s.card_extra == "move_eliminator"
    do(s, "eliminator d4")
    assert s.phase == "doom_roll" and s.active == 0  # the Doom phase follows
    assert rejected(s, CardExtra("explosion")).rule == "chance"
    do(s, "roll move_eliminator")
    assert rejected(s, CardExtra("explosion")).rule == "rule 6 (cards)"  # once per turn
    do(s, "eliminator e4")
    assert s.phase == "movement" and s.active == 1 and s.card_extra is None


def test_card_extra_explosion_fires_and_clears_before_the_roll():
    s = game(3)
    do(s, "set-eliminator b2", "card-extra explosion")
    assert s.phase == "armed"
    do(s, "fired", "removed")
    assert s.phase == "doom_roll" and s.turn == 1
    do(s, "roll explosion")  # the Eliminator is now under a hole: it moves
    assert s.phase == "move_eliminator"


def test_card_extra_battle_royale_and_free_choice():
    s = game(3)
    do(s, "card-extra battle_royale")
    assert s.phase == "battle_royale"
    do(s, "resolved")
    assert s.phase == "doom_roll" and s.active == 0
    s = game(3)
    do(s, "card-extra free_choice")
    assert s.phase == "choose" and len(s.legal_actions()) == 3


# --- two players ---------------------------------------------------------------------------


@pytest.mark.parametrize("face", ["battle_royale", "move_eliminator", "free_choice"])
def test_two_players_extra_roll_only_an_explosion_counts(face):
    s = game(2)
    do(s, "continue", "roll move_eliminator", "eliminator b2")
    assert s.phase == "extra_roll" and s.current_player == CHANCE
    assert dict(s.chance_outcomes()) == {
        A.ExtraRoll(f): p for f, p in s.config.doom_distribution().items()
    }
    events = s.apply(A.ExtraRoll(face))
    assert kinds(events) == ["doom_rolled", "nothing_happens", "turn_started"]
    assert s.eliminator == parse_field("b2") and s.present == game(2).present
    assert (s.phase, s.active, s.turn) == ("movement", 1, 2)


def test_two_players_extra_explosion_is_a_full_explosion():
    s = game(2)
    do(s, "continue", "roll move_eliminator", "eliminator b2", "extra-roll explosion")
    assert s.phase == "armed" and s.explosion_armed_field() == parse_field("b2")
    do(s, "fired")
    assert s.phase == "remove_fields"
    do(s, "removed")
    assert (s.phase, s.active) == ("movement", 1)  # no third roll


def test_two_players_extra_explosion_under_the_centre_moves_the_eliminator():
    s = game(2)
    do(s, "continue", "roll battle_royale")  # turn 1: nothing happens
    assert s.phase == "extra_roll" and s.eliminator == CENTRE
    events = do(s, "extra-roll explosion")
    assert events[-1].data == {"face": "move_eliminator", "source": "explosion"}
    assert s.phase == "move_eliminator"
    do(s, "eliminator d4")
    assert (s.phase, s.active, s.turn) == ("movement", 1, 2)


def test_two_players_extra_roll_follows_the_card_extra_and_the_roll_once():
    s = game(2)
    do(s, "card-extra move_eliminator", "eliminator b2", "roll move_eliminator", "eliminator c3")
    assert s.phase == "extra_roll"
    do(s, "extra-roll battle_royale")
    assert s.phase == "movement" and s.active == 1


def test_three_players_have_no_extra_roll():
    s = game(3)
    do(s, "continue", "roll move_eliminator", "eliminator b2")
    assert s.phase == "movement" and s.active == 1


def test_two_players_no_battle_royale_in_turns_1_to_3_rolled():
    s = game(2)
    for turn in (1, 2, 3):
        assert s.turn == turn and s.battle_royale_suspended()
        events = do(s, "continue", "roll battle_royale")
        assert "nothing_happens" in kinds(events) and s.phase == "extra_roll"
        do(s, "extra-roll move_eliminator")
    assert s.turn == 4 and not s.battle_royale_suspended()
    do(s, "continue", "roll battle_royale")
    assert s.phase == "battle_royale"
    do(s, "resolved")
    assert s.phase == "extra_roll"


def test_two_players_no_battle_royale_in_turns_1_to_3_chosen():
    s = game(2)
    do(s, "continue", "roll free_choice")
    assert s.legal_actions() == [A.ChooseAction("move_eliminator"), A.ChooseAction("explosion")]
    err = rejected(s, A.ChooseAction("battle_royale"))
    assert err.rule == "rule 13 (two players)" and "first 3 turns" in err.reason
    for _ in range(3):
        do(s, "choose move_eliminator")
        s.apply(s.legal_actions()[0])
        do(s, "extra-roll battle_royale", "continue", "roll free_choice")
    assert s.turn == 4 and A.ChooseAction("battle_royale") in s.legal_actions()


def test_two_players_no_battle_royale_in_turns_1_to_3_from_a_card():
    s = game(2)
    events = do(s, "card-extra battle_royale")
    assert "nothing_happens" in kinds(events) and s.phase == "doom_roll"
    assert game(3).apply(CardExtra("battle_royale"))[-1].kind == "doom_action"


# --- players out and the end ---------------------------------------------------------------


def test_declared_out_players_are_skipped():
    s = game(3)
    events = do(s, "out 1")
    assert kinds(events) == ["player_out"] and s.out == [False, True, False]
    assert s.phase == "movement" and s.active == 0
    do(s, "continue", "roll move_eliminator", "eliminator b2")
    assert s.active == 2
    do(s, "continue", "roll move_eliminator", "eliminator b3")
    assert s.active == 0
    err = rejected(s, DeclareOut(1))
    assert err.rule == "rule 11 (players out)" and "already out" in err.reason


def test_active_player_declared_out_in_movement_is_out_at_once_ruling_11a():
    """ "bist du aus dem Spiel ausgeschieden": no Doom phase for purple; grey moves next."""
    s = game(4)
    events = s.apply(DeclareOut(0))
    assert kinds(events) == ["player_out", "turn_cut_short", "turn_started"]
    assert s.phase == "movement" and s.active == 1
    do(
        s,
        "continue",
        "roll battle_royale",
        "resolved",
        "continue",
        "roll battle_royale",
        "resolved",
        "continue",
        "roll battle_royale",
        "resolved",
    )
    assert s.active == 1  # seat 0 is skipped


def test_active_player_out_in_a_battle_royale_finishes_it_then_the_turn_ends_ruling_11a():
    """The card's extra Battle Royale takes purple's last figure: the players finish resolving
    it by hand, then the turn ends without the Doom roll."""
    s = game(4)
    do(s, "card-extra battle_royale", "out 0")
    assert s.phase == "battle_royale" and s.active == 0
    events = s.apply(Resolved())
    assert "doom_rolled" not in kinds(events) and kinds(events)[-2:] == [
        "turn_cut_short",
        "turn_started",
    ]
    assert s.active == 1 and s.phase == "movement"


def test_last_player_left_wins():
    s = game(3)
    do(s, "continue", "roll battle_royale")
    do(s, "out 0")
    assert s.phase == "battle_royale"
    events = do(s, "out 2")
    assert kinds(events) == ["player_out", "game_over"]
    assert s.winners == [1] and s.is_terminal and "only grey" in s.end_reason
    s = game(2)
    do(s, "out 1")
    assert s.winners == [0]


def test_players_declare_a_winner_or_a_tie():
    s = game(4)
    events = do(s, "winner 2 1")
    assert kinds(events) == ["game_over"] and s.winners == [1, 2]
    assert DeclareWinner((2, 1)) == DeclareWinner((1, 2)) == DeclareWinner((1, 2, 2))


def test_declarations_during_the_clear_up_after_an_explosion():
    s = game(3)
    do(s, "set-eliminator b2", "continue", "roll explosion", "fired")
    assert DeclareOut(0) in s.legal_actions() and DeclareWinner((1,)) in s.legal_actions()
    do(s, "out 2", "removed")
    assert s.active == 1


@pytest.mark.parametrize(
    "phase_moves",
    [
        ["continue", "roll move_eliminator"],  # move_eliminator
        ["continue", "roll free_choice"],  # choose
        ["set-eliminator b2", "continue", "roll explosion"],  # armed
    ],
)
def test_no_declarations_while_the_table_does_not_wait_for_the_players(phase_moves):
    s = game(3)
    do(s, *phase_moves)
    assert rejected(s, DeclareOut(1)).rule == "rule 11 (players out)"
    assert rejected(s, DeclareWinner((1,))).rule == "rule 12 (end of game)"
    assert rejected(s, A.SetEliminator(0)).rule == "corrections"


# --- corrections ---------------------------------------------------------------------------


def test_remove_field_correction_collapses_loose_fields():
    s = game(3, layout=CHAIN)
    events = do(s, "remove b2")
    assert kinds(events) == ["correction", "fields_collapsed"]
    assert s.fields() == cells("b3", "c3") and s.collapsed_fields == cells("a1", "a2")
    assert s.phase == "movement"
    events = do(s, "remove b3")
    assert kinds(events) == ["correction", "winner_needed"] and s.phase == "declare_winner"


def test_remove_field_in_the_clear_up_adds_to_the_collapse():
    s = game(3, layout=CHAIN)
    do(s, "set-eliminator a1", "continue", "roll explosion", "fired")
    assert s.collapsed_fields == []
    do(s, "remove b2")  # the blast threw b2 out too: a2 falls with it
    assert s.collapsed_fields == cells("a2") and s.phase == "remove_fields"


def test_correction_rejections():
    s = game(3, layout=CHAIN)
    err = rejected(s, A.RemoveField(CENTRE))
    assert err.rule == "rule 9 (explosion)" and "centre" in err.reason
    err = rejected(s, A.RemoveField(parse_field("e5")))
    assert err.rule == "corrections" and "already a hole" in err.reason
    err = rejected(s, A.SetEliminator(CENTRE))
    assert err.rule == "corrections" and "already under c3" in err.reason


# --- rejections ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "moves, action, rule",
    [
        ([], Fired(), "rule 9 (explosion)"),
        ([], Removed(), "rule 9 (explosion)"),
        ([], Resolved(), "rule 7 (Battle Royale)"),
        ([], A.MoveEliminator(6), "rule 8 (move Eliminator)"),
        ([], A.ChooseAction("explosion"), "rule 10 (free choice)"),
        ([], A.PlayCard("2x3"), "assist mode"),
        ([], A.EndCorrections(), "assist mode"),
        ([], CardExtra("sneeze"), "action format"),
        ([], DeclareOut(7), "action format"),
        ([], DeclareWinner(()), "action format"),
        ([], DeclareWinner((0, 5)), "action format"),
        ([], A.SetEliminator(25), "action format"),
        (["continue", "roll battle_royale"], A.Continue(), "turn order"),
        (["continue", "roll battle_royale"], Fired(), "rule 9 (explosion)"),
        (["continue", "roll battle_royale"], A.RemoveField(6), "corrections"),
        (["continue", "roll battle_royale"], CardExtra("explosion"), "rule 6 (cards)"),
        (["set-eliminator b2", "continue", "roll explosion"], Removed(), "rule 9 (explosion)"),
        (["set-eliminator b2", "continue", "roll explosion"], Resolved(), "rule 7 (Battle Royale)"),
    ],
)
def test_illegal_actions_are_rejected_with_rule_and_reason(moves, action, rule):
    s = game(3)
    do(s, *moves)
    err = rejected(s, action)
    assert err.rule == rule and err.action == action
    assert f"{rule}: {err.reason}" in str(err)


def test_reasons_say_what_is_possible_instead():
    s = game(3)
    err = rejected(s, Fired())
    assert "now the active player moves figures by hand" in err.reason
    do(s, "continue", "roll battle_royale")
    err = rejected(s, A.Continue())
    assert "legal now: out, resolved, winner" in err.reason


# --- actions: notation and dicts -----------------------------------------------------------


def test_assist_kinds_do_not_clash_with_the_engine():
    new = {"card-extra", "fired", "removed", "resolved", "out", "winner"}
    assert new <= set(ASSIST_ACTION_TYPES) and not new & set(A.ACTION_TYPES)
    for kind, cls in ASSIST_ACTION_TYPES.items():
        assert cls.kind == kind and (kind in new or A.ACTION_TYPES[kind] is cls)


@pytest.mark.parametrize(
    "text, action",
    [
        ("continue", A.Continue()),
        ("card-extra explosion", CardExtra("explosion")),
        ("CARD-EXTRA Free_Choice", CardExtra("free_choice")),
        ("fired", Fired()),
        ("removed", Removed()),
        ("resolved", Resolved()),
        ("out 2", DeclareOut(2)),
        ("winner 3 1", DeclareWinner((1, 3))),
        ("eliminator b2", A.MoveEliminator(6)),
        ("choose explosion", A.ChooseAction("explosion")),
        ("remove a1", A.RemoveField(0)),
        ("set-eliminator c3", A.SetEliminator(12)),
        ("roll battle_royale", A.DoomRoll("battle_royale")),
        ("extra-roll explosion", A.ExtraRoll("explosion")),
        ("start 1", A.StartPlayer(1)),
    ],
)
def test_parse_and_dict_round_trip(text, action):
    assert parse_assist_action(text) == action
    assert parse_assist_action(action.notation) == action
    data = json.loads(json.dumps(action.to_dict()))
    assert assist_action_from_dict(data) == action


def test_seats_by_colour():
    colours = ("purple", "grey", "red")
    assert parse_assist_action("out red", colours) == DeclareOut(2)
    assert parse_assist_action("winner grey Purple", colours) == DeclareWinner((0, 1))
    assert DeclareWinner((0, 2)).notation == "winner 0 2"
    assert DeclareWinner((0, 2)).to_dict() == {"kind": "winner", "seats": [0, 2]}


@pytest.mark.parametrize(
    "text",
    [
        "",
        "play 2x3",
        "step N",
        "card-extra",
        "card-extra sneeze",
        "fired now",
        "out",
        "out x",
        "out red",
        "out 1 2",
        "winner",
        "eliminator z9",
        "resolved 1",
    ],
)
def test_parse_errors(text):
    with pytest.raises(ActionFormatError):
        parse_assist_action(text)


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"kind": "play", "card": "2x3"},
        {"kind": "winner", "seats": []},
        {"kind": "winner", "seats": 1},
        {"kind": "out"},
        {"kind": "out", "seat": "x"},
        {"kind": "card-extra", "face": "sneeze"},
        {"kind": "fired", "extra": 1},
        {"kind": "eliminator", "position": 99},
    ],
)
def test_dict_errors(data):
    with pytest.raises(ActionFormatError):
        assist_action_from_dict(data)


# --- replay --------------------------------------------------------------------------------


def test_replay_rebuilds_the_snapshot():
    config = BattleRoyaleConfig(players=2, start_player=None, layout=CHAIN)
    s = AssistState(config)
    do(
        s,
        "start 1",
        "set-eliminator b2",
        "card-extra explosion",
        "fired",
        "removed",
        "roll free_choice",
        "choose move_eliminator",
        "eliminator b3",
        "extra-roll explosion",
        "fired",
    )
    assert s.phase == "declare_winner"
    do(s, "winner 1")
    again = replay_assist(config, s.history)
    assert again.snapshot() == s.snapshot()
    log = json.dumps([a.to_dict() for a in s.history])
    from_log = replay_assist(config, [assist_action_from_dict(d) for d in json.loads(log)])
    assert from_log.snapshot() == s.snapshot()
    by_text = replay_assist(config, [parse_assist_action(a.notation) for a in s.history])
    assert by_text.snapshot() == s.snapshot()
    json.dumps(s.snapshot())


def test_replay_rejects_an_illegal_history():
    config = BattleRoyaleConfig(players=3, start_player=0)
    with pytest.raises(IllegalActionError):
        replay_assist(config, [A.Continue(), Fired()])


# --- properties of random legal play -------------------------------------------------------

MAX_STEPS = 400
LAYOUTS = ["first-game", "cross", CHAIN, LAST, CORNER]


FACES = ("battle_royale", "move_eliminator", "explosion", "free_choice")
UNIVERSE = [
    A.Continue(),
    Fired(),
    Removed(),
    Resolved(),
    A.PlayCard("2x3"),
    A.EndCorrections(),
    *(cls(f) for cls in (CardExtra, A.ChooseAction, A.DoomRoll, A.ExtraRoll) for f in FACES),
    *(cls(c) for cls in (A.RemoveField, A.SetEliminator, A.MoveEliminator) for c in range(CELLS)),
    *(A.StartPlayer(i) for i in range(4)),
    *(DeclareOut(i) for i in range(5)),
    DeclareWinner((0,)),
    DeclareWinner((1, 3)),
    DeclareWinner((0, 1, 2, 3)),
    DeclareWinner(()),
]


def check_rejections(state: AssistState, rng: random.Random) -> None:
    """A few actions outside legal_actions(): each is rejected with a rule, nothing changes."""
    legal = set(state.legal_actions())
    for action in rng.sample(UNIVERSE, 4):
        if action not in legal:
            rejected(state, action)


def check_step(state: AssistState, action, events, present_before):
    assert state.phase in ASSIST_PHASES
    assert all(e.kind in ASSIST_EVENT_KINDS for e in events)
    legal = state.legal_actions()
    if state.is_terminal:
        assert legal == [] and state.winners
    else:
        assert legal, state.phase
        if state.is_chance_node:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1 and [a for a, _ in outcomes] == legal
    fields = state.fields()
    assert CENTRE in fields and set(fields) == connected_to_centre(fields)
    assert all(
        not now or before for now, before in zip(state.present, present_before, strict=True)
    )  # holes stay holes
    if isinstance(action, A.MoveEliminator):
        assert state.present[state.eliminator]  # never under a hole
    if state.phase == "armed":
        armed = state.explosion_armed_field()
        assert armed is not None and armed != CENTRE and state.present[armed]
    if state.players == 2 and state.turn <= 3:
        assert state.phase != "battle_royale"
    if fields == [CENTRE]:
        assert state.phase in ("declare_winner", "game_over")
    assert state.players_in()


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    start=st.one_of(st.none(), st.integers(0, 1)),
    layout=st.sampled_from(LAYOUTS),
    seed=st.integers(0, 2**32 - 1),
    declare_rate=st.sampled_from([0.0, 0.0, 0.02, 0.2]),
)
def test_random_legal_play_keeps_the_invariants_and_replays(
    players, start, layout, seed, declare_rate
):
    config = BattleRoyaleConfig(players=players, start_player=start, layout=layout)
    state = AssistState(config)
    roller = Roller.seeded(seed)
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        if state.is_terminal:
            break
        if state.is_chance_node:
            action = roller.choose(state.chance_outcomes())
        else:
            legal = state.legal_actions()
            ordinary = [
                a
                for a in legal
                if not a.is_correction and not isinstance(a, DeclareOut | DeclareWinner)
            ]
            pool = legal if (rng.random() < declare_rate or not ordinary) else ordinary
            action = rng.choice(pool)
        before = list(state.present)
        eliminator = state.eliminator
        events = state.apply(action)
        check_step(state, action, events, before)
        check_rejections(state, rng)
        if isinstance(action, A.MoveEliminator):
            assert state.eliminator in {n for _, n in neighbours(eliminator, True)}
    again = replay_assist(config, [assist_action_from_dict(a.to_dict()) for a in state.history])
    assert again.snapshot() == state.snapshot()
    by_text = replay_assist(config, [parse_assist_action(a.notation) for a in state.history])
    assert by_text.snapshot() == state.snapshot()
