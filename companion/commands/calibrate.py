"""``companion calibrate``: find the solenoid pulse that throws a tile; write it to table.toml.

The logic is :func:`companion.table.calibrate.calibrate`; this module finds and
checks the config file, talks to the terminal and writes the chosen length as
``hardware.pulse_ms`` (every other line of the file is kept). Exit code 0 when a
length was written, 1 when none was chosen, 2 for bad input (options, config file,
no terminal, hardware that cannot be opened, a file that cannot be written).
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console

from companion.commands.errors import CommandError
from companion.commands.selftest import _ask_fire_word, stdin_is_terminal
from companion.hal import (
    PULSE_HARD_CAP_MS,
    Hardware,
    HardwareConfigError,
    ManualClock,
)
from companion.table.calibrate import ANSWERS, calibrate
from companion.table.config import (
    TableConfigError,
    find_table_config,
    load_hardware_from_table,
)
from companion.table.config_edit import ConfigEditError, set_table_value
from companion.table.selftest import SelftestOperator


def _ask_answer(console: Console) -> Callable[[str], str]:
    def ask(prompt: str) -> str:
        while True:
            try:
                answer = console.input(prompt, markup=False).strip().lower()
            except EOFError:
                return "q"
            if answer in ANSWERS:
                return answer
            console.print("Please answer y, n, r or q.", markup=False)

    return ask


def run(args: argparse.Namespace) -> int:
    max_ms = PULSE_HARD_CAP_MS if args.max_ms is None else args.max_ms
    if max_ms > PULSE_HARD_CAP_MS:
        raise CommandError(f"--max-ms {max_ms}: the solenoid's hard cap is {PULSE_HARD_CAP_MS} ms")
    if args.start_ms > max_ms:
        raise CommandError(f"--start-ms {args.start_ms} is longer than --max-ms {max_ms}")
    choice = find_table_config(args.config)
    if choice.path is None:
        raise CommandError(
            "calibrate writes hardware.pulse_ms into a table.toml, and none was found "
            f"({choice.describe()}): give --config FILE, or start one with "
            "'companion config example > ~/.config/companion/table.toml'"
        )
    path = choice.path
    try:
        config = load_hardware_from_table(path)
        if args.hardware:
            config = dataclasses.replace(config, profile=args.hardware)
    except (TableConfigError, HardwareConfigError) as exc:
        raise CommandError(str(exc)) from None
    simulated = config.profile == "sim"
    if not simulated and not stdin_is_terminal():
        raise CommandError(
            "calibrate fires the solenoid only for a person at a terminal who types FIRE "
            "each time: run it in an interactive shell (ssh -t for a remote one)"
        )
    console = Console()

    def say(text: str) -> None:
        console.print(text, markup=False, highlight=False)

    # sim runs on a manual clock: its pulses and cool-downs take no real time
    clock = ManualClock() if simulated else None
    now = clock if clock is not None else time.monotonic
    sleep = clock.sleep if clock is not None else time.sleep

    from companion.commands.at_table import open_table_hardware  # the games: lazily

    @contextmanager
    def open_step(pulse_ms: int) -> Iterator[Hardware]:
        step = dataclasses.replace(config, pulse_ms=pulse_ms)
        with open_table_hardware(step, clock=clock) as hw:
            yield hw

    say(
        f"companion calibrate: {config.profile} hardware, config {path}; now "
        f"hardware.pulse_ms = {config.pulse_ms}, cool-down {config.cooldown_s:g} s."
    )
    say(
        "Put a tile on the Eliminator's field. Each pulse fires only after you type FIRE and "
        "press the red button; keep fingers and faces away from the arena."
    )
    chosen = calibrate(
        open_step,
        say,
        _ask_fire_word(console),
        _ask_answer(console),
        start_ms=args.start_ms,
        step_ms=args.step_ms,
        max_ms=max_ms,
        cooldown_s=config.cooldown_s,
        clock=now,
        sleep=sleep,
        timeout_s=args.timeout,
        operator_for=lambda hw: SelftestOperator(hw.sim) if hw.sim is not None else None,
    )
    if chosen is None:
        say(f"Nothing written: {path} keeps hardware.pulse_ms = {config.pulse_ms}.")
        return 1
    try:
        set_table_value(path, "hardware", "pulse_ms", chosen)
        written = load_hardware_from_table(path).pulse_ms  # the file loads, with the value
    except (ConfigEditError, TableConfigError) as exc:
        raise CommandError(str(exc)) from None
    assert written == chosen
    say(f"Wrote hardware.pulse_ms = {chosen} to {path} (the rest of the file is unchanged).")
    say("Restart the service to use it: sudo systemctl restart companion")
    return 0
