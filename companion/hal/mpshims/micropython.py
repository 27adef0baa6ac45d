"""CPython stand-in for MicroPython's ``micropython`` module."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def const(value: Any) -> Any:
    return value


def kbd_intr(char: int) -> None:
    return None


def schedule(func: Callable[[Any], Any], arg: Any) -> None:
    func(arg)


def alloc_emergency_exception_buf(size: int) -> None:
    return None
