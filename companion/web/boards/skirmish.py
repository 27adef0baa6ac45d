"""The arena skirmish grid: heights as shades and digits, blocked cells, entrances, and
each gladiator as its owner's colour and letter, its ID and a facing arrow."""

from __future__ import annotations

from typing import Any

from companion.games.arena_skirmish.grid import ARROWS
from companion.ui.skirmish import LETTER
from companion.web.boards import fill, ink, svg, text

CELL = 36
SHADE = ("#f4f1ea", "#e2dccd", "#cdc4ad", "#b5a98b", "#9c8f6d")


def draw(public: dict[str, Any], config: Any) -> str:
    gmap = config.game_map
    colours = config.colours
    n = gmap.size
    entrances = {cell: letter for letter, cell in gmap.entrances}
    body = []
    for cell in range(n * n):
        row, col = divmod(cell, n)
        x, y = col * CELL + 14, row * CELL + 14
        if gmap.blocked[cell]:
            body.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" class="hole"/>')
            continue
        level = gmap.heights[cell]
        body.append(
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
            f'fill="{SHADE[min(level, 4)]}" class="cell"/>'
        )
        if cell in entrances:
            body.append(text(x + CELL / 2, y + CELL / 2 + 5, entrances[cell], "entrance"))
        elif level:
            body.append(text(x + 4, y + 11, level, "height"))
    for c in range(n):  # column letters and row numbers, as on the terminal
        body.append(text(14 + c * CELL + CELL / 2, 11, chr(ord("a") + c), "lbl mid"))
        body.append(text(2, 14 + c * CELL + CELL / 2 + 4, c + 1, "lbl"))
    active = public.get("active_gladiator")
    for gid, owner, cell, facing, *_rest, alive in public["gladiators"]:
        if not alive or cell is None:
            continue
        row, col = divmod(cell, n)
        x, y = col * CELL + 14, row * CELL + 14
        colour = colours[owner]
        ring = ' stroke="#000" stroke-width="3"' if gid == active else ' stroke="#000"'
        body.append(
            f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" rx="6" '
            f'fill="{fill(colour)}"{ring}/>'
            + text(
                x + CELL / 2,
                y + CELL / 2 + 4,
                f"{LETTER.get(colour, '?')}{gid}{ARROWS[facing]}",
                "tok",
                fill=ink(colour),
            )
        )
    size = n * CELL + 16
    return svg(size, size, "Arena skirmish grid", body)
