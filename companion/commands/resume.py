"""``companion resume FILE``: continue a game from its journal (after a power cut or a stop).

Everything is checked before the file is touched: the journal is read and
replayed, ``--config`` and the hardware profile are validated, and the hardware
is opened; only then is a torn tail cut off (or, with ``--until-line``, the
good records copied to a new file) and the game continues. A resume that fails
changes nothing.
"""

from __future__ import annotations

import argparse
from os import PathLike

from rich.console import Console

from companion.commands.at_table import hardware_config
from companion.commands.errors import CommandError
from companion.commands.play import PlayOptions, play_game
from companion.commands.web_option import web_request
from companion.table.config import GameSettings, TableConfig, TableConfigError, find_table_config
from companion.table.journal import JournalError
from companion.table.session import GameSession, PendingResume, load_resume


def table_for(
    session: GameSession, hardware: str | None, config_path: str | PathLike[str] | None
) -> TableConfig:
    """The table settings a resumed game continues with: its own game, this table's hardware."""
    config = session.config
    settings = session.settings
    hw = hardware_config(hardware or settings.hardware, config_path)
    try:
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
    except TableConfigError as exc:
        raise CommandError(str(exc)) from None


def load(args: argparse.Namespace) -> PendingResume:
    """The journal of ``args.journal`` read, replayed and checked (nothing written)."""
    try:
        return load_resume(args.journal, until_line=getattr(args, "until_line", None))
    except JournalError as exc:
        raise CommandError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    console = Console(stderr=True)
    pending = load(args)
    session = pending.session
    for warning in pending.warnings:
        console.print(f"warning: {warning}", style="yellow", soft_wrap=True)
    state = session.state
    game = session.settings.game
    config_path = find_table_config(args.config).path  # --config, else the table's own file
    if game != "battle-royale":
        hardware = hardware_config(args.hardware or session.settings.hardware, config_path)
        console.print(
            f"resuming {pending.path}: {len(state.history)} actions replayed and checked",
            soft_wrap=True,
        )
        if game == "spartacus":
            from companion.commands.spartacus import continue_session as continue_spartacus

            return continue_spartacus(pending, hardware, args)
        if game == "skirmish":
            from companion.commands.skirmish import continue_session as continue_skirmish

            return continue_skirmish(pending, hardware, args)
        from companion.commands.gladiatoren import continue_session as continue_gladiatoren

        return continue_gladiatoren(pending, hardware, args)
    table = table_for(session, args.hardware, config_path)
    console.print(
        f"resuming {pending.path}: turn {state.turn}, "
        f"{len(state.history)} actions replayed and checked",
        soft_wrap=True,
    )
    # a game of bots, or of simulated people (a demo, --autoplay), continues as one
    autoplay = session.settings.demo or (
        table.game.mode == "tracked" and table.game.bots == table.game.players
    )
    return play_game(
        PlayOptions(
            table,
            title="Battle Royale (resumed)",
            pending=pending,
            autoplay=autoplay and table.hardware.profile in ("sim", "virtual-board"),
            demo=session.settings.demo,
            web=web_request(args, state.players, session.bot_seats()),
        )
    )
