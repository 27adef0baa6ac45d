"""Rich views of a Battle Royale game: the arena grid, the players, the last events.

Every colour also has a letter (P, G, T, R), so the arena reads the same for
colour-blind players, on a monochrome screen and in a log file.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Group
from rich.table import Table
from rich.text import Text

from companion.games.battle_royale.events import Event
from companion.games.battle_royale.layout import CENTRE, SIZE, field_name
from companion.games.battle_royale.state import BattleRoyaleState

STYLE = {"purple": "magenta", "grey": "bright_black", "turquoise": "cyan", "red": "red"}
LETTER = {"purple": "P", "grey": "G", "turquoise": "T", "red": "R"}
FACE_TEXT = {
    "battle_royale": "Battle Royale",
    "move_eliminator": "Move Eliminator",
    "explosion": "Explosion",
    "free_choice": "Free choice",
}


def colour_text(colour: str, text: str | None = None) -> Text:
    return Text(
        text if text is not None else f"{LETTER[colour]} {colour}", style=f"bold {STYLE[colour]}"
    )


def cell_text(state: BattleRoyaleState, cell: int) -> Text:
    """One arena cell: counts per colour; a hole; the flag; the Eliminator underneath."""
    text = Text()
    if not state.present[cell]:
        text.append("  (hole)  ", style="dim")
    else:
        parts = [(state.colours[k], n) for k, n in enumerate(state.counts[cell]) if n]
        for i, (colour, n) in enumerate(parts):
            if i:
                text.append(" " if i % 2 else "\n")
            text.append(f"{LETTER[colour]}{n}", style=f"bold {STYLE[colour]}")
        if not parts:
            text.append("  empty  ", style="dim")
    tags = []
    if cell == CENTRE:
        tags.append("flag")
    if cell == state.eliminator:
        tags.append("ELIM")
    label = f"{field_name(cell)}" + (f" {'/'.join(tags)}" if tags else "")
    return Text.assemble((label + "\n", "yellow" if cell == state.eliminator else "dim"), text)


def arena_table(state: BattleRoyaleState) -> Table:
    table = Table(show_header=True, show_lines=True, padding=(0, 1), title="Arena")
    table.add_column("")
    for c in "abcde":
        table.add_column(c, justify="center", min_width=8)
    for row in range(SIZE):
        table.add_row(str(row + 1), *(cell_text(state, row * SIZE + col) for col in range(SIZE)))
    return table


def players_table(state: BattleRoyaleState, last_face: str | None = None) -> Table:
    table = Table(title="Players", padding=(0, 1))
    table.add_column("seat")
    table.add_column("in arena", justify="right")
    table.add_column("prisoners", justify="right")
    table.add_column("box", justify="right")
    table.add_column("hand")
    for seat in range(state.players):
        colour = state.colours[seat]
        marker = ">" if seat == state.active and not state.is_terminal else " "
        name = Text(marker + " ").append_text(colour_text(colour))
        if state.out[seat]:
            name.append(" (out)", style="dim")
        table.add_row(
            name,
            str(state.arena_total[seat]),
            str(state.prisoner_total(seat)),
            str(state.box[seat]),
            " ".join(state.hand(seat)),
        )
    if state.neutral is not None:
        colour = state.colours[state.neutral]
        table.add_row(
            Text("  ").append_text(colour_text(colour, f"{LETTER[colour]} neutral")),
            str(state.arena_total[state.neutral]),
            "-",
            str(state.box[state.neutral]),
            "",
        )
    if last_face:
        table.caption = f"last Doom die roll: {FACE_TEXT.get(last_face, last_face)}"
    return table


QUIET_EVENTS = {"figure_stepped", "card_drawn", "setup"}


def event_lines(events: Iterable[Event]) -> Text:
    text = Text()
    for event in events:
        if event.kind in QUIET_EVENTS:
            continue
        style = {
            "game_over": "bold green",
            "field_exploded": "bold red",
            "fields_collapsed": "red",
            "explosion_armed": "bold red",
            "player_out": "bold yellow",
        }.get(event.kind, "")
        text.append(f"  - {event.text}\n", style=style)
    return text


def turn_view(state: BattleRoyaleState, events: Iterable[Event], last_face: str | None) -> Group:
    return Group(event_lines(events), arena_table(state), players_table(state, last_face))
