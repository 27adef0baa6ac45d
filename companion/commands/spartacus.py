"""Spartacus at the table: ``companion spartacus fight``, ``play spartacus``, ``demo --game
spartacus``, ``spartacus resume`` and ``spartacus cards check``.

- ``run_fight``: the combat assistant. Enter two fighters (a card id, or a name with
  dice) and their equipment; the companion runs the fight: initiative, movement on the hex
  arena, attacks with electronic dice shown in red / black / blue, rerolls, wounds, the
  exact odds before every attack. Either side can be a bot.
- ``run_play``: a full tracked game (houses, gold, influence, the arena, bets), people at
  the terminal and bots.
- ``run_demo``: a full game of bots on simulated hardware (simulated people press ROLL).

- ``run_cards_check``: checks a transcription of the box's cards against the data schema
  (``companion/data/spartacus.schema.json``) and lists what is invalid, missing or guessed.
  Exit codes: 0 valid and complete, 1 valid but incomplete (:data:`EXIT_INCOMPLETE`),
  2 invalid or unreadable.

Every action is journalled before it takes effect (``GameSession.commit`` then
``apply``); ``companion spartacus resume <journal>`` continues after a power cut.

Fighter specs: ``spartacus`` (a card id) or ``Crixus=4/3/2`` (name=attack/defence/speed),
then ``@ability`` and ``+equipment`` parts: ``Crixus=4/3/2@attack-triple-extra+dreizack``,
``agron+helm+netz``.
"""

from __future__ import annotations

import argparse
import sys

from companion.commands.arguments import BOT_LEVELS, data_file
from companion.commands.errors import CommandError
from companion.commands.web_option import (
    add_web_arguments,
    default_bots,
    phone_count,
    web_request,
    web_view,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (`--help` stays fast)
if TYPE_CHECKING:
    from typing import Any

GAME = "spartacus"
DEFAULT_I = "spartacus+gladius"
DEFAULT_II = "agron+helm"
TURN_PACE_S = 0.15  # the live view's pause at each step of a bot game, at --speed 1
EXIT_COMPLETE, EXIT_INCOMPLETE, EXIT_INVALID = 0, 1, 2


def configure_parser(sp: argparse.ArgumentParser) -> None:
    """The arguments of ``companion spartacus``: ``fight``, ``resume`` and ``cards check``."""
    tools = sp.add_subparsers(dest="tool", metavar="TOOL", required=True)
    fight = tools.add_parser(
        "fight",
        help="run one arena fight with electronic dice (combat assistant)",
        description="Fighters: a card id (spartacus) or NAME=A/D/S, then @ability and "
        "+equipment parts, e.g. 'Crixus=4/3/2@attack-triple-extra+dreizack'.",
    )
    fight.add_argument(
        "--fighter-1", "-1", default=DEFAULT_I, help=f"fighter I (default {DEFAULT_I})"
    )
    fight.add_argument(
        "--fighter-2", "-2", default=DEFAULT_II, help=f"fighter II (default {DEFAULT_II})"
    )
    fight.add_argument(
        "--bots",
        choices=("none", "I", "II", "both"),
        help="which fighters a bot plays (default II; with --phone-seats, the fighters "
        "not on phones)",
    )
    fight.add_argument(
        "--bot-level",
        choices=BOT_LEVELS,
        help="the search bot plays the bots' fighters at this level (docs/bots.md); "
        "default: the simple bot",
    )
    fight.add_argument(
        "--autoplay",
        action="store_true",
        help="bots for both, simulated people press ROLL (sim hardware)",
    )
    fight.add_argument("--arena", default="default", help="arena from the data file")
    fight.add_argument("--hardware", choices=("sim", "gpio"), default="sim")
    fight.add_argument("--config", help="table.toml for the [hardware] settings")
    fight.add_argument("--seed", type=int, help="repeatable dice and bots")
    fight.add_argument("--data", type=data_file, help="Spartacus data file (cards, arenas)")
    fight.add_argument("--journal", help="journal file (default: a new file in the data directory)")
    fight.add_argument("--no-odds", action="store_true", help="do not show the odds")
    add_web_arguments(fight, seats=True, dice=True)  # fighter I is seat 0, II seat 1
    fight.set_defaults(handler="companion.commands.spartacus:run_fight")
    resume = tools.add_parser("resume", help="continue a Spartacus game or fight from its journal")
    resume.add_argument("journal", help="the journal file (.jsonl)")
    resume.add_argument(
        "--hardware", choices=("sim", "gpio"), help="default: the one the game started with"
    )
    resume.add_argument("--config", help="table.toml for the [hardware] settings")
    add_web_arguments(resume, seats=True, dice=True)  # the phones again after a stop
    resume.set_defaults(handler="companion.commands.spartacus:run_resume")
    cards = tools.add_parser("cards", help="the card data: check a transcription of the box")
    card_tools = cards.add_subparsers(dest="cards_tool", metavar="ACTION", required=True)
    check = card_tools.add_parser(
        "check",
        help="check a data file: what is invalid, what of the box is missing, what is guessed",
        description="Checks a Spartacus data file (your transcription of the box's cards) "
        "against companion/data/spartacus.schema.json. Exit 0: valid and complete; 1: valid "
        "but incomplete (cards of the box missing, house rules not transcribed, values "
        "labelled as guesses); 2: invalid (one line per problem) or not readable.",
    )
    check.add_argument("file", help="the data file (JSON); 'builtin' checks the shipped one")
    check.add_argument(
        "--no-guesses", action="store_true", help="do not list the guessed values one by one"
    )
    check.set_defaults(handler="companion.commands.spartacus:run_cards_check")


def run_cards_check(args: argparse.Namespace, out: Any = None) -> int:
    """``companion spartacus cards check FILE``: the report, and 0 / 1 / 2 (see above)."""
    import json
    from importlib import resources

    from companion.games.core.data import read_json
    from companion.games.core.errors import DataError
    from companion.games.spartacus.cards import GUESS, INVALID, MISSING, check

    out = out or sys.stdout
    if args.file == "builtin":
        name = "companion/data/spartacus.json"
        text = resources.files("companion.data").joinpath("spartacus.json").read_text("utf-8")
        document = json.loads(text)
    else:
        name = args.file
        try:
            document = read_json(args.file, "Spartacus")
        except DataError as exc:
            raise CommandError(str(exc)) from None
    report = check(document)
    invalid, missing, guesses = report.at(INVALID), report.at(MISSING), report.at(GUESS)
    if invalid:
        for problem in invalid:
            print(f"{name}: {problem}", file=sys.stderr)
        print(
            f"{name}: invalid: {len(invalid)} problem{'s' if len(invalid) != 1 else ''}",
            file=sys.stderr,
        )
        return EXIT_INVALID
    for problem in missing:
        print(f"missing: {problem}", file=out)
    if guesses and not args.no_guesses:
        for problem in guesses:
            print(f"guess: {problem}", file=out)
    if report.complete:
        print(f"{name}: valid and complete", file=out)
        return EXIT_COMPLETE
    print(
        f"{name}: valid but incomplete: {len(missing)} missing, {len(guesses)} "
        f"entr{'ies' if len(guesses) != 1 else 'y'} with guessed values",
        file=out,
    )
    return EXIT_INCOMPLETE


def parse_fighter(text: str, data: Any) -> Any:
    """A fighter spec (see the module docstring) -> :class:`FighterSpec`."""
    from companion.games.spartacus import ConfigError, FighterSpec

    head, *gear = text.split("+")
    who, *abilities = head.split("@")
    equipment = tuple(g for g in gear if g)
    try:
        if "=" in who:
            name, dice = who.split("=", 1)
            try:
                a, d, s = (int(x) for x in dice.split("/"))
            except ValueError:
                raise CommandError(
                    f"fighter {text!r}: dice must be attack/defence/speed, like Crixus=4/3/2"
                ) from None
            return FighterSpec(name or "Fighter", a, d, s, equipment, tuple(abilities))
        spec = FighterSpec.from_card(data, who, equipment)
        if abilities:
            spec = FighterSpec(
                spec.name,
                spec.attack,
                spec.defence,
                spec.speed,
                equipment,
                tuple(abilities),
                spec.card,
            )
        return spec
    except ConfigError as exc:
        raise CommandError(str(exc)) from None


def _config(**kwargs: Any) -> Any:
    from companion.games.spartacus import ConfigError, SpartacusConfig

    try:
        return SpartacusConfig(**kwargs)
    except ConfigError as exc:
        raise CommandError(str(exc)) from None


FIGHT_BOTS = {"none": (), "I": (0,), "II": (1,), "both": (0, 1)}


def fight_bots(args: argparse.Namespace) -> tuple[int, ...]:
    """The fighters (seats 0 and 1) bots play: ``--bots`` (default II); with
    ``--phone-seats`` and no ``--bots``, the fighters not on phones; ``--autoplay`` both."""
    if args.autoplay:
        return (0, 1)
    if args.bots is not None:
        return FIGHT_BOTS[args.bots]
    if not getattr(args, "phone_seats", None):
        return (1,)
    phones = web_request(args, 2, ()).phone_seats
    return tuple(s for s in (0, 1) if s not in phones)


def run_fight(args: argparse.Namespace) -> int:
    from companion.games.spartacus.data import DataError, load_data

    try:
        data = load_data(args.data)
    except DataError as exc:
        raise CommandError(str(exc)) from None
    specs = (parse_fighter(args.fighter_1, data), parse_fighter(args.fighter_2, data))
    config = _config(fight=specs, arena=args.arena, data_file=args.data)
    bots = fight_bots(args)
    from companion.commands.at_table import hardware_config

    return _run(
        config,
        bots=bots,
        seed=args.seed,
        hardware=hardware_config(args.hardware, getattr(args, "config", None)),
        journal=args.journal,
        title=f"Spartacus fight: {specs[0].name} against {specs[1].name}",
        show_odds=not args.no_odds,
        demo=args.autoplay,
        web=web_request(args, 2, bots),
        bot_level=getattr(args, "bot_level", None),
    )


def run_play(args: argparse.Namespace) -> int:
    """``companion play spartacus``: accepts the play command's flags (and --length, --arena)."""
    mode = getattr(args, "mode", None) or "tracked"
    if mode == "assist" and (getattr(args, "autoplay", False) or getattr(args, "bots", None)):
        raise CommandError(
            "in assist mode the players deal and hold the box's cards, so every house is "
            "played by a person at the table: no --bots or --autoplay"
        )
    players = getattr(args, "players", None) or 4
    autoplay = bool(getattr(args, "autoplay", False))
    bots_n = default_bots(args, players)  # --phone-seats without --bots: bots after them
    if autoplay:
        bots_n = players
    elif mode == "assist":
        bots_n = 0
    elif bots_n is None:
        bots_n = players - 1
    if not 0 <= bots_n <= players:
        raise CommandError(f"--bots must be 0..{players}")
    arena = getattr(args, "arena", None) or "default"
    config = _config(
        players=players,
        mode=mode,
        length=getattr(args, "length", None) or "quick",
        host=getattr(args, "start_player", None),
        arena=arena,
        data_file=getattr(args, "data", None),
    )
    bots = tuple(range(players - bots_n, players))
    web = web_request(args, players, bots)
    from companion.commands.at_table import hardware_config, who_plays

    phones = phone_count(web)
    who = (
        who_plays(players - bots_n, bots_n, phones)
        if phones
        else f"{players - bots_n} at the terminal"
    )
    return _run(
        config,
        bots=bots,
        seed=getattr(args, "seed", None),
        hardware=hardware_config(getattr(args, "hardware", None), getattr(args, "config", None)),
        journal=getattr(args, "journal", None),
        title=f"Spartacus: {players} houses ({who})"
        + (", the box's cards (assist mode)" if mode == "assist" else ""),
        demo=autoplay,
        web=web,
        bot_level=getattr(getattr(args, "bots", None), "level", None),
        speed=getattr(args, "speed", None) or 1.0,  # a bot game's pace (it was ignored)
    )


def run_demo(args: argparse.Namespace) -> int:
    """``companion demo --game spartacus``: a full seeded game of bots on simulated hardware."""
    players = getattr(args, "players", None) or 4
    seed = getattr(args, "seed", None)
    seed = 2024 if seed is None else seed
    config = _config(
        players=players,
        length=getattr(args, "length", None) or "quick",
        data_file=getattr(args, "data", None),
    )
    return _run(
        config,
        bots=tuple(range(players)),
        seed=seed,
        hardware="sim",
        journal=getattr(args, "journal", None),
        title=f"Spartacus demo: {players} bots, seed {seed}",
        demo=True,
        speed=getattr(args, "speed", None) or 1.0,
        web=web_request(args, players, tuple(range(players))),
        bot_level=getattr(args, "bots_level", None),
    )


def run_resume(args: argparse.Namespace) -> int:
    """``companion spartacus resume FILE``: continue a Spartacus game or fight."""
    from companion.commands.at_table import hardware_config
    from companion.table.journal import JournalError
    from companion.table.session import load_resume

    try:
        pending = load_resume(args.journal, game="spartacus")
    except JournalError as exc:
        raise CommandError(str(exc)) from None
    profile = getattr(args, "hardware", None) or pending.session.settings.hardware
    hardware = hardware_config(profile, getattr(args, "config", None))
    return continue_session(pending, hardware, args)


def continue_session(pending: Any, hardware: Any, args: argparse.Namespace | None = None) -> int:
    """Play on a resumed Spartacus game (``companion resume`` calls this too); ``args``:
    the resume's command line, for ``--web`` and the phone seats (the bots stay)."""
    session = pending.session
    web = web_request(args or argparse.Namespace(), session.state.players, session.bot_seats())
    return _run(
        session.config,
        bots=session.bot_seats(),
        seed=session.settings.seed,
        hardware=hardware,
        journal=None,
        title="Spartacus (resumed)",
        pending=pending,
        demo=session.settings.demo,
        web=web,
    )


def _run(
    config: Any,
    *,
    bots: tuple[int, ...],
    seed: int | None,
    hardware: Any,
    journal: str | None,
    title: str,
    show_odds: bool = True,
    pending: Any = None,
    stream: Any = None,
    console: Any = None,
    demo: bool = False,
    speed: float = 1.0,
    web: Any = None,
    bot_level: str | None = None,
) -> int:
    import random  # here, not at the top: `companion --help` builds this parser

    from rich.console import Console
    from rich.rule import Rule

    from companion.commands.at_table import run_at_table, seed_shown, seed_words
    from companion.hal import HardwareConfig, ManualClock
    from companion.table.journal import default_journal_dir, demo_journal_dir, new_journal_path
    from companion.table.people import SimOperator, TerminalInput, table_bot
    from companion.table.seeding import seeded_random, table_roller
    from companion.table.spartacus_table import (
        SpartacusTable,
        bot_agent,
        open_session,
        terminal_agent,
    )
    from companion.ui.spartacus import SpartacusView

    def bot_for(rng: Any, level: str | None) -> Any:
        return table_bot("spartacus", rng, level, bot_agent(rng))

    console = console or Console()
    typed_seed = seed_shown(seed, pending.session.settings if pending is not None else None)
    seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
    hw_config = (
        hardware if isinstance(hardware, HardwareConfig) else HardwareConfig(profile=hardware)
    )
    sim = hw_config.profile == "sim"
    nobody_types = len(bots) == config.players
    folder = demo_journal_dir() if demo else default_journal_dir()

    def begin() -> Any:
        if pending is not None:
            return pending.attach()
        mode = "fight" if config.fight_only else "tracked"
        path = journal or new_journal_path("spartacus", mode, folder)
        return open_session(
            config,
            bots=bots,
            hardware=hw_config.profile,
            seed=seed,
            path=path,
            demo=demo,
            bot_level=bot_level,
        )

    clock = ManualClock() if sim and nobody_types else None
    terminal = None if nobody_types else TerminalInput(stream)
    typing = terminal is not None and terminal.interactive  # live, the input row below
    live = console.is_terminal and (nobody_types or typing)
    paced = (live or web is not None) and nobody_types  # bots watched on a screen or phones
    pace = TURN_PACE_S / speed if paced else 0.0
    view = SpartacusView(console, show_odds, live=live, typing=typing, pace_s=pace, title=title)
    console.print(Rule(title))
    console.print(f"{hw_config.profile} hardware{seed_words(seed, typed_seed)}", soft_wrap=True)
    if terminal is not None:
        phones = web.phone_seats if web is not None else frozenset()
        terminal.seats = {s for s in range(config.players) if s not in bots and s not in phones}
        terminal.people = len(terminal.seats)  # several: a hand is shown after a hand-over

    def play(hw: Any, session: Any) -> Any:
        hints = not config.fight_only and config.mode != "assist"  # the whole game is known
        with web_view(web, GAME, config, hw, out=sys.stdout, hints=hints) as phones, view:
            if session.journal is not None:
                session.journal.notify = view.message
            operator = (
                SimOperator(hw, rng=seeded_random(session, seed, "operator")) if sim else None
            )
            level = session.settings.bot_level  # a resumed game keeps its bots' level
            agents = {
                seat: bot_for(seeded_random(session, seed, f"bot-{seat}"), level)
                if seat in bots
                else terminal_agent(view, terminal)
                for seat in range(config.players)
            }
            table = SpartacusTable(
                session,
                hw,
                table_roller(session, seed),
                view,
                agents,
                operator=operator,
                terminal=terminal,
                sleep=clock.sleep if clock else _sleep,
            )
            if phones is not None:
                phones.plug(table)
            return table.run()

    code, state = run_at_table(
        console,
        hw_config,
        begin,
        play,
        clock=clock,
        archive_in=folder,
        terminal=terminal,
        resume="companion spartacus resume",
    )
    if state is None:
        return code
    console.print(Rule("Result"))
    view.summary(state)
    names = " and ".join(state.houses[s] for s in state.winners)
    console.print(
        f"[bold green]{names}[/] win{'s' if len(state.winners) == 1 else ''}: {state.end_reason}",
        soft_wrap=True,
    )
    return code


def _sleep(seconds: float) -> None:
    import time

    time.sleep(seconds)


def replay_document(session: Any, journal: str, records: int) -> dict[str, Any]:
    """``companion replay --json``: the stable JSON view of a replayed Spartacus game."""
    state = session.state
    doc: dict[str, Any] = {
        "journal": journal,
        "records": records,
        "game": "spartacus",
        "actions": len(state.history),
        "round": state.turn,
        "phase": state.phase,
        "over": state.is_terminal,
        "houses": list(state.houses),
        "winners": [state.houses[s] for s in state.winners],
        "end_reason": state.end_reason,
    }
    if not state.config.fight_only:
        doc.update(
            {
                "host": None if state.host is None else state.houses[state.host],
                # null while the houses keep their gold hidden (the auctions, until the
                # host is decided), as the printed replay and the table screen say "hidden"
                "gold": (
                    None
                    if state.gold_is_hidden()
                    else dict(zip(state.houses, state.gold, strict=True))
                ),
                "influence": dict(zip(state.houses, state.influence, strict=True)),
                "property": {h: list(p) for h, p in zip(state.houses, state.property, strict=True)},
                "champions": sorted(state.champions),
                "favours": dict(sorted(state.favours.items())),
            }
        )
    if state.fight is not None:
        fight = state.fight
        doc["fight"] = {
            side: {"name": f.name, "dice": list(f.dice), "hex": fight.arena.name(f.pos)}
            for side, f in fight.fighters.items()
        }
        doc["fight"].update({"round": fight.round, "winner": fight.winner, "level": fight.level})
    return doc


def print_replay(session: Any, journal: str) -> None:
    """``companion replay``: the replayed game's houses (or fight) on the terminal."""
    from rich.console import Console

    from companion.ui.spartacus import SpartacusView

    state = session.state
    console = Console()
    when = "final" if state.is_terminal else f"round {state.turn}, {state.phase}"
    console.print(f"{journal}: Spartacus, {when}", soft_wrap=True)
    SpartacusView(console).summary(state)
    if state.is_terminal:
        names = " and ".join(state.houses[s] for s in state.winners)
        console.print(f"{names}: {state.end_reason}", soft_wrap=True)
