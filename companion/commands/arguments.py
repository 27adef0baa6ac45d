"""Argument types shared by the command line's parsers (argparse only: stays light).

Each raises :class:`argparse.ArgumentTypeError`, which argparse prints as one
line naming the option, with exit code 2.
"""

from __future__ import annotations

import argparse


def _whole_number(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be {least} or more, got {value}")
    return value


def positive_int(text: str) -> int:
    """A whole number of 1 or more."""
    return _whole_number(text, 1)


def player_count(text: str) -> int:
    """``--players``: a whole number of 2 or more (each game checks its own most)."""
    return _whole_number(text, 2)


def non_negative_int(text: str) -> int:
    """A whole number of 0 or more."""
    return _whole_number(text, 0)


def positive_float(text: str) -> float:
    """A number greater than 0 (not NaN, not infinite)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be more than 0, got {text}")
    return value


def data_file(text: str) -> str:
    """The path of a data file: a regular file of at most 1 MiB (never a device or folder)."""
    from companion.datafiles import DataFileError, check_data_file  # pathlib: not for --help

    try:
        check_data_file(text)
    except DataFileError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


#: The search bot's levels (``companion.games.search.bot.LEVELS``), written out so that
#: building a parser does not import the search (a test keeps them equal).
BOT_LEVELS = ("easy", "normal", "strong")


class BotCount(int):
    """``--bots N[:LEVEL]``: an int (how many seats bots play, as before) that also keeps
    the search bot's ``level`` (``None``: the game's own table bot)."""

    level: str | None

    def __new__(cls, count: int, level: str | None = None) -> BotCount:
        value = super().__new__(cls, count)
        value.level = level
        return value


def bots_option(text: str) -> BotCount:
    """argparse type of ``--bots``: ``3`` or ``3:normal`` (levels easy, normal, strong)."""
    count, _, level = text.partition(":")
    try:
        n = int(count)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected N or N:LEVEL (LEVEL: {', '.join(BOT_LEVELS)})"
        ) from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {n}")
    if level and level not in BOT_LEVELS:
        raise argparse.ArgumentTypeError(
            f"unknown bot level {level!r}; levels: {', '.join(BOT_LEVELS)}"
        )
    return BotCount(n, level or None)


#: ``companion play``'s games, in the order its help lists them.
PLAY_GAMES = ("battle-royale", "gladiatoren", "skirmish", "spartacus")

#: ``companion play``'s options that only some games take: argument name -> those games.
#: Another game refuses them (``--length`` was taken by every game and ignored by three);
#: every other option every game takes (``--mode assist``: Battle Royale and Spartacus).
PLAY_GAME_OPTIONS: dict[str, tuple[str, ...]] = {
    "layout": ("battle-royale",),
    "map": ("skirmish",),
    "teams": ("skirmish",),
    "rounds": ("skirmish",),
    "victory": ("skirmish",),
    "length": ("spartacus",),
    "arena": ("spartacus",),
    "start_player": ("battle-royale", "gladiatoren", "spartacus"),
    "autoplay": ("battle-royale", "skirmish", "spartacus"),
    "config": ("battle-royale", "skirmish", "spartacus"),
}


def flag(name: str) -> str:
    """An argument's name as typed (``start_player`` -> ``--start-player``)."""
    return "--" + name.replace("_", "-")


def play_options_by_game() -> str:
    """``companion play --help``'s epilog: which game takes which of those options."""
    lines = ["options only some games take (another game refuses them):"]
    for game in PLAY_GAMES:
        own = [flag(name) for name, games in PLAY_GAME_OPTIONS.items() if game in games]
        lines.append(f"  {game:<14} {' '.join(own)}")
    lines.append("--mode assist: battle-royale and spartacus (the others are played tracked);")
    lines.append("every other option: every game.")
    return "\n".join(lines)


def not_for_this_game(args: argparse.Namespace) -> str | None:
    """Why ``companion play GAME`` refuses an option given (another game's), or ``None``."""
    for name, games in PLAY_GAME_OPTIONS.items():
        given = getattr(args, name, None)
        if args.game not in games and given is not None and given is not False:  # 0 is given
            takes = " and ".join(games) if len(games) <= 2 else ", ".join(games)
            return (
                f"{flag(name)} is an option of {takes} only: 'play {args.game}' does not "
                "take it (companion play --help lists the options of each game)"
            )
    return None
