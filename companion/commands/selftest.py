"""``companion selftest``: check every LED, button and (with ``--fire``) the solenoid.

The logic is :func:`companion.table.selftest.run_selftest`; this module opens
the hardware, talks to the terminal and prints the table of results. Exit
code 0 if no tested device failed, 1 if one did, 2 for a bad configuration or
hardware that cannot be opened.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable

from rich.console import Console
from rich.table import Table
from rich.text import Text

from companion.commands.errors import CommandError
from companion.hal import HardwareConfig, HardwareConfigError
from companion.table.config import TableConfigError, find_table_config, load_hardware_from_table
from companion.table.selftest import (
    FIRE_WORD,
    DeviceResult,
    SelftestOperator,
    exit_code,
    run_selftest,
    summary,
)

#: On real pins with no one to ask, how long each LED stays lit (so a watcher sees it).
UNATTENDED_LED_PAUSE_S = 0.5

_STATUS_STYLE = {"pass": "bold green", "FAIL": "bold red"}


def hardware_config(args: argparse.Namespace) -> HardwareConfig:
    """The ``[hardware]`` of the table.toml found (``--config`` first; else defaults), with
    ``--hardware`` applied."""
    args.config = find_table_config(args.config).path
    try:
        config = load_hardware_from_table(args.config) if args.config else HardwareConfig()
        if args.hardware:
            config = dataclasses.replace(config, profile=args.hardware)
    except (TableConfigError, HardwareConfigError) as exc:
        raise CommandError(str(exc)) from None
    return config


def stdin_is_terminal() -> bool:
    """True if a person can answer prompts (stdin is a terminal)."""
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def _ask_yes_no(console: Console) -> Callable[[str], bool]:
    def confirm(prompt: str) -> bool:
        while True:
            try:
                answer = console.input(f"{prompt} [y/n] ", markup=False).strip().lower()
            except EOFError:
                return False
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no"):
                return False
            console.print("Please answer y or n.", markup=False)

    return confirm


def _ask_fire_word(console: Console) -> Callable[[str], bool]:
    def confirm_fire(prompt: str) -> bool:
        try:
            answer = console.input(prompt, markup=False)
        except EOFError:
            return False
        return answer.strip() == FIRE_WORD

    return confirm_fire


def results_table(results: list[DeviceResult]) -> Table:
    """The results as a rich table: device, result, detail."""
    table = Table(title="Self-test results")
    table.add_column("device")
    table.add_column("result")
    table.add_column("detail", overflow="fold")
    for r in results:
        style = _STATUS_STYLE.get(r.status, "yellow")
        table.add_row(Text(r.device), Text(r.status, style=style), Text(r.detail))
    return table


def run(args: argparse.Namespace) -> int:
    config = hardware_config(args)
    console = Console()
    interactive = stdin_is_terminal()
    from companion.commands.at_table import open_table_hardware  # the games: lazily

    hw = open_table_hardware(config)

    def say(text: str) -> None:
        console.print(text, markup=False, highlight=False)

    with hw:
        source = args.config or "built-in defaults"
        say(
            f"companion selftest: profile {hw.profile}, pulse {config.pulse_ms} ms, "
            f"cool-down {config.cooldown_s:g} s ({source})"
        )
        operator = None
        confirm = None
        if hw.sim is not None:
            operator = SelftestOperator(hw.sim)
            say(
                "Simulated hardware: a scripted sim operator presses every button for you "
                "(simulated presses), and LEDs, display and coil are checked through the "
                "simulator's recorded state. No input is needed; nothing physical is tested."
            )
        elif interactive:
            confirm = _ask_yes_no(console)
        else:
            say(
                "No terminal: visual checks are reported as 'not confirmed', not passed. "
                "Buttons can still be pressed at the table."
            )
        confirm_fire = _ask_fire_word(console) if interactive else None
        if args.fire and confirm_fire is None:
            say(
                f"--fire needs a terminal to type {FIRE_WORD}: the solenoid is not fired "
                "without one."
            )
        results = run_selftest(
            hw,
            say,
            confirm,
            button_timeout_s=args.timeout,
            fire=args.fire,
            confirm_fire=confirm_fire,
            operator=operator,
            led_pause_s=UNATTENDED_LED_PAUSE_S if hw.sim is None and confirm is None else 0.0,
        )
    console.print(results_table(results))
    code = exit_code(results)
    verdict = "all tested devices passed" if code == 0 else "some devices FAILED"
    say(f"{summary(results)}: {verdict}")
    return code
