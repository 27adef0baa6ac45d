"""The journal: durable records, torn and corrupt files, resume, undo, replay."""

import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from table_helpers import RecordingView, bot_game, bot_table, sim_hardware

from companion.cli import main
from companion.dice import Roller
from companion.games.battle_royale import BattleRoyaleConfig, parse_action
from companion.hal import Refusal
from companion.table.journal import JournalError, JournalWriter, read_journal, record_crc
from companion.table.loop import TableLoop, TrackedTable
from companion.table.people import BotAgent, SimOperator, TerminalAgent, TerminalInput
from companion.table.session import (
    GameSession,
    SessionSettings,
    UndoRefused,
    rebuild,
    resume_session,
)
from companion.table.shorthand import expand_move

ROOT = Path(__file__).resolve().parents[2]


def test_every_record_is_fsynced_and_checksummed(tmp_path, mocker):
    fsync = mocker.spy(os, "fsync")
    with JournalWriter.create(tmp_path / "j.jsonl", {"format": "companion-journal/1"}) as j:
        j.append("action", action={"kind": "end"})
        j.append("undo", count=1)
    assert fsync.call_count >= 3  # header + two records (+ the directory)
    lines = (tmp_path / "j.jsonl").read_text().splitlines()
    for line in lines:
        record = json.loads(line)
        assert record["crc"] == record_crc(record)
    assert [json.loads(x)["n"] for x in lines[1:]] == [1, 2]


@pytest.mark.slow
def test_a_journal_replays_to_the_same_game_and_knows_it_is_over(tmp_path):
    session, _ = bot_game(tmp_path / "game.jsonl")
    contents = read_journal(tmp_path / "game.jsonl")
    assert contents.finished and contents.warnings == []
    rebuilt = rebuild(contents)
    assert rebuilt.state.snapshot() == session.state.snapshot()
    kinds = {r["type"] for _, r in contents.records}
    assert {"action", "checkpoint", "fired", "end"} <= kinds
    with pytest.raises(JournalError, match="this game is over"):
        resume_session(tmp_path / "game.jsonl")


def test_torn_last_record_is_dropped_with_a_warning_and_resume_continues(tmp_path):
    path = tmp_path / "game.jsonl"
    bot_game(path)
    lines = path.read_bytes().splitlines(keepends=True)
    cut = b"".join(lines[:40]) + lines[40][:17]  # a power cut in the middle of line 41
    path.write_bytes(cut)
    session, warnings = resume_session(path)
    assert len(warnings) == 1 and "line 41" in warnings[0] and "dropped" in warnings[0]
    session.journal.close()
    assert path.read_bytes() == b"".join(lines[:40])  # the torn tail is cut, nothing else
    assert len(read_journal(path).records) == 39


def test_corrupt_record_in_the_middle_stops_with_the_line_and_changes_nothing(tmp_path):
    path = tmp_path / "game.jsonl"
    bot_game(path)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[20] = lines[20].replace(b'"n":20', b'"n":21')
    lines = lines[:60]
    path.write_bytes(b"".join(lines))
    before = path.read_bytes()
    with pytest.raises(JournalError) as err:
        resume_session(path)
    message = str(err.value)
    assert "line 21" in message and "--until-line 20" in message
    assert "Nothing was changed" in message
    assert path.read_bytes() == before
    # the option it names works, in a new file
    session, _ = resume_session(path, until_line=20)
    assert session.journal_path.name.endswith(".from-line-20.jsonl")
    assert path.read_bytes() == before
    session.journal.close()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda h: {**h, "format": "companion-journal/9"}, "is not one this companion reads"),
        (lambda h: {**h, "game": "chess"}, "unknown game .chess.*cannot resume it"),
        (
            lambda h: {
                **h,
                "data_files": {"battle_royale": {"path": "/gone/br.json", "sha256": "0"}},
            },
            "is missing",
        ),
        (
            lambda h: {**h, "data_files": {"dice": {"path": "builtin:dice.json", "sha256": "0"}}},
            "built-in dice data changed",
        ),
    ],
)
def test_bad_headers_are_clear_errors_and_the_file_is_untouched(tmp_path, change, message):
    path = tmp_path / "game.jsonl"
    bot_game(path)
    lines = path.read_text().splitlines(keepends=True)
    header = change(json.loads(lines[0]))
    header["crc"] = record_crc(header)
    text = json.dumps(header) + "\n" + "".join(lines[1:30])
    path.write_text(text)
    with pytest.raises(JournalError, match=message):
        resume_session(path)
    assert path.read_text() == text


def test_durable_before_the_die_face_shows_and_armed_before_the_solenoid(tmp_path, mocker):
    path = tmp_path / "game.jsonl"
    seen = {"rolls": 0, "fires": 0}

    def records():
        return [json.loads(line) for line in path.read_text().splitlines()[1:]]

    real_animate = TableLoop.animate_roll

    def animate(self, face):
        record = records()[-1]
        assert record["type"] == "action" and record["action"]["face"] == face
        seen["rolls"] += 1
        return real_animate(self, face)

    mocker.patch.object(TableLoop, "animate_roll", animate)
    from companion.hal.sim import SimSolenoid

    real_on = SimSolenoid.on

    def coil_on(self):
        # the arming is on disk, and nothing was written since: not even the fired record
        last = records()[-1]
        assert last["type"] == "armed"
        assert last["token"] not in {r["token"] for r in records() if r["type"] == "fired"}
        seen["fires"] += 1
        return real_on(self)

    mocker.patch.object(SimSolenoid, "on", coil_on)
    _, hw = bot_game(path, players=4, seed=3)
    assert seen["rolls"] > 10 and seen["fires"] == len(hw.sim.pulses) > 0
    armed = [r["token"] for r in records() if r["type"] == "armed"]
    fired = [(r["token"], r["source"]) for r in records() if r["type"] == "fired"]
    assert fired == [(token, "coil") for token in armed]  # each fired after its pulse


@pytest.mark.slow
def test_kill_9_at_random_points_then_resume_matches_the_uninterrupted_game(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    command = [sys.executable, "-m", "companion", "demo", "--players", "4", "--seed", "77"]
    reference = tmp_path / "reference.jsonl"
    subprocess.run(
        [*command, "--journal", str(reference)],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        timeout=120,
    )
    full = read_journal(reference)
    rng = random.Random(1)
    checked = 0
    for i in range(8):
        path = tmp_path / f"killed-{i}.jsonl"
        proc = subprocess.Popen(
            [*command, "--journal", str(path)], env=env, stdout=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 30
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(rng.uniform(0.0, 0.6))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        contents = read_journal(path)
        n = len(contents.records)
        prefix = read_journal(reference)
        prefix.records = full.records[:n]
        assert [r for _, r in contents.records] == [r for _, r in prefix.records]
        assert rebuild(contents).state.snapshot() == rebuild(prefix).state.snapshot()
        if not contents.finished:
            session, _ = resume_session(path)
            assert session.state.snapshot() == rebuild(prefix).state.snapshot()
            session.journal.close()
            checked += 1
    assert checked >= 4  # most kills land mid-game


def person_table(path, lines):
    hw, clock = sim_hardware()
    session = GameSession.start(
        BattleRoyaleConfig(players=2, start_player=0), SessionSettings(bots=1), path
    )
    view = RecordingView()
    terminal = TerminalInput(io.StringIO(lines))
    agents = {
        0: TerminalAgent(terminal, view, parse_action, expand_move),
        1: BotAgent(random.Random(1)),
    }
    table = TrackedTable(
        session,
        hw,
        Roller.seeded(1),
        view,
        agents,
        sleep=clock.sleep,
        operator=SimOperator(hw),
        terminal=terminal,
    )
    return table, hw, view


def test_undo_takes_back_moves_within_the_turn_and_is_journalled(tmp_path):
    path = tmp_path / "game.jsonl"
    table, hw, view = person_table(path, "play 2x3\nb2 E\nundo 3\nc2 W\nundo 9\n")
    with hw, pytest.raises(EOFError):
        table.run()
    state = table.state
    # b2 -> c2 was undone, then c2 -> b2 was played: b2 holds both purple figures
    assert state.counts[6][0] == 2 and state.counts[7][0] == 0
    assert any("purple took back 3 choice(s)" in m for m in view.messages)
    assert any("only 4 of your choices can be undone now" in m for m in view.messages)
    undos = [r for _, r in read_journal(path).records if r["type"] == "undo"]
    assert [u["count"] for u in undos] == [3]
    # the journal rebuilds the same state, undo included
    assert rebuild(read_journal(path)).state.snapshot() == state.snapshot()


def test_undo_never_takes_back_a_die_roll_or_a_drawn_card(tmp_path):
    session = GameSession.start(
        BattleRoyaleConfig(players=2, start_player=0), SessionSettings(), tmp_path / "g.jsonl"
    )
    state = session.state
    while state.is_chance_node:  # the deal
        action = state.chance_outcomes()[0][0]
        session.commit(action)
        session.apply(action)
    with pytest.raises(UndoRefused, match="nothing to undo"):
        session.undo()
    for text in ("play 2x2", "end"):
        session.commit(parse_action(text))
        session.apply(parse_action(text))
    draw = session.state.chance_outcomes()[0][0]
    session.commit(draw)
    session.apply(draw)
    with pytest.raises(UndoRefused, match="a die roll, a card drawn"):
        session.undo()


@pytest.mark.slow
def test_resume_between_arming_and_fired_arms_again_and_fires_only_at_a_press(tmp_path):
    path = tmp_path / "game.jsonl"
    bot_game(path, players=4, seed=3)
    lines = path.read_text().splitlines(keepends=True)
    armed = next(i for i, line in enumerate(lines) if '"type":"armed"' in line)
    assert '"type":"fired"' in lines[armed + 1]
    path.write_text("".join(lines[: armed + 1]))  # cut after the arming: the tile may have flown
    session, _ = resume_session(path)
    token = session.pending_fire[1]
    assert session.armed_before_stop == {token}
    hw, clock = sim_hardware()
    view = RecordingView()
    table = bot_table(session, hw, clock, 3, view)  # the bots' operator presses the red button
    with hw:
        table.run()
    session.journal.close()
    assert table.fire_results[0].fired and table.fire_results[0].token == token
    assert any("press CONFIRM instead" in m for m in view.messages)
    records = [r for _, r in read_journal(path).records]
    assert records[armed]["type"] == "fired" and records[armed]["source"] == "coil"
    assert [r["type"] for r in records].count("armed") == [r["type"] for r in records].count(
        "fired"
    )


@pytest.mark.slow
def test_resume_pressed_during_the_starts_cool_down_waits_and_fires_at_the_next_press(tmp_path):
    """The guard counts its cool-down from its start (the stopped run may have fired just
    before it stopped): a press at once is refused, the table waits the cool-down out and
    asks again, and the explosion fires at the next press, once; it is not lost."""
    path = tmp_path / "game.jsonl"
    bot_game(path, players=4, seed=3)
    lines = path.read_text().splitlines(keepends=True)
    armed = next(i for i, line in enumerate(lines) if '"type":"armed"' in line)
    path.write_text("".join(lines[: armed + 1]))
    session, _ = resume_session(path)
    token = session.pending_fire[1]
    hw, clock = sim_hardware(ready=False)  # the press comes right after the start
    opened = clock()
    view = RecordingView()
    table = bot_table(session, hw, clock, 3, view)
    with hw:
        table.run()
    session.journal.close()
    refused, fired = table.fire_results[:2]
    assert refused.reason is Refusal.COOLING_DOWN and refused.token == token
    assert fired.fired and fired.token == token
    assert hw.sim.pulses[0].start - opened >= hw.config.cooldown_s
    assert any("solenoid cooling down" in m for m in view.messages)
    records = [r for _, r in read_journal(path).records]
    assert records[armed]["type"] == "fired" and records[armed]["source"] == "coil"
    assert [r["token"] for r in records if r["type"] == "fired"].count(token) == 1


@pytest.mark.slow
def test_replay_json_is_stable_and_turns_can_be_chosen(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    bot_game(path)
    assert main(["replay", str(path), "--json"]) == 0
    final = json.loads(capsys.readouterr().out)
    assert final["format"] == "companion-replay/1" and final["finished"] is True
    assert {
        "turn",
        "phase",
        "active",
        "winners",
        "eliminator",
        "fields",
        "figures",
        "in_arena",
        "prisoners",
        "box",
    } <= set(final)
    assert main(["replay", str(path), "--json", "--turn", "2"]) == 0
    early = json.loads(capsys.readouterr().out)
    assert early["turn"] == 3 and early["phase"] == "turn_start" and not early["finished"]
    assert main(["replay", str(path), "--turn", "999"]) == 2
    assert main(["replay", str(path)]) == 0
    assert "winner:" in capsys.readouterr().out


@pytest.mark.slow
def test_resume_command_continues_a_stopped_game(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    bot_game(path)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:120]))
    assert main(["resume", str(path)]) == 0
    assert read_journal(path).finished
    assert main(["resume", str(path)]) == 2
    assert "this game is over" in capsys.readouterr().err


@pytest.mark.slow
def test_serve_resumes_the_last_unfinished_game_after_a_kill(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    command = [sys.executable, "-m", "companion", "serve", "--journal-dir", str(tmp_path)]

    def start():
        proc = subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if "journal:" in line:
                break
        return proc, "".join(lines)

    proc, first = start()
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=20)
    proc, second = start()
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=20)
    assert "resuming the unfinished game" in second
    assert first.split("journal: ")[1].split()[0] in second


def test_an_undo_that_crosses_a_die_roll_is_refused_on_resume(tmp_path):
    path = tmp_path / "game.jsonl"
    bot_game(path)
    lines = path.read_text().splitlines(keepends=True)[:50]
    bad = {"type": "undo", "n": json.loads(lines[-1])["n"] + 1, "count": 5}
    bad["crc"] = record_crc(bad)
    path.write_text("".join(lines) + json.dumps(bad) + "\n")
    with pytest.raises(JournalError, match="line 51: this record cannot be replayed"):
        resume_session(path)


def test_which_seats_bots_play_survives_a_resume(tmp_path):
    path = tmp_path / "game.jsonl"
    settings = SessionSettings(bots=1, bot_seats=(0,), seed=2)
    session = GameSession.start(BattleRoyaleConfig(players=3), settings, path)
    action = session.state.chance_outcomes()[0][0]
    session.commit(action)
    session.apply(action)
    session.journal.close()
    resumed, _ = resume_session(path)
    assert resumed.settings.bot_seats == (0,) and resumed.settings.bots == 1
    resumed.journal.close()
