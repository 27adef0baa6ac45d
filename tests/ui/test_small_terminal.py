"""A person playing at an 80x24 terminal sees what they need to decide: the hint they
asked for, the whole of a refusal or of the help, the board and the seats' rows.

Each test renders the live view the way ``companion play`` draws it while a person types
(:meth:`TableScreen.screen`: the view and the input row) on a rich console of 80x24, and
reads the rows a person would see.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console

from companion.games.registry import get_game
from companion.table.loop import adapter_for, decide
from companion.table.people import TerminalAgent
from companion.table.session import GameSession, SessionSettings
from companion.worker import heavy_work_here


def small_console(width: int = 80, height: int = 24) -> Console:
    return Console(record=True, width=width, height=height, file=io.StringIO())


def seen(view: Any) -> str:
    """What the typed live view shows now, row by row, as text."""
    console = view.console
    console.print(view.screen())
    return console.export_text(clear=True)


def typed_view(game: str, console: Console) -> Any:
    from companion.ui.dashboard import Dashboard
    from companion.ui.gladiatoren import GladiatorenView
    from companion.ui.skirmish import SkirmishDashboard
    from companion.ui.spartacus import SpartacusView

    views = {
        "battle-royale": Dashboard,
        "gladiatoren": GladiatorenView,
        "skirmish": SkirmishDashboard,
        "spartacus": SpartacusView,
    }
    return views[game](console, live=True, typing=True)


class Typist:
    """A person at the terminal: each poll gives the next line; a callable is called first
    (it looks at the screen) and gives the line."""

    people = 1
    holder: int | None = None
    seats: set[int] | None = None

    def __init__(self, lines: list[str | Callable[[], str]]) -> None:
        self.lines = list(lines)

    def poll(self, timeout: float, hidden: bool = False) -> str | None:
        line = self.lines.pop(0)
        return line() if callable(line) else line


def new_session(game: str) -> GameSession:
    g = get_game(game)
    config = g.config(players=3 if game != "skirmish" else 2)
    state = g.new_game(config)
    return GameSession(state, config, SessionSettings(game=game, mode="tracked"))


@pytest.mark.parametrize("game", ["battle-royale", "skirmish"])
def test_a_hint_stays_on_the_screen_above_the_question_asked_again(game: str) -> None:
    """Found at 80x24: ``hint`` was computed and journalled, but the question asked again
    replaced it at once, so nobody ever saw it."""
    session = new_session(game)
    while session.state.is_chance_node:
        session.apply(session.state.chance_outcomes()[0][0])
    view = typed_view(game, small_console())
    view.update(session.state, [])
    screens: list[str] = []

    def look() -> str:
        screens.append(seen(view))
        return "1"

    agent = TerminalAgent(Typist(["hint", look]), view, adapter=adapter_for(game))
    with heavy_work_here():
        action = decide(session, agent, view)
    hint = session.hints[0]["shown"]["notation"]
    assert f"> hint: {hint}" in screens[0]
    assert "help for more" in screens[0]  # and the question under it
    view.update(session.state, session.apply(action))
    assert "hint:" not in seen(view)  # the seat acted: the hint was for the move made
