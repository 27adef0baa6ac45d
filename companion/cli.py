"""The ``companion`` command line.

Each sub-command lives in ``companion/commands/<name>.py`` and is imported only
when it runs, so ``companion --help`` stays fast on a Pi.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from companion import __version__
from companion.commands.arguments import (
    BOT_LEVELS,
    PLAY_GAMES,
    bots_option,
    data_file,
    non_negative_int,
    play_options_by_game,
    player_count,
    positive_float,
    positive_int,
)
from companion.commands.errors import (
    EXIT_INTERRUPTED,
    EXIT_STOPPED,
    EXIT_USAGE,
    CommandError,
)
from companion.commands.web_option import add_web_arguments

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (`--help` stays fast)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

__all__ = ["HARDWARE_CHOICES", "CommandError", "build_parser", "main"]

#: ``companion.logs.LEVELS``, written out so that ``--help`` does not import
#: :mod:`logging` (a test checks that the two agree).
LOG_LEVELS = ("debug", "info", "warning", "error")

# sim: simulated in-process; gpio: the Pi's pins; serial: the RP2040 I/O board over USB;
# virtual-board: the firmware's own logic behind a pseudo-terminal (for laptops and CI)
HARDWARE_CHOICES = ("sim", "gpio", "serial", "virtual-board")


class HelpFormatter(argparse.HelpFormatter):
    """argparse's own formatter at argparse's own width (the terminal's columns - 2),
    found without importing :mod:`shutil`, which brings bz2, lzma and zlib: a sixth of
    what ``companion --help`` costs beyond a bare interpreter."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            width = terminal_columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def terminal_columns() -> int:
    """``shutil.get_terminal_size().columns`` (a test checks they agree): $COLUMNS if it
    is a positive number, else the width of the terminal on standard output, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
    except (AttributeError, ValueError, OSError):
        columns = 0
    return columns or 80


class LazySubParsers(argparse._SubParsersAction):
    """Sub-commands whose parsers are built only when they are looked up.

    The top-level ``--help`` lists each command with its one-line help from
    :meth:`add_lazy_parser` and builds none of their parsers (about 30 of them cost a
    Pi Zero 2 W ~0.2 s); ``companion CMD ...`` builds only CMD's. What a built parser
    parses and prints is exactly what ``add_parser`` would have built.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._name_parser_map = self.choices = _LazyParsers()

    def add_lazy_parser(
        self,
        name: str,
        build: Callable[[argparse.ArgumentParser], None],
        *,
        help: str,  # noqa: A002 - as add_parser's
        **kwargs: Any,
    ) -> None:
        """Declare the command *name*; ``build(parser)`` adds its arguments when the parser
        (``ArgumentParser(prog=..., **kwargs)``, as ``add_parser`` makes it) is first needed."""
        if name in self._name_parser_map:
            raise argparse.ArgumentError(self, f"conflicting subparser: {name}")
        self._choices_actions.append(self._ChoicesPseudoAction(name, (), help))
        prog = kwargs.pop("prog", None) or f"{self._prog_prefix} {name}"

        def make() -> argparse.ArgumentParser:
            parser = self._parser_class(prog=prog, **kwargs)
            build(parser)
            return parser

        self._name_parser_map.declare(name, make)


class _LazyParsers(dict):
    """Command name -> parser, each made by its builder on first look-up (``in``, ``len``
    and iteration see every declared name, in order, without building any)."""

    def declare(self, name: str, make: Callable[[], argparse.ArgumentParser]) -> None:
        super().__setitem__(name, make)

    def __getitem__(self, name: str) -> argparse.ArgumentParser:
        value = super().__getitem__(name)
        if not isinstance(value, argparse.ArgumentParser):
            value = value()
            super().__setitem__(name, value)
        return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table companion for physical arena board games (Battle Royale and more).",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    parser.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        help="how much goes to the log on standard error (the journal under systemd): "
        "debug, info, warning or error (default: info for serve, warning otherwise)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", action=LazySubParsers)
    for name, build, one_line, description in _commands():
        sub.add_lazy_parser(name, build, help=one_line, description=description)
    return parser


def _commands() -> tuple[
    tuple[str, Callable[[argparse.ArgumentParser], None], str, str | None], ...
]:
    """Every command in the order the help lists them: its name, what builds its parser, its
    one-line help and its description (None: none)."""
    return (
        (
            "demo",
            _demo_arguments,
            "watch a full game of bots (Battle Royale, or --game)",
            None,
        ),
        (
            "play",
            _play_arguments,
            "run a game at the table (assist or tracked mode)",
            "Settings come from --config (a table.toml) when given; flags override it.",
        ),
        (
            "selftest",
            _selftest_arguments,
            "check every LED, button and the solenoid",
            None,
        ),
        (
            "safe-off",
            _safe_off_arguments,
            "drive the solenoid's gate low (systemd runs it after the service stops or dies)",
            "Opens only the solenoid pin of the [hardware] configuration and drives it low. On "
            "the serial profile the I/O board switches its coil off by itself.",
        ),
        (
            "serve",
            _serve_arguments,
            "the headless Pi service (assist mode)",
            None,
        ),
        (
            "resume",
            _resume_arguments,
            "continue a game from its journal (after a power cut)",
            None,
        ),
        (
            "replay",
            _replay_arguments,
            "show a journalled game at its end or at a turn",
            None,
        ),
        (
            "journals",
            _journals_arguments,
            "the journal folder: list games, show the unfinished one, prune old ones",
            "A season of games in one folder: 'list' (default) shows the newest journals, "
            "'unfinished' the game serve would resume, 'prune' deletes the oldest finished "
            "journals beyond --keep (never an unfinished one).",
        ),
        (
            "attack",
            _attack_arguments,
            "arena skirmish attack assistant: dice, exact odds, roll, hits",
            None,
        ),
        (
            "dice",
            _dice_arguments,
            "list the table dice with faces and probabilities",
            None,
        ),
        (
            "roll",
            _roll_arguments,
            "roll a die: doom, star, red, black, blue or dN",
            None,
        ),
        (
            "gladiatoren",
            _gladiatoren_arguments,
            "Kampf der Gladiatoren: play, demo, dice only, combat assistant",
            "Kampf der Gladiatoren (Knizia, 2002): a tracked game, a bot demo, the star dice "
            "only, or the combat assistant with exact odds.",
        ),
        (
            "spartacus",
            _spartacus_arguments,
            "Spartacus tools: the arena combat assistant, resume",
            None,
        ),
        (
            "tournament",
            _tournament_arguments,
            "seeded games between bots: win rates with 95%% Wilson intervals",
            "Plays seeded games between bots, rotating the seats every game, and prints each "
            "bot's wins with a 95%% Wilson interval. Bots: search[:easy|normal|strong], random, "
            "heuristic (the game's current table bot).",
        ),
        (
            "config",
            _config_arguments,
            "the table.toml: print the example, or show which file is used",
            "Where table.toml is looked for, first found wins: --config, $COMPANION_CONFIG, "
            "$XDG_CONFIG_HOME/companion/table.toml, /etc/companion/table.toml; else built-in "
            "defaults.",
        ),
        (
            "firmware",
            _firmware_arguments,
            "the I/O board's MicroPython firmware: where it is, or flash it",
            None,
        ),
        (
            "calibrate",
            _calibrate_arguments,
            "find the solenoid pulse that throws a tile, and write it into table.toml",
            "Fires the Eliminator with longer and longer pulses, each only after you type FIRE "
            "and press the red button, through the same guard as a game (capped pulse, "
            "cool-down). The length you choose is written into the config file as "
            "hardware.pulse_ms; the rest of the file is kept as it is.",
        ),
    )


def _demo_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game",
        choices=("battle-royale", "skirmish", "gladiatoren", "spartacus"),
        default="battle-royale",
        help="the game (default battle-royale)",
    )
    parser.add_argument(
        "--players",
        type=player_count,
        metavar="N",
        help="Battle Royale 2..4 (default 4); skirmish 2..10 (default 2); "
        "gladiatoren 2..5 (default 4)",
    )
    parser.add_argument(
        "--hardware",
        choices=("sim", "virtual-board"),
        default="sim",
        help="sim (default), or virtual-board: the firmware's logic behind a "
        "pseudo-terminal, driven through the real serial backend",
    )
    parser.add_argument(
        "--bots-level",
        choices=BOT_LEVELS,
        help="the search bot plays every seat at this level (docs/bots.md); default: the "
        "game's own table bot",
    )
    parser.add_argument("--map", help="skirmish: map name from the data file")
    parser.add_argument("--rounds", type=int, help="skirmish: stop after this many rounds")
    parser.add_argument("--seed", type=int, default=2024, help="seed (default 2024)")
    parser.add_argument(
        "--speed",
        type=positive_float,
        default=1.0,
        help="playback speed factor on a terminal (2 = twice as fast)",
    )
    parser.add_argument("--layout", default="first-game", help="layout name from the data file")
    parser.add_argument("--data", type=data_file, help="Battle Royale data file (cards, layouts)")
    parser.add_argument(
        "--journal",
        help="journal file (default: a new file in the data directory, shown on screen)",
    )
    add_web_arguments(parser, seats=False, dice=False)
    parser.set_defaults(handler="companion.commands.demo:run")


def _play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter  # the epilog's table
    parser.epilog = play_options_by_game()
    parser.add_argument(
        "game",
        choices=PLAY_GAMES,
        help="the game (gladiatoren: as 'companion gladiatoren play')",
    )
    parser.add_argument(
        "--players",
        type=player_count,
        metavar="N",
        help="Battle Royale 2..4 (default 4); skirmish 2..10 (default 2); spartacus 2..4 "
        "(default 4); gladiatoren 2..5 (default 3)",
    )
    parser.add_argument("--map", help="skirmish: map name from the data file")
    parser.add_argument("--teams", help="skirmish: profile IDs per seat, e.g. 1,4,7/2,5,8")
    parser.add_argument("--rounds", type=int, help="skirmish: stop after this many rounds")
    parser.add_argument(
        "--victory",
        choices=("last-standing", "points"),
        help="skirmish: how the game is won (default last-standing)",
    )
    parser.add_argument(
        "--mode",
        choices=("assist", "tracked"),
        help="assist (battle-royale, spartacus): the pieces on the table are the truth, "
        "buttons drive the companion; tracked: every figure is entered or played by bots "
        "(default)",
    )
    parser.add_argument(
        "--hardware",
        choices=HARDWARE_CHOICES,
        help="sim: simulated hardware (default); gpio: the Pi's pins",
    )
    parser.add_argument(
        "--bots",
        type=bots_option,
        metavar="N[:LEVEL]",
        help="tracked mode: how many seats bots play, the last ones (default: all but the "
        "first); with LEVEL (easy, normal, strong) the search bot plays them, without it the "
        "game's own table bot (docs/bots.md)",
    )
    parser.add_argument(
        "--autoplay",
        action="store_true",
        help="battle-royale, skirmish, spartacus: simulated people press the simulated "
        "buttons (sim hardware only)",
    )
    parser.add_argument("--seed", type=int, help="repeatable dice and bots")
    parser.add_argument(
        "--layout", help="battle-royale: layout name from the data file (default first-game)"
    )
    parser.add_argument("--data", type=data_file, help="the game's data file (cards, layouts)")
    parser.add_argument(
        "--start-player",
        type=int,
        help="battle-royale, gladiatoren, spartacus: the seat that starts (default: drawn; "
        "gladiatoren 0)",
    )
    parser.add_argument(
        "--config",
        help="battle-royale: table.toml with [game] and [hardware] settings; skirmish, "
        "spartacus: its [hardware]",
    )
    parser.add_argument(
        "--speed", type=positive_float, default=1.0, help="bot playback speed factor on a terminal"
    )
    parser.add_argument(
        "--journal",
        help="journal file (default: a new file in the data directory, shown on screen)",
    )
    parser.add_argument(
        "--length",
        choices=("quick", "standard", "long"),
        help="spartacus: quick (7 influence, default), standard (4) or long (1)",
    )
    parser.add_argument("--arena", help="spartacus: arena from the data file (default default)")
    add_web_arguments(parser, seats=True, dice=True)
    parser.set_defaults(handler="companion.commands.play:run")


def _selftest_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--hardware",
        choices=HARDWARE_CHOICES,
        default=None,
        help="hardware profile (default: from --config, else sim)",
    )
    parser.add_argument("--config", help="table.toml with a [hardware] table")
    parser.add_argument(
        "--fire", action="store_true", help="also fire one test pulse, after a typed confirmation"
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        default=10.0,
        help="seconds to wait for each button press (default 10)",
    )
    parser.set_defaults(handler="companion.commands.selftest:run")


def _safe_off_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        help="table.toml (default: as 'companion config path' finds it); only [hardware] is read",
    )
    parser.set_defaults(handler="companion.commands.safe_off:run")


def _serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        help="table.toml (default: /etc/companion/table.toml "
        "if present, else built-in defaults on simulated hardware)",
    )
    parser.add_argument(
        "--autoplay",
        action="store_true",
        help="simulated people press the buttons (sim hardware; for trying it)",
    )
    parser.add_argument(
        "--games",
        type=positive_int,
        help="stop after this many games (default: run until stopped)",
    )
    parser.add_argument(
        "--hardware",
        choices=HARDWARE_CHOICES,
        default=None,
        help="override the config's hardware profile",
    )
    parser.add_argument(
        "--journal-dir",
        help="where the service keeps its journals and looks "
        "for an unfinished game to resume (default: $STATE_DIRECTORY/journals, "
        "else the user's data directory)",
    )
    parser.add_argument(
        "--journal",
        help="journal file of the first game: continued if it "
        "exists and is unfinished, else a new game starts in it",
    )
    parser.add_argument(
        "--new",
        action="store_true",
        help="start a new game even if an unfinished one could be resumed",
    )
    add_web_arguments(parser, seats=False, dice=True)
    parser.set_defaults(handler="companion.commands.serve:run", default_log_level="info")


def _resume_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("journal", help="the journal file (.jsonl)")
    parser.add_argument(
        "--until-line",
        type=positive_int,
        help="use only the records up to this line (after a corrupt record); "
        "continues in a new journal file, the original is not changed",
    )
    parser.add_argument(
        "--hardware",
        choices=HARDWARE_CHOICES,
        help="hardware profile (default: the one the game started with)",
    )
    parser.add_argument("--config", help="table.toml for the [hardware] settings")
    add_web_arguments(parser, seats=True, dice=True)  # the phones again after a stop
    parser.set_defaults(handler="companion.commands.resume:run")


def _replay_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("journal", help="the journal file (.jsonl)")
    parser.add_argument("--turn", type=positive_int, help="show the state at the end of this turn")
    parser.add_argument(
        "--until-line", type=positive_int, help="read only the records up to this line"
    )
    parser.add_argument("--json", action="store_true", help="stable JSON for tools")
    parser.set_defaults(handler="companion.commands.replay:run")


def _journals_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "action",
        nargs="?",
        choices=("list", "unfinished", "prune"),
        default="list",
        help="list (default), unfinished or prune",
    )
    parser.add_argument(
        "--dir",
        help="the journal folder (default: the one serve uses, $STATE_DIRECTORY/journals, "
        "else the user's data directory)",
    )
    parser.add_argument(
        "--config", help="table.toml whose [journal] keep_finished prune keeps (default 500)"
    )
    parser.add_argument(
        "--keep", type=non_negative_int, help="prune: how many finished journals to keep"
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="prune: only say what would be deleted"
    )
    parser.add_argument(
        "--limit", type=positive_int, default=20, help="list: the newest N (default 20)"
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler="companion.commands.journals:run")


def _attack_arguments(parser: argparse.ArgumentParser) -> None:
    from companion.commands.skirmish import add_attack_arguments  # argparse only: stays fast

    add_attack_arguments(parser)
    parser.set_defaults(handler="companion.commands.skirmish:run_attack")


def _dice_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler="companion.commands.roll:list_dice")


def _roll_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("die", help="die name (see 'companion dice')")
    parser.add_argument(
        "count", nargs="?", default=1, type=positive_int, help="how many dice (default 1)"
    )
    parser.add_argument("--seed", type=int, help="repeatable rolls (demos, tests, replays)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(handler="companion.commands.roll:roll")


def _gladiatoren_arguments(parser: argparse.ArgumentParser) -> None:
    gsub = parser.add_subparsers(dest="gladiatoren_command", metavar="MODE", required=True)
    gplay = gsub.add_parser(
        "play", help="a tracked game: people at the terminal, bots for the other seats"
    )
    gplay.add_argument("--players", type=int, choices=(2, 3, 4, 5), help="2..5 (default 3)")
    gplay.add_argument(
        "--bots",
        type=bots_option,
        metavar="N[:LEVEL]",
        help="how many seats bots play, the last ones (default: all but the first); with "
        "LEVEL (easy, normal, strong) the search bot plays them (docs/bots.md)",
    )
    gplay.add_argument("--bot-seats", help="bots for these seats instead, e.g. 0,2")
    gplay.add_argument("--start-player", type=int, help="the oldest player's seat (default 0)")
    gplay.add_argument("--seed", type=int, help="repeatable dice and bots")
    gplay.add_argument(
        "--data", type=data_file, help="gladiator data file (arena, animals; default: built-in)"
    )
    gplay.add_argument(
        "--hardware",
        choices=("sim", "gpio"),
        default="sim",
        help="sim: simulated buttons and display (default); gpio: the Pi's pins",
    )
    gplay.add_argument(
        "--speed", type=positive_float, default=1.0, help="bot playback speed factor on a terminal"
    )
    gplay.add_argument(
        "--journal",
        help="journal file (default: a new file in the data directory, shown on screen)",
    )
    add_web_arguments(gplay, seats=True, dice=True)
    gplay.set_defaults(handler="companion.commands.gladiatoren:run_play")
    gdemo = gsub.add_parser("demo", help="watch a full seeded game of bots")
    gdemo.add_argument("--players", type=int, choices=(2, 3, 4, 5), default=4)
    gdemo.add_argument("--seed", type=int, default=2002, help="seed (default 2002)")
    gdemo.add_argument("--data", type=data_file, help="gladiator data file")
    gdemo.add_argument(
        "--speed", type=positive_float, default=1.0, help="playback speed factor on a terminal"
    )
    gdemo.add_argument("--journal", help="journal file (default: a new file in the data directory)")
    add_web_arguments(gdemo, seats=False, dice=False)
    gdemo.set_defaults(handler="companion.commands.gladiatoren:run_demo")
    gdice = gsub.add_parser("dice", help="roll star dice only: red double, yellow single, blank")
    gdice.add_argument(
        "count", nargs="?", type=positive_int, default=1, help="how many dice (default 1)"
    )
    gdice.add_argument("--rolls", type=positive_int, default=1, help="how many rolls")
    gdice.add_argument(
        "--loop",
        action="store_true",
        help="roll again on every Enter (a number: that many dice; q stops)",
    )
    gdice.add_argument(
        "--hardware",
        choices=("sim", "gpio"),
        help="wait for the ROLL button and show the dice on the arena display",
    )
    gdice.add_argument("--seed", type=int, help="repeatable rolls")
    gdice.add_argument("--json", action="store_true", help="one JSON line per roll")
    gdice.set_defaults(handler="companion.commands.gladiatoren:run_dice")
    gcombat = gsub.add_parser(
        "combat",
        help="combat assistant: odds, then the combat step by step",
        description="Sides as short text: gladiators ('spear sword sword shield', '2 sword net') "
        "or an animal ('lion'); '*' is a hit star already on the field.",
    )
    gcombat.add_argument("challenger", help="the challenging team (or animal)")
    gcombat.add_argument("defender", help="the challenged team or animal")
    gcombat.add_argument(
        "--auto", action="store_true", help="the companion makes every choice (the odds policy)"
    )
    gcombat.add_argument("--seed", type=int, help="repeatable dice")
    gcombat.add_argument("--data", type=data_file, help="gladiator data file (animals)")
    gcombat.add_argument(
        "--hardware",
        choices=("sim", "gpio"),
        default="sim",
        help="gpio: wait for the real ROLL button",
    )
    gcombat.set_defaults(handler="companion.commands.gladiatoren:run_combat")


def _spartacus_arguments(parser: argparse.ArgumentParser) -> None:
    from companion.commands.spartacus import configure_parser  # argparse only

    configure_parser(parser)


def _tournament_arguments(parser: argparse.ArgumentParser) -> None:
    from companion.commands.tournament import configure_parser  # argparse only

    configure_parser(parser)


def _config_arguments(parser: argparse.ArgumentParser) -> None:
    csub = parser.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    example = csub.add_parser("example", help="print the commented example table.toml")
    example.set_defaults(handler="companion.commands.config:run_example")
    where = csub.add_parser("path", help="show which table.toml a command would read, and why")
    where.add_argument("--config", help="as a command's --config")
    where.set_defaults(handler="companion.commands.config:run_path")


def _firmware_arguments(parser: argparse.ArgumentParser) -> None:
    fsub = parser.add_subparsers(dest="firmware_command", metavar="ACTION", required=True)
    fpath = fsub.add_parser("path", help="print the folder of the installed firmware files")
    fpath.set_defaults(handler="companion.commands.firmware:run_path")
    flash = fsub.add_parser(
        "flash",
        help="copy the firmware onto the Pico with mpremote (pip install '.[board]')",
    )
    flash.add_argument(
        "--port", help="the board's serial port (default: the one MicroPython Pico on USB)"
    )
    flash.set_defaults(handler="companion.commands.firmware:run_flash")


def _calibrate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", help="the table.toml to read and write (default: found)")
    parser.add_argument(
        "--hardware",
        choices=HARDWARE_CHOICES,
        help="override the config's hardware profile",
    )
    parser.add_argument(
        "--start-ms", type=positive_int, default=20, help="first pulse length (default 20)"
    )
    parser.add_argument(
        "--step-ms", type=positive_int, default=10, help="added after each try (default 10)"
    )
    parser.add_argument(
        "--max-ms", type=positive_int, help="longest pulse to try (default and limit: 250)"
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        default=30.0,
        help="seconds to wait for the red button after arming (default 30)",
    )
    parser.set_defaults(handler="companion.commands.calibrate:run")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    from companion.logs import configure_logging  # not for --help: logging costs a Pi 0.1 s

    configure_logging(args.log_level or getattr(args, "default_log_level", "warning"))
    module_name, func_name = args.handler.split(":")
    handler = getattr(importlib.import_module(module_name), func_name)
    try:
        code = int(handler(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, not as a warning at exit
        return code
    except BrokenPipeError:  # `companion replay --json FILE | head -1`: the reader has enough
        _drop_further_output()  # exit 1 quietly, as rich does for what its consoles print
        return EXIT_STOPPED
    except CommandError as exc:
        print(f"companion: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:  # a game catches it itself and says how to continue
        print("companion: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _drop_further_output() -> None:
    """Point standard output at ``/dev/null``, so that the interpreter's last flush at exit
    does not fail on the closed pipe again (the way the Python docs' note on SIGPIPE does)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a file (a test's capture): nothing is flushed to a pipe at exit
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)
