"""Hardware abstraction for the table: role contracts, backends and solenoid safety.

The table loop opens the hardware from the ``[hardware]`` configuration and
uses it as a context manager, so every output is off again however the block
ends::

    from companion.hal import load_hardware_config, open_hardware

    config = load_hardware_config(toml_document.get("hardware"))
    with open_hardware(config) as hw:
        hw.status_leds.show_turn("purple")
        hw.eliminator.arm("explosion-7")            # the rules engine armed one
        while True:
            event = hw.next_input(timeout=0.5)
            if event is not None and event.is_trigger_press:
                result = hw.eliminator.fire(event)  # FireResult: falsy, with a .reason
                ...

Importing this package imports neither gpiozero nor pyserial: the ``gpio``
and ``serial`` backends are loaded only when such a profile is opened, and the
``sim`` backend (with :class:`ManualClock`) when it is opened or first named, so
that a table on real hardware never loads it. Nothing here knows about games.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.hal.config import (
    HardwareConfig,
    HardwareConfigError,
    PinMap,
    load_hardware_config,
    load_hardware_config_file,
)
from companion.hal.contracts import (
    ARENA_SIZE,
    DEFAULT_TURN_COLOURS,
    DIE_FACES,
    ArenaDisplay,
    Buttons,
    Cell,
    CellState,
    Eliminator,
    FireRefused,
    FireResult,
    Frame,
    Pulse,
    Refusal,
    StatusLeds,
    Trigger,
)
from companion.hal.display import blank_frame, make_frame
from companion.hal.events import BUTTON_NAMES, GestureTracker, InputEvent, InputHub
from companion.hal.hardware import Hardware
from companion.hal.safety import (
    PULSE_HARD_CAP_MS,
    SolenoidDriverError,
    SolenoidGuard,
    SpentToken,
    install_sigterm_handler,
    sigterm_raises_exit,
)

if TYPE_CHECKING:
    from companion.hal.sim import ManualClock, open_sim

__all__ = [
    "ARENA_SIZE",
    "BUTTON_NAMES",
    "DEFAULT_TURN_COLOURS",
    "DIE_FACES",
    "PULSE_HARD_CAP_MS",
    "ArenaDisplay",
    "Buttons",
    "Cell",
    "CellState",
    "Eliminator",
    "FireRefused",
    "FireResult",
    "Frame",
    "GestureTracker",
    "Hardware",
    "HardwareConfig",
    "HardwareConfigError",
    "InputEvent",
    "InputHub",
    "ManualClock",
    "PinMap",
    "Pulse",
    "Refusal",
    "SolenoidDriverError",
    "SolenoidGuard",
    "SpentToken",
    "StatusLeds",
    "Trigger",
    "blank_frame",
    "install_sigterm_handler",
    "load_hardware_config",
    "load_hardware_config_file",
    "make_frame",
    "open_hardware",
    "open_sim",
    "sigterm_raises_exit",
]


def open_hardware(
    config: HardwareConfig | None = None,
    *,
    clock: Callable[[], float] | None = None,
    unsafe_cooldown_override_s: float | None = None,
) -> Hardware:
    """
    Open the backend that ``config.profile`` names and return its :class:`Hardware`.

    :param config: validated settings; defaults to ``HardwareConfig()`` (sim).
    :param clock: ``sim`` and ``gpio``: the clock to run on (``sim``: e.g. a
        :class:`ManualClock`; ``gpio``: one at real speed, since the pins and the pulse
        run in real time, that a test may move forward).

    ``serial`` opens the RP2040 I/O board (``config.serial_port``, else found by
    USB ids) and ``virtual-board`` starts the virtual board (the firmware on a
    pseudo-terminal) and opens it the same way; both return a
    :class:`companion.hal.serial_board.SerialHardware` with ``connected``,
    ``wait_connected(timeout)`` and ``link_status``.
    :param unsafe_cooldown_override_s:
        Benchmarks only: replaces the configured cool-down, bypassing the
        configuration's floor. Never use it on a table with people around it.
    """
    config = HardwareConfig() if config is None else config
    if config.profile == "sim":
        from companion.hal.sim import open_sim

        return open_sim(config, clock=clock, unsafe_cooldown_override_s=unsafe_cooldown_override_s)
    if config.profile == "gpio":
        sim = sys.modules.get("companion.hal.sim")  # no ManualClock exists unless loaded
        if sim is not None and isinstance(clock, sim.ManualClock):
            raise ValueError(
                "the gpio profile runs in real time (its pins, its button thread, the pulse): "
                "a ManualClock is for sim only"
            )
        from companion.hal.gpio import open_gpio  # lazy: keeps gpiozero out of plain imports

        return open_gpio(config, clock=clock, unsafe_cooldown_override_s=unsafe_cooldown_override_s)
    if config.profile in ("serial", "virtual-board"):
        if clock is not None:
            raise ValueError(
                f"the {config.profile} profile runs on the real clock; clock= is for sim and gpio"
            )
        from companion.hal import serial_board  # lazy: keeps pyserial out of plain imports

        if config.profile == "serial":
            return serial_board.open_serial(
                config, unsafe_cooldown_override_s=unsafe_cooldown_override_s
            )
        return serial_board.open_virtual_board_hardware(
            config, unsafe_cooldown_override_s=unsafe_cooldown_override_s
        )
    raise ValueError(f"unknown hardware profile {config.profile!r}")  # pragma: no cover


def __getattr__(name: str) -> object:
    """``ManualClock`` and ``open_sim``, from :mod:`companion.hal.sim` on first use (PEP
    562): a gpio or serial table's ``companion serve`` never loads the simulation."""
    if name in ("ManualClock", "open_sim"):
        from companion.hal import sim

        value = getattr(sim, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
