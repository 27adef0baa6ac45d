"""Seeded games that resume exactly: every draw comes from the seed and the journal position.

A seeded game (``--seed``) must play the same after a power cut and ``resume``
as it would have without one. A single random stream cannot do that: resume
would have to know how far the stream had run. So a seeded game draws from
:class:`PositionalRandom` streams instead: before a draw, a stream is set to
(seed, stream name, position), where the position is the number the journal's
next record gets (:attr:`~companion.table.journal.JournalWriter.next_n`); draws
made at the same position continue from there. The position is part of the
journal, so a resumed game makes exactly the draws the uninterrupted game made
from the same point (a torn record's draw included: its number is reused).
Without a journal the position is the length of the game's history.

Each stream has its own name (the dice, the bots, the simulated people), so one
stream drawing more or less never shifts another. A hint shown (a ``hint`` record) is not
a position: a game where somebody asked for hints draws as one where nobody did.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from companion.dice import Roller


def draw_position(session: Any) -> int:
    """Where ``session`` stands: its journal's next record number, else its history length.

    Hints shown (``hint`` records) do not count: asking for a hint never changes what the
    dice, the bots or the simulated people draw afterwards."""
    journal = getattr(session, "journal", None)
    if journal is not None:
        return int(journal.next_n) - len(getattr(session, "hints", ()))
    return len(session.state.history)


class PositionalRandom(random.Random):
    """A :class:`random.Random` whose draws depend on (seed, stream, position) only.

    ``position`` is called before every draw; when it differs from the last
    draw's, the generator is seeded again from ``"seed/stream/position"`` (a
    string seed is hashed with SHA-512, the same on every machine and run).
    """

    def __init__(self, seed: int, stream: str, position: Callable[[], int]) -> None:
        self._base = f"{seed}/{stream}"
        self._position = position
        self._at: int | None = None
        super().__init__(self._base)

    def _sync(self) -> None:
        at = self._position()
        if at != self._at:
            self._at = at
            super().seed(f"{self._base}/{at}")

    def random(self) -> float:
        self._sync()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._sync()
        return super().getrandbits(k)


def seeded_random(session: Any, seed: int, stream: str) -> PositionalRandom:
    """A stream of ``session``'s seeded randomness (see the module docstring)."""
    return PositionalRandom(seed, stream, lambda: draw_position(session))


def table_roller(session: Any, seed: int | None, *, seeded_dice: bool = True) -> Roller:
    """The dice of a game: from the seed and the journal position if the dice are seeded,
    else the system's generator (fair and unpredictable)."""
    if seed is None or not seeded_dice:
        return Roller()
    roller = Roller(seeded_random(session, seed, "dice"))
    roller.seed = seed
    return roller
