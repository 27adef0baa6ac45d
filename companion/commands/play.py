"""``companion play battle-royale``: a game at the table, on simulated or real hardware.

Settings come from the table.toml found (``--config``, ``$COMPANION_CONFIG``, the
user's, the system's: :func:`companion.table.config.find_table_config`), else from
the built-in defaults (tracked mode, 4 players, simulated hardware); flags given on
the command line override either.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.rule import Rule

from companion.commands.arguments import flag, not_for_this_game
from companion.commands.at_table import (
    run_at_table,
    seed_shown,
    seed_words,
    who_plays,
)
from companion.commands.errors import CommandError
from companion.commands.web_option import (
    battle_royale_game,
    default_bots,
    phone_count,
    web_request,
    web_view,
)
from companion.dice import Roller
from companion.hal import Hardware, HardwareConfig, ManualClock
from companion.table.battle_royale_table import BattleRoyaleAdapter, TrackedTable
from companion.table.config import (
    GameSettings,
    TableConfig,
    TableConfigError,
    find_table_config,
    load_table_config,
)
from companion.table.journal import default_journal_dir, demo_journal_dir, new_journal_path
from companion.table.loop import TableLoop
from companion.table.people import SimOperator, TerminalAgent, TerminalInput, table_bot
from companion.table.seeding import seeded_random, table_roller
from companion.table.session import GAME, GameSession, PendingResume, SessionSettings
from companion.ui.battle_royale import colour_text
from companion.ui.dashboard import Dashboard

TURN_PACE_S = 0.4  # on a terminal, at --speed 1, when nobody types


@dataclass
class PlayOptions:
    """A resolved ``play``/``demo``/``serve`` request."""

    table: TableConfig
    seed: int | None = None
    speed: float = 1.0
    title: str = "Battle Royale"
    autoplay: bool = False  # simulated people press the buttons (sim hardware only)
    journal: str | None = None  # the journal file; None: a new file in the data directory
    pending: PendingResume | None = None  # a resumed game, not yet attached to its journal
    demo: bool = False  # a demo: its journal goes to the demo folder, serve never resumes it
    web: Any = None  # the web view asked for (--web), a companion.web.attach.WebRequest
    bot_level: str | None = None  # --bots N:LEVEL: the search bot's level; None: the table bot


#: play's flags that set a [game] key: argument name -> key
_FLAG_KEYS = {
    "players": "players",
    "mode": "mode",
    "bots": "bots",
    "layout": "layout",
    "data": "data_file",
    "start_player": "start_player",
}


def _override(args: argparse.Namespace) -> dict[str, object]:
    return {
        key: getattr(args, arg)
        for arg, key in _FLAG_KEYS.items()
        if getattr(args, arg, None) is not None
    }


def in_flag_terms(exc: TableConfigError, changes: dict[str, object]) -> str:
    """The error in the flags' terms where a flag set the key (``argument --bots: 7 is not
    allowed; ...``), in the file's terms where the file did."""
    flags = {f"game.{key}": flag(arg) for arg, key in _FLAG_KEYS.items()}
    lines = []
    for problem in exc.problems:
        typed = flags.get(problem.key)
        if typed is None or problem.key.removeprefix("game.") not in changes:
            return str(exc)  # a problem of the file: said as before, naming the file
        text = str(problem).removeprefix(f"{problem.key} = ")
        lines.append(f"argument {typed}: {text}")
    return "\n".join(lines)


def resolve_table(args: argparse.Namespace, default_mode: str) -> TableConfig:
    """The table config from ``--config`` or defaults, with the command-line flags applied."""
    changes = _override(args)
    try:
        if args.config:
            base = load_table_config(args.config)
        else:
            base = TableConfig(GameSettings(mode=default_mode), HardwareConfig(profile="sim"))
        game = base.game
        if changes:
            values = {**game.to_mapping(), **changes}
            if "players" in changes and changes["players"] != game.players:
                values["colours"] = []  # the default colours for the new player count
            values["colours"] = tuple(values["colours"])
            game = GameSettings(**values)
        table = TableConfig(game, base.hardware, base.source)
        return table.with_profile(getattr(args, "hardware", None))
    except TableConfigError as exc:
        raise CommandError(in_flag_terms(exc, changes)) from None


def run(args: argparse.Namespace) -> int:
    refused = not_for_this_game(args)  # another game's option: it would be ignored
    if refused is not None:
        raise CommandError(refused)
    if args.game == "spartacus":
        from companion.commands.spartacus import run_play as spartacus_run_play

        return spartacus_run_play(args)
    if args.game == "skirmish":
        from companion.commands.skirmish import run_play as skirmish_play

        return skirmish_play(args)
    if args.game == "gladiatoren":
        from companion.commands.gladiatoren import run_play as gladiatoren_play

        if args.mode == "assist":
            raise CommandError("Kampf der Gladiatoren is played tracked (no --mode assist)")
        return gladiatoren_play(args)
    if args.players is not None and args.players > 4:
        raise CommandError("Battle Royale is for 2 to 4 players")
    args.config = find_table_config(args.config).path
    in_file = _game_keys(args.config)
    if args.mode is None:  # play's default is tracked (play --help), unless the file says
        args.mode = None if "mode" in in_file else "tracked"
    tracked = args.mode == "tracked" or (args.mode is None and in_file.get("mode") == "tracked")
    if tracked and "bots" not in in_file:
        args.bots = default_bots(args, args.players or 4)
    if args.bots is None and tracked and "bots" not in in_file and not args.autoplay:
        args.bots = (args.players or 4) - 1  # one person at the terminal, bots for the rest
    if args.autoplay and tracked and args.bots is None:
        args.bots = args.players or 4
    table = resolve_table(args, default_mode="tracked")
    web = web_request(args, table.game.players, table.game.bot_seats)
    return play_game(
        PlayOptions(
            table,
            seed=args.seed,
            speed=args.speed,
            autoplay=args.autoplay,
            journal=args.journal,
            web=web,
            bot_level=getattr(args.bots, "level", None),
        )
    )


def _game_keys(path: object) -> dict[str, object]:
    """The ``[game]`` keys a table.toml sets itself (not its defaults); a file that cannot
    be read sets none here (loading it says what is wrong)."""
    if not path:
        return {}
    import tomllib

    try:
        with open(str(path), "rb") as f:
            game = tomllib.load(f).get("game", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
    return game if isinstance(game, dict) else {}


def play_game(options: PlayOptions) -> int:
    """Run one game at the table; exit code 0 when it ends with a winner.

    The hardware is opened before the journal is started (or, for a resumed game,
    continued): a table that cannot start leaves no file behind or changed.
    """
    game = options.table.game
    console = Console()
    resumed = options.pending.session if options.pending is not None else None
    if resumed is not None:
        seed, seeded_dice = resumed.settings.seed, resumed.settings.dice_follow_seed
    else:
        seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**32)
        seeded_dice = options.seed is not None
    typed_seed = seed_shown(options.seed, resumed.settings if resumed is not None else None)
    hw_config = options.table.hardware
    sim = hw_config.profile == "sim"
    simulated = hw_config.profile in ("sim", "virtual-board")  # buttons a program can press
    nobody_types = options.autoplay or (game.mode == "tracked" and game.bots == game.players)
    if options.autoplay and not simulated:
        raise CommandError(
            "--autoplay lets simulated people press simulated buttons: "
            "use it with --hardware sim or virtual-board"
        )
    # simulated hardware runs on simulated time, so cool-downs do not slow a bot game
    clock = ManualClock() if sim and nobody_types else None
    terminal = None if nobody_types else TerminalInput()
    typing = terminal is not None and terminal.interactive  # live, the input row below
    live = console.is_terminal and (nobody_types or typing)
    watched = options.web is not None and nobody_types  # bots watched on phones
    paced = (live and nobody_types) or watched
    pace = TURN_PACE_S / options.speed if paced else 0.0
    config = resumed.config if resumed is not None else game.battle_royale_config()
    console.print(Rule(options.title))
    humans = (
        "simulated people"
        if nobody_types
        else (
            "people at the table"
            if game.mode == "assist"
            else who_plays(game.players - game.bots, game.bots, phone_count(options.web))
        )
    )
    console.print(
        f"{game.players} players ({humans}), {game.mode} mode, {hw_config.profile} "
        f"hardware{seed_words(seed, typed_seed)}, layout {config.layout}",
        soft_wrap=True,
    )
    if terminal is not None and game.mode == "tracked":
        phones = options.web.phone_seats if options.web is not None else frozenset()
        terminal.seats = {s for s in game.human_seats if s not in phones}
        terminal.people = len(terminal.seats)  # several: a hand is shown after a hand-over
    if terminal is not None and simulated:
        console.print(
            "type roll / select / confirm / fire (or r, s, c, f) to press the "
            "simulated buttons; quit to stop",
            soft_wrap=True,
        )
    sleep = clock.sleep if clock is not None else time.sleep
    demo = options.demo or options.autoplay
    folder = demo_journal_dir() if demo else default_journal_dir()

    def begin() -> GameSession:
        if options.pending is not None:
            return options.pending.attach()
        settings = SessionSettings(
            mode=game.mode,
            bots=game.bots,
            hardware=hw_config.profile,
            seed=seed,
            seeded_dice=seeded_dice,
            demo=demo,
            bot_level=options.bot_level,
        )
        path = options.journal or new_journal_path(GAME, game.mode, folder)
        return GameSession.start(config, settings, path)

    def play(hw: Hardware, session: GameSession) -> Any:
        with (
            web_view(options.web, battle_royale_game(game.mode), config, hw, out=sys.stdout) as web,
            Dashboard(
                console, hw, live=live, typing=typing, pace_s=pace, title=options.title
            ) as view,
        ):
            if session.journal is not None:
                session.journal.notify = view.message
            roller = table_roller(session, seed, seeded_dice=seeded_dice)
            operator = (
                SimOperator(hw, rng=seeded_random(session, seed, "operator")) if simulated else None
            )
            rng = seeded_random(session, seed, "bots")
            loop = _make_loop(game, session, hw, roller, view, rng, operator, terminal, sleep)
            if web is not None:
                web.plug(loop)
            return loop.run()

    code, state = run_at_table(
        console, hw_config, begin, play, clock=clock, archive_in=folder, terminal=terminal
    )
    if state is not None:
        _print_result(console, state)
    return code


def _make_loop(
    game: GameSettings,
    session: GameSession,
    hw: Hardware,
    roller: Roller,
    view: Dashboard,
    rng: random.Random,
    operator: SimOperator | None,
    terminal: TerminalInput | None,
    sleep: object,
) -> TableLoop:
    if game.mode == "assist":
        from companion.table.assist import AssistTable

        return AssistTable(
            session, hw, roller, view, sleep=sleep, operator=operator, terminal=terminal
        )
    agents: dict[int, Any] = {}
    for seat in range(game.players):
        if seat in game.bot_seats or terminal is None:  # a resumed game keeps its level
            agents[seat] = table_bot(GAME, rng, session.settings.bot_level)
        else:
            agents[seat] = TerminalAgent(terminal, view, adapter=BattleRoyaleAdapter())
    if terminal is not None and not sys.stdin.isatty():
        view.message("reading moves from standard input")
    return TrackedTable(
        session, hw, roller, view, agents, sleep=sleep, operator=operator, terminal=terminal
    )


def _print_result(console: Console, state: object) -> None:
    winners = [state.colours[s] for s in state.winners]
    line = colour_text(winners[0], " and ".join(winners))
    line.append(
        f" win{'s' if len(winners) == 1 else ''} after {state.turn} turns: {state.end_reason}",
        style="bold green",
    )
    console.print(Rule("Game over"))
    console.print(line, soft_wrap=True)
