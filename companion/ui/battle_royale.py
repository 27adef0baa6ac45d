"""Rich views of a Battle Royale game: the arena grid, the players, the last events.

Every colour also has a letter (P, G, T, R), so the arena reads the same for
colour-blind players, on a monochrome screen and in a log file.
"""

from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text

from companion.games.battle_royale.events import Event
from companion.games.battle_royale.layout import CENTRE, SIZE, field_name
from companion.games.battle_royale.state import BattleRoyaleState
from companion.table.battle_royale_table import in_words
from companion.ui.screen import styled_event

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


def compact_cell(state: BattleRoyaleState, cell: int) -> Text:
    """One arena cell on one line: counts per colour, ``()`` a hole, ``E`` the Eliminator
    underneath, ``F`` the flag (the centre)."""
    text = Text()
    if not state.present[cell]:
        text.append("()", style="dim")
    for k, n in enumerate(state.counts[cell]):
        if n and state.present[cell]:
            colour = state.colours[k]
            text.append(f"{LETTER[colour]}{n}", style=f"bold {STYLE[colour]}")
    if cell == CENTRE:
        text.append(" F", style="bold")
    if cell == state.eliminator:
        text.append(" E", style="bold yellow")
    return text if text.plain else Text(".", style="dim")


def arena_table(state: BattleRoyaleState, compact: bool = False) -> Table:
    """The 5x5 arena; ``compact``: one line per row (for a small terminal)."""
    table = Table(
        show_header=True,
        show_lines=not compact,
        padding=(0, 1),
        title=None if compact else "Arena",
        box=box.SIMPLE if compact else box.HEAVY_HEAD,
        show_edge=not compact,  # compact: no blank row above and below
    )
    table.add_column("")
    for c in "abcde":
        table.add_column(c, justify="center", min_width=6 if compact else 8)
    cell = compact_cell if compact else cell_text
    for row in range(SIZE):
        table.add_row(str(row + 1), *(cell(state, row * SIZE + col) for col in range(SIZE)))
    return table


def players_table(
    state: BattleRoyaleState, last_face: str | None = None, compact: bool = False
) -> Table:
    """One row per seat: figures in the arena, prisoners, in the box, cards in hand;
    ``compact`` (a small terminal): no title, no frame, no caption (the header line
    shows the last Doom face), one row for the column names and one per seat."""
    if compact:
        table = Table(box=None, padding=(0, 1), show_edge=False, header_style="bold")
    else:
        table = Table(title="Players", padding=(0, 1))
    table.add_column("seat")
    table.add_column("in arena", justify="right")
    table.add_column("prisoners", justify="right")
    table.add_column("box", justify="right")
    table.add_column("cards", justify="right")  # hands are private: counts only
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
            str(len(state.hand(seat))),
        )
    if state.neutral is not None:
        colour = state.colours[state.neutral]
        table.add_row(
            Text("  ").append_text(colour_text(colour)).append(" (neutral)", style="dim"),
            str(state.arena_total[state.neutral]),
            "-",
            str(state.box[state.neutral]),
            "",
        )
    if last_face and not compact:
        table.caption = f"last Doom die roll: {FACE_TEXT.get(last_face, last_face)}"
    return table


def legend(state: BattleRoyaleState) -> Text:
    """What the compact arena's marks mean (one line, under the seats where it fits)."""
    text = Text("key: ", style="dim")
    colour = state.colours[0]
    text.append(f"{LETTER[colour]}2", style=f"bold {STYLE[colour]}")
    text.append(f" two {colour} figures  F flag  ", style="dim")
    text.append("E", style="bold yellow")
    text.append(" the Eliminator under it  () hole", style="dim")
    return text


QUIET_EVENTS = {"figure_stepped", "card_drawn", "setup"}


EVENT_STYLE = {
    "game_over": "bold green",
    "field_exploded": "bold red",
    "fields_collapsed": "red",
    "explosion_armed": "bold red",
    "player_out": "bold yellow",
}


def event_line(event: Event) -> Text | None:
    """One event for the log (``None``: too small to show)."""
    return styled_event(event, QUIET_EVENTS, EVENT_STYLE, in_words)
