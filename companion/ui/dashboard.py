"""The table dashboard: arena, turn, die, players, hardware, event log and prompt.

On a terminal it is a rich ``Live`` display redrawn in place (reads well over
SSH and on a small HDMI screen). Without a terminal (a pipe, a log file, CI),
or when a person types at the terminal, it prints one block per turn and the
messages in between, so the output stays readable as a log.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group
from rich.live import Live
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
    event_lines,
    players_table,
)

LOG_LINES = 10


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


def assist_arena(state: Any) -> Table:
    """Assist mode: the companion knows fields, holes and the Eliminator, not figures."""
    from companion.games.battle_royale.layout import CENTRE, SIZE, field_name

    table = Table(show_header=True, show_lines=True, padding=(0, 1), title="Arena")
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
                body = Text.assemble(body, ("\nELIM", "bold yellow"))
            cells.append(Text.assemble((label + "\n", "dim"), body))
        table.add_row(str(r + 1), *cells)
    return table


class Dashboard:
    """A :class:`~companion.table.loop.TableView` for the terminal.

    ``live``: redraw in place (a terminal with nobody typing); otherwise print.
    ``pace_s``: on a terminal, pause this long after each turn so people can follow.
    """

    def __init__(
        self,
        console: Console,
        hw: Hardware | None,
        *,
        live: bool,
        pace_s: float = 0.0,
        title: str = "Battle Royale",
    ) -> None:
        self.console = console
        self.hw = hw
        self.live = live
        self.pace_s = pace_s
        self.title = title
        self.log: deque[Text] = deque(maxlen=LOG_LINES)
        self.turn_events: list[Event] = []
        self.prompt_text = ""
        self.options: Sequence[str] = ()
        self.state: Any = None
        self.last_face: str | None = None
        self._live: Live | None = None
        self._shown_turn = 0

    # -- lifecycle ---------------------------------------------------------------------

    def __enter__(self) -> Dashboard:
        if self.live:
            self._live = Live(
                self.render(), console=self.console, auto_refresh=False, transient=False
            )
            self._live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live is not None:
            self._live.update(self.render(), refresh=True)
            self._live.__exit__(None, None, None)
            self._live = None
        elif self.state is not None and self.turn_events:
            self._print_turn(self._shown_turn)

    # -- TableView ---------------------------------------------------------------------

    def update(self, state: Any, events: Sequence[Event]) -> None:
        self.state = state
        if events:
            self.prompt_text = ""  # the prompt was answered
        for event in events:
            if event.kind == "turn_started":
                if self._shown_turn and not self.live:
                    self._print_turn(self._shown_turn)
                if self._shown_turn and self.pace_s:
                    time.sleep(self.pace_s)
                self._shown_turn = event.data["turn"]
                self.turn_events = []
            if event.kind == "doom_rolled" and not event.data.get("extra"):
                self.last_face = event.data["face"]
            self.turn_events.append(event)
            line = event_lines([event])
            if line.plain:
                self.log.append(line)
        self._refresh()

    def message(self, text: str) -> None:
        self.log.append(Text(f"  * {text}\n", style="italic"))
        if not self.live:
            self.console.print(Text(f"  * {text}", style="italic"))
        self._refresh()

    def prompt(self, text: str, options: Sequence[str] = (), seat: int | None = None) -> None:
        self.prompt_text = text
        self.options = options
        if not self.live and options:
            self.console.print(Text(text, style="bold"))
            self.console.print("   " + "   ".join(options), soft_wrap=True)
        self._refresh()

    # -- rendering ---------------------------------------------------------------------

    def _refresh(self) -> None:
        if self._live is not None:
            self._live.update(self.render(), refresh=True)

    def header(self) -> Text:
        state = self.state
        if state is None:
            return Text(self.title, style="bold")
        text = Text(f"{self.title} - turn {state.turn}  ", style="bold")
        if state.is_terminal:
            names = " and ".join(state.colours[s] for s in state.winners)
            text.append(f"game over: {names} won", style="bold green")
        else:
            text.append_text(colour_text(state.colours[state.active]))
            text.append(" to play")
        if self.last_face:
            text.append(f"   Doom die: {FACE_TEXT.get(self.last_face, self.last_face)}")
        return text

    def arena(self) -> Any:
        state = self.state
        if hasattr(state, "counts"):
            return Group(arena_table(state), players_table(state, self.last_face))
        return assist_arena(state)

    def render(self) -> Group:
        parts: list[Any] = [self.header()]
        if self.state is not None:
            parts.append(self.arena())
        if self.hw is not None:
            parts.append(hardware_panel(self.hw))
        log = Text()
        for line in self.log:
            log.append_text(line)
        parts.append(Panel(log, title="events", expand=False))
        if self.prompt_text:
            parts.append(Text(f"> {self.prompt_text}", style="bold cyan"))
        return Group(*parts)

    def _print_turn(self, turn: int) -> None:
        state = self.state
        seat = next(
            (e.data["seat"] for e in self.turn_events if e.kind == "turn_started"), state.active
        )
        self.console.print(
            Rule(colour_text(state.colours[seat], f"Turn {turn}: {state.colours[seat]}"))
        )
        self.console.print(event_lines(self.turn_events))
        self.console.print(self.arena())
        if self.hw is not None:
            self.console.print(hardware_panel(self.hw))
