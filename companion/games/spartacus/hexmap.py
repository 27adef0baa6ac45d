"""The hex arena: a map drawn as text rows, hex names, steps, distance and reach.

A map is a list of text rows in *doubled-width* coordinates: every hex is one
token separated by single spaces (``.`` a hex, ``I`` / ``II`` the start hexes,
``-`` a gap with no hex) and a row is indented by one space per half hex, so
the text looks like the board::

       . . . .
      . . . . .
     . . . . . .
    . I . . . II .

The ``i``-th token of row ``r`` indented by ``k`` spaces is the hex
``(x, r) = (k + 2 i, r)``; neighbours are ``(x +- 2, r)`` and ``(x +- 1, r +- 1)``. All hexes
of a map share the parity of ``x + r``. Hexes are named by row letter and
position in the row from the left: ``D2`` is the second hex of the fourth row.

Directions (pointy-top hexes): ``E``, ``W``, ``NE``, ``NW``, ``SE``, ``SW``.
"""

from __future__ import annotations

from dataclasses import dataclass

Hex = tuple[int, int]  # (x, r) doubled-width

DIRECTIONS: dict[str, tuple[int, int]] = {
    "E": (2, 0),
    "W": (-2, 0),
    "NE": (1, -1),
    "NW": (-1, -1),
    "SE": (1, 1),
    "SW": (-1, 1),
}
START_TOKENS = ("I", "II")


class HexMapError(ValueError):
    """A hex map that cannot be used; the message names the row and what to fix."""


def distance(a: Hex, b: Hex) -> int:
    """Hex steps between two hexes (ignoring missing hexes)."""
    dx, dr = abs(a[0] - b[0]), abs(a[1] - b[1])
    return dr + max(0, (dx - dr) // 2)


def step(h: Hex, direction: str) -> Hex:
    dx, dr = DIRECTIONS[direction]
    return (h[0] + dx, h[1] + dr)


@dataclass(frozen=True)
class HexMap:
    """The arena's hexes, their names and the two start hexes."""

    rows: tuple[str, ...]
    hexes: frozenset[Hex]
    names: dict[Hex, str]
    starts: tuple[Hex, Hex]
    label: str = ""

    @classmethod
    def parse(cls, rows: list[str] | tuple[str, ...], label: str = "") -> HexMap:
        if not rows:
            raise HexMapError("a hex map needs at least one row")
        if len(rows) > 26:
            raise HexMapError("a hex map has at most 26 rows (named A..Z)")
        hexes: dict[Hex, str] = {}
        names: dict[Hex, str] = {}
        starts: dict[str, Hex] = {}
        parity: int | None = None
        for r, row in enumerate(rows):
            if not isinstance(row, str):
                raise HexMapError(f"row {r + 1} must be text, got {row!r}")
            indent = len(row) - len(row.lstrip(" "))
            tokens = row.split()
            if tokens and parity is None:
                parity = (indent + r) % 2
            elif tokens and (indent + r) % 2 != parity:
                raise HexMapError(
                    f"row {r + 1}: indented by {indent}, which is off the grid; indent each "
                    "row by one space per half hex (rows alternate)"
                )
            n = 0
            for i, token in enumerate(tokens):
                if token == "-":
                    continue
                if token not in (".", *START_TOKENS):
                    raise HexMapError(
                        f"row {r + 1}: unknown token {token!r}; use '.' for a hex, '-' for a "
                        "gap, 'I' and 'II' for the start hexes"
                    )
                h = (indent + 2 * i, r)
                n += 1
                names[h] = f"{chr(ord('A') + r)}{n}"
                hexes[h] = token
                if token in START_TOKENS:
                    if token in starts:
                        raise HexMapError(f"row {r + 1}: start hex {token} appears twice")
                    starts[token] = h
        missing = [t for t in START_TOKENS if t not in starts]
        if missing:
            raise HexMapError(f"the map needs the start hexes I and II; missing: {missing}")
        return cls(tuple(rows), frozenset(hexes), names, (starts["I"], starts["II"]), label)

    def name(self, h: Hex) -> str:
        return self.names[h]

    def hex_named(self, name: str) -> Hex:
        for h, n in self.names.items():
            if n == name.upper():
                return h
        raise HexMapError(f"no hex {name!r} in this arena")

    def neighbour(self, h: Hex, direction: str) -> Hex | None:
        to = step(h, direction)
        return to if to in self.hexes else None

    def in_reach(self, a: Hex, b: Hex, reach: int) -> bool:
        """Adjacent, or with reach 2 at distance 2 over a free hex of the arena between.

        The only figures in the arena are the two fighters, so a hex between them is free
        whenever it is part of the arena.
        """
        d = distance(a, b)
        if d == 1:
            return True
        if d == 2 and reach >= 2:
            return any(
                step(a, dname) in self.hexes and distance(step(a, dname), b) == 1
                for dname in DIRECTIONS
            )
        return False
