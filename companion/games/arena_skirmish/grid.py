"""The arena map: a square grid of cells, each with a height level, blocked cells, entrances.

Maps are text, one line per row, one character per cell:

- ``0``-``9``: a free cell at that height level;
- ``#``: a blocked cell (a pillar, a wall: nobody stands or walks there);
- ``A``-``Z``: an entrance at level 0, named by its letter.

Cells are named like a chess board seen from the first row: columns ``a``, ``b``, ...
from the left, rows ``1``, ``2``, ... from the top (``c5`` is the third column of the
fifth row). Facings are ``N`` (up, towards row 1), ``E``, ``S``, ``W``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

DIRECTIONS = ("N", "E", "S", "W")
DELTAS = ((-1, 0), (0, 1), (1, 0), (0, -1))
ARROWS = "↑→↓←"
ASCII_ARROWS = "^>v<"
MIN_SIZE = 5
MAX_SIZE = 26
MAX_LEVEL = 9

_CELL = re.compile(r"^([a-z])([1-9][0-9]?)$")


class MapError(ValueError):
    """A map that cannot be played on; the message names the row, cell or entrance."""


def opposite(direction: int) -> int:
    return (direction + 2) % 4


def parse_direction(text: str) -> int:
    """``N``/``E``/``S``/``W`` (any case) as 0..3."""
    word = str(text).upper()
    if word not in DIRECTIONS:
        raise MapError(f"a facing is one of {', '.join(DIRECTIONS)}, got {text!r}")
    return DIRECTIONS.index(word)


def check_cell_name(text: str) -> str:
    """A cell name in its canonical (lower-case) form; :class:`MapError` if it is none."""
    name = str(text).strip().lower()
    if not _CELL.match(name):
        raise MapError(f"a cell is a column letter and a row number, like c5; got {text!r}")
    return name


@dataclass(frozen=True)
class GameMap:
    """A validated map. ``heights[cell]`` and ``blocked[cell]`` per cell ``row * size + col``."""

    name: str
    size: int
    heights: tuple[int, ...]
    blocked: tuple[bool, ...]
    entrances: tuple[tuple[str, int], ...]  # (letter, cell) in reading order
    label: str = ""
    # steps[cell][direction]: the cell one step that way, or -1 off the map
    steps: tuple[tuple[int, ...], ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        n = self.size
        steps = []
        for cell in range(n * n):
            r, c = divmod(cell, n)
            row = []
            for dr, dc in DELTAS:
                rr, cc = r + dr, c + dc
                row.append(rr * n + cc if 0 <= rr < n and 0 <= cc < n else -1)
            steps.append(tuple(row))
        object.__setattr__(self, "steps", tuple(steps))

    @property
    def cells(self) -> int:
        return self.size * self.size

    @classmethod
    def parse(cls, text: str, name: str = "custom", label: str = "") -> GameMap:
        rows = [line.strip() for line in text.strip().splitlines() if line.strip()]
        size = len(rows)
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise MapError(f"map {name!r}: a map has {MIN_SIZE}..{MAX_SIZE} rows, got {size}")
        heights: list[int] = []
        blocked: list[bool] = []
        entrances: list[tuple[str, int]] = []
        for r, row in enumerate(rows):
            if len(row) != size:
                raise MapError(
                    f"map {name!r}, row {r + 1}: the map is square, so every row "
                    f"has {size} cells; this one has {len(row)} ({row!r})"
                )
            for c, ch in enumerate(row):
                cell = r * size + c
                if ch.isdigit():
                    heights.append(int(ch))
                    blocked.append(False)
                elif ch == "#":
                    heights.append(0)
                    blocked.append(True)
                elif "A" <= ch <= "Z":
                    heights.append(0)
                    blocked.append(False)
                    if any(e == ch for e, _ in entrances):
                        raise MapError(f"map {name!r}: entrance {ch} appears twice")
                    entrances.append((ch, cell))
                else:
                    raise MapError(
                        f"map {name!r}, cell {cell_name(cell, size)}: {ch!r} is not "
                        "a height 0-9, # (blocked) or an entrance letter A-Z"
                    )
        if len(entrances) < 2:
            raise MapError(
                f"map {name!r}: needs at least 2 entrances (letters A-Z), has {len(entrances)}"
            )
        return cls(name, size, tuple(heights), tuple(blocked), tuple(entrances), label)

    def draw(self) -> str:
        """The map as text (the form :meth:`parse` reads)."""
        letters = {cell: e for e, cell in self.entrances}
        lines = []
        for r in range(self.size):
            chars = []
            for c in range(self.size):
                cell = r * self.size + c
                if cell in letters:
                    chars.append(letters[cell])
                elif self.blocked[cell]:
                    chars.append("#")
                else:
                    chars.append(str(self.heights[cell]))
            lines.append("".join(chars))
        return "\n".join(lines)

    # -- cells ---------------------------------------------------------------------------

    def name_of(self, cell: int) -> str:
        return cell_name(cell, self.size)

    def cell_of(self, name: str) -> int:
        """The cell named ``name``; :class:`MapError` if it is not on this map."""
        match = _CELL.match(str(name).strip().lower())
        if not match:
            raise MapError(f"a cell is a column letter and a row number, like c5; got {name!r}")
        c = ord(match.group(1)) - ord("a")
        r = int(match.group(2)) - 1
        if not (0 <= r < self.size and 0 <= c < self.size):
            last = cell_name(self.cells - 1, self.size)
            raise MapError(f"{name} is off the map (a1..{last})")
        return r * self.size + c

    def step(self, cell: int, direction: int) -> int:
        """The neighbour of ``cell`` in ``direction``, or -1 off the map."""
        return self.steps[cell][direction]

    def distance(self, a: int, b: int) -> int:
        """Fields between two cells, walking orthogonally (Manhattan distance)."""
        ra, ca = divmod(a, self.size)
        rb, cb = divmod(b, self.size)
        return abs(ra - rb) + abs(ca - cb)

    def direction_between(self, a: int, b: int) -> int | None:
        """The direction from ``a`` to an orthogonally adjacent ``b``; None if not adjacent."""
        for d in range(4):
            if self.steps[a][d] == b:
                return d
        return None

    def entrance_cell(self, letter: str) -> int:
        for e, cell in self.entrances:
            if e == letter:
                return cell
        raise MapError(
            f"map {self.name!r} has no entrance {letter!r}; entrances: "
            f"{', '.join(e for e, _ in self.entrances)}"
        )

    @property
    def entrance_names(self) -> tuple[str, ...]:
        return tuple(e for e, _ in self.entrances)


def cell_name(cell: int, size: int) -> str:
    r, c = divmod(cell, size)
    return f"{chr(ord('a') + c)}{r + 1}"
