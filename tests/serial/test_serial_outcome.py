"""A FIRE the I/O board does not answer is *outcome unknown* (issue 12, section 1): the host
asks the board, never arms that explosion again, never lets a stale FIRE switch the coil on,
and the table keeps hands off the arena until the board has said what it did.

The table is the real ``TableLoop.fire_sequence`` on a new Battle Royale game, the board the
virtual board behind a pty, the link the real serial backend; faults are scheduled on the
virtual board's link (``FaultWindow``), anchored at the moment the coil gate goes high."""

from __future__ import annotations

import random
import threading
import time

import pytest
from serial_helpers import virtual_hw, wait_until

from companion.dice import Roller
from companion.games.battle_royale import BattleRoyaleConfig, new_game
from companion.hal import Refusal
from companion.hal import link as L
from companion.hal.serial_board import FireOutcome, SpentToken
from companion.hal.virtual_board import FaultWindow
from companion.table.loop import TableLoop
from companion.table.people import SimOperator

pytestmark = pytest.mark.slow  # seconds of real time each

CELL = 12  # c3
TOKEN = "turn-1-c3"


class TimedView:
    """A TableView that keeps what the table said, and when."""

    def __init__(self) -> None:
        self.said: list[tuple[float, str]] = []

    @property
    def messages(self) -> list[str]:
        return [text for _, text in self.said]

    def update(self, state, events) -> None:
        pass

    def message(self, text: str) -> None:
        self.said.append((time.monotonic(), text))

    def prompt(self, text: str, options=()) -> None:
        pass

    def first(self, words: str) -> float:
        return next(t for t, text in self.said if words in text)


def table_on(hw) -> tuple[TableLoop, TimedView]:
    view = TimedView()
    table = TableLoop(
        new_game(BattleRoyaleConfig(players=4)),
        hw,
        Roller.seeded(1),
        view,
        operator=SimOperator(hw, tap_s=0.01, rng=random.Random(1)),
    )
    return table, view


def agree(hw) -> None:
    """The host's account of the pulses is the board's."""
    state = hw.link.query(3.0)
    assert state is not None and not state.coil_on
    assert hw.link.board_pulses == state.pulses == hw.virtual_board.board.solenoid.pulses
    assert hw.link.mismatches == []


def test_no_answer_after_the_gate_went_on_fires_once_and_waits_for_the_boards_account() -> None:
    """The reproduction: arm, press, every board-to-host byte dropped for 1.3 s once the gate
    is on. One pulse; no driver fault; no second pulse; no "lift the tile by hand"."""
    with virtual_hw() as hw:
        vb = hw.virtual_board
        vb.faults.windows.append(FaultWindow("to_host", 0.0, 1.3, drop=1.0, anchor="gate"))
        table, view = table_on(hw)
        assert table.fire_sequence(CELL, TOKEN) is True
        done = time.monotonic()
        [result] = table.fire_results
        assert result.reason is Refusal.OUTCOME_UNKNOWN and not result
        assert len(vb.pulses) == 1 and vb.board.solenoid.pulses == 1
        assert not any("by hand" in m or "fault" in m for m in view.messages), view.messages
        unknown = view.first("may or may not have fired")
        assert view.first("the I/O board confirms: the Eliminator fired") > unknown
        assert hw.link.disconnects >= 1  # the board was silent: the host reconnected
        assert list(hw.link.outcomes.values())[0][0] is FireOutcome.FIRED
        assert hw.link.coil_confirmed_off and not vb.coil_on
        with pytest.raises(SpentToken):  # that explosion is never armed again
            hw.eliminator.arm(TOKEN)
        time.sleep(0.7)  # past any FIRE deadline: nothing else fires
        assert len(vb.pulses) == 1 and vb.pulses[0][0] < done
        agree(hw)


def test_a_fire_that_arrives_after_its_deadline_is_refused_and_may_be_pressed_again():
    """Host-to-board bytes held up 0.8 s from the red button's press: the ARM + FIRE reach the
    board after the FIRE's deadline and it refuses; the host, unanswered, has asked meanwhile;
    the board says it did not fire; a fresh press fires, once."""
    with virtual_hw() as hw:
        vb = hw.virtual_board
        vb.faults.windows.append(FaultWindow("to_board", 0.0, 0.1, delay_s=0.8, anchor="trigger"))
        table, view = table_on(hw)
        assert table.fire_sequence(CELL, TOKEN) is True
        first, second = table.fire_results
        assert first.reason is Refusal.OUTCOME_UNKNOWN and second.fired
        assert [o for o, _ in hw.link.outcomes.values()] == [FireOutcome.NOT_FIRED]
        assert "the I/O board did not fire: hit the red button again" in view.messages
        # the first FIRE was refused after its deadline (or withdrawn while still queued
        # behind the delayed frames): only the second token ever fired
        [first_token] = hw.link.outcomes
        fires = [L.FIRE.unpack(p) for _, ftype, p in vb.commands if ftype == L.MsgType.FIRE]
        assert [t for t, _, _ in fires].count(first_token) <= 1
        assert len(vb.pulses) == 1 and vb.board.solenoid.spent == [fires[-1][0]] != [first_token]
        time.sleep(0.6)
        assert len(vb.pulses) == 1
        agree(hw)


def test_a_board_that_restarted_before_answering_cannot_say_and_the_coil_is_confirmed_off():
    with virtual_hw() as hw:
        vb = hw.virtual_board
        vb.faults.windows.append(FaultWindow("to_host", 0.0, 0.8, drop=1.0, anchor="gate"))
        table, view = table_on(hw)

        def reset_after_the_pulse() -> None:
            wait_until(lambda: vb.pulses, timeout=5)
            vb.reset("watchdog")

        threading.Thread(target=reset_after_the_pulse, daemon=True).start()
        assert table.fire_sequence(CELL, TOKEN) is False
        assert len(vb.pulses) == 1
        [result] = table.fire_results
        assert result.reason is Refusal.OUTCOME_UNKNOWN
        assert [o for o, _ in hw.link.outcomes.values()] == [FireOutcome.UNKNOWABLE]
        by_hand = view.first("lift it out by hand")
        assert by_hand > view.first("may or may not have fired")
        assert hw.link.connects >= 2 and hw.link.coil_confirmed_off
        with pytest.raises(SpentToken):
            hw.eliminator.arm(TOKEN)
        agree(hw)


def test_nothing_fires_while_an_outcome_is_unknown() -> None:
    with virtual_hw() as hw:
        vb = hw.virtual_board
        vb.faults.windows.append(FaultWindow("to_host", 0.0, 0.9, drop=1.0, anchor="gate"))
        guard = hw.eliminator
        guard.arm("first")
        hw.link.flush(1.0)  # the board has the ARM: it fires only for a press after it
        vb.tap("trigger", 0.01)
        press = next(e for e in iter(lambda: hw.next_input(2.0), None) if e.is_trigger_press)
        assert guard.fire(press).reason is Refusal.OUTCOME_UNKNOWN
        guard.arm("second")
        time.sleep(0.06)  # past the host's cool-down of 0.05 s
        again = hw.inputs.emit("press", "trigger")  # a press the host has while it waits
        refused = guard.fire(again)
        assert refused.reason is Refusal.OUTCOME_UNKNOWN and "not known yet" in refused.message
        assert guard.resolve_outcome(5.0) is FireOutcome.FIRED
        assert guard.confirm_coil_off(2.0)
        assert len(vb.pulses) == 1
        agree(hw)


def test_a_press_read_while_an_outcome_is_unknown_is_judged_then_not_later() -> None:
    """The edge path judges the press the link thread reads while a FIRE's outcome is
    unknown: refused there and then, and that refusal is the press's answer for good. The
    table loop that gets to the press only after the board has answered sends no FIRE for it
    (it did: a fresh judgement found the next explosion armed and the cool-down past, and
    only the board's own rule, no press of its own since the ARM, kept the coil off)."""
    with virtual_hw() as hw:
        vb = hw.virtual_board
        vb.faults.windows.append(FaultWindow("to_host", 0.0, 0.9, drop=1.0, anchor="gate"))
        guard = hw.eliminator
        guard.arm("first")
        hw.link.flush(1.0)
        vb.tap("trigger", 0.01)
        press = next(e for e in iter(lambda: hw.next_input(2.0), None) if e.is_trigger_press)
        assert guard.fire(press).reason is Refusal.OUTCOME_UNKNOWN
        guard.arm("second")
        time.sleep(0.06)  # past the host's cool-down of 0.05 s
        assert hw.link.pending_fire is not None
        during = guard.trigger_edge()  # what the link thread does with a press it reads now
        assert guard.resolve_outcome(5.0) is FireOutcome.FIRED
        assert guard.confirm_coil_off(2.0)
        later = guard.fire(during)
        assert later.reason is Refusal.OUTCOME_UNKNOWN and "not known yet" in later.message
        hw.link.flush(1.0)
        assert len(vb.pulses) == 1
        agree(hw)


def test_a_query_gets_its_own_answer_when_a_later_answer_arrives_with_it() -> None:
    """The connect path asks the board for its STATE while someone waits in ``query``: both
    answers come back in one read (held up together on the link), and the waiter must still
    get its own (found in CI: the later answer overwrote it and ``query`` said None)."""
    with virtual_hw() as hw:
        link = hw.link
        for _ in range(5):
            hw.virtual_board.faults.windows[:] = [FaultWindow("to_host", 0.0, 1.0, delay_s=0.2)]
            hw.virtual_board.faults.anchors.pop("start", None)
            hw.virtual_board.faults.mark("start")
            asked: list = []
            waiter = threading.Thread(target=lambda answers=asked: answers.append(link.query(2.0)))
            waiter.start()
            wait_until(lambda: link._queries, timeout=1)
            link._query()  # a second question, as the connect path asks one
            waiter.join()
            hw.virtual_board.faults.windows.clear()
            [state] = asked
            assert state is not None and not state.coil_on
