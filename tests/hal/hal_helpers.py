"""Helpers shared by the hardware-layer tests (a unique module name, not conftest)."""

from __future__ import annotations

import os
from pathlib import Path

from gpiozero.pins.mock import MockPin

REPO = Path(__file__).resolve().parents[2]


def subprocess_env(**extra: str) -> dict[str, str]:
    """The environment for a child Python that imports companion from this checkout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.update(extra)
    return env


def high_periods(pin: MockPin) -> list[float]:
    """Lengths in seconds of every completed high period in a mock pin's history.

    ``MockPin.states`` holds (seconds since the previous change, new state).
    """
    periods = []
    for previous, current in zip(pin.states, pin.states[1:], strict=False):
        if previous.state and not current.state:
            periods.append(current.timestamp)
    return periods


def ever_high(pin: MockPin) -> bool:
    return any(s.state for s in pin.states)
