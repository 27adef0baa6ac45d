"""Tracked mode on simulated hardware: bots to the end, a person at the terminal, faults."""

import io
import random
from typing import Any

import pytest
from table_helpers import RecordingView, sim_hardware

from companion.dice import Roller
from companion.games.battle_royale import BattleRoyaleConfig, new_game, parse_action
from companion.hal import CellState
from companion.table.loop import TrackedTable
from companion.table.people import (
    BotAgent,
    SimOperator,
    TableStopped,
    TerminalAgent,
    TerminalInput,
)
from companion.table.shorthand import expand_move


def bot_table(players=4, seed=3, **hw_config):
    hw, clock = sim_hardware(**hw_config)
    state = new_game(BattleRoyaleConfig(players=players))
    view = RecordingView()
    rng = random.Random(seed)
    agents = {s: BotAgent(rng) for s in range(players)}
    table = TrackedTable(
        state, hw, Roller.seeded(seed), view, agents, sleep=clock.sleep, operator=SimOperator(hw)
    )
    return table, hw, view


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (4, 11)])
def test_bot_game_runs_to_the_end_and_fires_once_per_explosion(players, seed):
    table, hw, view = bot_table(players, seed)
    with hw:
        state = table.run()
        assert state.is_terminal and state.winners
        exploded = [e for e in view.events if e.kind == "field_exploded"]
        assert len(hw.sim.pulses) == len(exploded) > 0
        assert all(abs(p.length_s - 0.060) < 1e-9 for p in hw.sim.pulses)  # the config's 60 ms
        starts = [p.start for p in hw.sim.pulses]
        assert all(b - a >= 3.0 for a, b in zip(starts, starts[1:], strict=False))  # cool-down
        assert not hw.sim.coil_on
        # the arena display ends showing every hole the engine knows
        frame = hw.display.frame
        for cell in range(25):
            r, c = divmod(cell, 5)
            if not state.present[cell] and cell != state.eliminator:
                assert frame[r][c] == CellState.HOLE
        # the roll button was pressed for every Doom roll, the trigger for every fire
        rolls = [e for e in view.events if e.kind == "doom_rolled"]
        assert table.operator.presses.count("roll") == len(rolls)
    assert not hw.sim.coil_on


def test_turn_leds_follow_the_turns():
    table, hw, view = bot_table(3, 5)
    with hw:
        table.run()
        lit = [name for _, name, on in hw.sim.led_changes if on and name in hw.status_leds.colours]
        turns = [
            table.state.colours[e.data["seat"]] for e in view.events if e.kind == "turn_started"
        ]
        assert lit[0] == table.state.colours[table.state.history[0].seat]
        # every turn start lights its colour (repeats of the same colour light nothing new)
        collapsed = [c for i, c in enumerate(turns) if i == 0 or turns[i - 1] != c]
        assert lit[: len(collapsed)] == collapsed[: len(lit)]


def test_driver_fault_does_not_stop_the_game():
    table, hw, view = bot_table(4, 3)
    with hw:
        hw.sim.inject_driver_fault()
        state = table.run()
        assert state.is_terminal
        assert hw.sim.pulses == []
        assert any("lift the tile" in m for m in view.messages)


def person_plays(lines: str, stops: type[BaseException] = EOFError) -> tuple[Any, Any]:
    """Purple (a person) against a bot, the lines typed, until they run out (or ``stops``)."""
    hw, clock = sim_hardware()
    state = new_game(BattleRoyaleConfig(players=2, start_player=0))
    view = RecordingView()
    terminal = TerminalInput(io.StringIO(lines))
    human = TerminalAgent(terminal, view, parse_action, expand_move)
    agents = {0: human, 1: BotAgent(random.Random(1))}
    table = TrackedTable(
        state,
        hw,
        Roller.seeded(1),
        view,
        agents,
        sleep=clock.sleep,
        operator=SimOperator(hw),
        terminal=terminal,
    )
    with hw, pytest.raises(stops):
        table.run()
    return view, table


def test_a_person_at_the_terminal_plays_with_notation_numbers_and_shorthand():
    view, _ = person_plays("play 2x9\nplay 2x3\nb2 E N\nend\nroll\n")
    moved = [e for e in view.events if e.kind == "figure_moved"]
    assert moved[0].data == {"colour": "purple", "from": "b2", "to": "c1", "steps": 2}
    assert any("no card '2x9' in hand" in m for m in view.messages)
    assert any(e.kind == "doom_rolled" for e in view.events)  # 'roll' pressed the sim button


def test_a_word_shown_in_the_options_names_the_one_option_it_is_in():
    """Found by a newcomer: with 'step E' offered, typing E was 'unknown action'; the
    grouped figure list shows 'b1' alone (the words shown, typed, now choose)."""
    view, _ = person_plays("play 2x3\nb2\nE\nN\nstop\nend\nroll\n")
    moved = [e for e in view.events if e.kind == "figure_moved"]
    assert moved[0].data == {"colour": "purple", "from": "b2", "to": "c1", "steps": 2}
    assert not any("unknown action" in m for m in view.messages)


def test_a_move_typed_at_the_cards_choice_is_refused_once_and_nothing_of_it_is_made():
    """Found by a newcomer: 'b2 E N' at the card prompt (which suggested it) was refused
    with 'the moves before it were made', and nothing had been made."""
    view, table = person_plays("b2 E N\nquit-never\n")
    card_prompts = [p for p in view.prompts if "purple: play a card" in p or "choose" in p]
    assert card_prompts and "b2 E N" not in card_prompts[0]
    refusals = [m for m in view.messages if "not allowed" in m]
    assert len(refusals) == 1 and "figure b2 purple" in refusals[0]
    assert not any("the moves before it were made" in m for m in view.messages)
    assert table.state.history[-1].kind != "step"


def test_quit_stops_the_table():
    person_plays("quit\n", stops=TableStopped)


def test_hint_at_a_roll_prompt_says_in_one_line_why_there_is_none():
    """docs/bots.md: no hint at a roll, one line says why (it was the generic refusal)."""
    table, hw, view = bot_table(players=3)
    assert table.typed_line("hint", {"roll"}, undo=True) is None
    assert view.messages == ["no hint: nothing to choose now: the table waits for roll (r)"]
    table.typed_line("hint?", {"roll"}, undo=True)
    every = "roll (r), undo [n] (hold SELECT), board, log, help or quit"
    assert view.messages[-1] == f"'hint?': type {every}"
