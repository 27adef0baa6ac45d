"""CPython stand-in for MicroPython's ``time``/``utime`` tick functions.

Ticks wrap like the RP2040's (period 2**30), so firmware code that forgets
``ticks_diff`` breaks here too.
"""

from __future__ import annotations

import time as _time

_PERIOD = 1 << 30
_HALF = _PERIOD // 2
#: Start 30 s before the wrap point, so that a long test run crosses it as a
#: long-running board does (every 12.4 days): code that forgets ticks_diff fails.
_OFFSET_MS = _PERIOD - 30_000 - int(_time.monotonic() * 1000) % _PERIOD


def ticks_ms() -> int:
    return (int(_time.monotonic() * 1000) + _OFFSET_MS) % _PERIOD


def ticks_us() -> int:
    return (int(_time.monotonic() * 1_000_000) + _OFFSET_MS * 1000) % _PERIOD


def ticks_add(ticks: int, delta: int) -> int:
    return (ticks + delta) % _PERIOD


def ticks_diff(a: int, b: int) -> int:
    return ((a - b + _HALF) % _PERIOD) - _HALF


def sleep_ms(ms: int) -> None:
    _time.sleep(ms / 1000)


def sleep_us(us: int) -> None:
    _time.sleep(us / 1_000_000)


sleep = _time.sleep
time = _time.time
time_ns = _time.time_ns
