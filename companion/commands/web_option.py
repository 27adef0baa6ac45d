"""``--web``, ``--phone-seats`` and ``--phone-dice`` of ``play``, ``demo``, ``serve`` and
``spartacus fight``.

The command line's side only: adding and reading the options and turning the web view's errors
into one clear message (exit 2). Everything the web view does at the table is in
:mod:`companion.web.attach`, imported only when ``--web`` is given.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator

from companion.commands.errors import CommandError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (`--help` stays fast)
if TYPE_CHECKING:
    from pathlib import Path  # nor pathlib (and its urllib, ipaddress): an annotation only
    from typing import Any, TextIO

WEB_EXTRA = "the web view needs the web extra: pip install 'arena-table-companion[web]'"


def add_web_arguments(parser: argparse.ArgumentParser, *, seats: bool, dice: bool) -> None:
    """``--web`` and what phones do (``docs/web.md``); the web stack is imported only
    when ``--web`` is given."""
    parser.add_argument(
        "--web",
        nargs="?",
        const="",
        metavar="HOST:PORT",
        help="serve the table to phones and a table screen (pip install "
        "'arena-table-companion[web]'): 127.0.0.1:8765 unless an address is given, "
        "e.g. --web 0.0.0.0:8765 for the table's Wi-Fi",
    )
    if seats:
        parser.add_argument(
            "--phone-seats",
            metavar="SEATS",
            help="with --web: the seats played from phones, e.g. 0,2, or all (every seat "
            "no bot plays); bots then play the seats after the last phone seat unless "
            "--bots says otherwise",
        )
    if dice:
        parser.add_argument(
            "--phone-dice",
            action="store_true",
            help="with --web: the players roll their own dice; the rolling seat enters what "
            "they show on its phone (the skirmish's hit dice of an attack stay on ROLL)",
        )


def _attach() -> Any:
    try:
        from companion.web import attach
    except ImportError as exc:
        raise CommandError(f"{WEB_EXTRA} ({exc})") from None
    return attach


def default_bots(args: argparse.Namespace, players: int) -> int | None:
    """How many bots when ``--phone-seats`` is given and ``--bots`` is not: none with
    ``all``, else the seats after the last phone seat."""
    text, bots = getattr(args, "phone_seats", None), getattr(args, "bots", None)
    if not text or bots is not None:
        return bots
    if text.strip().lower() == "all":
        return 0
    seats = [int(p) for p in text.split(",") if p.strip().isdigit()]
    return max(0, players - (max(seats) + 1)) if seats else None


def web_request(args: argparse.Namespace, players: int, bot_seats: tuple[int, ...]) -> Any:
    """The :class:`~companion.web.attach.WebRequest` of the command line, or ``None``
    without ``--web``."""
    seats, dice = getattr(args, "phone_seats", None), getattr(args, "phone_dice", False)
    if getattr(args, "web", None) is None:
        if seats or dice:
            raise CommandError("--phone-seats and --phone-dice go with --web")
        return None
    attach = _attach()
    try:
        attach.parse_address(args.web)
        phones = attach.parse_phone_seats(seats, players, bot_seats)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    return attach.WebRequest(args.web, frozenset(phones), dice, frozenset(bot_seats))


def phone_count(request: Any) -> int:
    """How many seats are played from phones (0 without ``--web``)."""
    return len(request.phone_seats) if request is not None else 0


def battle_royale_game(mode: str) -> Any:
    """The game a Battle Royale table's pages draw: tracked, or assist mode's."""
    if mode == "assist":
        from companion.games.battle_royale.assist import ASSIST

        return ASSIST
    from companion.games.registry import get_game

    return get_game("battle-royale")


@contextlib.contextmanager
def web_view(
    request: Any,
    game: Any,
    config: Any,
    hw: Any,
    *,
    assist: bool = False,
    out: TextIO | None = None,
    pairing_dir: Path | None = None,
    hints: bool = True,
) -> Iterator[Any]:
    """The table's web view while the block runs (``None`` without ``--web``); ``game``:
    the registry's :class:`~companion.games.core.game.Game` or its name; ``hints``: a hint
    button on the phone seats (the search bot, ``docs/bots.md``)."""
    if request is None:
        yield None
        return
    if isinstance(game, str):
        from companion.games.registry import get_game

        game = get_game(game)
    attach = _attach()
    try:
        web = attach.attach_web(
            request,
            game,
            config,
            config.players,
            hw=hw,
            assist=assist,
            out=out,
            pairing_dir=pairing_dir,
            hints=hints,
        )
    except (OSError, ValueError) as exc:
        raise CommandError(f"--web: {exc}") from None
    try:
        yield web
    finally:
        web.close()
