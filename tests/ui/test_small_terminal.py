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
from companion.table.people import TableStopped, TerminalAgent
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


def in_the_events_panel(screen: str) -> str:
    """The text inside the events panel's frame, its rows joined by spaces."""
    lines = screen.splitlines()
    top = next(i for i, line in enumerate(lines) if " events " in line and "╭" in line)
    bottom = next(i for i in range(top, len(lines)) if lines[i].startswith("╰"))
    return " ".join(line.rstrip()[1:-1].strip() for line in lines[top + 1 : bottom])


@pytest.mark.parametrize("game", ["battle-royale", "gladiatoren", "skirmish", "spartacus"])
def test_help_at_80x24_is_shown_whole(game: str) -> None:
    """Found at 80x24: 'help' showed one row ending in '…' (the full list is ~280
    characters, cut even at 110 columns)."""
    session = new_session(game)
    while session.state.is_chance_node:
        session.apply(session.state.chance_outcomes()[0][0])
    view = typed_view(game, small_console())
    view.update(session.state, [])
    screens: list[str] = []

    def look() -> str:
        screens.append(seen(view))
        return "quit"

    adapter = adapter_for(game)
    by_hand = ["" for _ in adapter.manual_steps(session.state, session.state.current_player)]
    agent = TerminalAgent(Typist([*by_hand, "help", look]), view, adapter=adapter)
    with pytest.raises(TableStopped):
        agent.choose(session.state, session.state.legal_actions())
    helped = view.log[-1].plain.removeprefix("* ")
    assert len(helped) > 160 and "quit - stop" in helped
    assert helped in in_the_events_panel(screens[0])
    assert len(screens[0].splitlines()) == 24 and "help for more" in screens[0]


def test_the_rule_an_illegal_move_breaks_is_shown_whole_at_80x24() -> None:
    """The rule an illegal move breaks (what the README sells) was cut to one row."""
    session = new_session("battle-royale")
    while session.state.is_chance_node:
        session.apply(session.state.chance_outcomes()[0][0])
    view = typed_view("battle-royale", small_console())
    view.update(session.state, [])
    screens: list[str] = []

    def look() -> str:
        screens.append(seen(view))
        return "1"

    adapter = adapter_for("battle-royale")
    agent = TerminalAgent(Typist(["eliminator a1", look]), view, adapter=adapter)
    decide(session, agent, view)
    refused = view.log[-1].plain.removeprefix("* ")
    assert "is not allowed: " in refused and len(refused) > 100  # more than a row
    assert refused in in_the_events_panel(screens[0])


def test_the_newest_message_is_whole_and_the_ones_before_fit_around_it() -> None:
    session = new_session("battle-royale")
    view = typed_view("battle-royale", small_console())
    view.update(session.state, [])
    view.prompt("purple: choose (help for more)", ["1: play 1x4", "2: play 4x1"])
    older = "an older message, " * 10
    newest = "the newest message, " * 30  # 8 rows of 76
    view.message(older.strip())
    view.message(newest.strip())
    screen = seen(view)
    panel = in_the_events_panel(screen)
    assert newest.strip() in panel
    assert "…" not in panel.split(newest.strip())[1]  # nothing of the newest is cut
    assert len(screen.splitlines()) == 24
    assert "> purple: choose" in screen and "2: play 4x1" in screen
