"""A real-speed clock a test can move forward (tests/hal and tests/table use it; a unique
module name, not conftest)."""

from __future__ import annotations

import time
from typing import Any

from companion.hal import Hardware, HardwareConfig, ManualClock, open_hardware


class AheadClock:
    """:func:`time.monotonic` plus the seconds a test added with :meth:`advance`.

    For the gpio backend on mock pins, whose pins, button thread and pulse run in real time:
    a test moves it past the cool-down the solenoid guard counts from its start instead of
    waiting that out (or disabling the cool-down).
    """

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.ahead

    def advance(self, seconds: float) -> None:
        """Move the clock *seconds* (>= 0) forward at once."""
        if seconds < 0:
            raise ValueError("a monotonic clock cannot go back")
        self.ahead += seconds


def open_ready(
    config: HardwareConfig, clock: AheadClock | ManualClock | None = None, **kwargs: Any
) -> Hardware:
    """:func:`~companion.hal.open_hardware` (sim or gpio) on *clock* (a new
    :class:`AheadClock` if None), then that clock moved past the cool-down the solenoid
    guard counts from its start: for tests of what happens after the hardware has been
    open that long. Use it as ``with open_ready(config) as hw:``."""
    clock = AheadClock() if clock is None else clock
    hw = open_hardware(config, clock=clock, **kwargs)
    clock.advance(hw.eliminator.cooldown_left_s)
    return hw
