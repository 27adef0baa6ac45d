"""The Battle Royale dashboard: arena, turn, die, players, hardware, event log and prompt.

On a terminal with nobody typing it is a rich ``Live`` display redrawn in place and
fitted to the terminal's height (reads well over SSH and on a small HDMI screen).
Without a terminal (a pipe, a log file, CI), or when a person types at the terminal, it
prints the events as they happen, a rule at every turn, every prompt, and the board
before a person is asked (:mod:`companion.ui.screen`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from companion.games.battle_royale.events import Event
from companion.hal import Hardware
from companion.ui.battle_royale import (
    FACE_TEXT,
    LETTER,
    STYLE,
    arena_table,
    colour_text,
    event_line,
    legend,
    players_table,
)
from companion.ui.screen import TableScreen, rows_at


def hardware_panel(hw: Hardware) -> Panel:
    """What the table's outputs do: turn and die LEDs, the solenoid, the arena display."""
    leds = hw.status_leds.state()
    text = Text()
    text.append("turn LEDs ")
    for colour in hw.status_leds.colours:
        on = leds.get(colour, False)
        letter = LETTER.get(colour, colour[:1].upper())
        text.append(
            f"[{letter}]" if on else f" {letter.lower()} ",
            style=f"bold {STYLE.get(colour, '')}" if on else "dim",
        )
    text.append("   die LEDs ")
    for face in hw.status_leds.faces:
        on = leds.get(face, False)
        label = "".join(w[0].upper() for w in face.split("_"))
        text.append(f"[{label}]" if on else f" {label.lower()} ", style="bold" if on else "dim")
    guard = hw.eliminator
    text.append("\nEliminator: ")
    if guard.fault:
        text.append(f"FAULT {guard.fault}", style="bold red")
    elif guard.armed:
        text.append("ARMED - hit the red button", style="bold red blink")
    else:
        text.append("safe", style="green")
    last = guard.last_pulse
    text.append(f"   pulses fired: {guard.pulse_count}")
    if last is not None:
        text.append(f" (last {last.length_s * 1000:.0f} ms)")
    text.append(f"\narena display:\n{hw.display.render()}", style="dim")
    return Panel(text, title=f"hardware ({hw.profile})", expand=False)


def assist_arena(state: Any, compact: bool = False) -> Table:
    """Assist mode: the companion knows fields, holes and the Eliminator, not figures."""
    from companion.games.battle_royale.layout import CENTRE, SIZE, field_name

    table = Table(
        show_header=True,
        show_lines=not compact,
        padding=(0, 1),
        title=None if compact else "Arena",
    )
    table.add_column("")
    for c in "abcde":
        table.add_column(c, justify="center", min_width=7)
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            cell = r * SIZE + c
            label = field_name(cell)
            if not state.present[cell]:
                body = Text("hole", style="dim")
            elif cell == CENTRE:
                body = Text("flag", style="bold")
            else:
                body = Text("field")
            if cell == state.eliminator:
                body = Text.assemble(body, (" ELIM" if compact else "\nELIM", "bold yellow"))
            cells.append(body if compact else Text.assemble((label + "\n", "dim"), body))
        table.add_row(str(r + 1), *cells)
    return table


class Dashboard(TableScreen):
    """The Battle Royale view for the terminal (see :mod:`companion.ui.screen`).

    ``live``: redraw in place (a terminal with nobody typing); otherwise print.
    ``pace_s``: on a terminal, pause this long after each turn so people can follow.
    """

    TITLE = "Battle Royale"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.last_face: str | None = None
        self._explosion: str | None = None  # an explosion announced, its second line to come

    def update(self, state: Any, events: Sequence[Event]) -> None:
        for event in events:
            if event.kind == "turn_started":
                self.last_face = None
                self._explosion = None
            if event.kind == "doom_rolled" and not event.data.get("extra"):
                self.last_face = event.data["face"]
        super().update(state, events)

    def message(self, text: str) -> None:
        if self.said_already(text):
            self._refresh()
            return
        super().message(text)

    def said_already(self, text: str) -> bool:
        """Whether ``text`` (a message, or an event's line) says what was said already:
        the Doom face (the table's message, then the roll's event, and the header shows
        it) and an explosion (its ``explosion_armed`` event and the fire sequence's
        message, in either order) are each shown once. The web and the log still get
        both."""
        if text.startswith("the Doom die shows: "):  # the doom_rolled line comes with it
            return True
        if not text.startswith("explosion under "):
            return False
        field = text.split(":")[0]
        if self._explosion == field:  # the other half of the pair: not again
            self._explosion = None
            return True
        self._explosion = field
        return False

    def whose_turn(self) -> Text:
        state = self.state
        text = Text()
        if state.turn:
            text.append_text(colour_text(state.colours[state.active])).append(" to play")
        armed = self.hw is not None and self.hw.eliminator.armed
        # armed after an explosion rolled: ARMED says it (both cut ARMED at 80 columns)
        if self.last_face and not (armed and self.last_face == "explosion"):
            text.append(f"   Doom die: {FACE_TEXT.get(self.last_face, self.last_face)}")
        if armed:
            text.append("   ELIMINATOR ARMED", style="bold red")
        return text

    def board(self, width: int, height: int | None = None) -> RenderableType:
        state = self.state
        compact = height is not None and height < 30
        if not hasattr(state, "counts"):
            return assist_arena(state, compact)
        arena = arena_table(state, compact=compact)
        players = players_table(state, self.last_face, compact=compact)
        if compact and width >= 100:
            grid = Table.grid(padding=(0, 2))
            grid.add_row(arena, players)
            parts: list[RenderableType] = [grid]
        else:
            parts = [arena, players]
        if compact and height is not None:  # a spare row: what P2, F, E and () mean
            keyed = Group(*parts, legend(state))
            if rows_at(self.console, keyed, width) <= height:
                return keyed
        return Group(*parts)

    def event_text(self, event: Any) -> Text | None:
        line = event_line(event)
        if line is not None and event.kind == "explosion_armed" and self.said_already(line.plain):
            return None
        return line

    def hardware(self) -> RenderableType | None:
        return hardware_panel(self.hw) if self.hw is not None else None

    def turn_block(self, events: Sequence[Any]) -> None:
        state = self.state
        seat = events[0].data["seat"]
        turn = events[0].data["turn"]
        self.console.print(
            Rule(colour_text(state.colours[seat], f"Turn {turn}: {state.colours[seat]}"))
        )

    def print_board(self) -> None:
        super().print_board()
        if self.hw is not None and self.state is not None:
            self.console.print(hardware_panel(self.hw))
