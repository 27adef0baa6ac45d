"""The Eliminator's path: armed record first, nothing on disk between the press and the coil,
the fired record after the pulse; after a stop, armed again and never fired by itself."""

from __future__ import annotations

import io
import json
import os
import threading
import time
from contextlib import contextmanager

import pytest
from clocks import open_ready
from gpiozero.pins.mock import MockPin
from table_helpers import RecordingView, bot_table, sim_hardware

from companion.dice import Roller
from companion.games.battle_royale import BattleRoyaleConfig
from companion.games.battle_royale.layout import parse_field
from companion.hal import HardwareConfig, SolenoidGuard, open_hardware
from companion.table.assist import AssistTable
from companion.table.journal import JournalWriter, read_journal
from companion.table.loop import TableLoop
from companion.table.people import TableStopped, TerminalInput
from companion.table.session import GameSession, SessionSettings, resume_session


class LoggingPin(MockPin):
    """A mock pin that logs every change with its time.monotonic()."""

    log: list[tuple[float, str, bool]] = []

    def _change_state(self, value):
        changed = super()._change_state(value)
        if changed:
            LoggingPin.log.append((time.monotonic(), self.info.name, bool(value)))
        return changed


@pytest.fixture
def logging_pins(mock_factory):
    """The test-wide MockFactory, making LoggingPins."""
    LoggingPin.log = []
    mock_factory.pin_class = LoggingPin  # pins are made when the hardware opens them
    return mock_factory


def disk_log(mocker):
    """Record (start, end, what) of every journal write and every fsync."""
    calls: list[tuple[float, float, str]] = []
    real_fsync, real_write = os.fsync, JournalWriter._put

    def fsync(fd):
        start = time.monotonic()
        try:
            return real_fsync(fd)
        finally:
            calls.append((start, time.monotonic(), "fsync"))

    def write(self, record):
        start = time.monotonic()
        try:
            return real_write(self, record)
        finally:
            calls.append((start, time.monotonic(), f"write {record['type']}"))

    mocker.patch("os.fsync", fsync)
    mocker.patch.object(JournalWriter, "_put", write)
    return calls


def test_no_disk_io_between_the_red_button_and_the_coil_on_gpio(tmp_path, logging_pins, mocker):
    config = HardwareConfig(profile="gpio", pulse_ms=20)
    session = GameSession.start(
        BattleRoyaleConfig(players=2), SessionSettings(hardware="gpio"), tmp_path / "g.jsonl"
    )
    calls = disk_log(mocker)
    with open_ready(config) as hw:
        table = TableLoop(session, hw, Roller.seeded(1), RecordingView())
        token = "turn-1-c3"
        done = threading.Thread(target=table.fire_sequence, args=(parse_field("c3"), token))
        done.start()
        deadline = time.monotonic() + 5
        while hw.eliminator.armed_token != token and time.monotonic() < deadline:
            time.sleep(0.001)
        assert hw.eliminator.armed_token == token
        edge = time.monotonic()
        logging_pins.pin(config.pins.trigger).drive_low()  # the red button's first edge
        done.join(5)
    assert not done.is_alive() and table.fire_results[0].fired
    coil = f"GPIO{config.pins.solenoid}"
    (rise, fall) = [t for t, name, _ in LoggingPin.log if name == coil]
    armed = [c for c in calls if c[2] == "write armed"]
    fired = [c for c in calls if c[2] == "write fired"]
    assert len(armed) == 1 and armed[0][1] < edge  # durable before anyone could press
    between = [c for c in calls if c[1] > edge and c[0] < rise]
    assert between == []  # no write, no fsync between the edge and the coil
    assert len(fired) == 1 and fired[0][0] > fall  # the fired record follows the pulse
    assert any(c[2] == "fsync" and c[0] > fall for c in calls)
    records = [r for _, r in read_journal(tmp_path / "g.jsonl").records]
    assert [(r["type"], r["token"]) for r in records] == [("armed", token), ("fired", token)]


def test_the_guard_is_armed_only_after_the_armed_record_is_on_disk(tmp_path, mocker):
    path = tmp_path / "assist.jsonl"
    session = GameSession.start(
        BattleRoyaleConfig(players=2), SessionSettings(mode="assist", bots=0), path
    )
    arms: list[str] = []
    real_arm = SolenoidGuard.arm

    def arm(self, token):
        on_disk = {
            json.loads(line).get("token")
            for line in path.read_text().splitlines()
            if '"type":"armed"' in line
        }
        assert token in on_disk
        arms.append(token)
        return real_arm(self, token)

    mocker.patch.object(SolenoidGuard, "arm", arm)
    hw = play_assist_game(session)
    assert arms and len(hw.sim.pulses) >= 1


def cut_after_the_first_arming(path) -> None:
    """Drop everything after the first ``armed`` record: the power went while it was armed."""
    lines = path.read_text().splitlines(keepends=True)
    armed = next(i for i, line in enumerate(lines) if '"type":"armed"' in line)
    path.write_text("".join(lines[: armed + 1]))


def play_assist_game(session):
    """Play *session* (assist mode) to the end with simulated people; return the hardware."""
    from companion.table.people import SimOperator

    hw, clock = sim_hardware()
    with hw:
        AssistTable(
            session,
            hw,
            Roller.seeded(4),
            RecordingView(),
            sleep=clock.sleep,
            operator=SimOperator(hw),
        ).run()
    session.journal.close()
    return hw


def assist_game_cut_after_the_first_arming(tmp_path):
    """An assist game played by simulated people, its journal cut right after an armed record."""
    path = tmp_path / "assist.jsonl"
    play_assist_game(
        GameSession.start(
            BattleRoyaleConfig(players=2), SessionSettings(mode="assist", bots=0), path
        )
    )
    cut_after_the_first_arming(path)
    return path


def run_in_thread(target):
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread


@contextmanager
def assist_step(session, fault: str | None = None):
    """The assist table on fresh simulated hardware (its coil driver broken with *fault*),
    its next step running on a thread: yields (hw, loop, view, thread)."""
    hw, clock = sim_hardware()
    view = RecordingView()
    with hw:
        if fault is not None:
            hw.sim.inject_driver_fault(fault)
        loop = AssistTable(session, hw, Roller.seeded(4), view, sleep=clock.sleep)
        loop.react([])
        yield hw, loop, view, run_in_thread(loop.step)


def until(predicate, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_after_a_stop_the_armed_explosion_never_fires_by_itself(tmp_path):
    path = assist_game_cut_after_the_first_arming(tmp_path)
    session, _ = resume_session(path)
    assert len(session.armed_before_stop) == 1 and session.state.phase == "armed"
    (token,) = session.armed_before_stop
    with assist_step(session) as (hw, _, view, thread):
        time.sleep(0.3)
        assert thread.is_alive() and hw.sim.pulses == []  # waits: no press, no pulse
        assert hw.eliminator.armed_token == token
        assert any("press CONFIRM instead" in m for m in view.messages)
        hw.sim.tap("trigger")
        thread.join(5)
        assert not thread.is_alive() and len(hw.sim.pulses) == 1
    session.journal.close()
    records = [r for _, r in read_journal(path).records]
    assert (records[-2]["type"], records[-2]["token"], records[-2]["source"]) == (
        "fired",
        token,
        "coil",
    )
    assert records[-1]["type"] == "action" and records[-1]["action"]["kind"] == "fired"


def test_after_a_stop_the_players_can_confirm_the_tile_already_flew(tmp_path):
    path = assist_game_cut_after_the_first_arming(tmp_path)
    session, _ = resume_session(path)
    (token,) = session.armed_before_stop
    hw, clock = sim_hardware()
    with hw:
        hw.sim.tap("confirm")  # pressed before the question: not an answer
        loop = AssistTable(session, hw, Roller.seeded(4), RecordingView(), sleep=clock.sleep)
        loop.react([])
        thread = run_in_thread(loop.step)
        time.sleep(0.2)
        assert thread.is_alive()
        hw.sim.tap("confirm")
        thread.join(5)
        assert not thread.is_alive()
        assert hw.sim.pulses == [] and not hw.eliminator.armed
        assert loop.state.phase == "remove_fields"
    session.journal.close()
    records = [r for _, r in read_journal(path).records]
    assert (records[-2]["type"], records[-2]["token"], records[-2]["source"]) == (
        "fired",
        token,
        "players",
    )
    resumed, _ = resume_session(path)  # and it stays flown
    assert resumed.armed_before_stop == set() and token in resumed.fired_tokens
    resumed.journal.close()


def test_a_journalled_fire_is_never_armed_again(tmp_path):
    path = assist_game_cut_after_the_first_arming(tmp_path)
    session, _ = resume_session(path)
    (token,) = session.armed_before_stop
    field = next(
        json.loads(line)["field"] for line in path.read_text().splitlines() if "armed" in line
    )
    session.fired(field, token)  # the pulse's record made it; the Fired action did not
    session.journal.close()
    session, _ = resume_session(path)
    hw, clock = sim_hardware()
    with hw:
        loop = AssistTable(session, hw, Roller.seeded(4), RecordingView(), sleep=clock.sleep)
        loop.react([])
        assert not hw.eliminator.armed
        thread = run_in_thread(loop.step)
        thread.join(5)
        assert not thread.is_alive() and hw.sim.pulses == []
        assert loop.state.phase == "remove_fields"
    session.journal.close()


def test_tracked_mode_resume_offers_the_confirm_too(tmp_path):
    import random

    from companion.table.loop import TrackedTable
    from companion.table.people import BotAgent, SimOperator

    path = tmp_path / "tracked.jsonl"
    session = GameSession.start(BattleRoyaleConfig(players=3), SessionSettings(bots=3), path)
    hw, clock = sim_hardware()
    rng = random.Random(3)
    with hw:
        TrackedTable(
            session,
            hw,
            Roller.seeded(3),
            RecordingView(),
            {s: BotAgent(rng) for s in range(3)},
            sleep=clock.sleep,
            operator=SimOperator(hw),
        ).run()
    session.journal.close()
    cut_after_the_first_arming(path)
    session, _ = resume_session(path)
    name, token = session.pending_fire
    assert session.armed_before_stop == {token}
    hw, clock = sim_hardware()
    with hw:
        table = TrackedTable(session, hw, Roller.seeded(3), RecordingView(), {}, sleep=clock.sleep)
        thread = run_in_thread(lambda: table.fire_sequence(parse_field(name), token))
        time.sleep(0.2)
        assert thread.is_alive() and hw.sim.pulses == []
        hw.sim.tap("confirm")
        thread.join(5)
        assert not thread.is_alive() and hw.sim.pulses == []
    assert session.pending_fire is None
    session.journal.close()
    last = read_journal(path).records[-1][1]
    assert (last["type"], last["token"], last["source"]) == ("fired", token, "players")


class JournalReadingView(RecordingView):
    """Notes, for every message, whether the journal already held a ``fired`` record."""

    def __init__(self, path) -> None:
        super().__init__()
        self.path = path
        self.fired_on_disk: list[tuple[str, bool]] = []

    def message(self, text: str) -> None:
        super().message(text)
        self.fired_on_disk.append((text, '"type":"fired"' in self.path.read_text()))


def test_a_coil_that_cannot_be_switched_on_is_journalled_and_never_armed_again(
    tmp_path, mock_factory
):
    """gpio: the pin write that switches the coil on raises. The journal says so (a
    ``fired`` record with ``source: "fault"``) before the players are told to lift the
    tile out by hand, and a resumed game never arms that explosion again."""
    path = tmp_path / "g.jsonl"
    config = HardwareConfig(profile="gpio", pulse_ms=20)
    session = GameSession.start(
        BattleRoyaleConfig(players=2), SessionSettings(hardware="gpio"), path
    )
    token, cell = "turn-1-c3", parse_field("c3")
    view = JournalReadingView(path)
    with open_ready(config) as hw:
        coil = mock_factory.pin(config.pins.solenoid)
        real_set_state = coil._set_state

        def failing_set_state(value):
            if value:
                raise OSError("gate driver not responding")
            real_set_state(value)

        coil._set_state = failing_set_state
        table = TableLoop(session, hw, Roller.seeded(1), view)
        result: list[bool] = []
        thread = run_in_thread(lambda: result.append(table.fire_sequence(cell, token)))
        until(lambda: hw.eliminator.armed_token == token)
        mock_factory.pin(config.pins.trigger).drive_low()
        thread.join(5)
        assert result == [False]  # the tile did not fly: lifted out by hand
        assert not any(s.state for s in coil.states)  # never switched on
        assert "gate driver not responding" in (hw.eliminator.fault or "")
    session.journal.close()
    records = [r for _, r in read_journal(path).records]
    fired = [r for r in records if r["type"] == "fired"]
    assert len(fired) == 1
    assert (fired[0]["token"], fired[0]["field"], fired[0]["source"]) == (token, "c3", "fault")
    assert "gate driver not responding" in fired[0]["fault"]
    by_hand = [on_disk for text, on_disk in view.fired_on_disk if "by hand" in text]
    assert by_hand == [True]  # written before anyone was told to reach in

    resumed, _ = resume_session(path)
    assert token in resumed.fired_tokens and token in resumed.fault_tokens
    assert resumed.armed_before_stop == set()
    with open_hardware(HardwareConfig(profile="gpio", pulse_ms=20)) as hw:  # repaired
        coil = mock_factory.pin(config.pins.solenoid)
        table = TableLoop(resumed, hw, Roller.seeded(1), RecordingView())
        assert table.fire_sequence(cell, token) is False  # at once: no arming, no wait
        assert not hw.eliminator.armed and hw.eliminator.pulse_count == 0
        assert coil.state is False
    resumed.journal.close()


def test_an_assist_game_resumed_after_a_solenoid_fault_asks_for_the_tile_by_hand(tmp_path):
    """The table stopped while the players were lifting the tile out after a driver fault:
    the resumed game asks for it again (CONFIRM) and never arms the explosion."""
    path = assist_game_cut_after_the_first_arming(tmp_path)
    session, _ = resume_session(path)
    (token,) = session.armed_before_stop
    with assist_step(session, fault="coil open circuit") as (hw, _, view, thread):
        until(lambda: hw.eliminator.armed_token == token)
        hw.sim.tap("trigger")
        until(lambda: any("CONFIRM" in p and "by hand" in p for p in view.prompts))
        assert thread.is_alive() and hw.sim.pulses == []
    session.journal.close()  # the table stops before the CONFIRM
    records = [r for _, r in read_journal(path).records]
    assert (records[-1]["type"], records[-1]["source"]) == ("fired", "fault")
    assert records[-1]["fault"].endswith("coil open circuit")

    resumed, _ = resume_session(path)
    assert resumed.armed_before_stop == set() and token in resumed.fault_tokens
    with assist_step(resumed) as (hw, loop, view, thread):
        until(lambda: any("by hand" in p for p in view.prompts))
        assert not hw.eliminator.armed  # never armed again
        hw.sim.tap("confirm")
        thread.join(5)
        assert not thread.is_alive() and hw.sim.pulses == []
        assert loop.state.phase == "remove_fields"
    resumed.journal.close()


def test_typing_fire_at_the_terminal_on_gpio_never_fires(tmp_path, mock_factory):
    """On real hardware only the red button fires: `fire` / `f` typed at the terminal while an
    explosion waits for the red button is answered, and nothing is pressed or fired."""
    config = HardwareConfig(profile="gpio", pulse_ms=20)
    session = GameSession.start(
        BattleRoyaleConfig(players=2), SessionSettings(hardware="gpio"), tmp_path / "g.jsonl"
    )
    view = RecordingView()
    terminal = TerminalInput(io.StringIO("fire\nf\nFIRE\nquit\n"))
    with open_ready(config) as hw:  # long open: the cool-down would not refuse a press
        table = TableLoop(session, hw, Roller.seeded(1), view, terminal=terminal)
        with pytest.raises(TableStopped):
            table.fire_sequence(parse_field("c3"), "turn-1-c3")
        assert view.messages.count("on real hardware, press the button itself") == 3
        assert table.fire_results == [] and hw.eliminator.pulse_count == 0
        assert hw.drain_inputs() == []  # no press was made up
        assert not any(s.state for s in mock_factory.pin(config.pins.solenoid).states)
    session.journal.close()


class EdgePresses:
    """The gpio button thread on a manual clock: the player's presses of the red button, each
    judged (and fired, if it may) at its edge, at the times given, while the table rests or
    waits."""

    def __init__(self, guard: SolenoidGuard, clock, at: list[float]) -> None:
        """*at*: seconds after now."""
        self.guard, self.clock, self.at = guard, clock, sorted(clock() + t for t in at)

    def until(self, t: float) -> None:
        while self.clock() < t - 1e-9:
            self.clock.advance(min(0.01, t - self.clock()))
            while self.at and self.at[0] <= self.clock() + 1e-9:
                self.at.pop(0)
                self.guard.trigger_edge()


class FireOnly:
    """The fire sequence of the table loop with what it needs around it, on a manual clock."""

    def __init__(self, guard: SolenoidGuard, hub, player: EdgePresses) -> None:
        from types import SimpleNamespace

        from companion.table.eliminator import FirePath

        self.said: list[str] = []
        self.fired: list[tuple] = []
        loop = FirePath()
        loop.session = SimpleNamespace(
            fired_tokens=set(),
            armed_before_stop=set(),
            fault_tokens=set(),
            armed=lambda field, token: None,
            fired=lambda *record, **more: self.fired.append(record),
        )
        loop.hw = SimpleNamespace(eliminator=guard, inputs=hub)
        loop.view = SimpleNamespace(message=self.said.append)
        loop.state = SimpleNamespace(active=0)
        loop.terminal = None
        loop.fire_results = []
        loop.blink = set()
        loop.paint = loop.heartbeat = lambda: None
        loop.sleep = loop.rest = lambda s: player.until(player.clock() + s)

        def wait_for(buttons, prompt, **kw):
            while True:
                event = hub.get(0)
                if event is not None and event.button in buttons and event.kind == "press":
                    return event
                if event is None and not player.at:
                    raise TableStopped("no more presses")
                player.until(player.clock() + 0.01)

        loop.wait_for = wait_for
        self.loop = loop


def test_one_explosion_fires_once_when_the_table_collects_older_presses_late() -> None:
    """Found by a review: a child presses five times during the cool-down, then once after
    it, and that press fires on its edge. The table, working through the five refused
    presses, rested each one's (old) retry time and armed the explosion again after each,
    so the next press fired a second pulse for the same explosion, while the table still
    said "solenoid cooling down". Now the tile flies once, and the table says so."""
    from companion.hal.events import InputHub
    from companion.hal.sim import ManualClock, SimSolenoid

    clock = ManualClock()
    hub = InputHub(clock)
    coil = SimSolenoid(clock)
    guard = SolenoidGuard(coil, inputs=hub, pulse_ms=60, cooldown_s=3.0, clock=clock,
                          sleep=clock.sleep)  # fmt: skip
    started = clock()
    clock.advance(1.0)  # the explosion is armed 1 s after the table started: 2 s to go
    player = EdgePresses(guard, clock, [0.1, 0.2, 0.3, 0.4, 0.5, 2.5, 6.0, 6.5, 7.0])
    table = FireOnly(guard, hub, player)
    assert table.loop.fire_sequence(parse_field("c3"), "turn-3-c3") is True
    player.until(clock() + 5.0)  # the player goes on pressing; the table has moved on
    assert [round(p.start - started, 2) for p in coil.pulses] == [3.5]  # (and 7.0)
    assert guard.pulse_count == 1 and not guard.armed
    assert table.fired == [("c3", "turn-3-c3")]
    assert table.said[-1] == "Eliminator fired (60 ms)"
    assert sum("cooling down" in text for text in table.said) == 1  # once, with what was left


def test_a_press_that_fires_before_the_fire_sequence_starts_is_collected_by_it() -> None:
    """Found by a review: in assist mode the guard is armed as soon as the rules arm, and a
    press can fire on its edge before the table loop gets to the fire sequence. Its arming
    then met the spent explosion and raised SpentToken out of the table (the service died;
    resumed, the journal had 'armed' and no 'fired', and a press fired a second pulse)."""
    from companion.hal.events import InputHub
    from companion.hal.sim import ManualClock, SimSolenoid

    clock = ManualClock()
    hub = InputHub(clock)
    coil = SimSolenoid(clock)
    guard = SolenoidGuard(coil, inputs=hub, pulse_ms=60, cooldown_s=3.0, clock=clock,
                          sleep=clock.sleep)  # fmt: skip
    clock.advance(3.0)
    table = FireOnly(guard, hub, EdgePresses(guard, clock, []))
    cell, token = parse_field("c4"), "turn-2-c4"
    table.loop.arm_explosion(cell, token)  # assist mode: as the rules arm it
    clock.advance(0.5)
    guard.trigger_edge()  # a child presses while the table draws: the tile flies
    assert table.loop.fire_sequence(cell, token) is True
    assert guard.pulse_count == 1 and table.fired == [("c4", token)]


class InOrder(RecordingView):
    """What people read, in the order it is shown: events by kind, messages and prompts."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def update(self, state, events) -> None:
        super().update(state, events)
        self.seen += [e.kind for e in events]

    def message(self, text: str) -> None:
        super().message(text)
        self.seen.append(f"* {text}")

    def prompt(self, text: str, options=(), seat=None) -> None:
        super().prompt(text, options, seat)
        self.seen.append(f"> {text}")


def test_tracked_events_around_the_eliminator_read_in_the_order_of_the_table() -> None:
    """Found by a newcomer: the Doom roll (and a card's moves) that armed an explosion were
    shown after 'Eliminator fired', as if the die were rolled after the coil fired. Now:
    the roll, the explosion, the red button, the pulse, then what fell, then whose turn."""
    from companion.games.battle_royale import new_game

    hw, clock = sim_hardware()
    session = GameSession(
        new_game(BattleRoyaleConfig(players=3)), BattleRoyaleConfig(players=3), SessionSettings()
    )
    view = InOrder()
    table = bot_table(session, hw, clock, 5, view=view)
    with hw:
        table.run_until(lambda s: bool(table.fire_results) and s.phase != "blast")
    seen = view.seen
    armed = seen.index("explosion_armed")
    fired = next(i for i, line in enumerate(seen) if line.startswith("* Eliminator fired"))
    red = next(i for i, line in enumerate(seen) if "RED BUTTON" in line)
    cause = max(i for i, kind in enumerate(seen[:fired]) if kind in ("doom_rolled", "doom_action"))
    assert cause < armed < red < fired < seen.index("field_exploded")
    assert "turn_started" not in seen[armed:fired]
