"""The Pi service and systemd: sd_notify READY/STATUS/WATCHDOG/STOPPING, the table loop's
heartbeat, and logging the journal can read."""

from __future__ import annotations

import io
import logging
import os
import re
import socket
import threading
import time
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.battle_royale import BattleRoyaleConfig
from companion.games.battle_royale.assist import new_assist_game
from companion.hal import HardwareConfig, ManualClock, open_hardware
from companion.logs import JournaldFormatter, configure_logging, stream_is_journal
from companion.notify import Notifier
from companion.table.loop import REST_STEP_S, TableLoop


class QuietView:
    def update(self, state, events) -> None: ...

    def message(self, text: str) -> None: ...

    def prompt(self, text: str, options=()) -> None: ...


class FakeSystemd:
    """A datagram socket standing in for systemd's, read at once as systemd does (the
    kernel queues only a few datagrams); ``read()`` returns what arrived so far."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(0.05)
        self.messages: list[str] = []
        self.running = True
        self.thread = threading.Thread(target=self._receive, daemon=True)
        self.thread.start()

    def _receive(self) -> None:
        while self.running:
            try:
                self.messages.append(self.sock.recv(4096).decode("utf-8"))
            except TimeoutError:
                continue

    def read(self) -> list[str]:
        time.sleep(0.1)  # let the last datagrams in
        return list(self.messages)

    def close(self) -> None:
        self.running = False
        self.thread.join(1.0)
        self.sock.close()


@pytest.fixture
def notify_socket(tmp_path):
    systemd = FakeSystemd(tmp_path / "notify")
    yield systemd
    systemd.close()


# --- the protocol -------------------------------------------------------------------------------


def test_ready_status_watchdog_stopping_reach_the_socket(notify_socket) -> None:
    notifier = Notifier(str(notify_socket.path), watchdog_s=10.0)
    notifier.ready("sim hardware, 4 players")
    notifier.status("game 1")
    notifier.stopping()
    assert notify_socket.read() == [
        "READY=1\nSTATUS=sim hardware, 4 players",
        "STATUS=game 1",
        "STOPPING=1",
    ]


def test_the_abstract_namespace(notify_socket) -> None:
    name = f"companion-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    try:
        assert Notifier("@" + name).send(ready="1")
        assert sock.recv(100) == b"READY=1"
    finally:
        sock.close()


def test_heartbeats_are_spaced_a_quarter_of_the_timeout() -> None:
    now = [0.0]
    sent: list[str] = []
    notifier = Notifier("/unused", watchdog_s=8.0, clock=lambda: now[0])
    notifier.send = lambda **fields: sent.append(fields) or True  # type: ignore[method-assign]
    for step in range(41):  # 0.0 .. 4.0 s, a poll every 0.1 s
        now[0] = step / 10
        notifier.heartbeat()
    assert [f for f in sent if f == {"watchdog": "1"}] == [{"watchdog": "1"}] * 3  # 0, 2, 4 s


def test_environment_outside_systemd_and_a_watchdog_for_another_process() -> None:
    assert not Notifier.from_environ({}).enabled
    Notifier.from_environ({}).heartbeat()  # nothing to send to: no error
    env = {"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "15000000"}
    assert Notifier.from_environ(env).watchdog_s == 15.0
    assert Notifier.from_environ({**env, "WATCHDOG_PID": str(os.getpid())}).watchdog_s == 15.0
    assert Notifier.from_environ({**env, "WATCHDOG_PID": "1"}).watchdog_s is None
    assert Notifier.from_environ({"WATCHDOG_USEC": "15000000"}).watchdog_s is None


def test_a_vanished_socket_is_one_warning_not_a_crash(tmp_path, caplog) -> None:
    notifier = Notifier(str(tmp_path / "gone"), watchdog_s=1.0)
    with caplog.at_level(logging.WARNING, logger="companion.notify"):
        assert not notifier.send(ready="1")
        assert not notifier.send(watchdog="1")
    assert len(caplog.records) == 1 and "cannot notify systemd" in caplog.text


# --- the table loop's heartbeat -----------------------------------------------------------


def make_loop(hw, clock: ManualClock, beat) -> TableLoop:
    state = new_assist_game(BattleRoyaleConfig(players=2, start_player=0))
    return TableLoop(state, hw, None, QuietView(), sleep=clock.sleep, heartbeat=beat)


def test_waiting_for_a_button_beats_on_every_poll() -> None:
    clock = ManualClock()
    with open_hardware(HardwareConfig(profile="sim"), clock=clock) as hw:
        beats = []

        def beat() -> None:
            beats.append(1)
            if len(beats) == 5:  # someone presses ROLL after four idle polls
                hw.sim.tap("roll", 0.03)

        event = make_loop(hw, clock, beat).wait_for({"roll"}, "press ROLL")
    assert event.button == "roll" and len(beats) >= 5


class AwayBoard:
    """Hardware whose I/O board is away for three waits, then back."""

    def __init__(self, hw) -> None:
        self._hw = hw
        self.waits = 0
        self.link_status = "I/O board unplugged"

    def __getattr__(self, name):
        return getattr(self._hw, name)

    @property
    def connected(self) -> bool:
        return self.waits >= 3

    def wait_connected(self, timeout: float) -> bool:
        self.waits += 1
        return self.connected


def test_a_pause_for_the_board_keeps_beating() -> None:
    clock = ManualClock()
    with open_hardware(HardwareConfig(profile="sim"), clock=clock) as hw:
        beats = []
        make_loop(AwayBoard(hw), clock, lambda: beats.append(1)).pause_for_board()
    assert len(beats) == 2  # each failed wait beats; the third wait finds the board


def test_a_long_cool_down_is_waited_out_in_beating_steps() -> None:
    clock = ManualClock()
    with open_hardware(HardwareConfig(profile="sim"), clock=clock) as hw:
        beats = []
        loop = make_loop(hw, clock, lambda: beats.append(clock()))
        start = clock()
        loop.rest(4.5)
    assert clock() - start == pytest.approx(4.5)
    gaps = [b - a for a, b in zip([start, *beats], beats, strict=False)]
    assert len(beats) == 5 and max(gaps) <= REST_STEP_S


# --- serve under a (fake) systemd -----------------------------------------------------------


@pytest.mark.slow
def test_serve_is_ready_after_the_hardware_opens_and_feeds_the_watchdog(
    notify_socket, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(notify_socket.path))
    monkeypatch.setenv("WATCHDOG_USEC", "200000")  # 0.2 s: a beat every 0.05 s
    assert main(["serve", "--autoplay", "--games", "1"]) == 0
    messages = notify_socket.read()
    assert messages[0].startswith("READY=1\nSTATUS=sim hardware, 4 players")
    assert messages[1].startswith("STATUS=game 1, journal ")
    assert messages.count("WATCHDOG=1") >= 2  # fed while the loop waited for presses
    assert messages[-1] == "STOPPING=1"
    assert "READY=1" not in "".join(messages[1:])


@pytest.mark.slow
def test_serve_without_systemd_sends_nothing_and_logs_to_stderr(capsys) -> None:
    assert main(["serve", "--autoplay", "--games", "1"]) == 0
    err = capsys.readouterr().err
    assert " INFO companion serve: ready (sim hardware" in err
    assert "game 1 over after" in err and "finished, solenoid and LEDs off" in err


# --- logging --------------------------------------------------------------------------------


def test_journal_lines_carry_the_syslog_priority_and_no_time(tmp_path) -> None:
    path = tmp_path / "journal-stream"
    with path.open("w") as stream:
        info = os.fstat(stream.fileno())
        os.environ["JOURNAL_STREAM"] = f"{info.st_dev}:{info.st_ino}"
        try:
            assert stream_is_journal(stream)
            handler = configure_logging("debug", stream)
            log = logging.getLogger("companion.test")
            log.debug("d")
            log.info("ready")
            log.warning("two\nlines")
            log.error("e")
            handler.flush()
        finally:
            del os.environ["JOURNAL_STREAM"]
            configure_logging("warning")
    assert isinstance(handler.formatter, JournaldFormatter)
    assert path.read_text().splitlines() == ["<7>d", "<6>ready", "<4>two", "<4>lines", "<3>e"]


def test_elsewhere_lines_have_time_and_level(tmp_path) -> None:
    path = tmp_path / "log"
    with path.open("w") as stream:
        assert not stream_is_journal(stream, {"JOURNAL_STREAM": "1:2"})
        handler = configure_logging("info", stream)
        logging.getLogger("companion.test").info("hello")
        logging.getLogger("companion.test").debug("hidden")
        handler.flush()
    configure_logging("warning")
    (line,) = path.read_text().splitlines()
    assert line.endswith(" INFO hello") and line[:4].isdigit()


def test_log_lines_follow_a_swapped_standard_error(monkeypatch) -> None:
    """rich's live dashboard swaps sys.stderr to print log lines above the display."""
    configure_logging("info")
    swapped = io.StringIO()
    monkeypatch.setattr("sys.stderr", swapped)
    logging.getLogger("companion.test").info("above the dashboard")
    assert swapped.getvalue().endswith(" INFO above the dashboard\n")


@pytest.mark.slow
def test_log_level_option(capsys) -> None:
    assert main(["--log-level", "warning", "serve", "--autoplay", "--games", "1"]) == 0
    assert "ready" not in capsys.readouterr().err  # info is below warning
    with pytest.raises(SystemExit):
        main(["--log-level", "loud", "dice"])
    assert "invalid choice: 'loud'" in capsys.readouterr().err


def test_the_log_handler_is_replaced_not_stacked() -> None:
    logger = logging.getLogger("companion")
    before = len(logger.handlers)
    configure_logging("info")
    configure_logging("warning")
    assert len(logger.handlers) == max(before, 1)


def test_only_the_service_command_talks_to_systemd() -> None:
    """The table loop only calls a heartbeat; hal and table know nothing of systemd."""
    root = Path(__file__).resolve().parents[1] / "companion"
    users = sorted(
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if re.search(r"^\s*(from|import) companion\.notify", p.read_text("utf-8"), re.M)
    )
    assert users == ["commands/serve.py"]
