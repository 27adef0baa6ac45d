"""What the arena display shows: one cell state per field, from a game's arena."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from companion.games.battle_royale.layout import CENTRE, SIZE
from companion.hal import CellState


def arena_frame(
    present: Sequence[bool],
    eliminator: int,
    *,
    highlight: Iterable[int] = (),
    blink: Iterable[int] = (),
) -> tuple[tuple[CellState, ...], ...]:
    """A 5x5 frame: fields, holes, the centre, the Eliminator; highlight and blink on top.

    ``blink`` wins over ``highlight``, which wins over the Eliminator mark.
    """
    highlight, blink = set(highlight), set(blink)
    rows = []
    for r in range(SIZE):
        row = []
        for c in range(SIZE):
            cell = r * SIZE + c
            if cell in blink:
                state = CellState.BLINK
            elif cell in highlight:
                state = CellState.HIGHLIGHT
            elif cell == eliminator:
                state = CellState.ELIMINATOR
            elif not present[cell]:
                state = CellState.HOLE
            elif cell == CENTRE:
                state = CellState.CENTRE
            else:
                state = CellState.FIELD
            row.append(state)
        rows.append(tuple(row))
    return tuple(rows)
