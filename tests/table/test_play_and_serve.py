"""The play and serve commands end to end on simulated hardware."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_tracked_game_with_every_seat_a_bot_needs_no_input(capsys):
    assert main(["play", "battle-royale", "--players", "3", "--bots", "3", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "Game over" in out and "win" in out.splitlines()[-1]


@pytest.mark.slow
def test_assist_game_with_simulated_people(capsys):
    assert (
        main(
            [
                "play",
                "battle-royale",
                "--mode",
                "assist",
                "--autoplay",
                "--players",
                "2",
                "--seed",
                "1",
            ]
        )
        == 0
    )
    assert "the players named the winner" in capsys.readouterr().out


def test_one_person_and_three_bots_from_standard_input(monkeypatch, capsys):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nb2 E\nend\nroll\n"))
    code = main(["play", "battle-royale", "--seed", "2", "--start-player", "0"])
    out = capsys.readouterr().out
    assert code == 1  # the input ended before the game did
    assert "purple b2 -> c2 (1 step)" in out
    assert "Doom die" in out


def test_autoplay_needs_simulated_hardware(capsys):
    assert main(["play", "battle-royale", "--autoplay", "--hardware", "gpio"]) == 2
    assert "--autoplay" in capsys.readouterr().err


def test_bad_config_file_names_the_key(tmp_path, capsys):
    bad = tmp_path / "table.toml"
    bad.write_text("[game]\nplayers = 7\n[hardware]\npulse_ms = 400\n")
    assert main(["play", "battle-royale", "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "game.players" in err and "hardware.pulse_ms" in err


def test_serve_refuses_tracked_mode(tmp_path, capsys):
    cfg = tmp_path / "table.toml"
    cfg.write_text('[game]\nmode = "tracked"\n')
    assert main(["serve", "--config", str(cfg)]) == 2
    assert "serve runs assist mode" in capsys.readouterr().err


@pytest.mark.slow
def test_serve_plays_games_with_simulated_people(capsys):
    assert main(["serve", "--autoplay", "--games", "2"]) == 0
    log = capsys.readouterr().err  # the service logs (the journal under systemd)
    assert "ready" in log and "game 1 over" in log and "game 2 over" in log
    assert "solenoid and LEDs off" in log


@pytest.mark.slow
def test_serve_new_game_needs_a_confirm_pressed_after_it_asks(tmp_path, mocker):
    """A CONFIRM pressed twice to end a game (the second queued while the game was
    wrapping up) does not start the next game: only a press after the question does."""
    from companion.table.assist import AssistTable

    stale = []
    answers = []
    run, wait_for = AssistTable.run, AssistTable.wait_for

    def game_then_second_confirm(self):
        state = run(self)
        stale.append(self.hw.inputs.emit("press", "confirm"))  # the double press
        return state

    def recording(self, buttons, prompt, *args, **kwargs):
        event = wait_for(self, buttons, prompt, *args, **kwargs)
        if prompt == "press CONFIRM to start a new game":
            answers.append(event)
        return event

    mocker.patch.object(AssistTable, "run", game_then_second_confirm)
    mocker.patch.object(AssistTable, "wait_for", recording)
    argv = ["serve", "--autoplay", "--games", "2", "--journal-dir", str(tmp_path)]
    assert main(argv) == 0
    assert len(stale) == 2 and len(answers) == 1
    assert answers[0].button == "confirm" and answers[0].seq > stale[0].seq


def default_signals():
    """In the child: Python's default handlers, as in a terminal (a test runner may ignore some)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


@pytest.mark.parametrize(
    ("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)], ids=["TERM", "HUP"]
)
def test_serve_stops_cleanly_on_sigterm_and_sighup(tmp_path, signum, status):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--journal-dir", str(tmp_path)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=default_signals,
    )
    try:
        deadline = time.monotonic() + 20
        line = ""
        while "ready" not in line and time.monotonic() < deadline:
            line = proc.stdout.readline()
        assert "ready" in line
        proc.send_signal(signum)
        out, _ = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == status
    assert "stopped, solenoid and LEDs off" in out


@pytest.mark.slow
def test_ctrl_c_in_play_on_gpio_ends_the_command_its_usual_way(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    env["GPIOZERO_PIN_FACTORY"] = "mock"
    command = [sys.executable, "-m", "companion", "play", "battle-royale", "--hardware", "gpio"]
    proc = subprocess.Popen(
        [*command, "--seed", "3", "--journal", str(tmp_path / "game.jsonl")],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=default_signals,
    )
    journal = tmp_path / "game.jsonl"
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (
            journal.exists() and '"type":"checkpoint"' in journal.read_text()
        ):
            time.sleep(0.05)  # turn 1 began: the hardware is open, a bot waits for ROLL
        assert '"type":"checkpoint"' in journal.read_text()
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 130  # KeyboardInterrupt reached the command, after the coil
    assert "Traceback" not in out


@pytest.mark.slow
@pytest.mark.parametrize("players", ["2", "4"])
def test_demo_drives_the_simulated_hardware(players, capsys):
    assert main(["demo", "--players", players, "--seed", "9"]) == 0
    out = capsys.readouterr().out
    assert "hardware (sim)" in out and "pulses fired" in out


@pytest.mark.slow
def test_serve_journal_file_is_continued_and_a_finished_one_refused(tmp_path, capsys):
    journal = tmp_path / "table.jsonl"
    assert main(["serve", "--autoplay", "--games", "1", "--journal", str(journal)]) == 0
    assert f"journal: {journal}" in capsys.readouterr().err
    assert main(["serve", "--autoplay", "--games", "1", "--journal", str(journal)]) == 2
    assert "this game is over" in capsys.readouterr().err


def test_serve_says_the_players_of_the_game_it_resumes(tmp_path, capsys):
    """A resumed two-player game is announced as two players (the config's default is
    four: serve said four, then played two)."""
    from companion.games.battle_royale import BattleRoyaleConfig
    from companion.table.session import GameSession, SessionSettings

    journal = tmp_path / "table.jsonl"
    session = GameSession.start(
        BattleRoyaleConfig(players=2), SessionSettings(mode="assist", demo=True), journal
    )
    for _ in range(3):
        state = session.state
        action = state.chance_outcomes()[0][0] if state.is_chance_node else None
        action = action if action is not None else state.legal_actions()[0]
        session.commit(action)
        session.apply(action)
    session.journal.close()
    assert main(["serve", "--autoplay", "--games", "1", "--journal", str(journal)]) == 0
    log = capsys.readouterr().err
    assert "resuming the unfinished game" in log and "2 players" in log
    assert "4 players" not in log
