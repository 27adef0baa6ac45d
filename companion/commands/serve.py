"""``companion serve``: the headless table service in assist mode (systemd runs it on the Pi).

Opens the hardware once, then plays game after game: the buttons drive it, the
screen (if any) shows the live dashboard, and a new game starts when CONFIRM is
pressed after the last one ended. SIGTERM (``systemctl stop``) switches the
solenoid and every LED off and exits with status 143.

What an operator needs later goes through :mod:`logging` (the journal under
systemd, see :mod:`companion.logs`). Under systemd (``Type=notify``) it sends
``READY=1`` once the hardware is open and the game resumed, and feeds the
watchdog from the table loop's heartbeat (:mod:`companion.notify`).
"""

from __future__ import annotations

import argparse
import itertools
import logging
import random
import sys
import time
from pathlib import Path

from rich.console import Console

from companion.cli import CommandError
from companion.commands.web_option import battle_royale_game, web_request, web_view
from companion.dice import Roller
from companion.hal import HardwareConfigError, ManualClock, open_hardware
from companion.notify import Notifier
from companion.table.assist import AssistTable
from companion.table.config import (
    TableConfigError,
    default_table_config,
    find_table_config,
    load_table_config,
)
from companion.table.journal import JournalError, default_journal_dir, new_journal_path
from companion.table.people import SimOperator
from companion.table.session import (
    GAME,
    GameSession,
    SessionSettings,
    find_unfinished,
    resume_session,
)
from companion.ui.dashboard import Dashboard

log = logging.getLogger(__name__)


def _resume_last(console: Console, journals: Path) -> GameSession | None:
    """The last unfinished assist game in ``journals``, rebuilt and checked, or None."""
    path = find_unfinished(journals, mode="assist")
    return None if path is None else _resume_file(console, path, fallback=True)


def _resume_file(console: Console, path: Path, fallback: bool = False) -> GameSession | None:
    """Resume the assist game in ``path``; a finished or broken one is an error unless
    ``fallback`` (then the service says why and starts a new game)."""
    try:
        session, warnings = resume_session(path)
    except JournalError as exc:
        if not fallback:
            raise CommandError(str(exc)) from None
        log.warning(
            "companion serve: cannot resume %s: %s; starting a new game "
            "(the old journal is left as it is)",
            path,
            exc,
        )
        return None
    for warning in warnings:
        log.warning("%s", warning)
    log.info(
        "companion serve: resuming the unfinished game in %s (turn %d)", path, session.state.turn
    )
    return session


def run(args: argparse.Namespace) -> int:
    started = time.monotonic()
    console = Console()
    path = find_table_config(args.config).path
    try:
        table = load_table_config(path) if path else default_table_config()
        table = table.with_profile(args.hardware)
    except (TableConfigError, HardwareConfigError) as exc:
        raise CommandError(str(exc)) from None
    if table.game.mode != "assist":
        raise CommandError(
            f"{table.source}: game.mode = {table.game.mode!r}: serve runs assist "
            "mode (set mode = \"assist\"), or use 'companion play' for tracked mode"
        )
    sim = table.hardware.profile == "sim"
    if args.autoplay and not sim:
        raise CommandError("--autoplay presses simulated buttons: use it with --hardware sim")
    clock = ManualClock() if args.autoplay else None
    config = table.game.battle_royale_config()
    roller = Roller()
    journals = Path(args.journal_dir) if args.journal_dir else default_journal_dir()
    settings = SessionSettings(mode="assist", hardware=table.hardware.profile)
    first_journal = Path(args.journal) if args.journal else None
    notifier = Notifier.from_environ()
    web_asked = web_request(args, config.players, ())
    if first_journal is not None and first_journal.exists() and not args.new:
        session = _resume_file(console, first_journal)  # a named journal: continue that game
        first_journal = None
    else:
        session = None if args.new else _resume_last(console, journals)
    try:
        with (
            open_hardware(table.hardware, clock=clock) as hw,
            web_view(
                web_asked,
                battle_royale_game("assist"),
                config,
                hw,
                assist=True,
                out=sys.stdout if console.is_terminal else None,
                pairing_dir=journals.parent / "web-pairing",
            ) as web,
        ):
            log.info(
                "companion serve: ready (%s hardware, %d players, config %s) in %.2f s",
                table.hardware.profile,
                config.players,
                table.source,
                time.monotonic() - started,
            )
            notifier.ready(f"{table.hardware.profile} hardware, {config.players} players")
            operator = SimOperator(hw, rng=random.Random(0)) if args.autoplay else None
            sleep = clock.sleep if clock is not None else time.sleep
            live = console.is_terminal and not args.autoplay
            for number in itertools.count(1):
                if session is None:
                    path = first_journal or new_journal_path(GAME, "assist", journals)
                    first_journal = None
                    session = GameSession.start(config, settings, path)
                log.info("journal: %s", session.journal_path)
                if web is not None and number > 1:
                    web.new_game(config.players)  # new tokens every game
                notifier.status(f"game {number}, journal {session.journal_path}")
                with Dashboard(
                    console, hw, live=live, title=f"Battle Royale, game {number}"
                ) as view:
                    table_loop = AssistTable(
                        session,
                        hw,
                        roller,
                        view,
                        sleep=sleep,
                        operator=operator,
                        heartbeat=notifier.heartbeat,
                    )
                    if web is not None:
                        web.plug(table_loop)
                    state = table_loop.run()
                    session.journal.close()
                    session = None
                    names = " and ".join(state.colours[s] for s in state.winners)
                    log.info(
                        "game %d over after %d turns: %s won (%s)",
                        number,
                        state.turn,
                        names,
                        state.end_reason,
                    )
                    if args.games and number >= args.games:
                        break
                    table_loop.wait_for({"confirm"}, "press CONFIRM to start a new game")
    except SystemExit as exc:
        notifier.stopping()
        log.info("companion serve: stopped, solenoid and LEDs off")
        return int(exc.code or 0)
    notifier.stopping()
    log.info("companion serve: finished, solenoid and LEDs off")
    return 0
