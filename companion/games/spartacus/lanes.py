"""Rows of small whole numbers packed into one Python int, worked on all at once.

The exact reroll odds (:mod:`companion.games.spartacus.odds`) decide, for every pair of
rolls, which die each side rerolls: tens of thousands of small comparisons. Done one pair
at a time in Python that is slow; packed as *lanes* of a single int, one addition, one
comparison or one selection covers a whole row of pairs and runs in C.

A row of ``n`` lanes of ``width`` bits is one int: lane ``i`` holds bits
``width*i .. width*(i+1)-1``. Values are whole numbers from 0 up to (not including)
``2**(width-1)``: the top bit of each lane is a guard that comparisons borrow from, so it
must be 0 in every value given here. Additions must not overflow a lane (the caller
chooses a width with room).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable

_TYPECODE = {array(code).itemsize * 8: code for code in "HILQ"}


class Lanes:
    """Lane arithmetic for rows of ``n`` lanes of ``width`` bits (16, 32 or 64)."""

    def __init__(self, n: int, width: int) -> None:
        if width not in _TYPECODE:
            raise ValueError(f"a lane is 16, 32 or 64 bits wide, not {width}")
        self.n = n
        self.width = width
        self.nbytes = n * width // 8
        self.code = _TYPECODE[width]
        self.ones = self.pack([1] * n)  # 1 in every lane
        self.guard = self.ones << (width - 1)
        self.limit = 1 << (width - 1)  # values are below this

    @staticmethod
    def width_for(largest: int) -> int:
        """The narrowest lane width that holds values up to ``largest`` (and the guard)."""
        for width in sorted(_TYPECODE):
            if largest < 1 << (width - 1):
                return width
        raise ValueError(f"{largest} does not fit a 64-bit lane")

    def pack(self, values: Iterable[int]) -> int:
        """A row from ``n`` values (each below :attr:`limit`)."""
        return int.from_bytes(array(self.code, values).tobytes(), "little")

    def unpack(self, row: int) -> list[int]:
        """The ``n`` values of a row."""
        return array(self.code, row.to_bytes(self.nbytes, "little")).tolist()

    def widen(self, row: int, narrow: Lanes) -> int:
        """A row of ``narrow`` lanes (as many, no wider) as a row of these lanes."""
        if narrow.width == self.width:
            return row
        return self.from_bytes(row.to_bytes(narrow.nbytes, "little"), narrow.width)

    def from_bytes(self, data: bytes, width: int) -> int:
        """A row of these lanes from the little-endian bytes of ``n`` values of ``width``
        bits (no wider): each value's bytes are spread out, in C loops."""
        if width == self.width:
            return int.from_bytes(data, "little")
        step, size = width // 8, self.width // 8
        spread = bytearray(self.nbytes)
        for b in range(step):
            spread[b::size] = data[b::step]
        return int.from_bytes(spread, "little")

    def fill(self, value: int) -> int:
        """A row with ``value`` in every lane."""
        return self.ones * value

    def less(self, a: int, b: int) -> int:
        """A mask row: every value bit set in the lanes where ``a < b``, else 0."""
        t = ((b | self.guard) - a - self.ones) & self.guard
        return t - (t >> (self.width - 1))

    def equal(self, a: int, value: int) -> int:
        """A mask row of the lanes of ``a`` that hold ``value``."""
        x = a ^ self.fill(value)  # 0 exactly in the lanes that hold it
        t = ((x | self.guard) - self.ones) & self.guard  # guard kept where x >= 1
        t ^= self.guard
        return t - (t >> (self.width - 1))

    @staticmethod
    def select(mask: int, a: int, b: int) -> int:
        """``a`` in the lanes of ``mask``, ``b`` elsewhere."""
        return b ^ ((a ^ b) & mask)

    def minimum(self, a: int, b: int) -> int:
        """Lane by lane the smaller of ``a`` and ``b`` (``a`` on a tie)."""
        return self.select(self.less(b, a), b, a)
