"""The board of each game as SVG, drawn from the public part of a seat view.

One module per game, each ``draw(public, config) -> str``; the geometry (field
positions, the map's heights, the hex arena) is component data read from the game's
config, never game state. Every colour also carries its letter (as on the terminal),
so the boards read the same for colour-blind players and in black and white.
"""

from __future__ import annotations

from html import escape
from typing import Any

#: Fill colours for the pieces' colour names (the physical pieces' colours).
FILL = {
    "purple": "#7b3294",
    "grey": "#8a8a8a",
    "turquoise": "#17a3a3",
    "red": "#c8321e",
    "yellow": "#e8b90f",
    "blue": "#2166ac",
    "green": "#1a8a3a",
    "white": "#f2f2f2",
    "orange": "#e6720f",
    "black": "#202020",
}
DARK_TEXT = {"yellow", "white", "grey", "turquoise", "orange"}  # letters in black on these


def fill(colour: str) -> str:
    return FILL.get(colour, "#999")


def ink(colour: str) -> str:
    """The letter's colour on a piece of ``colour``: black on light pieces, else white."""
    return "#000" if colour in DARK_TEXT else "#fff"


def svg(width: float, height: float, label: str, body: list[str]) -> str:
    """An SVG scaled to its container (``role=img`` with a label for screen readers)."""
    return (
        f'<svg class="board" viewBox="0 0 {width:g} {height:g}" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">'
        + "".join(body)
        + "</svg>"
    )


def text(x: float, y: float, content: Any, cls: str = "", **attrs: Any) -> str:
    """A label; ``fill`` goes into its style (the stylesheet's text colour would win over
    an attribute)."""
    fill_ = attrs.pop("fill", None)
    extra = "".join(f' {k.replace("_", "-")}="{escape(str(v))}"' for k, v in attrs.items())
    if fill_ is not None:
        extra += f' style="fill:{escape(fill_)}"'
    klass = f' class="{cls}"' if cls else ""
    return f'<text x="{x:g}" y="{y:g}"{klass}{extra}>{escape(str(content))}</text>'


def token(x: float, y: float, r: float, colour: str, letter: str, label: str = "") -> str:
    """A piece: a disc in its colour with its letter (and a count or id) on it."""
    return (
        f'<g class="piece"><circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{fill(colour)}" '
        f'stroke="#000" stroke-width="1"/>'
        + text(x, y + r * 0.35, letter + label, "tok", fill=ink(colour), font_size=f"{r:g}")
        + "</g>"
    )


def draw(game: str, public: dict[str, Any], config: Any) -> str:
    """The board of ``game`` (the registry's name) for the public part of a view."""
    if game == "battle-royale":
        from companion.web.boards import battle_royale as board
    elif game == "gladiatoren":
        from companion.web.boards import gladiatoren as board
    elif game == "skirmish":
        from companion.web.boards import skirmish as board
    elif game == "spartacus":
        from companion.web.boards import spartacus as board
    else:
        return ""
    return board.draw(public, config)
