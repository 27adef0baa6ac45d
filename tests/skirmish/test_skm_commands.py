"""The commands: demo and play run to the end (exit 0), the attack assistant shows the
dice, the exact odds, a roll and the hits; errors exit with 2; the benchmark runs."""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import skm_helpers  # noqa: F401 - registers the game until the registry line is in

from companion.cli import CommandError
from companion.commands import skirmish as cmd
from companion.table.journal import read_journal

ROOT = Path(__file__).resolve().parents[2]


def parse(which: str, *argv: str) -> argparse.Namespace:
    return cmd.build_parser().parse_args([which, *argv])


def test_demo_runs_to_the_end(tmp_path, capsys):
    journal = tmp_path / "demo.jsonl"
    assert cmd.run_demo(parse("demo", "--journal", str(journal))) == 0
    out = capsys.readouterr().out
    assert "Game over" in out and "wins after" in out and "seed 2024" in out
    contents = read_journal(journal)
    assert contents.finished and contents.header["game"] == "skirmish"


@pytest.mark.slow
def test_demo_with_more_players(tmp_path, capsys):
    args = parse(
        "demo",
        "--players",
        "6",
        "--map",
        "colosseum",
        "--seed",
        "3",
        "--journal",
        str(tmp_path / "d.jsonl"),
    )
    assert cmd.run_demo(args) == 0
    assert "2 gladiators / 120 points each (as printed)" in capsys.readouterr().out


def test_play_with_every_seat_a_bot(tmp_path, capsys):
    args = parse(
        "play",
        "--players",
        "3",
        "--autoplay",
        "--seed",
        "11",
        "--teams",
        "1,4/2,5/3,6",
        "--journal",
        str(tmp_path / "p.jsonl"),
    )
    assert cmd.run_play(args) == 0
    assert "Game over" in capsys.readouterr().out


def test_resume_continues_a_stopped_game(tmp_path, capsys, monkeypatch):
    import io

    path = tmp_path / "stop.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    args = parse("play", "--seed", "5", "--journal", str(path))
    assert cmd.run_play(args) == 1  # the person at seat 0 typed quit
    assert "companion resume" in capsys.readouterr().out
    # the bots take over: rewrite the journal's settings, as a table would on resume
    contents = read_journal(path)
    assert not contents.finished
    args = argparse.Namespace(journal=str(path), until_line=None, hardware=None)
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert cmd.run_resume(args) == 1
    assert "resuming" in capsys.readouterr().err


def test_bad_input_is_a_command_error():
    with pytest.raises(CommandError, match="too few for 4 players"):
        cmd.run_demo(parse("demo", "--players", "4", "--map", "duel"))
    with pytest.raises(CommandError, match="--teams"):
        cmd.run_play(parse("play", "--teams", "1,x"))
    with pytest.raises(CommandError, match="--bots must be"):
        cmd.run_play(parse("play", "--bots", "5"))
    # the shared play parser's Battle Royale flags
    shared = argparse.Namespace(players=2, mode="assist", layout=None, start_player=None)
    with pytest.raises(CommandError, match="tracked mode only"):
        cmd.run_play(shared)
    shared = argparse.Namespace(players=2, mode=None, layout="first-game", start_player=None)
    with pytest.raises(CommandError, match="--layout is a Battle Royale option"):
        cmd.run_play(shared)


def test_attack_assistant_json():
    args = parse(
        "attack",
        "--attacker",
        "attack=2,class=light",
        "--target",
        "life=3,movement=2,attack=1,affinity=0,class=heavy",
        "--position",
        "behind",
        "--height",
        "higher",
        "--faces",
        "1,2,2,4,5,6,6",
        "--json",
    )
    out = _run_capture(cmd.run_attack, args)
    doc = json.loads(out)
    assert doc["breakdown"]["dice"] == 2 * 2 + 2 + 1
    assert doc["faces"] == [1, 2, 2, 4, 5, 6, 6]
    result = doc["result"]
    # head and arm dice on values at 0 -> body; 2 body + 1 head (affinity 0) = 3 -> removed
    assert result["removed"] and result["after"]["life"] == 0
    dist = doc["distribution"]
    assert abs(sum(dist["life_lost"].values()) - 100) < 1e-6
    assert dist["exact"]["removed"].count("/") == 1


def test_attack_assistant_text_with_profiles_and_a_seeded_roll(capsys):
    args = parse(
        "attack",
        "--attacker",
        "12",
        "--target",
        "33,life=2",
        "--kind",
        "melee",
        "--position",
        "side",
        "--not-facing",
        "--seed",
        "7",
    )
    assert cmd.run_attack(args) == 0
    out = capsys.readouterr().out
    assert "#12" in out and "#33" in out and "%" in out and "rolled:" in out
    assert "target not in front of the attacker" in out


def test_attack_assistant_affinity_and_no_attack(capsys):
    args = parse(
        "attack",
        "--attacker",
        "affinity=1,element=air",
        "--target",
        "life=4,movement=3,attack=2,affinity=1,element=earth",
        "--kind",
        "affinity",
        "--no-roll",
    )
    assert cmd.run_attack(args) == 0
    assert "no attack" in capsys.readouterr().out  # unfavourable: 1 - 1 = 0 dice
    args = parse(
        "attack",
        "--attacker",
        "affinity=2,element=fire",
        "--target",
        "life=4,movement=3,attack=2,affinity=1,element=fire",
        "--kind",
        "affinity",
        "--json",
    )
    doc = json.loads(_run_capture(cmd.run_attack, args))
    assert not doc["breakdown"]["allowed"] and "same element" in doc["breakdown"]["reason"]
    assert doc["distribution"] is None and doc["faces"] == []


def test_attack_assistant_on_simulated_hardware(capsys):
    args = parse(
        "attack",
        "--attacker",
        "attack=3,class=medium",
        "--target",
        "life=9,movement=4,attack=2,affinity=1,class=medium",
        "--hardware",
        "sim",
        "--seed",
        "1",
    )
    assert cmd.run_attack(args) == 0
    out = capsys.readouterr().out
    assert "rolled:" in out and ("*" in out or "!" in out)  # the dice on the display


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--attacker", "99", "--target", "1"], "no gladiator profile with ID 99"),
        (["--attacker", "attack=2", "--target", "1"], "--attacker needs class"),
        (["--attacker", "1", "--target", "class=heavy"], "--target needs life"),
        (["--attacker", "1", "--target", "1,luck=3"], "unknown value 'luck'"),
        (["--attacker", "1", "--target", "2", "--faces", "1,2,3"], "rolls 1 d6"),
    ],
)
def test_attack_assistant_errors(argv, message):
    with pytest.raises(CommandError, match=message):
        cmd.run_attack(parse("attack", *argv))


def test_stand_alone_main_exit_codes(capsys):
    assert cmd.main(["attack", "--attacker", "99", "--target", "1"]) == 2
    assert "no gladiator profile" in capsys.readouterr().err


def test_bench_script_runs():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "skirmish.py"), "--quick", "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["games_per_player_count"] == 1
    assert set(summary["results"]) == {"2", "4", "10"}
    for r in summary["results"].values():
        assert r["step"]["median_ms"] > 0 and r["bot_games"]["games_per_s"] > 0
        assert r["bot_games"]["bot_move"]["p99_ms"] > 0
    assert set(summary["meets_targets"]) == {
        "step_median",
        "bot_games_per_s_2_players",
        "bot_move_p99",
    }


def _run_capture(func, args) -> str:
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert func(args) == 0
    return buf.getvalue()


def test_replay_views(tmp_path, capsys):
    from companion.table.session import rebuild

    journal = tmp_path / "r.jsonl"
    assert cmd.run_demo(parse("demo", "--seed", "8", "--journal", str(journal))) == 0
    capsys.readouterr()
    contents = read_journal(journal)
    session = rebuild(contents)
    doc = cmd.replay_document(session, str(journal), len(contents.records))
    assert doc["game"] == "skirmish" and doc["finished"] and doc["winners"]
    assert json.loads(json.dumps(doc)) == doc
    alive = [g for g in doc["gladiators"].values() if g["alive"]]
    assert alive and all(g["player"] in doc["winners"] for g in alive)
    cmd.print_replay(session, f"{journal}: final")
    out = capsys.readouterr().out
    assert "winner:" in out and "Arena" in out
