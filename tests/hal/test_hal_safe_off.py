"""``companion safe-off``: only the solenoid pin, driven low; exit 2 with one message otherwise."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hal_helpers import subprocess_env

from companion.cli import main
from companion.hal import HardwareConfig


def write(tmp_path, text: str):
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_gpio_drives_only_the_solenoid_pin_low(mock_factory, tmp_path, capsys) -> None:
    config = write(tmp_path, '[hardware]\nprofile = "gpio"\n[hardware.pins]\nsolenoid = 25\n')
    left = mock_factory.pin(25)  # a dead service left the gate driven high
    left.function = "output"
    left.state = True
    assert main(["safe-off", "--config", str(config)]) == 0
    assert [s.state for s in left.states][-2:] == [True, False]
    assert left.state is False and left.function == "input"  # released to the pull-down
    assert len(mock_factory.pins) == 1  # no other pin was opened
    out = capsys.readouterr().out
    assert "GPIO25 driven low" in out and str(config) in out


def safe_off_process(tmp_path, factory: str) -> subprocess.CompletedProcess[str]:
    """``companion safe-off`` for a gpio table.toml, in a fresh process on pin factory *factory*."""
    config = write(tmp_path, '[hardware]\nprofile = "gpio"\n')
    return subprocess.run(
        [sys.executable, "-m", "companion", "safe-off", "--config", str(config)],
        capture_output=True,
        text=True,
        env=subprocess_env(GPIOZERO_PIN_FACTORY=factory),
        cwd=tmp_path,
        timeout=60,
    )


def test_default_pins_and_the_environment_factory_in_a_fresh_process(tmp_path) -> None:
    done = safe_off_process(tmp_path, "mock")
    assert done.returncode == 0, done.stderr
    assert f"GPIO{HardwareConfig().pins.solenoid} driven low" in done.stdout


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[hardware]\nprofile = "gpio"\npulse_ms = 900\n', "hardware.pulse_ms = 900"),
        ('[hardware]\nprofile = "gpio"\n[hardware.pins]\nsolenoid = 99\n', "pins.solenoid"),
        ("[hardware\n", "TOML syntax error at line 1"),
    ],
)
def test_a_bad_config_is_one_message_and_exit_2(tmp_path, capsys, text, message) -> None:
    assert main(["safe-off", "--config", str(write(tmp_path, text))]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("companion: error:") == 1 and "Traceback" not in err


def test_a_missing_config_file_is_exit_2(tmp_path, capsys) -> None:
    assert main(["safe-off", "--config", str(tmp_path / "nope.toml")]) == 2
    assert "cannot read the file" in capsys.readouterr().err


def test_no_pins_is_one_message_and_exit_2(tmp_path) -> None:
    done = safe_off_process(tmp_path, "no-such-factory")
    assert done.returncode == 2
    assert "cannot open the solenoid pin GPIO24" in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_the_serial_profile_says_what_the_board_does(tmp_path, capsys) -> None:
    config = write(tmp_path, '[hardware]\nprofile = "serial"\n')
    assert main(["safe-off", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "switches it off by itself" in out and "250 ms" in out


def test_without_config_it_reads_the_file_the_usual_search_finds(
    mock_factory, tmp_path, monkeypatch, capsys
) -> None:
    config = write(tmp_path, '[hardware]\nprofile = "gpio"\n[hardware.pins]\nsolenoid = 25\n')
    monkeypatch.setenv("COMPANION_CONFIG", str(config))
    assert main(["safe-off"]) == 0
    assert "GPIO25 driven low" in capsys.readouterr().out
