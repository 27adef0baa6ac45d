"""A season on one Pi: the journal folder, finding the unfinished game without reading
history, demos kept apart, retention, ``companion journals`` and bounded recordings."""

from __future__ import annotations

import errno
import json
import os
import shutil
import time
from pathlib import Path

import pytest

from companion.cli import main
from companion.hal import HardwareConfig, ManualClock, open_hardware
from companion.hal.display import RECORD_LIMIT
from companion.table import journals as folder
from companion.table.journal import (
    default_journal_dir,
    demo_journal_dir,
    peek_journal,
    read_journal,
)


def run(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


@pytest.fixture(scope="module")
def journals(tmp_path_factory) -> tuple[bytes, bytes]:
    """A finished and an unfinished assist journal (bytes), played by simulated people."""
    where = tmp_path_factory.mktemp("season")
    done = where / "done.jsonl"
    assert run(["serve", "--autoplay", "--games", "1", "--journal", str(done)]) == 0
    lines = done.read_bytes().splitlines(keepends=True)
    unfinished = [json.loads(lines[0])]
    unfinished[0]["session"].pop("demo", None)  # as a real table's game would be
    from companion.table.journal import record_crc

    unfinished[0].pop("crc")
    unfinished[0]["crc"] = record_crc(unfinished[0])
    header = json.dumps(unfinished[0]).encode() + b"\n"
    return header + b"".join(lines[1:]), header + b"".join(lines[1:40])


def fill(directory: Path, finished: bytes, count: int, *, at_top: bool = False) -> None:
    target = directory if at_top else directory / folder.FINISHED
    target.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        (target / f"20260101-{i:06d}-battle-royale-assist.jsonl").write_bytes(finished)


def test_finding_the_unfinished_game_reads_nothing_of_finished_history(tmp_path, journals, mocker):
    finished, unfinished = journals
    fill(tmp_path, finished, 200)
    game = tmp_path / "20260102-000000-battle-royale-assist.jsonl"
    game.write_bytes(unfinished)
    peek = mocker.spy(folder, "peek_journal")
    assert folder.find_unfinished(tmp_path, mode="assist") == game
    assert [call.args[0] for call in peek.call_args_list] == [game]


def test_a_finished_journal_left_at_the_top_is_archived_when_seen(tmp_path, journals):
    finished, unfinished = journals
    fill(tmp_path, finished, 3, at_top=True)
    assert folder.find_unfinished(tmp_path, mode="assist") is None
    assert not list(tmp_path.glob("*.jsonl"))
    assert len(list((tmp_path / folder.FINISHED).glob("*.jsonl"))) == 3


@pytest.mark.slow
def test_serve_archives_each_finished_game_and_keeps_only_the_retention(tmp_path, journals, capsys):
    finished, _ = journals
    fill(tmp_path, finished, 3)
    old = sorted((tmp_path / folder.FINISHED).iterdir())
    for i, path in enumerate(old):  # the oldest first
        os.utime(path, (time.time() - 1000 + i, time.time() - 1000 + i))
    config = tmp_path / "table.toml"
    config.write_text("[journal]\nkeep_finished = 2\n")
    code = run(
        [
            "serve",
            "--autoplay",
            "--games",
            "2",
            "--journal-dir",
            str(tmp_path),
            "--config",
            str(config),
        ]
    )
    assert code == 0
    log = capsys.readouterr().err  # the service logs (the journal under systemd)
    assert "deleted the 2 oldest finished journal(s) (keeping 2" in log
    kept = sorted(p.name for p in (tmp_path / folder.FINISHED).iterdir())
    assert len(kept) == 2 and not {p.name for p in old} & set(kept)  # the season's new games
    assert not list(tmp_path.glob("*.jsonl"))  # nothing unfinished was left at the top


@pytest.mark.slow
def test_serve_sets_a_journal_it_cannot_resume_aside_and_starts_a_new_game(
    tmp_path, journals, capsys
):
    _, unfinished = journals
    broken = tmp_path / "20260102-000000-battle-royale-assist.jsonl"
    lines = unfinished.splitlines(keepends=True)
    broken.write_bytes(b"".join(lines[:10]) + b'{"type":"action"}\n' + b"".join(lines[10:20]))
    before = broken.read_bytes()
    assert run(["serve", "--autoplay", "--games", "1", "--journal-dir", str(tmp_path)]) == 0
    log = capsys.readouterr().err
    assert "cannot resume" in log and "line 11" in log and "moved to" in log
    moved = tmp_path / folder.DAMAGED / broken.name
    assert moved.read_bytes() == before and not broken.exists()


@pytest.mark.slow
def test_demos_and_autoplay_never_write_where_serve_resumes(capsys):
    assert run(["demo", "--players", "2", "--seed", "3"]) == 0
    assert run(["demo", "--game", "skirmish", "--rounds", "2"]) == 0
    assert run(["serve", "--autoplay", "--games", "1"]) == 0
    assert not default_journal_dir().exists() or not any(default_journal_dir().rglob("*.jsonl"))
    demos = list(demo_journal_dir().rglob("*.jsonl"))
    assert len(demos) == 3
    for path in demos:
        assert peek_journal(path).header["session"]["demo"] is True


@pytest.mark.slow
def test_serve_never_resumes_a_demo_even_in_its_own_folder(tmp_path, capsys):
    path = tmp_path / "demo.jsonl"
    main_code = run(
        [
            "play",
            "battle-royale",
            "--mode",
            "assist",
            "--autoplay",
            "--seed",
            "1",
            "--journal",
            str(path),
        ]
    )
    assert main_code == 0
    lines = path.read_bytes().splitlines(keepends=True)
    (tmp_path / "20990101-unfinished-demo.jsonl").write_bytes(b"".join(lines[:30]))
    path.unlink()
    assert folder.find_unfinished(tmp_path, mode="assist") is None


@pytest.mark.slow
def test_finished_journals_of_play_go_to_finished(capsys):
    assert run(["play", "battle-royale", "--bots", "4", "--seed", "2"]) == 0
    archived = list((default_journal_dir() / folder.FINISHED).glob("*.jsonl"))
    assert len(archived) == 1 and read_journal(archived[0]).finished
    assert not list(default_journal_dir().glob("*.jsonl"))


def test_journals_lists_shows_the_unfinished_one_and_prunes(tmp_path, journals, capsys):
    finished, unfinished = journals
    fill(tmp_path, finished, 5)
    for i, path in enumerate(sorted((tmp_path / folder.FINISHED).iterdir())):
        os.utime(path, (1_700_000_000 + i, 1_700_000_000 + i))
    game = tmp_path / "20260102-000000-battle-royale-assist.jsonl"
    game.write_bytes(unfinished)
    assert run(["journals", "--dir", str(tmp_path), "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert listing["total"] == 6
    assert listing["journals"][0]["path"] == str(game)
    assert listing["journals"][0]["state"] == "unfinished"
    assert {j["state"] for j in listing["journals"][1:]} == {"finished"}
    assert run(["journals", "--dir", str(tmp_path)]) == 0
    assert "6 journal(s)" in capsys.readouterr().out
    assert run(["journals", "unfinished", "--dir", str(tmp_path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["unfinished"] == str(game) and shown["turn"] >= 1
    assert run(["journals", "prune", "--dir", str(tmp_path), "--keep", "2", "--dry-run"]) == 0
    assert len(list((tmp_path / folder.FINISHED).iterdir())) == 5
    assert run(["journals", "prune", "--dir", str(tmp_path), "--keep", "2"]) == 0
    assert "deleted 3 finished journal(s)" in capsys.readouterr().out
    left = sorted(p.name for p in (tmp_path / folder.FINISHED).iterdir())
    assert left == [
        "20260101-000003-battle-royale-assist.jsonl",
        "20260101-000004-battle-royale-assist.jsonl",
    ]
    assert game.exists()  # an unfinished game is never pruned


def test_journals_prune_takes_its_default_from_table_toml(tmp_path, journals, capsys):
    finished, _ = journals
    fill(tmp_path, finished, 4)
    config = tmp_path / "table.toml"
    config.write_text("[journal]\nkeep_finished = 1\n")
    assert run(["journals", "prune", "--dir", str(tmp_path), "--config", str(config)]) == 0
    assert len(list((tmp_path / folder.FINISHED).iterdir())) == 1


# -- recordings of the simulated hardware stay bounded ------------------------------------------


def test_sim_recordings_keep_only_the_recent_entries():
    clock = ManualClock()
    with open_hardware(HardwareConfig(profile="sim"), clock=clock) as hw:
        for i in range(RECORD_LIMIT + 300):
            clock.sleep(hw.config.cooldown_s)  # from the start, then from each pulse
            hw.status_leds.show_die(("explosion", "free_choice")[i % 2])
            hw.display.clear()
            hw.eliminator.arm(f"t{i}")
            hw.sim.tap("trigger", 0.02)
            event = next(e for e in hw.drain_inputs() if e.is_trigger_press)
            assert hw.eliminator.fire(event)
        assert len(hw.sim.led_changes) == RECORD_LIMIT
        assert len(hw.sim.frames) == RECORD_LIMIT
        assert len(hw.sim.pulses) == RECORD_LIMIT
        assert len(hw.sim.coil.history) == RECORD_LIMIT
        assert hw.sim.frames[-1][1] == hw.display.frame  # the newest are the ones kept


def test_a_copied_journal_folder_is_found_again(tmp_path, journals):
    _, unfinished = journals
    (tmp_path / "a").mkdir()
    game = tmp_path / "a" / "20260102-000000-battle-royale-assist.jsonl"
    game.write_bytes(unfinished)
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    assert folder.find_unfinished(tmp_path / "b") == tmp_path / "b" / game.name


def test_virtual_board_recordings_keep_only_the_recent_entries(tmp_path):
    from companion.hal.virtual_board import VirtualBoard

    board = VirtualBoard(port_dir=tmp_path)  # not started: only its recordings are used
    for recording in (
        board.commands,
        board.matrix_images,
        board.status_images,
        board.pixel_frames,
        board.edges,
        board.errors,
    ):
        for i in range(RECORD_LIMIT + 50):
            recording.append((i,))
        assert len(recording) == RECORD_LIMIT and recording[-1] == (RECORD_LIMIT + 49,)
    pin = board.chip.state("GP15")
    for i in range(RECORD_LIMIT * 2):
        pin.history.append((float(i), i % 2))
    assert len(board.chip.history("GP15")) == RECORD_LIMIT


def test_the_serial_links_recordings_keep_only_the_recent_entries():
    """On the serial profiles every button event and every coil report of a season passes
    through the host's records of the link: they keep the newest RECORD_LIMIT."""
    config = HardwareConfig(profile="virtual-board")
    with open_hardware(config) as hw:
        hw.drain_inputs()
        for i in range(RECORD_LIMIT + 50):
            hw._board_event("roll", "press" if i % 2 else "release", i)
            hw.link._coil_off((i, 60, i, 0), time.monotonic())
        hw.drain_inputs()
        assert len(hw.board_events) == RECORD_LIMIT
        assert hw.board_events[-1][1] == RECORD_LIMIT + 49  # the newest are kept
        assert len(hw.link.coil_reports) == RECORD_LIMIT
        assert hw.link.coil_reports[-1][0] == RECORD_LIMIT + 49
        for recording in (hw.link.errors_from_board, hw.link.notices, hw.link.mismatches):
            for i in range(RECORD_LIMIT + 5):
                recording.append(str(i))
            assert len(recording) == RECORD_LIMIT


@pytest.mark.slow
def test_serve_waits_for_space_when_the_next_games_journal_cannot_be_started(
    tmp_path, capsys, mocker
):
    from companion.commands import serve
    from companion.notify import Notifier
    from companion.table.session import GameSession

    real_start = GameSession.start.__func__
    calls = {"n": 0}

    def start(cls, config, settings, path):
        calls["n"] += 1
        if calls["n"] in (2, 3):  # the second game's journal, twice: the SD card is full
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_start(cls, config, settings, path)

    mocker.patch.object(GameSession, "start", classmethod(start))
    mocker.patch.object(serve, "DISK_FULL_RETRY_S", 0.0)
    beats: list[int] = []  # the failed starts so far at each heartbeat
    mocker.patch.object(Notifier, "heartbeat", lambda self: beats.append(calls["n"]))
    code = run(["serve", "--autoplay", "--games", "2", "--journal-dir", str(tmp_path)])
    assert code == 0 and calls["n"] == 4
    log = capsys.readouterr().err
    assert log.count("the disk is full") == 1 and "disk space is back" in log
    assert "game 2 over" in log
    assert {2, 3} <= set(beats)  # the watchdog is fed while the service waits for space
    assert len(list((tmp_path / folder.FINISHED).glob("*.jsonl"))) == 2


def test_the_io_boards_guard_arms_a_later_games_explosion_of_the_same_turn_and_field():
    """Explosion tokens are a turn and a field: they recur from game to game. The I/O board's
    guard never re-arms a token that fired, so serve starts each game with new_game()."""
    from companion.hal.serial_board import SpentToken

    config = HardwareConfig(profile="virtual-board")
    with open_hardware(config, unsafe_cooldown_override_s=0.05) as hw:
        time.sleep(hw.eliminator.cooldown_left_s)  # the cool-down counted from the start
        hw.eliminator.arm("turn-7-c3")
        hw.link.flush(1.0)  # the board has the ARM: it fires only for a press after it
        hw.virtual_board.tap("trigger")
        press = next(e for e in iter(lambda: hw.next_input(2.0), None) if e.is_trigger_press)
        assert hw.eliminator.fire(press).fired
        with pytest.raises(SpentToken):  # the same game: never again
            hw.eliminator.arm("turn-7-c3")
        hw.eliminator.new_game()
        hw.eliminator.arm("turn-7-c3")  # the next game's explosion on turn 7, c3
        assert hw.eliminator.armed_token == "turn-7-c3"
        hw.eliminator.disarm()


@pytest.mark.slow
def test_serve_starts_every_game_with_a_fresh_guard(tmp_path, mocker):
    from companion.hal.safety import SolenoidGuard

    new_game = mocker.spy(SolenoidGuard, "new_game")
    assert run(["serve", "--autoplay", "--games", "3", "--journal-dir", str(tmp_path)]) == 0
    assert new_game.call_count == 3


@pytest.mark.parametrize("sub", [[], ["unfinished"], ["prune"]])
def test_journals_in_a_folder_that_is_not_there_is_one_message(tmp_path, capsys, sub):
    missing = tmp_path / "no-such-folder"
    assert run(["journals", *sub, "--dir", str(missing)]) == 2
    assert f"there is no folder {missing}" in capsys.readouterr().err
    assert not missing.exists()
