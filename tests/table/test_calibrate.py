"""``companion calibrate``: longer and longer pulses, each typed and pressed, the choice written."""

from __future__ import annotations

import dataclasses
import io
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import companion.commands.calibrate as calibrate_command
from companion.cli import main
from companion.hal import PULSE_HARD_CAP_MS, Hardware, HardwareConfig, ManualClock, open_hardware
from companion.table.calibrate import CalibrationTry, calibrate, pulse_lengths
from companion.table.config import load_table_config
from companion.table.config_edit import ConfigEditError, set_table_value
from companion.table.selftest import SelftestOperator


class Scripted:
    """Answers from a list; records the prompts."""

    def __init__(self, *answers: object) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> object:
        self.prompts.append(prompt)
        return self.answers.pop(0)


class SimTable:
    """Opens the sim for each try on one manual clock and keeps every coil pulse."""

    def __init__(self, cooldown_s: float = 2.0) -> None:
        self.clock = ManualClock()
        self.config = HardwareConfig(profile="sim", cooldown_s=cooldown_s)
        self.pulses: list = []  # (start, length_s) on the manual clock
        self.opened: list[int] = []

    @contextmanager
    def open_step(self, pulse_ms: int) -> Iterator[Hardware]:
        self.opened.append(pulse_ms)
        step = dataclasses.replace(self.config, pulse_ms=pulse_ms)
        with open_hardware(step, clock=self.clock) as hw:
            yield hw
            self.pulses.extend((p.start, p.length_s) for p in hw.sim.pulses)

    def run(self, fire_words, answers, said=None, **kwargs):
        tries: list[CalibrationTry] = []
        options = {"start_ms": 20, "step_ms": 10, "max_ms": PULSE_HARD_CAP_MS, **kwargs}
        chosen = calibrate(
            self.open_step,
            said.append if said is not None else lambda text: None,
            Scripted(*fire_words),
            Scripted(*answers),
            cooldown_s=self.config.cooldown_s,
            clock=self.clock,
            sleep=self.clock.sleep,
            timeout_s=0.5,
            operator_for=lambda hw: SelftestOperator(hw.sim),
            tries=tries,
            **options,
        )
        return chosen, tries


def test_steps_up_from_the_minimum_until_the_tile_flies() -> None:
    table = SimTable()
    chosen, tries = table.run([True, True, True], ["n", "n", "y"])
    assert chosen == 40
    assert [t.pulse_ms for t in tries] == [20, 30, 40]
    assert [round(length * 1000) for _, length in table.pulses] == [20, 30, 40]


def test_the_cool_down_holds_between_tries() -> None:
    table = SimTable(cooldown_s=2.5)
    table.run([True, True, True], ["n", "r", "y"])
    ends = [start + length for start, length in table.pulses]
    starts = [start for start, _ in table.pulses]
    assert len(starts) == 3
    assert all(b - a >= 2.5 for a, b in zip(ends, starts[1:], strict=False))


def test_every_pulse_needs_its_own_typed_confirmation() -> None:
    table = SimTable()
    said: list[str] = []
    chosen, tries = table.run([True, False], ["n"], said=said)
    assert chosen is None
    assert len(table.pulses) == 1  # the second try was not confirmed: nothing fired
    assert tries[-1].answer is None and tries[-1].result.passed is None
    assert said[-1] == "Not fired: FIRE was not typed. Stopping; nothing chosen."


def test_again_repeats_the_same_length_and_q_stops() -> None:
    table = SimTable()
    chosen, tries = table.run([True, True], ["r", "q"])
    assert chosen is None and [t.pulse_ms for t in tries] == [20, 20]


def test_never_past_the_cap_and_nothing_chosen_when_no_length_works() -> None:
    table = SimTable()
    chosen, tries = table.run([True] * 3, ["n"] * 3, start_ms=230, step_ms=10)
    assert chosen is None and [t.pulse_ms for t in tries] == [230, 240, 250]
    assert max(length for _, length in table.pulses) <= PULSE_HARD_CAP_MS / 1000
    with pytest.raises(ValueError, match="250"):
        list(pulse_lengths(20, 10, 260))
    with pytest.raises(ValueError):
        list(pulse_lengths(0, 10))


def test_gpio_on_mock_pins_one_pulse_per_try_of_that_length(mock_factory) -> None:
    config = HardwareConfig(profile="gpio", cooldown_s=1.0)
    armed = threading.Event()
    trigger = mock_factory.pin(config.pins.trigger)
    solenoid = mock_factory.pin(config.pins.solenoid)
    highs: list[float] = []

    def say(text: str) -> None:
        if text.startswith("Armed."):
            armed.set()

    def person() -> None:  # presses the red button each time the guard is armed
        for _ in range(2):
            assert armed.wait(5.0)
            armed.clear()
            time.sleep(0.02)
            trigger.drive_low()
            time.sleep(0.03)
            trigger.drive_high()

    @contextmanager
    def open_step(pulse_ms: int) -> Iterator[Hardware]:
        with open_hardware(dataclasses.replace(config, pulse_ms=pulse_ms)) as hw:
            yield hw
        states = solenoid.states  # (seconds since the previous change, new state)
        highs.extend(b.timestamp for a, b in zip(states, states[1:], strict=False) if a.state)
        solenoid.clear_states()

    thread = threading.Thread(target=person)
    thread.start()
    chosen = calibrate(
        open_step,
        say,
        Scripted(True, True),
        Scripted("n", "y"),
        start_ms=30,
        step_ms=40,
        cooldown_s=config.cooldown_s,
        clock=time.monotonic,
        sleep=time.sleep,
        timeout_s=5.0,
    )
    thread.join(5.0)
    assert chosen == 70
    assert len(highs) == 2  # one pulse per try, the gate low after each
    # each at least its length (the exact lengths: the sim test); the cap holds
    assert highs[0] >= 0.030 and highs[1] >= 0.070
    assert max(highs) < PULSE_HARD_CAP_MS / 1000
    assert solenoid.state is False


# --- the command ---------------------------------------------------------------------------

CONFIG = """\
# my table
[game]
players = 3   # three of us

[hardware]
profile = "sim"
pulse_ms = 60          # the old guess
cooldown_s = 1.0

[hardware.pins]
trigger = 17
"""


@pytest.fixture
def typed(monkeypatch):
    def type_lines(*lines: str) -> None:
        monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))

    return type_lines


def test_cli_writes_the_chosen_length_and_keeps_the_rest(tmp_path, typed, capsys) -> None:
    path = tmp_path / "table.toml"
    path.write_text(CONFIG, encoding="utf-8")
    typed("FIRE", "n", "FIRE", "y")
    assert main(["calibrate", "--config", str(path), "--start-ms", "25", "--step-ms", "5"]) == 0
    text = path.read_text(encoding="utf-8")
    assert text == CONFIG.replace("pulse_ms = 60          #", "pulse_ms = 30          #")
    assert load_table_config(path).hardware.pulse_ms == 30
    assert "Wrote hardware.pulse_ms = 30" in capsys.readouterr().out


def test_cli_nothing_chosen_leaves_the_file_alone(tmp_path, typed, capsys) -> None:
    path = tmp_path / "table.toml"
    path.write_text(CONFIG, encoding="utf-8")
    typed("FIRE", "q")
    assert main(["calibrate", "--config", str(path)]) == 1
    assert path.read_text(encoding="utf-8") == CONFIG
    typed("fire")  # not the word: nothing fires, nothing written
    assert main(["calibrate", "--config", str(path)]) == 1
    assert path.read_text(encoding="utf-8") == CONFIG
    assert "Nothing written" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--max-ms", "300"], "hard cap is 250 ms"),
        (["--start-ms", "120", "--max-ms", "100"], "longer than --max-ms"),
        (["--start-ms", "0"], "must be 1 or more"),
    ],
)
def test_cli_bad_options_exit_2(tmp_path, capsys, argv, fragment) -> None:
    path = tmp_path / "table.toml"
    path.write_text(CONFIG, encoding="utf-8")
    try:
        code = main(["calibrate", "--config", str(path), *argv])
    except SystemExit as exc:  # argparse
        code = exc.code
    assert code == 2 and fragment in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == CONFIG


def test_cli_without_a_config_file_exits_2(capsys) -> None:
    assert main(["calibrate"]) == 2
    err = capsys.readouterr().err
    assert "none was found" in err and "companion config example" in err


def test_cli_real_hardware_needs_a_terminal(tmp_path, monkeypatch, capsys) -> None:
    path = tmp_path / "table.toml"
    path.write_text(CONFIG.replace('"sim"', '"gpio"'), encoding="utf-8")
    monkeypatch.setattr(calibrate_command, "stdin_is_terminal", lambda: False)
    assert main(["calibrate", "--config", str(path)]) == 2
    assert "person at a terminal" in capsys.readouterr().err


def test_cli_gpio_pins_that_cannot_be_opened_exit_2(tmp_path, monkeypatch, typed, capsys) -> None:
    path = tmp_path / "table.toml"
    path.write_text(CONFIG.replace('"sim"', '"gpio"'), encoding="utf-8")
    monkeypatch.setattr(calibrate_command, "stdin_is_terminal", lambda: True)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    typed("FIRE")
    assert main(["calibrate", "--config", str(path)]) == 2
    assert "cannot open the gpio hardware" in capsys.readouterr().err


# --- the careful line edit -------------------------------------------------------------------


def test_edit_adds_the_key_under_an_existing_table(tmp_path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('[hardware]\nprofile = "gpio"\n[hardware.pins]\ntrigger = 17\n')
    set_table_value(path, "hardware", "pulse_ms", 45)
    assert path.read_text() == '[hardware]\npulse_ms = 45\nprofile = "gpio"\n[hardware.pins]\n' + (
        "trigger = 17\n"
    )


def test_edit_adds_the_table_when_there_is_none(tmp_path) -> None:
    path = tmp_path / "t.toml"
    path.write_text("[game]\nplayers = 2")
    set_table_value(path, "hardware", "pulse_ms", 45)
    assert path.read_text() == "[game]\nplayers = 2\n\n[hardware]\npulse_ms = 45\n"


def test_edit_keeps_windows_line_ends_and_the_file_mode(tmp_path) -> None:
    path = tmp_path / "t.toml"
    path.write_bytes(b"[hardware]\r\npulse_ms = 60\r\n")
    path.chmod(0o640)
    set_table_value(path, "hardware", "pulse_ms", 45)
    assert path.read_bytes() == b"[hardware]\r\npulse_ms = 45\r\n"
    assert path.stat().st_mode & 0o777 == 0o640


@pytest.mark.parametrize(
    "text",
    ["hardware.pulse_ms = 60\n", "hardware = { pulse_ms = 60 }\n"],
    ids=["dotted key", "inline table"],
)
def test_edit_refuses_what_it_cannot_change_safely(tmp_path, text) -> None:
    path = tmp_path / "t.toml"
    path.write_text(text)
    with pytest.raises(ConfigEditError, match="set it by hand: `pulse_ms = 45`"):
        set_table_value(path, "hardware", "pulse_ms", 45)
    assert path.read_text() == text
    assert [p.name for p in tmp_path.iterdir()] == ["t.toml"]  # no temporary file left
