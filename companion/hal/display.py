"""Arena display frames and the in-memory arena display.

Until the LED matrix gets its own I/O board, both the ``gpio`` and the ``sim``
profile show the arena through :class:`MemoryArenaDisplay`: it keeps the last
frame (a terminal view can draw it with :meth:`MemoryArenaDisplay.render`),
and in the simulator it also records the recent frames with their time (the last
:data:`RECORD_LIMIT`, so a service that runs for months does not grow).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

from companion.hal.contracts import ARENA_SIZE, Cell, CellState, Frame

#: How many recent entries a simulator's recording keeps (frames, LED changes, coil
#: switches): enough for any test or self-test, bounded for a season of games.
RECORD_LIMIT = 2000


class Recent(list):  # type: ignore[type-arg]
    """A list for recordings that keeps only its last ``limit`` items: appending to a full
    one drops the oldest. Compares and indexes like the list it is."""

    def __init__(self, limit: int = RECORD_LIMIT) -> None:
        super().__init__()
        self.limit = limit

    def append(self, item: object) -> None:
        super().append(item)
        if len(self) > self.limit:
            del self[0]


__all__ = ["CELL_SYMBOLS", "MemoryArenaDisplay", "blank_frame", "make_frame"]

#: One character per cell state, for text rendering.
CELL_SYMBOLS: dict[CellState, str] = {
    CellState.OFF: " ",
    CellState.FIELD: "#",
    CellState.HOLE: ".",
    CellState.CENTRE: "C",
    CellState.ELIMINATOR: "E",
    CellState.HIGHLIGHT: "*",
    CellState.BLINK: "!",
}


def _state(value: CellState | str, where: str) -> CellState:
    try:
        return CellState(value)
    except ValueError:
        allowed = ", ".join(s.value for s in CellState)
        raise ValueError(f"{where}: {value!r} is not a cell state; allowed: {allowed}") from None


def blank_frame(state: CellState | str = CellState.OFF, size: int = ARENA_SIZE) -> Frame:
    """A frame with every cell in *state*."""
    row = (_state(state, "blank_frame"),) * size
    return (row,) * size


def make_frame(rows: Sequence[Sequence[CellState | str]], size: int = ARENA_SIZE) -> Frame:
    """Validate *rows* (size rows of size states or state names) into a :data:`Frame`."""
    if isinstance(rows, str) or len(rows) != size:
        raise ValueError(f"a frame has {size} rows, got {len(rows)}")
    frame = []
    for r, row in enumerate(rows):
        if isinstance(row, str) or len(row) != size:
            raise ValueError(f"frame row {r} has {len(row)} cells, expected {size}")
        frame.append(tuple(_state(v, f"cell ({r}, {c})") for c, v in enumerate(row)))
    return tuple(frame)


class MemoryArenaDisplay:
    """
    An :class:`~companion.hal.contracts.ArenaDisplay` held in memory.

    :param size: cells per side.
    :param clock: stamps recorded frames.
    :param record: keep the frames shown in :attr:`frames` (the simulator does):
        the last *record_limit* of them.
    """

    def __init__(
        self,
        size: int = ARENA_SIZE,
        *,
        clock: Callable[[], float] = time.monotonic,
        record: bool = False,
        record_limit: int | None = None,
    ) -> None:
        self._size = size
        self._clock = clock
        self._record = record
        self._lock = threading.Lock()
        self._frame = blank_frame(CellState.OFF, size)
        limit = RECORD_LIMIT if record_limit is None else record_limit
        self._frames: list[tuple[float, Frame]] = Recent(limit)

    @property
    def size(self) -> int:
        """Cells per side."""
        return self._size

    @property
    def frame(self) -> Frame:
        """The frame currently shown."""
        return self._frame

    @property
    def frames(self) -> list[tuple[float, Frame]]:
        """The recent frames shown (at most the record limit), as (clock time, frame),
        if recording."""
        with self._lock:
            return list(self._frames)

    def show(self, frame: Sequence[Sequence[CellState | str]]) -> None:
        """Show a whole frame."""
        self._put(make_frame(frame, self._size))

    def set_cell(self, cell: Cell, state: CellState | str) -> None:
        """Change the state of one cell."""
        row, col = cell
        if not (0 <= row < self._size and 0 <= col < self._size):
            raise ValueError(f"cell {cell!r} is outside the {self._size}x{self._size} arena")
        value = _state(state, f"cell {cell!r}")
        with self._lock:
            rows = [list(r) for r in self._frame]
            rows[row][col] = value
            self._put_locked(tuple(tuple(r) for r in rows))

    def clear(self) -> None:
        """Darken every cell."""
        self._put(blank_frame(CellState.OFF, self._size))

    def render(self) -> str:
        """The current frame as text, one line per row (see :data:`CELL_SYMBOLS`)."""
        return "\n".join("".join(CELL_SYMBOLS[s] for s in row) for row in self._frame)

    def _put(self, frame: Frame) -> None:
        with self._lock:
            self._put_locked(frame)

    def _put_locked(self, frame: Frame) -> None:
        self._frame = frame
        if self._record:
            self._frames.append((self._clock(), frame))
