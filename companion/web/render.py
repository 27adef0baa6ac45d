"""Rendering the pages' ``<main>`` of a frame, in a process of its own.

Drawing a page is the web view's heaviest work: about 1.2 ms of CPU per page here
(the board, the log, the offer), ten times that on a Pi Zero 2 W, for every page on
every frame, and a press of the red button makes three frames. Done on the web thread,
it kept the interpreter (the GIL) busy nearly all the time a table is live (when the
server ran in the table's process, the gpio backend's button thread waited for it:
``bench/hal_latency.py``, the ``web`` condition; the server now has a process of its own,
:mod:`companion.web.process`), and it would hold up the server's event loop. So
:class:`~companion.web.site.Site` renders in its *pages process* (a
:class:`companion.worker.Worker`, started by the web process): the web thread sends the
frame, awaits the pages without holding the interpreter, and only sends them on.

A :class:`Look` is what a table's pages need besides the frame (the game, its config,
the title, the buttons); :func:`setup` gives it to the pages process once, when it
starts, so each frame travels alone. A *part* is one ``<main>``: ``None`` for the table
screen (the host page shows it too, below its pairing codes), a seat's number for that
seat's phone. What a part shows of hidden information is what its view gives it: the
frame holds every seat's own view, and a seat's part is drawn from that seat's only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.web import pages
from companion.web.boards import draw
from companion.web.hub import Frame

__all__ = ["Look", "render_part", "render_parts", "setup"]

_look: Look | None = None  # the pages process's table (set by setup)
_game: Any = None  # and its game, looked up (imported) once, when the process starts


@dataclass(frozen=True)
class Look:
    """What a table's pages need besides the frame: ``game`` is the registry's name;
    ``bot_seats``: the seats bots play, which get no pairing code (a bot's hand is as
    secret as a person's)."""

    game: str
    config: Any
    title: str
    buttons: tuple[str, ...]
    bot_seats: frozenset[int] = frozenset()


def setup(look: Look) -> None:
    """The pages process's initializer: the table whose frames it renders (its game is
    imported here, so the first frame waits for no import)."""
    from companion.games.registry import get_game

    global _look, _game
    _look, _game = look, get_game(look.game)


def render_part(
    frame: Frame, part: int | None, look: Look, game: Any = None, board: str | None = None
) -> str:
    """One ``<main>``: the table screen's (``None``) or seat ``part``'s; ``game`` is the
    registry's game of ``look`` (looked up if not given); ``board`` the board drawn for
    the part's public view (drawn if not given)."""
    if game is None:
        from companion.games.registry import get_game

        game = get_game(look.game)
    if part is None:
        return pages.table_main(frame, game, look.config, look.title, board)
    return pages.seat_main(frame, part, game, look.config, look.title, look.buttons, board)


def render_parts(
    frame: Frame, parts: Iterable[int | None], look: Look | None = None
) -> dict[int | None, str]:
    """Every part of ``parts`` for ``frame``; ``look`` defaults to the one :func:`setup`
    gave this process."""
    game = None
    if look is None:
        look, game = _look, _game
    if look is None:
        raise RuntimeError("render_parts: no look (setup() was not called in this process)")
    # the board is most of a page's work and the same on every page whose public view is
    # the same (every page, in every game today): drawn once per frame
    boards: list[tuple[Any, str]] = []

    def board(part: int | None) -> str:
        view = frame.view(part)
        for public, drawn in boards:
            if public == view["public"]:
                return drawn
        drawn = draw(view["game"], view["public"], look.config)
        boards.append((view["public"], drawn))
        return drawn

    return {part: render_part(frame, part, look, game, board(part)) for part in parts}
