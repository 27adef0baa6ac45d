"""Helpers for the serial backend tests (a unique module name, not conftest)."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.append(str(REPO))

from companion.hal import HardwareConfig  # noqa: E402
from companion.hal.serial_board import (  # noqa: E402
    LinkSettings,
    SerialHardware,
    open_virtual_board_hardware,
)
from companion.hal.virtual_board import LinkFaults, VirtualBoard  # noqa: E402, F401

VECTORS = json.loads((REPO / "firmware" / "protocol_vectors.json").read_text(encoding="utf-8"))


def subprocess_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def wait_until(predicate: Callable[[], Any], timeout: float = 3.0, step: float = 0.005) -> Any:
    """Poll *predicate* until it is truthy (returned) or *timeout* passes (AssertionError)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {predicate}")
        time.sleep(step)


@contextmanager
def virtual_hw(
    config: HardwareConfig | None = None,
    *,
    cooldown_s: float | None = 0.05,
    settings: LinkSettings | None = None,
    **board: Any,
) -> Iterator[SerialHardware]:
    """The serial backend on a virtual board (fast cool-down unless told otherwise)."""
    config = config or HardwareConfig(profile="virtual-board", hold_s=0.3)
    hw = open_virtual_board_hardware(
        config, unsafe_cooldown_override_s=cooldown_s, settings=settings, **board
    )
    try:
        yield hw
    finally:
        hw.close()


def next_event(hw: SerialHardware, kind: str, button: str, timeout: float = 2.0) -> Any:
    deadline = time.monotonic() + timeout
    while (remaining := deadline - time.monotonic()) > 0:
        event = hw.next_input(remaining)
        if event is not None and event.kind == kind and event.button == button:
            return event
    raise AssertionError(f"no {kind} of {button} within {timeout} s")


class RecordingView:
    """A TableView that keeps what the table said."""

    def __init__(self) -> None:
        self.messages: list[str] = []
        self.prompts: list[str] = []

    def update(self, state: Any, events: Any) -> None:
        pass

    def message(self, text: str) -> None:
        self.messages.append(text)

    def prompt(self, text: str, options: Any = ()) -> None:
        self.prompts.append(text)
