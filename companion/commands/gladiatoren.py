"""``companion gladiatoren``: Kampf der Gladiatoren at the table.

- ``play``: a tracked game; bots for some seats, people at the terminal for the others;
- ``demo``: a seeded game of bots on simulated hardware, to the end;
- ``dice``: the star dice only (for a table that keeps its own pieces);
- ``combat``: the combat assistant: two teams, or a team and an animal, as short text
  (``"spear sword sword shield"`` vs ``"lion"``): the odds first, then the combat
  step by step, asking each side for its choices; every roll waits for ROLL (Enter at a
  laptop) or for the faces of the players' own star dice typed at the prompt.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from companion.commands.at_table import (
    open_table_hardware,
    run_at_table,
    seed_shown,
    seed_words,
    who_plays,
)
from companion.commands.errors import CommandError
from companion.commands.web_option import default_bots, phone_count, web_request, web_view
from companion.dice import Roller, get_die
from companion.games.kampf_der_gladiatoren import (
    ConfigError,
    GladiatorenConfig,
    new_game,
)
from companion.games.kampf_der_gladiatoren import actions as A
from companion.games.kampf_der_gladiatoren.bot import PolicyBot
from companion.games.kampf_der_gladiatoren.data import DataError, GladiatorenData, load_data
from companion.games.kampf_der_gladiatoren.odds import odds_for_challenge
from companion.games.kampf_der_gladiatoren.rules import KINDS, TEAM_SIZE
from companion.hal import HardwareConfig, ManualClock
from companion.table.gladiatoren_table import (
    GAME,
    GladiatorenAdapter,
    GladiatorenTable,
    dice_frame,
    local_session,
    start_session,
)
from companion.table.journal import default_journal_dir, demo_journal_dir, new_journal_path
from companion.table.people import (
    SimOperator,
    TableStopped,
    TerminalAgent,
    TerminalInput,
    table_bot,
)
from companion.table.seeding import seeded_random, table_roller
from companion.table.session import GameSession
from companion.ui.gladiatoren import (
    GladiatorenView,
    colour_text,
    dice_text,
    odds_table,
    players_table,
)

TURN_PACE_S = 0.3  # on a terminal, at --speed 1, when only bots play
MAX_DICE = 25

KIND_ALIASES = {
    "spear": ("spears", "sp", "speer", "speerwerfer", "velite", "vélite"),
    "net": ("nets", "ne", "netz", "netzwerfer", "retiaire", "rétiaire"),
    "sword": ("swords", "sw", "schwert", "schwertkaempfer", "schwertkämpfer", "mirmillon"),
    "trident": ("tridents", "tr", "zweizack", "zweizacktraeger", "zweizackträger", "laquaire"),
    "shield": ("shields", "sh", "schild", "schildtraeger", "schildträger", "samnite"),
}
_KIND = {alias: kind for kind, aliases in KIND_ALIASES.items() for alias in (kind, *aliases)}


def _opt(args: argparse.Namespace, name: str, default: Any = None) -> Any:
    value = getattr(args, name, None)
    return default if value is None else value


# --- play and demo ------------------------------------------------------------------------


def run_play(args: argparse.Namespace, pending: Any = None, hardware: Any = None) -> int:
    """A tracked game; exit 0 when it ends. ``pending``: a resumed game to continue
    (attached to its journal once the hardware is open); ``hardware``: its HardwareConfig."""
    session = pending.session if pending is not None else None
    settings = session.settings if session is not None else None
    if settings is not None:  # a resumed game keeps its players, bots and seed
        players = session.config.players
        bot_seats = set(session.bot_seats())
        seed = settings.seed
        level = settings.bot_level
    else:
        players = _opt(args, "players", 3)
        if _opt(args, "bots") is None and _opt(args, "bot_seats") is None:
            args.bots = default_bots(args, players)  # --phone-seats: bots after them
        bot_seats = _bot_seats(args, players)
        seed = _opt(args, "seed")
        level = getattr(_opt(args, "bots"), "level", None) or _opt(args, "bots_level")
    bots = len(bot_seats)
    web = web_request(args, players, tuple(sorted(bot_seats)))
    typed_seed = seed_shown(seed, settings)
    seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
    try:
        config = (
            session.config
            if session is not None
            else GladiatorenConfig(
                players=players,
                start_player=_opt(args, "start_player", 0),
                data_file=_opt(args, "data"),
            )
        )
    except ConfigError as exc:
        raise CommandError(str(exc)) from None
    hw_config = hardware or HardwareConfig(profile=_opt(args, "hardware", "sim"))
    profile = hw_config.profile
    demo = bool(_opt(args, "demo", False)) or (settings is not None and settings.demo)
    folder = demo_journal_dir() if demo else default_journal_dir()
    nobody_types = bots == players
    console = Console()
    title = _opt(args, "title", "Kampf der Gladiatoren")
    console.print(Rule(title))
    console.print(
        f"{players} players ({who_plays(players - bots, bots, phone_count(web))}), "
        f"{profile} hardware{seed_words(seed, typed_seed)}",
        soft_wrap=True,
    )

    def begin() -> GameSession:
        if pending is not None:
            return pending.attach()
        path = _opt(args, "journal") or new_journal_path(GAME, "tracked", folder)
        return start_session(
            config,
            bots=bots,
            hardware=profile,
            seed=seed,
            journal_path=path,
            bot_seats=tuple(sorted(bot_seats)),
            demo=demo,
            bot_level=level,
        )

    sim = profile == "sim"
    clock = ManualClock() if sim and nobody_types else None
    terminal = None if nobody_types else TerminalInput()
    typing = terminal is not None and terminal.interactive  # live, the input row below
    live = console.is_terminal and (nobody_types or typing)
    watched = web is not None and nobody_types  # bots watched on a screen or phones
    paced = (live and nobody_types) or watched
    pace = TURN_PACE_S / _opt(args, "speed", 1.0) if paced else 0.0
    view = GladiatorenView(console, live=live, typing=typing, pace_s=pace, title=title)
    if terminal is not None:
        console.print(
            "choose by number or type an action (challenge E I, give sword, keep); "
            "'?' lists every action, 'undo' takes back, 'quit' stops",
            soft_wrap=True,
        )

    def play(hw: Any, session: GameSession) -> Any:
        with web_view(web, GAME, config, hw, out=sys.stdout) as phones, view:
            view.hw = hw
            if session.journal is not None:
                session.journal.notify = view.message
            operator = (
                SimOperator(hw, rng=seeded_random(session, seed, "operator")) if sim else None
            )
            rng = seeded_random(session, seed, "bots")
            agents: dict[int, Any] = {}
            for seat in range(players):
                if seat in bot_seats:
                    agents[seat] = table_bot(GAME, rng, level)
                else:
                    agents[seat] = TerminalAgent(terminal, view, adapter=GladiatorenAdapter())
            table = GladiatorenTable(
                session,
                hw,
                table_roller(session, seed),
                view,
                agents,
                sleep=clock.sleep if clock else time.sleep,
                operator=operator,
                terminal=terminal,
            )
            if phones is not None:
                phones.plug(table)
            return table.run()

    code, state = run_at_table(
        console, hw_config, begin, play, clock=clock, archive_in=folder, terminal=terminal
    )
    if state is not None:
        print_result(console, state)
    return code


def continue_session(pending: Any, hardware: Any, args: argparse.Namespace | None = None) -> int:
    """Play on a resumed game (``companion resume`` calls this for a gladiatoren journal);
    ``args``: the resume's command line, for ``--web`` and the phone seats (the bots
    stay)."""
    web = {k: getattr(args, k) for k in ("web", "phone_seats", "phone_dice") if hasattr(args, k)}
    return run_play(argparse.Namespace(**web), pending=pending, hardware=hardware)


def _bot_seats(args: argparse.Namespace, players: int) -> set[int]:
    """``--bot-seats 1,3`` (any seats), else ``--bots N`` (the last N; default all but one)."""
    seats = _opt(args, "bot_seats")
    if seats is not None:
        try:
            chosen = {int(s) for s in str(seats).replace(" ", "").split(",") if s}
        except ValueError:
            raise CommandError(f"--bot-seats takes seat numbers like 1,2; got {seats!r}") from None
        if not all(0 <= s < players for s in chosen):
            raise CommandError(f"--bot-seats: seats are 0..{players - 1}, got {seats!r}")
        return chosen
    bots = _opt(args, "bots", players - 1)
    if not 0 <= bots <= players:
        raise CommandError(f"--bots must be 0..{players}, got {bots}")
    return set(range(players - bots, players))


def run_demo(args: argparse.Namespace) -> int:
    """A full seeded game of bots on simulated hardware."""
    players = _opt(args, "players", 4)
    seed = _opt(args, "seed", 2002)
    demo = argparse.Namespace(
        players=players,
        bots=players,
        seed=seed,
        data=_opt(args, "data"),
        journal=_opt(args, "journal"),
        hardware="sim",
        speed=_opt(args, "speed", 1.0),
        start_player=0,
        title=f"Kampf der Gladiatoren demo: {players} bots, seed {seed}",
        demo=True,
        web=_opt(args, "web"),
        bots_level=_opt(args, "bots_level"),
    )
    return run_play(demo)


def print_result(console: Console, state: Any) -> None:
    console.print(Rule("Game over"))
    console.print(players_table(state))
    names = [state.colours[s] for s in state.winners]
    line = colour_text(names[0], " and ".join(names))
    line.append(
        f" win{'s' if len(names) == 1 else ''} with {state.score(state.winners[0])} "
        f"points after {state.turn} turns: {state.end_reason}",
        style="bold green",
    )
    console.print(line, soft_wrap=True)


# --- replay ---------------------------------------------------------------------------------


def replay_document(session: Any, journal: str, records: int) -> dict[str, Any]:
    """``companion replay --json``: the stable JSON view of a replayed Kampf der
    Gladiatoren game. The face-down animals are a count, as on the table."""
    state = session.state
    colours = list(state.colours)
    by_loc: dict[str, list[str]] = {}
    for animal, loc in zip(state.animal_ids, state.animal_loc, strict=True):
        by_loc.setdefault(loc, []).append(animal)
    from companion.commands.replay import game_document

    return {
        **game_document(session, journal, records, state.players),
        "points": {colours[s]: state.score(s) for s in range(state.players)},
        "teams": [
            {
                "player": colours[team.owner],
                "field": state.field_id(team.field),
                "active": dict(zip(KINDS, team.active, strict=True)),
                "neutralised": dict(zip(KINDS, team.inactive, strict=True)),
                "stars": team.stars,
            }
            for _, team in sorted(state.teams.items())
        ],
        "stables": {
            colours[s]: dict(zip(KINDS, state.stables[s], strict=True))
            for s in range(state.players)
        },
        "animals": {
            "in_arena": {
                animal: state.field_id(state.animal_field[i])
                for i, animal in enumerate(state.animal_ids)
                if state.animal_loc[i] == "board" and state.animal_field[i] is not None
            },
            "beside": by_loc.get("beside", []),
            "face_down": len(by_loc.get("stack", [])) + len(by_loc.get("drawn", [])),
            "in_stables": {
                animal: colours[state.animal_owner[i]]
                for i, animal in enumerate(state.animal_ids)
                if state.animal_loc[i] == "stable" and state.animal_owner[i] is not None
            },
            "in_the_box": by_loc.get("box", []),
        },
    }


def print_replay(session: Any, journal: str) -> None:
    """``companion replay``: the replayed game's arena, animals and players."""
    from companion.ui.gladiatoren import game_view

    state = session.state
    console = Console()
    when = "final" if state.is_terminal else f"turn {state.turn}, {state.phase}"
    console.print(f"{journal}: Kampf der Gladiatoren, {when}", soft_wrap=True)
    console.print(game_view(state))
    if state.is_terminal:
        print_result(console, state)


# --- dice only ----------------------------------------------------------------------------


def run_dice(args: argparse.Namespace) -> int:
    """Roll N star dice: each die as red double / yellow single / blank, with a text marker.

    ``--rolls``: how many rolls (default 1); ``--loop``: roll again on every line typed
    (a number changes how many dice, ``q`` stops); ``--hardware sim|gpio``: wait for the
    ROLL button and show the dice on the arena display.
    """
    count = _opt(args, "count", 1)
    if not 1 <= count <= MAX_DICE:
        raise CommandError(f"roll 1..{MAX_DICE} star dice, not {count}")
    seed = _opt(args, "seed")
    roller = Roller.seeded(seed) if seed is not None else Roller()
    die = get_die("star")
    console = Console()
    as_json = bool(getattr(args, "json", False))
    profile = _opt(args, "hardware")
    hw = (
        open_table_hardware(
            HardwareConfig(profile=profile), clock=ManualClock() if profile == "sim" else None
        )
        if profile
        else None
    )
    if not as_json:
        console.print(
            "star dice: [**] two red stars (1 side), [* ] one yellow star (2 sides), "
            "[  ] blank (3 sides)",
            style="dim",
            soft_wrap=True,
            markup=False,
        )

    def roll_once(n: int, number: int) -> None:
        if hw is not None:
            if hw.sim is not None:
                hw.sim.tap("roll", 0.03)
            while True:
                event = hw.next_input(timeout=POLL)
                if event is not None and event.button == "roll" and event.kind == "press":
                    break
        faces = [f.id for f in roller.roll_many(die, n)]
        if hw is not None:
            hw.display.show(dice_frame(faces, hw.display.size))
        if as_json:
            print(json.dumps({"roll": number, "faces": faces}))
            return
        text = Text(f"roll {number}: ")
        text.append_text(dice_text(faces))
        doubles, singles = faces.count("two_red_stars"), faces.count("one_yellow_star")
        text.append(
            f"   {doubles} double, {singles} single, {n - doubles - singles} blank", style="dim"
        )
        console.print(text, soft_wrap=True)
        if hw is not None:
            console.print(hw.display.render(), style="dim", markup=False)

    try:
        if getattr(args, "loop", False):
            console.print("Enter: roll again; a number: roll that many; q: stop", style="dim")
            number = 1
            roll_once(count, number)
            for line in sys.stdin:
                word = line.strip().lower()
                if word in ("q", "quit", "exit"):
                    break
                if word.isdigit() and 1 <= int(word) <= MAX_DICE:
                    count = int(word)
                elif word:
                    console.print(f"{word!r}: press Enter, type a number 1..{MAX_DICE}, or q")
                    continue
                number += 1
                roll_once(count, number)
        else:
            for number in range(1, _opt(args, "rolls", 1) + 1):
                roll_once(count, number)
    finally:
        if hw is not None:
            hw.close()
    return 0


POLL = 0.05


# --- the combat assistant -----------------------------------------------------------------


def parse_side(text: str, data: GladiatorenData) -> tuple[str, Any, int]:
    """``("team", [kinds], stars)`` or ``("animal", animal id, stars)`` from short text.

    Words are gladiator kinds (English, German or French names, plurals, or ``sp ne sw tr
    sh``), a number repeats the next kind (``2 sword``), and ``*`` is one hit star already
    on the field. One animal id or name instead of gladiators makes an animal.
    """
    words = text.replace(",", " ").lower().split()
    stars = 0
    kinds: list[str] = []
    animal: str | None = None
    repeat = 1
    by_name = {a.name.lower(): a.id for a in data.animals} | {a.id: a.id for a in data.animals}
    for word in words:
        if set(word) == {"*"}:
            stars += len(word)
        elif word.isdigit():
            repeat = int(word)
        elif word in _KIND:
            kinds.extend([_KIND[word]] * repeat)
            repeat = 1
        elif word in by_name:
            if animal is not None:
                raise CommandError(f"{text!r} names two animals")
            animal = by_name[word]
        else:
            raise CommandError(
                f"{word!r} in {text!r} is neither a gladiator ({', '.join(KINDS)}) nor an "
                f"animal ({', '.join(a.id for a in data.animals)})"
            )
    if animal is not None:
        if kinds:
            raise CommandError(f"{text!r}: a side is a team of gladiators or one animal")
        hits = data.animal(animal).hits
        if stars >= hits:
            raise CommandError(
                f"the {animal} is defeated by {hits} hit stars; it can carry "
                f"0..{hits - 1}, not {stars}"
            )
        return "animal", animal, stars
    if not 1 <= len(kinds) <= TEAM_SIZE:
        raise CommandError(f"{text!r}: a team has 1..{TEAM_SIZE} gladiators, got {len(kinds)}")
    if stars > 1:
        raise CommandError(f"{text!r}: a team's field holds 0 or 1 hit star between combats")
    return "team", kinds, stars


def combat_setup(
    challenger: str, defender: str, data_file: str | None = None
) -> tuple[GladiatorenConfig, A.Action, tuple[str, str]]:
    """A start position for one combat, the challenge that opens it, and the sides' names.

    The challenger is seat 0 (red), a challenged team seat 1 (yellow). An animal
    challenger is played by red without gladiators (rule 7); an unowned animal's
    choices are yellow's. Bystander teams (a sword each, far away) are added so that
    two players have gladiators and the game is not over before it starts.
    """
    try:
        data = load_data(data_file)
    except DataError as exc:
        raise CommandError(str(exc)) from None
    sides = [parse_side(challenger, data), parse_side(defender, data)]
    if sides[0][0] == "animal" and sides[1][0] == "animal" and sides[0][1] == sides[1][1]:
        raise CommandError("an animal cannot challenge itself")
    arena = data.arena
    here = max(range(len(arena)), key=lambda f: (len(arena.neighbours[f]), -f))
    there = arena.neighbours[here][0]
    far = [
        f
        for f in range(len(arena))
        if f not in (here, there)
        and here not in arena.neighbours[f]
        and there not in arena.neighbours[f]
    ]
    teams: list[dict[str, Any]] = []
    animals: list[dict[str, Any]] = []
    for seat, (field, side) in enumerate(zip((here, there), sides, strict=True)):
        kind, what, stars = side
        if kind == "team":
            teams.append(
                {"owner": seat, "field": arena.ids[field], "gladiators": what, "stars": stars}
            )
        else:
            animals.append({"animal": what, "field": arena.ids[field], "stars": stars})
    players = 2
    with_gladiators = {t["owner"] for t in teams}
    for seat in (1, 2):
        if len(with_gladiators) >= 2:
            break
        if seat not in with_gladiators:
            teams.append({"owner": seat, "field": arena.ids[far.pop()], "gladiators": ["sword"]})
            with_gladiators.add(seat)
            players = max(players, seat + 1)
    config = GladiatorenConfig(
        players=players,
        data_file=data_file,
        position={"teams": teams, "animals": animals, "active": 0},
    )
    ids = (arena.ids[here], arena.ids[there])
    if sides[0][0] == "team":
        opening: A.Action = A.Challenge(ids[0], ids[0], ids[1])
    else:
        opening = A.UseAnimal(sides[0][1], ids[0], ids[1])
    names = tuple(f"{' '.join(s[1]) if s[0] == 'team' else s[1]}{' *' * s[2]}" for s in sides)
    return config, opening, names  # type: ignore[return-value]


class _PolicyAgent:
    """The odds' policy as a table agent (the assistant's ``--auto``)."""

    is_bot = True

    def __init__(self, rng: random.Random) -> None:
        self.bot = PolicyBot(rng)

    def choose(self, state: Any, legal: Any) -> Any:
        return self.bot.choose(state)


def run_combat(args: argparse.Namespace) -> int:
    """The combat assistant: odds, then the combat, with the companion's dice or the
    players' own (typed at the ROLL prompt; committed to the session like a roll)."""
    config, opening, names = combat_setup(args.challenger, args.defender, _opt(args, "data"))
    console = Console()
    typed_seed = _opt(args, "seed") is not None
    seed = _opt(args, "seed", random.SystemRandom().randrange(2**32))
    state = new_game(config)
    odds = odds_for_challenge(
        state,
        state.board[state.arena.index(opening.to)],
        state.board[state.arena.index(opening.target)],
    )
    labels = (f"red {names[0]}", f"yellow {names[1]}")
    console.print(Rule("Kampf der Gladiatoren: combat assistant"))
    console.print(odds_table(odds, labels))
    console.print(
        f"the challenger is red ({names[0]}), the challenged yellow ({names[1]})"
        f"{seed_words(seed, typed_seed, ';')}",
        soft_wrap=True,
    )
    auto = bool(getattr(args, "auto", False))
    session = local_session(state)
    terminal = None if auto else TerminalInput()
    typing = terminal is not None and terminal.interactive and console.is_terminal
    view = GladiatorenView(console, maps=False, turns=False, live=typing, typing=typing)
    rng = random.Random(seed)
    agents: dict[int, Any] = {}
    for seat in range(config.players):
        agents[seat] = (
            _PolicyAgent(rng)
            if auto
            else TerminalAgent(terminal, view, adapter=GladiatorenAdapter(show_odds=False))
        )
    profile = _opt(args, "hardware", "sim")

    def play() -> list[Any]:
        with open_table_hardware(
            HardwareConfig(profile=profile), clock=ManualClock() if profile == "sim" else None
        ) as hw:
            operator = SimOperator(hw, rng=random.Random(seed)) if profile == "sim" else None
            table = GladiatorenTable(
                session,
                hw,
                Roller.seeded(seed),
                view,
                agents,
                operator=operator,
                terminal=terminal,  # the players' own dice typed at the ROLL prompt
                show_odds=False,
            )
            with view:
                session.commit(opening)
                opened = session.apply(opening)
                view.update(session.state, opened)
                return opened + table.run_combat()

    try:
        events = play()
    except (TableStopped, EOFError) as exc:
        console.print(f"combat stopped ({exc})", soft_wrap=True)
        return 1
    finally:
        if terminal is not None:
            terminal.restore()
    ended = [e for e in events if e.kind == "combat_ended"]
    console.print(Rule("Result"))
    if ended:
        lost = ended[0].data["lost"]
        units = (odds.challenger.unit, odds.defender.unit)
        console.print(
            f"challenger ({names[0]}) lost {lost[0]} {units[0]}, challenged "
            f"({names[1]}) lost {lost[1]} {units[1]}",
            soft_wrap=True,
        )
    return 0
