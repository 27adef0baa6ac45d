"""CPython stand-in for MicroPython's ``neopixel`` module.

``write()`` hands a snapshot of the pixels to the chip's ``on_neopixel``
callback (the virtual board records frames from it).
"""

from __future__ import annotations

from typing import Any

import machine


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin: Any, n: int, bpp: int = 3, timing: int = 1) -> None:
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.timing = timing
        self.buf = [(0,) * bpp for _ in range(n)]
        self.writes = 0
        self._chip = machine.current_chip()
        self._chip.neopixels[pin.id] = self

    def __len__(self) -> int:
        return self.n

    def __setitem__(self, index: int, value: tuple[int, ...]) -> None:
        if len(value) != self.bpp or not all(0 <= v <= 255 for v in value):
            raise ValueError(f"pixel value {value!r}")
        self.buf[index] = tuple(value)

    def __getitem__(self, index: int) -> tuple[int, ...]:
        return self.buf[index]

    def fill(self, value: tuple[int, ...]) -> None:
        for i in range(self.n):
            self[i] = value

    def write(self) -> None:
        self.writes += 1
        listener = getattr(self._chip, "on_neopixel", None)
        if listener is not None:
            listener(self.pin.id, tuple(self.buf))
