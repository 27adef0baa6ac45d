"""Journal edge cases: a failed resume changes nothing, torn versus corrupt, bounded reads,
header shapes, a full disk, data files that are not files, seeded games that resume."""

from __future__ import annotations

import errno
import json
import os
import random
import re
import shutil
import signal
import sys
import tracemalloc
from pathlib import Path

import pytest
from stops import StopDropped
from table_helpers import RecordingView, bot_game, bot_table, sim_hardware

from companion.cli import main
from companion.games.battle_royale import BattleRoyaleConfig
from companion.table.journal import (
    MAX_LINE_BYTES,
    JournalError,
    JournalWriter,
    read_journal,
    record_crc,
)
from companion.table.loop import TableLoop, TrackedTable
from companion.table.session import GameSession, SessionSettings, load_resume


@pytest.fixture(scope="module")
def finished_game(tmp_path_factory) -> bytes:
    path = tmp_path_factory.mktemp("journal") / "game.jsonl"
    bot_game(path)
    return path.read_bytes()


def lines_of(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def torn_journal(tmp_path: Path, data: bytes, keep: int = 40) -> Path:
    """The first ``keep`` lines of a game and half of the next one (a power cut)."""
    lines = lines_of(data)
    path = tmp_path / "torn.jsonl"
    path.write_bytes(b"".join(lines[:keep]) + lines[keep][:17])
    return path


def resealed(line: bytes, change) -> bytes:
    """A record changed by ``change`` with its CRC recomputed (it passes the checksum)."""
    record = json.loads(line)
    record = change(record)
    if isinstance(record, dict):
        record.pop("crc", None)
        record["crc"] = record_crc(record)
    return json.dumps(record).encode() + b"\n"


def run(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


# -- a failed resume never modifies the file --------------------------------------------------


def test_a_bad_config_fails_the_resume_before_the_torn_tail_is_cut(tmp_path, finished_game, capsys):
    path = torn_journal(tmp_path, finished_game)
    before = path.read_bytes()
    bad = tmp_path / "bad.toml"
    bad.write_text("[hardware]\npulse_ms = 10000\n")
    assert run(["resume", str(path), "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "hardware.pulse_ms" in err and "Traceback" not in err
    assert path.read_bytes() == before


@pytest.mark.parametrize("profile", ["gpio", "serial"])
def test_missing_hardware_fails_the_resume_before_the_torn_tail_is_cut(
    tmp_path, finished_game, capsys, no_pins, no_board, profile
):
    path = torn_journal(tmp_path, finished_game)
    before = path.read_bytes()
    assert run(["resume", str(path), "--hardware", profile]) == 2
    err = capsys.readouterr().err
    assert f"cannot open the {profile} hardware" in err and "--hardware sim" in err
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["torn.jsonl"]


@pytest.mark.slow
def test_until_line_writes_its_new_file_only_when_the_game_continues(
    tmp_path, finished_game, capsys, no_pins
):
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"".join(lines_of(finished_game)[:60]))
    assert run(["resume", str(path), "--until-line", "30", "--hardware", "gpio"]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]
    assert run(["resume", str(path), "--until-line", "30"]) == 0
    assert read_journal(tmp_path / "game.from-line-30.jsonl").finished


# -- torn versus corrupt ----------------------------------------------------------------------


def test_a_bad_crc_in_the_last_complete_record_is_corruption_not_a_torn_write(
    tmp_path, finished_game
):
    lines = lines_of(finished_game)[:50]
    last = bytearray(lines[-1])
    at = last.index(b'"n":') + 4
    last[at] = ord("9") if last[at] != ord("9") else ord("8")  # one byte flipped
    lines[-1] = bytes(last)
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"".join(lines))
    before = path.read_bytes()
    with pytest.raises(JournalError) as err:
        load_resume(path)
    message = str(err.value)
    assert "line 50" in message and "corrupt" in message and "--until-line 49" in message
    assert path.read_bytes() == before


def test_only_an_incomplete_last_line_is_a_torn_write(tmp_path, finished_game):
    path = torn_journal(tmp_path, finished_game)
    contents = read_journal(path)
    assert len(contents.records) == 39 and "torn" in contents.warnings[0]


def test_a_huge_tail_without_a_newline_is_corruption_read_in_bounded_memory(
    tmp_path, finished_game
):
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"".join(lines_of(finished_game)[:30]))
    with open(path, "r+b") as handle:  # 100 MB of zero bytes (sparse: no disk used)
        handle.truncate(path.stat().st_size + 100 * 1024 * 1024)
    tracemalloc.start()
    try:
        with pytest.raises(JournalError) as err:
            read_journal(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "line 31" in str(err.value) and "longer than 64 KiB" in str(err.value)
    assert peak < 4 * MAX_LINE_BYTES + 1024 * 1024  # one bounded line, never the file
    with pytest.raises(JournalError, match="line 31"):
        load_resume(path)


def test_a_torn_tail_may_be_as_long_as_one_record(tmp_path, finished_game):
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"".join(lines_of(finished_game)[:30]) + b"x" * MAX_LINE_BYTES)
    assert len(read_journal(path).records) == 29
    path.write_bytes(b"".join(lines_of(finished_game)[:30]) + b"x" * (MAX_LINE_BYTES + 1))
    with pytest.raises(JournalError, match="line 31.*corrupt"):
        read_journal(path)


# -- header shapes, nesting, line length -----------------------------------------------------


HEADER_CHANGES = {
    "bots are words": lambda h: {**h, "session": {**h["session"], "bots": "many"}},
    "session is a list": lambda h: {**h, "session": [1]},
    "a data file is a string": lambda h: {**h, "data_files": {"dice": "builtin:dice.json"}},
    "data files are a list": lambda h: {**h, "data_files": ["dice"]},
    "config is a list": lambda h: {**h, "config": [4]},
    "game is a number": lambda h: {**h, "game": 5},
    "seed is text": lambda h: {**h, "session": {**h["session"], "seed": "x"}},
    "bot seats are words": lambda h: {**h, "session": {**h["session"], "bot_seats": ["a"]}},
    "hardware unknown": lambda h: {**h, "session": {**h["session"], "hardware": "toaster"}},
    "players are text": lambda h: {**h, "config": {**h["config"], "players": "four"}},
    "data file is a number": lambda h: {**h, "config": {**h["config"], "data_file": 7}},
}


@pytest.mark.parametrize("change", HEADER_CHANGES.values(), ids=HEADER_CHANGES.keys())
@pytest.mark.parametrize("command", ["resume", "replay"])
def test_a_header_of_the_wrong_shape_is_one_message(
    tmp_path, finished_game, capsys, change, command
):
    lines = lines_of(finished_game)[:40]
    lines[0] = resealed(lines[0], change)
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"".join(lines))
    before = path.read_bytes()
    assert run([command, str(path)]) == 2
    err = capsys.readouterr().err
    assert "line 1" in err and "Traceback" not in err and err.count("\n") == 1
    assert path.read_bytes() == before


@pytest.mark.parametrize("depth", [100_000, 20_000, 40])
@pytest.mark.parametrize("command", ["resume", "replay"])
def test_deeply_nested_lines_are_one_message_with_the_line(
    tmp_path, finished_game, capsys, depth, command
):
    lines = lines_of(finished_game)[:30]
    nested = b"[" * depth + b"]" * depth
    lines.append(b'{"type":"action","n":29,"action":' + nested + b"}\n")
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"".join(lines))
    assert run([command, str(path)]) == 2
    err = capsys.readouterr().err
    assert "line 31" in err and "Traceback" not in err


def test_a_well_formed_record_that_is_not_an_action_cannot_be_replayed(tmp_path, finished_game):
    lines = lines_of(finished_game)[:30]
    n = json.loads(lines[-1])["n"] + 1
    record = {"type": "action", "n": n, "action": [1, 2]}
    record["crc"] = record_crc(record)
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"".join(lines) + json.dumps(record).encode() + b"\n")
    with pytest.raises(JournalError, match="line 31: this record cannot be replayed"):
        load_resume(path)


# -- data files that are not regular files -----------------------------------------------------


def test_a_device_as_data_file_in_a_journal_header_is_refused(tmp_path, finished_game, capsys):
    lines = lines_of(finished_game)[:30]
    lines[0] = resealed(
        lines[0],
        lambda h: {
            **h,
            "data_files": {**h["data_files"], "battle-royale": {"path": "/dev/zero", "sha256": ""}},
        },
    )
    path = tmp_path / "game.jsonl"
    path.write_bytes(b"".join(lines))
    assert run(["resume", str(path)]) == 2
    assert "/dev/zero: not a regular file" in capsys.readouterr().err
    lines[0] = resealed(
        lines[0], lambda h: {**h, "config": {**h["config"], "data_file": "/dev/zero"}}
    )
    path.write_bytes(b"".join(lines))
    assert run(["replay", str(path)]) == 2
    assert "/dev/zero: not a regular file" in capsys.readouterr().err


def test_a_pipe_or_a_device_as_journal_is_one_message_and_never_opened(tmp_path, capsys):
    pipe = tmp_path / "game.jsonl"
    os.mkfifo(pipe)  # opening a pipe for reading would wait for a writer forever
    for argv in (["resume", str(pipe)], ["replay", str(pipe)], ["resume", "/dev/zero"]):
        assert run(argv) == 2
        assert "is not a regular file" in capsys.readouterr().err
    assert run(["journals", "--dir", str(tmp_path)]) == 0  # listed as damaged, not read
    assert "damaged" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "battle-royale", "--data", "/dev/zero"],
        ["demo", "--data", "/dev/zero"],
        ["demo", "--game", "skirmish", "--data", "/dev/zero"],
        ["gladiatoren", "demo", "--data", "/dev/zero"],
        ["spartacus", "fight", "--data", "/dev/zero"],
        ["attack", "--attacker", "1", "--target", "2", "--data", "/dev/zero"],
        ["spartacus", "cards", "check", "/dev/zero"],
    ],
)
def test_a_device_as_data_file_on_the_command_line_is_refused(argv, capsys):
    assert run(argv) == 2
    assert "/dev/zero: not a regular file" in capsys.readouterr().err


@pytest.mark.parametrize("game", ["battle-royale", "skirmish", "gladiatoren", "spartacus"])
def test_every_engine_loader_refuses_a_device_before_reading_it(game, tmp_path):
    from companion.games.core.errors import DataError
    from companion.games.registry import get_game

    config = get_game(game).config  # the engine's own loader, whoever calls it
    with pytest.raises((DataError, ValueError), match="/dev/zero: not a regular file"):
        config(data_file="/dev/zero")
    with pytest.raises((DataError, ValueError), match="folder"):
        config(data_file=str(tmp_path))


def test_a_data_file_over_the_size_cap_is_refused(tmp_path, capsys):
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(2 * 1024 * 1024)
    assert run(["demo", "--data", str(big)]) == 2
    assert "a data file has at most" in capsys.readouterr().err


# -- the disk fills up while playing ---------------------------------------------------------


class FillingDisk:
    """A journal file whose writes fail with ENOSPC ``failures`` times (after writing part
    of the line), for the record whose text contains ``marker``; then space is back."""

    def __init__(self, handle, marker: bytes, failures: int) -> None:
        self.handle = handle
        self.marker = marker
        self.failures = failures
        self.refused = 0

    def write(self, data) -> int:
        if self.marker in bytes(data) and self.refused < self.failures:
            self.refused += 1
            self.handle.write(bytes(data)[: len(data) // 2])  # a partial write, then full
            raise OSError(errno.ENOSPC, "No space left on device")
        return self.handle.write(data)

    def __getattr__(self, name):
        return getattr(self.handle, name)


def test_a_full_disk_pauses_the_table_without_acting_until_space_is_back(tmp_path, mocker):
    path = tmp_path / "game.jsonl"
    hw, clock = sim_hardware()
    session = GameSession.start(BattleRoyaleConfig(players=2), SessionSettings(bots=2), path)
    disk = FillingDisk(session.journal._file, b'"face":', failures=3)
    session.journal._file = disk
    waits: list[float] = []
    session.journal.sleep = waits.append
    view = RecordingView()
    session.journal.notify = view.message

    def last_record() -> dict:
        return json.loads(path.read_bytes().splitlines()[-1])

    real_animate = TableLoop.animate_roll
    shown: list[str] = []

    def animate(self, face):
        record = last_record()  # the roll is durable (whole) before its face shows
        assert record["type"] == "action" and record["action"]["face"] == face
        shown.append(face)
        return real_animate(self, face)

    mocker.patch.object(TableLoop, "animate_roll", animate)
    beats: list[int] = []  # how many waits had passed at each heartbeat
    table = bot_table(session, hw, clock, 2, view, heartbeat=lambda: beats.append(len(waits)))
    with hw:
        table.run()
    session.journal.close()
    assert disk.refused == 3 and len(waits) == 3 and shown
    # the service's watchdog is fed while the table waits: before each retry
    assert {0, 1, 2} <= set(beats)
    full = [m for m in view.messages if "disk is full" in m]
    back = [m for m in view.messages if "disk space is back" in m]
    assert len(full) == 1 and len(back) == 1
    assert view.messages.index(full[0]) < view.messages.index(back[0])
    contents = read_journal(path)  # no partial record was left in the file
    assert contents.finished and not contents.warnings


def test_a_full_disk_never_arms_the_eliminator_before_its_armed_record_is_whole(tmp_path):
    path = tmp_path / "game.jsonl"
    hw, clock = sim_hardware()
    session = GameSession.start(BattleRoyaleConfig(players=2), SessionSettings(bots=2), path)
    disk = FillingDisk(session.journal._file, b'"type":"armed"', failures=2)
    session.journal._file = disk
    armed_while_waiting: list[str | None] = []

    def wait(seconds: float) -> None:  # the table waits for space: is anything armed?
        armed_while_waiting.append(hw.eliminator.armed_token)

    session.journal.sleep = wait
    session.journal.notify = lambda text: None
    with hw:
        bot_table(session, hw, clock, 2).run()
    session.journal.close()
    assert disk.refused == 2 and armed_while_waiting == [None, None]
    records = [r for _, r in read_journal(path).records]
    assert [r["type"] for r in records].count("armed") == len(hw.sim.pulses) >= 1
    assert records[-1]["type"] == "end"


@pytest.mark.parametrize(
    ("signum", "raises"),
    [(signal.SIGTERM, SystemExit), (signal.SIGINT, KeyboardInterrupt)],
    ids=["SIGTERM", "SIGINT"],
)
def test_a_stop_ends_the_wait_for_space_and_the_journal_keeps_every_record(
    tmp_path, monkeypatch, signum, raises
):
    path = tmp_path / "game.jsonl"
    hw, clock = sim_hardware()
    session = GameSession.start(BattleRoyaleConfig(players=2), SessionSettings(bots=2), path)
    disk = FillingDisk(session.journal._file, b'"face":', failures=10**6)  # never space again
    session.journal._file = disk
    waits: list[float] = []

    def wait(seconds: float) -> None:
        assert len(waits) < 50, "the table waits for space for ever after a stop"
        waits.append(seconds)
        if len(waits) == 1:
            StopDropped(signum)  # the stop arrives while the table waits

    monkeypatch.setattr(sys, "unraisablehook", lambda u: None)  # the drop is the point
    session.journal.sleep = wait
    session.journal.notify = lambda text: None
    with hw, pytest.raises(raises):
        bot_table(session, hw, clock, 2).run()
    session.journal.close()
    assert waits == [session.journal.retry_s] and disk.refused == 2
    contents = read_journal(path)  # every record written is there, none half
    assert [r["n"] for _, r in contents.records] == list(range(1, session.journal.next_n))
    assert not contents.finished and not contents.warnings
    assert '"face":' not in json.dumps(contents.records[-1][1])  # the roll was not written
    resumed = load_resume(path)  # ... nor acted on: the game continues where it stopped
    assert resumed.session.state.history == session.state.history


def test_serve_ends_its_wait_for_space_on_a_stop(monkeypatch):
    from companion.commands import serve
    from companion.notify import Notifier

    monkeypatch.setattr(serve, "DISK_FULL_RETRY_S", 0.0)
    monkeypatch.setattr(sys, "unraisablehook", lambda u: None)
    tries: list[int] = []

    def start():
        assert len(tries) < 50, "serve waits for space for ever after a stop"
        tries.append(1)
        if len(tries) == 1:
            StopDropped(signal.SIGTERM)  # the stop arrives while serve waits
        raise OSError(errno.ENOSPC, "No space left on device")

    hw, _ = sim_hardware()
    with hw, pytest.raises(SystemExit) as stop:
        serve._start_when_there_is_space(start, Notifier(None), hw.raise_if_stopped)
    assert stop.value.code == 143 and len(tries) == 1


def test_a_failed_fsync_rewrites_the_record_once_space_is_back(tmp_path, mocker):
    path = tmp_path / "j.jsonl"
    writer = JournalWriter.create(path, {"format": "companion-journal/1"})
    real_fsync = os.fsync
    calls = {"n": 0}

    def fsync(fd):
        calls["n"] += 1
        if calls["n"] == 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_fsync(fd)

    mocker.patch.object(os, "fsync", fsync)
    writer.sleep = lambda s: None
    told: list[str] = []
    writer.notify = told.append
    writer.append("undo", count=1)
    writer.append("undo", count=2)
    writer.close()
    records = [json.loads(x) for x in path.read_bytes().splitlines()]
    assert [r.get("count") for r in records[1:]] == [1, 2] and len(told) == 2


@pytest.mark.slow
def test_another_write_error_stops_the_game_with_one_message(tmp_path, capsys, mocker):
    from companion.table.journal import JournalWriter as Writer

    real = Writer._write_once
    calls = {"n": 0}

    def broken(self, line):
        calls["n"] += 1
        if calls["n"] > 5:
            raise OSError(errno.EIO, "Input/output error")
        return real(self, line)

    mocker.patch.object(Writer, "_write_once", broken)
    path = tmp_path / "game.jsonl"
    assert run(["demo", "--journal", str(path)]) == 2
    err = capsys.readouterr().err
    assert "cannot write the journal" in err and "Input/output error" in err
    assert "companion resume" in err and "Traceback" not in err


# -- seeded games resume exactly ------------------------------------------------------------

SEEDED_GAMES = {  # the command line of each game, with its seed
    "battle-royale tracked": "demo --players 3 --seed 8",
    "battle-royale assist": "play battle-royale --mode assist --autoplay --players 2 --seed 3",
    "skirmish": "demo --game skirmish --seed 4",
    "gladiatoren": "demo --game gladiatoren --players 3 --seed 6",
    "spartacus": "demo --game spartacus --players 2 --seed 2",
}


@pytest.mark.slow
@pytest.mark.parametrize("command", SEEDED_GAMES.values(), ids=SEEDED_GAMES.keys())
def test_a_resumed_seeded_game_continues_the_uninterrupted_run(tmp_path, capsys, command):
    argv = command.split()
    reference = tmp_path / "reference.jsonl"
    assert run([*argv, "--journal", str(reference)]) == 0
    seed = argv[argv.index("--seed") + 1]
    assert f"seed {seed}" in capsys.readouterr().out
    lines = lines_of(reference.read_bytes())
    rng = random.Random(len(lines))
    for cut in sorted(rng.sample(range(2, len(lines) - 2), 2)):
        path = tmp_path / f"cut-{cut}.jsonl"
        path.write_bytes(b"".join(lines[:cut]) + lines[cut][: len(lines[cut]) // 2])  # torn
        assert run(["resume", str(path)]) == 0
        assert f"seed {seed}" in capsys.readouterr().out  # the banner shows the game's seed
        resumed = [r for _, r in read_journal(path).records]
        assert resumed == [r for _, r in read_journal(reference).records]


# -- Ctrl-C -----------------------------------------------------------------------------------


@pytest.mark.slow
def test_ctrl_c_prints_the_resume_hint_of_quit_and_exits_130(tmp_path, capsys, mocker):
    real_step = TrackedTable.step
    steps = {"n": 0}

    def step(self):
        steps["n"] += 1
        if steps["n"] == 25:
            raise KeyboardInterrupt
        return real_step(self)

    mocker.patch.object(TrackedTable, "step", step)
    path = tmp_path / "game.jsonl"
    assert run(["demo", "--seed", "4", "--journal", str(path)]) == 130
    out = capsys.readouterr().out
    assert re.search(
        rf"game stopped \(Ctrl-C\) after \d+ actions; continue it with: companion resume {path}",
        out.replace("\n", " "),
    )
    mocker.stopall()
    assert run(["resume", str(path)]) == 0


def test_quit_prints_the_same_hint(tmp_path, capsys, monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    path = tmp_path / "game.jsonl"
    code = run(
        ["play", "battle-royale", "--seed", "2", "--start-player", "0", "--journal", str(path)]
    )
    assert code == 1
    out = capsys.readouterr().out.replace("\n", " ")
    assert "game stopped (quit) after" in out
    assert f"continue it with: companion resume {path}" in out


def test_copying_a_journal_keeps_it_resumable(tmp_path, finished_game):
    path = torn_journal(tmp_path, finished_game)
    copy = tmp_path / "copy.jsonl"
    shutil.copy(path, copy)
    pending = load_resume(copy)
    pending.attach().journal.close()
    assert read_journal(copy).warnings == []  # the torn tail was cut only on attach
