"""The ``gpio`` backend: gpiozero devices on the Raspberry Pi's own pins.

* buttons (trigger, roll, select, confirm): :class:`gpiozero.Button` with the
  Pi's pull-ups (``pull_up=True``; a press pulls the pin to ground), the
  configured ``bounce_time`` and ``hold_time``. Their ``when_pressed``,
  ``when_held`` and ``when_released`` callbacks only put an
  :class:`~companion.hal.events.InputEvent` on the input queue;
* the solenoid MOSFET gate: :class:`gpiozero.DigitalOutputDevice` with
  ``initial_value=False``, created first and only ever switched by the
  :class:`~companion.hal.safety.SolenoidGuard`;
* status LEDs: one :class:`gpiozero.LEDBoard` (turn colours, then die faces);
* arena display: in memory (:class:`~companion.hal.display.MemoryArenaDisplay`)
  until the LED matrix has its I/O board; no position sensor.

The pin factory is gpiozero's own choice: ``Device.pin_factory`` if set,
otherwise the ``GPIOZERO_PIN_FACTORY`` environment variable, otherwise its
defaults (``GPIOZERO_PIN_FACTORY=mock`` runs this backend on a laptop).
gpiozero is imported only by this module, which :mod:`companion.hal` imports
lazily.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from gpiozero import Button, DigitalOutputDevice, LEDBoard

from companion.hal.config import HardwareConfig
from companion.hal.contracts import DIE_FACES
from companion.hal.display import MemoryArenaDisplay
from companion.hal.events import InputHub
from companion.hal.hardware import Hardware
from companion.hal.leds import StatusLedsBase
from companion.hal.safety import SolenoidGuard

__all__ = ["GpioButtons", "GpioStatusLeds", "GpioTrigger", "open_gpio"]

log = logging.getLogger(__name__)


class GpioTrigger:
    """The red button on a :class:`gpiozero.Button`."""

    def __init__(self, button: Button) -> None:
        self.device = button

    @property
    def is_pressed(self) -> bool:
        """:data:`True` while the red button is held down."""
        return bool(self.device.is_pressed)


class GpioButtons:
    """roll / select / confirm on :class:`gpiozero.Button` devices."""

    def __init__(self, devices: dict[str, Button]) -> None:
        self.devices = devices

    @property
    def names(self) -> tuple[str, ...]:
        """The button names."""
        return tuple(self.devices)

    def is_pressed(self, name: str) -> bool:
        """:data:`True` while button *name* is held down."""
        return bool(self.devices[name].is_pressed)


class GpioStatusLeds(StatusLedsBase):
    """Status LEDs on one :class:`gpiozero.LEDBoard`: the colours, then the faces."""

    def __init__(self, board: LEDBoard, colours: tuple[str, ...], faces: tuple[str, ...]) -> None:
        super().__init__(colours, faces)
        self.board = board
        self._index = {name: i for i, name in enumerate(self.names)}

    def _set(self, name: str, on: bool) -> None:
        led = self.board[self._index[name]]
        if on:
            led.on()
        else:
            led.off()

    def _get(self, name: str) -> bool:
        return bool(self.board[self._index[name]].value)


def open_gpio(
    config: HardwareConfig | None = None,
    *,
    unsafe_cooldown_override_s: float | None = None,
) -> Hardware:
    """
    Open the table on the Pi's GPIO pins for *config* (its ``profile`` is not checked).

    :param unsafe_cooldown_override_s:
        Benchmarks only: replaces the configured cool-down, bypassing its floor.

    If any device cannot be opened, those already opened are closed (the
    solenoid gate switched off first) and the error is raised.
    """
    config = HardwareConfig() if config is None else config
    pins = config.pins
    opened: list[Any] = []

    def close_all() -> None:
        # Each Button's hold thread takes up to 0.1 s to notice it should stop;
        # tell them all first so closing four buttons costs 0.1 s, not 0.4 s.
        for device in opened:
            hold_thread = getattr(device, "_hold_thread", None)
            if hold_thread is not None:
                hold_thread.stopping.set()
        for device in reversed(opened):  # the solenoid, opened first, closes last
            try:
                if isinstance(device, DigitalOutputDevice):
                    device.off()
                device.close()
            except Exception:
                log.exception("error closing %r", device)

    try:
        solenoid = DigitalOutputDevice(pins.solenoid, active_high=True, initial_value=False)
        opened.append(solenoid)
        clock: Callable[[], float] = time.monotonic
        inputs = InputHub(clock)
        bounce = config.bounce_s if config.bounce_ms > 0 else None
        buttons: dict[str, Button] = {}
        for name, pin in (("trigger", pins.trigger), *pins.buttons.items()):
            button = Button(pin, pull_up=True, bounce_time=bounce, hold_time=config.hold_s)
            opened.append(button)
            button.when_pressed = inputs.callback("press", name)
            button.when_held = inputs.callback("long_press", name)
            button.when_released = inputs.callback("release", name)
            buttons[name] = button
        colours = tuple(pins.turn)
        board = LEDBoard(
            *pins.turn.values(),
            *(pins.die[face] for face in DIE_FACES),
            pwm=False,
            initial_value=False,
        )
        opened.append(board)
        cooldown = (
            config.cooldown_s if unsafe_cooldown_override_s is None else unsafe_cooldown_override_s
        )
        guard = SolenoidGuard(
            solenoid,
            inputs=inputs,
            pulse_ms=config.pulse_ms,
            cooldown_s=cooldown,
            clock=clock,
            sleep=time.sleep,
        )
        return Hardware(
            profile="gpio",
            config=config,
            inputs=inputs,
            trigger=GpioTrigger(buttons.pop("trigger")),
            buttons=GpioButtons(buttons),
            eliminator=guard,
            status_leds=GpioStatusLeds(board, colours, DIE_FACES),
            display=MemoryArenaDisplay(clock=clock),
            closers=[close_all],
        )
    except BaseException:
        close_all()
        raise
