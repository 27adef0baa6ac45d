"""``companion resume FILE``: continue a game from its journal (after a power cut or a stop)."""

from __future__ import annotations

import argparse
import dataclasses
from os import PathLike

from rich.console import Console

from companion.cli import CommandError
from companion.commands.play import PlayOptions, play_game
from companion.hal import HardwareConfig, HardwareConfigError
from companion.table.config import (
    GameSettings,
    TableConfig,
    TableConfigError,
    find_table_config,
    load_table_config,
)
from companion.table.journal import JournalError
from companion.table.session import GameSession, resume_session


def table_for(
    session: GameSession, hardware: str | None, config_path: str | PathLike[str] | None
) -> TableConfig:
    """The table settings a resumed game continues with: its own game, this table's hardware."""
    config = session.config
    settings = session.settings
    try:
        hw = load_table_config(config_path).hardware if config_path else HardwareConfig()
        hw = dataclasses.replace(hw, profile=hardware or settings.hardware)
        game = GameSettings(
            mode=settings.mode,
            players=config.players,
            colours=tuple(config.colours),
            layout=config.layout,
            start_player=config.start_player,
            bots=settings.bots if settings.mode == "tracked" else 0,
            data_file=config.data_file,
            abilities=config.abilities,
            special_actions=config.special_actions,
        )
        return TableConfig(game, hw, f"resumed game ({session.journal_path})")
    except (TableConfigError, HardwareConfigError) as exc:
        raise CommandError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    console = Console(stderr=True)
    try:
        session, warnings = resume_session(args.journal, until_line=args.until_line)
    except JournalError as exc:
        raise CommandError(str(exc)) from None
    for warning in warnings:
        console.print(f"warning: {warning}", style="yellow", soft_wrap=True)
    state = session.state
    console.print(
        f"resuming {session.journal_path}: turn {state.turn}, "
        f"{len(state.history)} actions replayed and checked",
        soft_wrap=True,
    )
    if session.settings.game == "spartacus":
        from companion.commands.spartacus import run_resume as spartacus_resume

        return spartacus_resume(args, session=session)
    if session.settings.game == "skirmish":
        from companion.commands.skirmish import continue_session

        return continue_session(session, args.hardware)
    if session.settings.game == "gladiatoren":
        from companion.commands.gladiatoren import run_play

        return run_play(
            argparse.Namespace(hardware=args.hardware or session.settings.hardware), session=session
        )
    table = table_for(session, args.hardware, find_table_config(args.config).path)
    autoplay = table.game.mode == "tracked" and table.game.bots == table.game.players
    return play_game(
        PlayOptions(
            table,
            seed=None,
            title="Battle Royale (resumed)",
            session=session,
            autoplay=autoplay and table.hardware.profile == "sim",
        )
    )
