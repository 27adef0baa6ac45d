"""Battle Royale: the 5x5 arena (tracked and assist mode).

Each field shows its name, its figures per colour (letter and count), a hole as a dark
gap, the flag on c3, the Eliminator underneath as a ring marked E, and in assist mode
the armed field and the tiles to take off (hatched)."""

from __future__ import annotations

from typing import Any

from companion.games.battle_royale.layout import CENTRE, SIZE, field_name
from companion.ui.battle_royale import LETTER
from companion.web.boards import svg, text, token

CELL = 64


def draw(public: dict[str, Any], config: Any) -> str:
    colours = public["colours"]
    present = public["present"]
    counts = public.get("counts")  # tracked mode only: assist mode has no figures
    marked = set(public.get("collapsed_fields") or ())
    for key in ("exploded_field", "armed"):
        if public.get(key) is not None:
            marked.add(public[key])
    body = []
    for cell in range(SIZE * SIZE):
        row, col = divmod(cell, SIZE)
        x, y = col * CELL, row * CELL
        name = field_name(cell)
        if not present[cell]:
            body.append(
                f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" '
                f'class="hole"><title>{name}: hole</title></rect>'
            )
            body.append(text(x + 5, y + 14, name, "lbl dim"))
            continue
        cls = "field marked" if cell in marked else "field"
        body.append(
            f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" class="{cls}"/>'
        )
        body.append(text(x + 5, y + 14, name, "lbl"))
        if cell == CENTRE:
            body.append(text(x + CELL - 16, y + 15, "\u2691", "flag"))
        if cell == public.get("eliminator"):
            body.append(
                f'<circle cx="{x + CELL - 12}" cy="{y + CELL - 12}" r="9" class="elim"/>'
                + text(x + CELL - 12, y + CELL - 8, "E", "elim-l")
            )
        if counts:
            pieces = [(colours[k], n) for k, n in enumerate(counts[cell]) if n]
            for i, (colour, n) in enumerate(pieces):
                px = x + 14 + (i % 2) * 24
                py = y + 28 + (i // 2) * 20
                body.append(token(px, py, 10, colour, LETTER.get(colour, "?"), str(n)))
    return svg(SIZE * CELL, SIZE * CELL, "Battle Royale arena", body)
