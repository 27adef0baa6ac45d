"""``companion serve``: the headless table service in assist mode (systemd runs it on the Pi).

Opens the hardware once, then plays game after game: the buttons drive it, the
screen (if any) shows the live dashboard, and a new game starts when CONFIRM is
pressed after the last one ended. Under systemd, where standard output is the
journal, no board is drawn: the table's messages go to the log
(:class:`companion.table.log_view.LogView`). SIGTERM (``systemctl stop``) switches the
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
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from companion.commands.at_table import open_table_hardware, start_journal
from companion.commands.errors import EXIT_INTERRUPTED, CommandError
from companion.commands.web_option import battle_royale_game, web_request, web_view
from companion.dice import Roller
from companion.hal import HardwareConfigError
from companion.logs import stream_is_journal
from companion.notify import Notifier
from companion.table.config import (
    TableConfigError,
    default_table_config,
    find_table_config,
    load_table_config,
)
from companion.table.journal import (
    DISK_FULL,
    DISK_FULL_RETRY_S,
    JournalError,
    default_journal_dir,
    demo_journal_dir,
    new_journal_path,
)
from companion.table.journals import archive, find_unfinished, prune, set_aside
from companion.table.session import GAME, GameSession, PendingResume, SessionSettings, load_resume

if TYPE_CHECKING:
    from rich.console import Console

log = logging.getLogger(__name__)


def _default_dir(autoplay: bool) -> Path:
    """Where serve keeps journals: with simulated people (``--autoplay``, a trial) in the
    demo folder, so a real table never resumes a simulated game."""
    return demo_journal_dir() if autoplay else default_journal_dir()


def _load_last(journals: Path) -> PendingResume | None:
    """The last unfinished assist game in ``journals``, read and checked, or None.

    Only the top of the folder is looked at (finished games are in ``finished/``),
    so this does not grow with the season. A journal that cannot be resumed is
    moved into ``damaged/`` (unchanged) so it is not tried at every start.
    """
    path = find_unfinished(journals, mode="assist")
    if path is None:
        return None
    pending = _load_file(path, fallback=True)
    if pending is None and path.exists():
        log.warning("companion serve: %s moved to %s", path, set_aside(path))
    return pending


def _load_file(path: Path, fallback: bool = False) -> PendingResume | None:
    """Read and check the assist game in ``path`` (nothing is written yet); a finished or
    broken one is an error unless ``fallback`` (then the service says why and starts a
    new game)."""
    try:
        pending = load_resume(path)
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
    if pending.session.settings.mode != "assist":
        if not fallback:
            raise CommandError(
                f"{path} is a {pending.session.settings.mode} game: serve runs assist "
                f"mode; continue it with 'companion resume {path}'"
            )
        return None
    for warning in pending.warnings:
        log.warning("%s", warning)
    return pending


def _start_when_there_is_space(
    start: Callable[[], GameSession],
    notifier: Notifier,
    raise_if_stopped: Callable[[], None],
) -> GameSession:
    """Start the next game's journal. While the disk is full, say so once, keep feeding the
    watchdog and try again every few seconds: a full SD card pauses the table between games
    as it does during one, instead of ending the service (a restart would not free space).
    ``raise_if_stopped`` (the hardware's) raises a stop signal CPython dropped, so a stop
    ends the wait."""
    waiting = False
    while True:
        try:
            session = start()
        except OSError as exc:
            if exc.errno not in DISK_FULL:
                raise
            if not waiting:
                waiting = True
                log.warning(
                    "companion serve: the disk is full: the next game's journal cannot be "
                    "written (%s); waiting until there is space (free some, e.g. 'companion "
                    "journals prune')",
                    exc.strerror or exc,
                )
                notifier.status("waiting: the disk is full")
            notifier.heartbeat()
            raise_if_stopped()
            time.sleep(DISK_FULL_RETRY_S)
            continue
        if waiting:
            log.info("companion serve: disk space is back; the new game starts")
        return session


def _after_game(path: Path | None, journals: Path, keep: int) -> None:
    """A finished game's journal goes to ``finished/``; the oldest beyond ``keep`` go."""
    if path is None or path.parent.resolve() != journals.resolve():
        return  # a journal named with --journal stays where it is
    archive(path)
    removed = prune(journals, keep)
    if removed:
        log.info(
            "companion serve: deleted the %d oldest finished journal(s) "
            "(keeping %d: [journal] keep_finished)",
            len(removed),
            keep,
        )


def _console() -> Console:
    """The console the dashboard (and the web view's links) are drawn on."""
    from rich.console import Console

    return Console()


def run(args: argparse.Namespace) -> int:
    started = time.monotonic()
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
    if args.autoplay and table.hardware.profile not in ("sim", "virtual-board"):
        raise CommandError(
            "--autoplay presses simulated buttons: use it with --hardware sim or virtual-board"
        )
    clock = None  # the virtual board is real time
    if args.autoplay and sim:
        from companion.hal.sim import ManualClock

        clock = ManualClock()
    config = table.game.battle_royale_config()
    roller = Roller()
    journals = Path(args.journal_dir) if args.journal_dir else _default_dir(args.autoplay)
    settings = SessionSettings(mode="assist", hardware=table.hardware.profile, demo=args.autoplay)
    keep = table.journal.keep_finished
    first_journal = Path(args.journal) if args.journal else None
    notifier = Notifier.from_environ()
    web_asked = web_request(args, config.players, ())
    # rich is imported for something to draw: the web view's links (on a terminal), else
    # the first game's dashboard, once the table is ready
    console = _console() if web_asked is not None else None
    if first_journal is not None and first_journal.exists() and not args.new:
        pending = _load_file(first_journal)  # a named journal: continue that game
        first_journal = None
    else:
        pending = None if args.new else _load_last(journals)
    try:
        with (
            open_table_hardware(table.hardware, clock=clock) as hw,
            web_view(
                web_asked,
                battle_royale_game("assist"),
                config,
                hw,
                assist=True,
                out=sys.stdout if console is not None and console.is_terminal else None,
                pairing_dir=journals.parent / "web-pairing",
            ) as web,
        ):
            session = None
            if pending is not None:  # only now, with the hardware open, is the file touched
                session = start_journal(pending.attach)
                log.info(
                    "companion serve: resuming the unfinished game in %s (turn %d)",
                    pending.path,
                    session.state.turn,
                )
            # the players of the game played first: a resumed game keeps its own
            players = session.config.players if session is not None else config.players
            log.info(
                "companion serve: ready (%s hardware, %d players, config %s) in %.2f s",
                table.hardware.profile,
                players,
                table.source,
                time.monotonic() - started,
            )
            notifier.ready(f"{table.hardware.profile} hardware, {players} players")
            # what plays the games comes after `ready` (the table loop and its adapter, the
            # log view, the simulated people): start-up opens the hardware and resumes
            from companion.table.assist import AssistTable
            from companion.table.log_view import LogView
            from companion.table.people import SimOperator

            # under systemd standard output is the journal: the board is not for the log
            to_log = stream_is_journal(sys.stdout)
            if not to_log:
                from companion.ui.dashboard import Dashboard

                console = console or _console()
            people = random.Random(0)  # the simulated people's choices, across games
            sleep = clock.sleep if clock is not None else time.sleep
            live = console is not None and console.is_terminal and not args.autoplay
            for number in itertools.count(1):
                if session is None:
                    path = first_journal or new_journal_path(GAME, "assist", journals)
                    first_journal = None
                    session = start_journal(
                        lambda p=path: _start_when_there_is_space(
                            lambda: GameSession.start(config, settings, p),
                            notifier,
                            hw.raise_if_stopped,
                        )
                    )
                log.info("journal: %s", session.journal_path)
                hw.eliminator.new_game()  # tokens (turn and field) recur from game to game
                if web is not None and number > 1:
                    web.new_game(config.players)  # new tokens every game
                notifier.status(f"game {number}, journal {session.journal_path}")
                with (
                    LogView()
                    if to_log
                    else Dashboard(console, hw, live=live, title=f"Battle Royale, game {number}")
                ) as view:
                    session.journal.notify = view.message
                    # a new operator per game: its record of presses ends with the game
                    operator = SimOperator(hw, rng=people) if args.autoplay else None
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
                    _after_game(session.journal_path, journals, keep)
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
                    table_loop.wait_for(
                        {"confirm"},
                        "press CONFIRM to start a new game",
                        # a CONFIRM pressed twice to end the game does not start the next
                        asked=hw.inputs.last_seq,
                    )
    except SystemExit as exc:
        notifier.stopping()
        log.info("companion serve: stopped, solenoid and LEDs off")
        return int(exc.code or 0)
    except KeyboardInterrupt:
        notifier.stopping()
        log.info(
            "companion serve: stopped (Ctrl-C), solenoid and LEDs off; an unfinished game "
            "continues at the next start"
        )
        return EXIT_INTERRUPTED
    notifier.stopping()
    log.info("companion serve: finished, solenoid and LEDs off")
    return 0
