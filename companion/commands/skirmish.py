"""The arena skirmish at the table: ``play``, ``demo``, ``resume`` and the attack assistant.

- ``companion play skirmish [--players N] [--bots K] [--map NAME] [--teams 1,4/2,5]
  [--rounds R] [--victory last-standing|points] [--hardware sim|gpio] [--seed S]``:
  a tracked game, you at the terminal and bots for the other seats; with every seat a
  bot it runs to the end without input;
- ``companion demo --game skirmish``: a seeded game of bots on simulated hardware;
- ``companion attack --attacker 12 --target 33 --position behind --height higher``: the
  attack assistant (dice breakdown, exact damage odds, a roll, the hits applied).

This module imports only ``argparse`` at the top, so the command line can declare its
arguments (``add_*_arguments``) without loading the game.
"""

from __future__ import annotations

import argparse

from companion.commands.arguments import (
    bots_option,
    data_file,
    flag,
    player_count,
    positive_float,
)
from companion.commands.errors import EXIT_USAGE, CommandError
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

DEMO_ROUNDS = 100  # a bot game nearly always ends long before; the limit keeps it finite
TURN_PACE_S = 0.25


# -- arguments --------------------------------------------------------------------------------


def _common_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--map", help="map name from the data file (default, duel, colosseum)")
    parser.add_argument("--data", type=data_file, help="arena skirmish data file (profiles, maps)")
    parser.add_argument("--rounds", type=int, help="end after this many rounds")
    parser.add_argument("--seed", type=int, help="repeatable dice and bots")
    parser.add_argument(
        "--speed", type=positive_float, default=1.0, help="bot playback speed factor on a terminal"
    )
    parser.add_argument(
        "--journal",
        help="journal file (default: a new file in the data directory, shown on screen)",
    )


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of ``companion play skirmish`` (the lead's ``play`` parser has most)."""
    parser.add_argument("--players", type=player_count, default=2, help="2..10 (default 2)")
    parser.add_argument(
        "--bots",
        type=bots_option,
        metavar="N[:LEVEL]",
        help="seats bots play, the last ones (default: all but the first); with LEVEL (easy, "
        "normal, strong) the search bot plays them",
    )
    parser.add_argument(
        "--teams", help="gladiator IDs per seat, e.g. 1,4,7/2,5,8 (default: chosen in the game)"
    )
    parser.add_argument(
        "--victory",
        choices=("last-standing", "points"),
        help="last-standing (default) or points (needs --rounds)",
    )
    parser.add_argument("--hardware", choices=("sim", "gpio"), default="sim")
    parser.add_argument("--config", help="table.toml for the [hardware] settings")
    parser.add_argument(
        "--autoplay",
        action="store_true",
        help="bots in every seat, simulated people press the buttons",
    )
    _common_game_arguments(parser)


def add_demo_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=player_count, default=2, help="2..10 (default 2)")
    _common_game_arguments(parser)
    parser.set_defaults(seed=2024)


def add_attack_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--attacker",
        required=True,
        help="a profile ID, optionally with values: 12 or 12,attack=1 or "
        "attack=2,class=light,element=fire,affinity=1",
    )
    parser.add_argument(
        "--target",
        required=True,
        help="a profile ID with current values: 33,life=3 or "
        "life=5,movement=3,attack=2,affinity=1,class=heavy,element=earth",
    )
    parser.add_argument("--kind", choices=("melee", "affinity"), default="melee")
    parser.add_argument(
        "--position",
        choices=("front", "side", "behind"),
        default="front",
        help="where the attacker stands, seen from the target's facing",
    )
    parser.add_argument(
        "--not-facing",
        action="store_true",
        help="the target is not in the field the attacker faces (-1 die)",
    )
    parser.add_argument(
        "--height",
        choices=("higher", "level", "lower"),
        default="level",
        help="the attacker's level against the target's (melee only)",
    )
    parser.add_argument("--faces", help="enter the rolled dice instead (e.g. 1,3,3,6)")
    parser.add_argument("--no-roll", action="store_true", help="only the dice and the odds")
    parser.add_argument(
        "--hardware",
        choices=("sim", "gpio"),
        help="roll with the ROLL button and show the dice on the arena display",
    )
    parser.add_argument("--seed", type=int, help="repeatable roll")
    parser.add_argument("--data", type=data_file, help="arena skirmish data file (profiles)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def build_parser() -> argparse.ArgumentParser:
    """A stand-alone parser (``python -m companion.commands.skirmish play|demo|attack``)."""
    parser = argparse.ArgumentParser(prog="companion-skirmish")
    sub = parser.add_subparsers(dest="which", required=True)
    add_play_arguments(sub.add_parser("play"))
    add_demo_arguments(sub.add_parser("demo"))
    add_attack_arguments(sub.add_parser("attack"))
    resume = sub.add_parser("resume")
    resume.add_argument("journal")
    resume.add_argument("--until-line", type=int)
    resume.add_argument("--hardware", choices=("sim", "gpio"))
    add_web_arguments(resume, seats=True, dice=True)  # the phones again after a stop
    return parser


# -- helpers ----------------------------------------------------------------------------------


def _error(text: str) -> Exception:
    return CommandError(text)


def parse_teams(text: str | None) -> tuple[tuple[int, ...], ...] | None:
    """``1,4,7/2,5,8`` -> ((1, 4, 7), (2, 5, 8))."""
    if not text:
        return None
    try:
        return tuple(
            tuple(int(x) for x in team.split(",") if x.strip()) for team in text.split("/")
        )
    except ValueError:
        raise _error(
            f"--teams {text!r}: write gladiator IDs per seat, seats separated by /, "
            "e.g. 1,4,7/2,5,8"
        ) from None


def _config(args: argparse.Namespace, players: int, rounds: int | None) -> Any:
    from companion.games.arena_skirmish import ConfigError, SkirmishConfig

    values: dict[str, Any] = {"players": players, "round_limit": rounds}
    for arg, key in (("map", "map"), ("data", "data_file"), ("victory", "victory")):
        value = getattr(args, arg, None)
        if value is not None:
            values[key] = value
    values["teams"] = parse_teams(getattr(args, "teams", None))
    try:
        return SkirmishConfig(**values)
    except ConfigError as exc:
        raise _error(str(exc)) from None


# -- play and demo ----------------------------------------------------------------------------


def run_play(args: argparse.Namespace) -> int:
    """``companion play skirmish``: one game at the table; 0 when it ends with a result."""
    if getattr(args, "mode", None) == "assist":
        raise _error("the skirmish is played in tracked mode only (no --mode assist)")
    for name in ("layout", "start_player"):  # (companion play refuses them first)
        if getattr(args, name, None) is not None:
            raise _error(
                f"{flag(name)} is a Battle Royale option; the skirmish "
                "uses --map, and a roll-off decides who chooses the entrance"
            )
    players = getattr(args, "players", None) or 2
    autoplay = bool(getattr(args, "autoplay", False))
    bots = default_bots(args, players)  # --phone-seats without --bots: bots after them
    if bots is None:
        bots = players if autoplay else players - 1
    if not 0 <= bots <= players:
        raise _error(f"--bots must be 0..{players}, got {bots}")
    rounds = getattr(args, "rounds", None)
    if rounds is None and bots == players:
        rounds = DEMO_ROUNDS
    config = _config(args, players, rounds)
    web = web_request(args, players, tuple(range(players - bots, players)))
    from companion.commands.at_table import hardware_config

    return play_skirmish(
        config,
        bots=bots,
        seed=getattr(args, "seed", None),
        hardware=hardware_config(getattr(args, "hardware", None), getattr(args, "config", None)),
        speed=getattr(args, "speed", None) or 1.0,
        journal=getattr(args, "journal", None),
        demo=autoplay,
        web=web,
        bot_level=getattr(bots, "level", None),
    )


def run_demo(args: argparse.Namespace) -> int:
    """``companion demo --game skirmish``: bots in every seat on simulated hardware."""
    players = getattr(args, "players", None) or 2
    rounds = getattr(args, "rounds", None) or DEMO_ROUNDS
    config = _config(args, players, rounds)
    seed = getattr(args, "seed", None)
    seed = 2024 if seed is None else seed
    return play_skirmish(
        config,
        bots=players,
        seed=seed,
        speed=getattr(args, "speed", None) or 1.0,
        journal=getattr(args, "journal", None),
        title=f"Arena skirmish demo: {players} bots, seed {seed}",
        demo=True,
        web=web_request(args, players, tuple(range(players))),
        bot_level=getattr(args, "bots_level", None),
    )


def run_resume(args: argparse.Namespace) -> int:
    """``companion resume FILE`` for a skirmish journal: continue where it stopped."""
    from rich.console import Console

    from companion.commands.at_table import hardware_config
    from companion.table.journal import JournalError
    from companion.table.session import load_resume
    from companion.table.skirmish_table import GAME_NAME

    try:
        pending = load_resume(
            args.journal, until_line=getattr(args, "until_line", None), game=GAME_NAME
        )
    except JournalError as exc:
        raise _error(str(exc)) from None
    console = Console(stderr=True)
    for warning in pending.warnings:
        console.print(f"warning: {warning}", style="yellow", soft_wrap=True)
    hardware = hardware_config(
        getattr(args, "hardware", None) or pending.session.settings.hardware, None
    )
    return continue_session(pending, hardware, args)


def continue_session(
    pending: Any, hardware: Any = None, args: argparse.Namespace | None = None
) -> int:
    """Play on a resumed skirmish game (``companion resume`` calls this for a skirmish
    journal after :func:`~companion.table.session.load_resume`); ``args``: the resume's
    command line, for ``--web`` and the phone seats (the bots stay)."""
    from rich.console import Console

    session = pending.session
    Console(stderr=True).print(
        f"resuming {pending.path}: round {session.state.round}, "
        f"{len(session.state.history)} actions replayed and checked",
        soft_wrap=True,
    )
    settings = session.settings
    return play_skirmish(
        session.config,
        bots=settings.bots,
        seed=settings.seed,
        hardware=hardware,
        pending=pending,
        title="Arena skirmish (resumed)",
        demo=settings.demo,
        web=web_request(args or argparse.Namespace(), session.state.players, session.bot_seats()),
    )


def replay_document(session: Any, journal: str, records: int) -> dict[str, Any]:
    """The stable JSON view of a replayed skirmish game (``companion replay --json``)."""
    state = session.state
    colours = list(state.colours)
    from companion.commands.replay import game_document

    return {
        **game_document(session, journal, records, len(colours)),
        "round": state.round,
        "map": state.map.draw(),
        "entrances": {colours[s]: e for s, e in enumerate(state.entrance_of) if e},
        "gladiators": {
            str(gid): {
                "player": colours[g.owner],
                "alive": g.alive,
                "cell": state.cell_name(g.cell) if g.cell is not None else None,
                "facing": "NESW"[g.facing],
                "life": g.life,
                "movement": g.movement,
                "attack": g.attack,
                "affinity": g.affinity,
            }
            for gid, g in sorted(state.gladiators.items())
        },
    }


def print_replay(session: Any, title: str) -> None:
    """The board of a replayed skirmish game (``companion replay`` without --json)."""
    from rich.console import Console

    from companion.ui.skirmish import game_view

    out = Console()
    state = session.state
    out.print(title, soft_wrap=True)
    out.print(game_view(state, out.width))
    if state.is_terminal:
        names = " and ".join(state.colours[s] for s in state.winners) or "nobody"
        out.print(f"winner: {names} ({state.end_reason})", soft_wrap=True)


def play_skirmish(
    config: Any,
    *,
    bots: int,
    seed: int | None,
    hardware: Any = None,
    speed: float = 1.0,
    journal: str | None = None,
    pending: Any = None,
    title: str = "Arena skirmish",
    demo: bool = False,
    web: Any = None,
    bot_level: str | None = None,
) -> int:
    """One skirmish game at the table (``pending``: a resumed game, attached only once the
    hardware is open; it keeps its bots' level); exit 0 when it ends. ``bot_level``: the
    search bot plays the bots' seats at that level (``None``: the skirmish's own bot)."""
    import random
    import sys

    from rich.console import Console
    from rich.rule import Rule

    from companion.commands.at_table import run_at_table, seed_shown, seed_words, who_plays
    from companion.hal import HardwareConfig, ManualClock
    from companion.table.journal import default_journal_dir, demo_journal_dir, new_journal_path
    from companion.table.people import SimOperator, TerminalInput, table_bot
    from companion.table.seeding import seeded_random, table_roller
    from companion.table.skirmish_table import (
        GAME_NAME,
        SkirmishBotAgent,
        SkirmishTable,
        SkirmishTerminalAgent,
        settings,
        start_session,
    )
    from companion.ui.skirmish import SkirmishDashboard, colour_text

    console = Console()
    if pending is not None:
        seed = pending.session.settings.seed
    typed_seed = seed_shown(seed, pending.session.settings if pending is not None else None)
    seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
    hw_config = hardware if hardware is not None else HardwareConfig(profile="sim")
    sim = hw_config.profile == "sim"
    players = config.players
    nobody_types = bots == players
    clock = ManualClock() if sim and nobody_types else None
    terminal = None if nobody_types else TerminalInput()
    typing = terminal is not None and terminal.interactive  # live, the input row below
    live = console.is_terminal and (nobody_types or typing)
    watched = web is not None and nobody_types  # bots watched on a screen or phones
    paced = (live and nobody_types) or watched
    pace = TURN_PACE_S / speed if paced else 0.0
    folder = demo_journal_dir() if demo else default_journal_dir()
    console.print(Rule(title))
    count, points, source = config.limits
    phones = phone_count(web)
    who = "bots in every seat" if nobody_types else who_plays(players - bots, bots, phones)
    console.print(
        f"{players} players ({who}), map {config.game_map.name}, "
        f"{count} gladiators / {points} points each ({source}), "
        f"{hw_config.profile} hardware{seed_words(seed, typed_seed)}",
        soft_wrap=True,
    )
    if terminal is not None:
        console.print(
            "type an action (step, left, right, melee 17, end ...), its number, or "
            "several separated by commas; roll (r) rolls the dice; undo; ? lists "
            "all; quit stops",
            soft_wrap=True,
        )
    sleep = clock.sleep if clock is not None else __import__("time").sleep

    def begin() -> Any:
        if pending is not None:
            return pending.attach()
        path = journal or new_journal_path(GAME_NAME, "tracked", folder)
        session_settings = settings(bots, hw_config.profile, seed)
        session_settings.demo = demo
        session_settings.bot_level = bot_level
        return start_session(config, session_settings, path)

    def play(hw: Any, session: Any) -> Any:
        rng = seeded_random(session, seed, "bots")
        with (
            web_view(web, GAME_NAME, config, hw, out=sys.stdout) as phones,
            SkirmishDashboard(
                console, hw, live=live, typing=typing, pace_s=pace, title=title
            ) as view,
        ):
            if session.journal is not None:
                session.journal.notify = view.message
            operator = (
                SimOperator(hw, rng=seeded_random(session, seed, "operator")) if sim else None
            )
            agents: dict[int, Any] = {}
            for seat in range(players):
                if terminal is None or seat >= players - bots:
                    level = session.settings.bot_level
                    agents[seat] = table_bot(GAME_NAME, rng, level, SkirmishBotAgent(rng))
                else:
                    agents[seat] = SkirmishTerminalAgent(terminal, view)
            if terminal is not None and not sys.stdin.isatty():
                view.message("reading actions from standard input")
            table = SkirmishTable(
                session,
                hw,
                table_roller(session, seed),
                view,
                agents,
                sleep=sleep,
                operator=operator,
                terminal=terminal,
            )
            if phones is not None:
                phones.plug(table)
            return table.run()

    code, state = run_at_table(
        console, hw_config, begin, play, clock=clock, archive_in=folder, terminal=terminal
    )
    if state is None:
        return code
    console.print(Rule("Game over"))
    winners = [state.colours[s] for s in state.winners]
    line = colour_text(winners[0] if winners else "", " and ".join(winners) or "nobody")
    line.append(
        f" win{'s' if len(winners) == 1 else ''} after {state.round} rounds: {state.end_reason}",
        style="bold green",
    )
    console.print(line, soft_wrap=True)
    return code


# -- the attack assistant ---------------------------------------------------------------------

_SPEC_KEYS = {"attack", "affinity", "life", "movement", "class", "element"}


def parse_spec(text: str, data: Any, who: str) -> dict[str, Any]:
    """``12`` / ``12,life=3`` / ``life=5,class=heavy,...`` -> profile values by name."""
    from companion.games.arena_skirmish.data import CLASSES, ELEMENTS

    values: dict[str, Any] = {}
    for i, part in enumerate(p.strip() for p in text.split(",") if p.strip()):
        if "=" not in part:
            if i != 0 or not part.isdigit():
                raise _error(
                    f"--{who} {text!r}: start with a profile ID, then key=value "
                    f"pairs ({', '.join(sorted(_SPEC_KEYS))})"
                )
            gid = int(part)
            if gid not in data.profiles:
                raise _error(f"--{who}: no gladiator profile with ID {gid} in {data.source}")
            p = data.profiles[gid]
            values.update(
                id=gid,
                name=p.name,
                attack=p.attack,
                affinity=p.affinity,
                life=p.life,
                movement=p.movement,
                weight=p.weight,
                element=p.element,
            )
            continue
        key, _, value = part.partition("=")
        key = key.strip().lower()
        value = value.strip().lower()
        if key not in _SPEC_KEYS:
            raise _error(f"--{who}: unknown value {key!r}; use {', '.join(sorted(_SPEC_KEYS))}")
        if key == "class":
            if value not in CLASSES:
                raise _error(f"--{who}: class is one of {', '.join(CLASSES)}, got {value!r}")
            values["weight"] = value
        elif key == "element":
            if value not in ELEMENTS:
                raise _error(f"--{who}: element is one of {', '.join(ELEMENTS)}, got {value!r}")
            values["element"] = value
        else:
            if not value.isdigit():
                raise _error(f"--{who}: {key} must be a whole number >= 0, got {value!r}")
            values[key] = int(value)
    return values


def _need(values: dict[str, Any], keys: list[str], who: str) -> None:
    missing = [k for k in keys if k not in values]
    if missing:
        names = ["class" if k == "weight" else k for k in missing]
        raise _error(f"--{who} needs {', '.join(names)} (give a profile ID, or key=value)")


def run_attack(args: argparse.Namespace) -> int:
    """The attack assistant: dice breakdown, exact damage odds, a roll, the hits applied."""
    import dataclasses
    import json

    from rich.console import Console

    from companion.games.arena_skirmish.combat import (
        Stats,
        affinity_breakdown,
        damage_distribution,
        melee_breakdown,
        resolve_hits,
    )
    from companion.games.arena_skirmish.data import DataError, load_data
    from companion.ui.skirmish import attack_panel, dice_text

    try:
        data = load_data(getattr(args, "data", None))
    except DataError as exc:
        raise _error(str(exc)) from None
    attacker = parse_spec(args.attacker, data, "attacker")
    target = parse_spec(args.target, data, "target")
    kind = args.kind
    in_front = not args.not_facing
    if kind == "melee":
        _need(attacker, ["attack", "weight"], "attacker")
        _need(target, ["weight"], "target")
        height = {"higher": 1, "level": 0, "lower": -1}[args.height]
        breakdown = melee_breakdown(
            attacker["attack"],
            attacker["weight"],
            target["weight"],
            args.position,
            in_front,
            height,
        )
    else:
        _need(attacker, ["affinity", "element"], "attacker")
        _need(target, ["element"], "target")
        breakdown = affinity_breakdown(
            attacker["affinity"], attacker["element"], target["element"], args.position, in_front
        )
    _need(target, ["life", "movement", "attack", "affinity"], "target")
    if target["life"] < 1:
        raise _error("--target: life must be at least 1 (a gladiator at 0 has left the arena)")
    stats = Stats(target["life"], target["movement"], target["attack"], target["affinity"])
    dist = damage_distribution(stats, breakdown.dice) if breakdown.allowed else None
    faces: list[int] = []
    result = None
    if breakdown.allowed and not args.no_roll:
        faces = _attack_faces(args, breakdown.dice)
        result = resolve_hits(stats, faces)
    if args.json:
        doc: dict[str, Any] = {
            "breakdown": breakdown.to_dict(),
            "distribution": dist.to_dict() if dist else None,
            "faces": faces,
        }
        if result is not None:
            doc["result"] = {
                "counts": dict(zip(("head", "body", "arms", "legs"), result.counts, strict=True)),
                "to_body": result.to_body,
                "removed": result.removed,
                "after": dataclasses.asdict(result.after),
            }
        print(json.dumps(doc, indent=2, sort_keys=True))
        return 0
    console = Console()
    a_name = f"#{attacker['id']} {attacker['name']}" if "id" in attacker else "attacker"
    t_name = f"#{target['id']} {target['name']}" if "id" in target else "target"
    console.print(
        attack_panel(breakdown, dist, faces, result, title=f"{a_name}: {kind} on {t_name}")
    )
    if faces:
        console.print(dice_text(faces))
    return 0


def _attack_faces(args: argparse.Namespace, dice: int) -> list[int]:
    if args.faces:
        try:
            faces = [int(x) for x in args.faces.replace(" ", ",").split(",") if x]
        except ValueError:
            raise _error(f"--faces {args.faces!r}: write the dice as numbers, e.g. 1,3,6") from None
        if len(faces) != dice or any(not 1 <= f <= 6 for f in faces):
            raise _error(f"--faces: this attack rolls {dice} d6 (faces 1..6); got {faces}")
        return faces
    from companion.dice import Roller, get_die

    roller = Roller.seeded(args.seed) if args.seed is not None else Roller()
    if not args.hardware:
        return [int(f.id) for f in roller.roll_many(get_die("d6"), dice)]
    import random

    from companion.commands.at_table import open_table_hardware
    from companion.hal import HardwareConfig, ManualClock
    from companion.table.people import SimOperator
    from companion.table.skirmish_table import dice_frames

    clock = ManualClock() if args.hardware == "sim" else None
    with open_table_hardware(HardwareConfig(profile=args.hardware), clock=clock) as hw:
        if hw.sim is not None:
            SimOperator(hw, rng=random.Random(0)).press("roll")
        else:
            print("press ROLL")
        while True:
            event = hw.next_input(timeout=0.05)
            if event is not None and event.button == "roll" and event.kind == "press":
                break
        faces = [int(f.id) for f in roller.roll_many(get_die("d6"), dice)]
        for frame in dice_frames(faces, hw.display.size):
            hw.display.show(frame)
            (clock.sleep if clock else __import__("time").sleep)(0.8)
        if hw.sim is not None:
            print(hw.display.render())
    return faces


def main(argv: list[str] | None = None) -> int:
    """Run a sub-command stand-alone; user errors print and exit with 2 (as the CLI)."""
    import sys

    args = build_parser().parse_args(argv)
    handler = {"play": run_play, "demo": run_demo, "attack": run_attack, "resume": run_resume}[
        args.which
    ]
    try:
        return handler(args)
    except CommandError as exc:
        print(f"companion: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
