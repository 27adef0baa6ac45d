"""``companion play battle-royale``: a game at the table, on simulated or real hardware."""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass

from rich.console import Console
from rich.rule import Rule

from companion.cli import CommandError
from companion.dice import Roller
from companion.games.battle_royale import BattleRoyaleConfig, ConfigError, new_game, parse_action
from companion.hal import HardwareConfig, HardwareConfigError, ManualClock, open_hardware
from companion.table.loop import TrackedTable
from companion.table.people import (
    BotAgent,
    SimOperator,
    TableStopped,
    TerminalAgent,
    TerminalInput,
)
from companion.table.shorthand import expand_move
from companion.ui.battle_royale import colour_text
from companion.ui.dashboard import Dashboard

TURN_PACE_S = 0.4  # on a terminal, at --speed 1, when only bots play


@dataclass
class PlayOptions:
    players: int
    mode: str
    hardware: str
    bots: int
    seed: int | None
    layout: str
    data: str | None
    start_player: int | None
    speed: float
    title: str = "Battle Royale"
    config_path: str | None = None


def run(args: argparse.Namespace) -> int:
    bots = args.players - 1 if args.bots is None else args.bots
    if not 0 <= bots <= args.players:
        raise CommandError(f"--bots must be 0..{args.players} for {args.players} players")
    options = PlayOptions(
        players=args.players, mode=args.mode, hardware=args.hardware, bots=bots, seed=args.seed,
        layout=args.layout, data=args.data, start_player=args.start_player, speed=args.speed,
        config_path=args.config,
    )
    return play_game(options)


def _hardware_config(options: PlayOptions) -> HardwareConfig:
    if options.config_path is None:
        return HardwareConfig(profile=options.hardware)
    from companion.table.config import TableConfigError, load_table_config

    try:
        table = load_table_config(options.config_path)
    except TableConfigError as exc:
        raise CommandError(str(exc)) from None
    try:
        return HardwareConfig(**{**table.hardware.__dict__, "profile": options.hardware})
    except (HardwareConfigError, TypeError) as exc:
        raise CommandError(str(exc)) from None


def play_game(options: PlayOptions) -> int:
    if options.mode == "assist":
        from companion.commands.assist import play_assist

        return play_assist(options)
    try:
        config = BattleRoyaleConfig(players=options.players, layout=options.layout,
                                    data_file=options.data, start_player=options.start_player)
    except (ConfigError, ValueError) as exc:
        raise CommandError(str(exc)) from None
    hw_config = _hardware_config(options)
    humans = options.players - options.bots
    console = Console()
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**32)
    roller = Roller.seeded(seed) if options.seed is not None else Roller()
    rng = random.Random(seed)
    sim = hw_config.profile == "sim"
    # simulated hardware runs on simulated time, so cool-downs do not slow a bot game
    clock = ManualClock() if sim else None
    live = console.is_terminal and humans == 0
    pace = TURN_PACE_S / options.speed if live else 0.0
    state = new_game(config)
    console.print(Rule(options.title))
    console.print(f"{options.players} players ({humans} at the terminal, {options.bots} bots), "
                  f"{options.mode} mode, {hw_config.profile} hardware, seed {seed}, "
                  f"layout {config.layout}")
    terminal = TerminalInput() if humans else None
    if terminal is not None and not sys.stdin.isatty():
        console.print("reading moves from standard input")
    try:
        with open_hardware(hw_config, clock=clock) as hw, \
                Dashboard(console, hw, live=live, pace_s=pace, title=options.title) as view:
            agents = {}
            for seat in range(options.players):
                if seat < humans:
                    assert terminal is not None
                    agents[seat] = TerminalAgent(terminal, view, parse_action, expand_move)
                else:
                    agents[seat] = BotAgent(rng)
            operator = SimOperator(hw) if sim else None
            table = TrackedTable(state, hw, roller, view, agents,
                                 sleep=clock.sleep if clock else __import__("time").sleep,
                                 operator=operator, terminal=terminal)
            table.run()
    except (TableStopped, EOFError) as exc:
        console.print(f"game stopped ({exc}) after {len(state.history)} actions")
        return 1
    winners = [state.colours[s] for s in state.winners]
    line = colour_text(winners[0], " and ".join(winners))
    line.append(f" win{'s' if len(winners) == 1 else ''} after {state.turn} turns: "
                f"{state.end_reason}", style="bold green")
    console.print(Rule("Game over"))
    console.print(line, soft_wrap=True)
    return 0
