"""The 5x5 arena: fields, holes, the centre, and the geometry the rules need.

Fields are numbered 0..24 in reading order (left to right, rows top to bottom),
the order in which a Battle Royale is resolved. People name them like a chess
board seen from the seat of the box's open side: columns ``a``..``e`` from the
left, rows ``1``..``5`` from the top, so the centre (the flag field) is ``c3``.

A layout is drawn as 5 text lines of 5 characters: ``#`` a field, ``.`` a hole
(no field), ``C`` the centre.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from companion.records import Record

SIZE = 5
CELLS = SIZE * SIZE
CENTRE = 12
MAX_FIELDS = 21  # one figure of every colour per field, 21 figures per colour

ORTHOGONAL = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
DIAGONAL = {"NE": (-1, 1), "SE": (1, 1), "SW": (1, -1), "NW": (-1, -1)}
DIRECTIONS = {**ORTHOGONAL, **DIAGONAL}


class LayoutError(ValueError):
    """A layout that cannot be played; the message says what to change."""


#: Field names by cell, ``FIELD_NAMES[12] == "c3"`` (events name fields on every step).
FIELD_NAMES = tuple(f"{'abcde'[c % SIZE]}{c // SIZE + 1}" for c in range(CELLS))


def field_name(cell: int) -> str:
    """``0`` -> ``"a1"``, ``12`` -> ``"c3"`` (a number off the grid still gets a name, for
    the message that refuses it)."""
    if 0 <= cell < CELLS:
        return FIELD_NAMES[cell]
    row, col = divmod(cell, SIZE)
    return f"{'abcde'[col]}{row + 1}"


def parse_field(name: str) -> int:
    """``"c3"`` -> ``12``. Raises :class:`LayoutError` for anything else."""
    text = name.strip().lower()
    if len(text) == 2 and text[0] in "abcde" and text[1] in "12345":
        return (int(text[1]) - 1) * SIZE + "abcde".index(text[0])
    raise LayoutError(f"{name!r} is not a field: use a column a-e and a row 1-5, like c3")


def step(cell: int, direction: str) -> int | None:
    """The cell one step from ``cell`` in ``direction``, or ``None`` off the arena."""
    dr, dc = DIRECTIONS[direction]
    row, col = divmod(cell, SIZE)
    row, col = row + dr, col + dc
    if 0 <= row < SIZE and 0 <= col < SIZE:
        return row * SIZE + col
    return None


@cache
def neighbours(cell: int, diagonal: bool) -> tuple[tuple[str, int], ...]:
    """(direction, cell) pairs around ``cell`` that lie on the 5x5 grid."""
    dirs = DIRECTIONS if diagonal else ORTHOGONAL
    out = []
    for d in dirs:
        n = step(cell, d)
        if n is not None:
            out.append((d, n))
    return tuple(out)


#: ``NEIGHBOUR_CELLS[diagonal][cell]``: the cells next to ``cell`` on the grid in the
#: order of :func:`neighbours`, orthogonally (and diagonally too with ``True``); ``NEAR``:
#: the same as sets (the engine asks on every turn and after every explosion)
NEIGHBOUR_CELLS = {
    diagonal: tuple(tuple(n for _, n in neighbours(c, diagonal)) for c in range(CELLS))
    for diagonal in (False, True)
}
NEAR = {diagonal: tuple(map(frozenset, cells)) for diagonal, cells in NEIGHBOUR_CELLS.items()}


def connected_to_centre(fields: Iterable[int]) -> set[int]:
    """The fields joined to the centre by orthogonal paths over fields."""
    present = set(fields)
    if CENTRE not in present:
        return set()
    near = NEAR[False]
    seen = {CENTRE}
    todo = [CENTRE]
    while todo:
        new = (near[todo.pop()] & present) - seen
        seen |= new
        todo.extend(new)
    return seen


class Layout(Record):
    """Which of the 25 places hold a field at the start of the game."""

    fields: frozenset[int]
    name: str = "custom"

    @classmethod
    def parse(cls, text: str, name: str = "custom") -> Layout:
        """Read 5 lines of ``#`` / ``.`` / ``C`` and check the layout rules."""
        lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
        if len(lines) != SIZE:
            raise LayoutError(f"layout {name!r}: needs 5 lines of 5 characters, got {len(lines)}")
        fields = set()
        for r, line in enumerate(lines):
            if len(line) != SIZE:
                raise LayoutError(
                    f"layout {name!r}, line {r + 1}: {line!r} has {len(line)} characters, needs 5"
                )
            for c, ch in enumerate(line):
                cell = r * SIZE + c
                if ch not in "#.C":
                    raise LayoutError(
                        f"layout {name!r}, line {r + 1}: {ch!r} is not allowed; "
                        "use # for a field, . for a hole, C for the centre"
                    )
                if ch == "C" and cell != CENTRE:
                    raise LayoutError(
                        f"layout {name!r}: the centre (C) must be in the middle (c3), "
                        f"found at {field_name(cell)}"
                    )
                if ch != ".":
                    fields.add(cell)
                if cell == CENTRE and ch == "#":
                    raise LayoutError(f"layout {name!r}: mark the middle field c3 with C")
        layout = cls(frozenset(fields), name)
        layout.validate()
        return layout

    def validate(self) -> None:
        """Rulebook: the flag field is in the middle; every field is connected to it."""
        if CENTRE not in self.fields:
            raise LayoutError(f"layout {self.name!r}: the centre field c3 (the flag) is required")
        loose = self.fields - connected_to_centre(self.fields)
        if loose:
            names = ", ".join(field_name(c) for c in sorted(loose))
            raise LayoutError(
                f"layout {self.name!r}: {names} not connected to the centre by orthogonal "
                "paths over fields; every field must be"
            )
        if len(self.fields) > MAX_FIELDS:
            raise LayoutError(
                f"layout {self.name!r} has {len(self.fields)} fields; each colour has 21 figures, "
                f"one per field, so remove at least {len(self.fields) - MAX_FIELDS} field(s)"
            )

    def draw(self) -> str:
        rows = []
        for r in range(SIZE):
            row = ""
            for c in range(SIZE):
                cell = r * SIZE + c
                row += "C" if cell == CENTRE else ("#" if cell in self.fields else ".")
            rows.append(row)
        return "\n".join(rows)
