"""The ``gpio`` backend: gpiozero devices on the Raspberry Pi's own pins.

* buttons (trigger, roll, select, confirm): :class:`gpiozero.DigitalInputDevice`
  (what gpiozero's ``Button`` is built on, without its hold thread: long presses
  are the debouncer's, and a ``Button`` wakes its hold thread on every press, a
  Python thread that then competes with the button thread for the interpreter
  during the glitch window) with the Pi's pull-ups (``pull_up=True``; a press
  pulls the pin to ground) and no ``bounce_time``: their ``when_activated`` /
  ``when_deactivated`` callbacks only hand the raw edge to a
  :class:`~companion.hal.debounce.FirstEdgeDebouncer`,
  which counts a press at its first edge (after the ``glitch_ms`` filter), once
  per press, and sends press / long press / release events to the input queue
  from its own thread. gpiozero's ``bounce_time`` is not used because on the
  ``lgpio`` factory it is a trailing debounce that delays every press by the
  whole bounce time (``docs/hardware.md``);
* the edge path: a trigger press goes through
  :meth:`~companion.hal.safety.SolenoidGuard.trigger_edge`, so while an
  explosion is armed the coil switches on from that thread, without waiting
  for the table loop's thread. The button thread asks for real-time
  scheduling (``SCHED_FIFO``, :data:`~companion.hal.realtime.BUTTON_THREAD_PRIORITY`;
  granted to root or under the service unit's ``LimitRTPRIO=``), so busy
  processes do not delay the end of a glitch window; while the backend is open the
  interpreter's switch interval is at most :data:`SWITCH_INTERVAL_S`, so that
  short bursts of CPU work in other threads of the process hold the button thread
  up for about that. Long computations belong in a worker process
  (:mod:`companion.worker`): a thread busy with one holds the GIL whenever the
  system preempts it, and then nothing shortens the button thread's wait;
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
import sys
import time
from collections.abc import Callable
from typing import Any

from gpiozero import DigitalInputDevice, DigitalOutputDevice, LEDBoard

from companion.hal.config import HardwareConfig
from companion.hal.contracts import DIE_FACES
from companion.hal.debounce import FirstEdgeDebouncer
from companion.hal.display import MemoryArenaDisplay
from companion.hal.events import InputHub, InputKind
from companion.hal.hardware import Hardware
from companion.hal.leds import StatusLedsBase
from companion.hal.realtime import BUTTON_THREAD_PRIORITY, SWITCH_INTERVAL_S
from companion.hal.safety import SolenoidGuard

__all__ = ["SWITCH_INTERVAL_S", "GpioButtons", "GpioStatusLeds", "GpioTrigger", "open_gpio"]

log = logging.getLogger(__name__)


class GpioTrigger:
    """The red button on a :class:`gpiozero.DigitalInputDevice`; *debouncer* decides its
    presses."""

    def __init__(self, button: DigitalInputDevice, debouncer: FirstEdgeDebouncer) -> None:
        self.device = button
        self.debouncer = debouncer

    @property
    def is_pressed(self) -> bool:
        """:data:`True` while the red button is held down."""
        return bool(self.device.is_active)


class GpioButtons:
    """roll / select / confirm on :class:`gpiozero.DigitalInputDevice` devices."""

    def __init__(
        self, devices: dict[str, DigitalInputDevice], debouncer: FirstEdgeDebouncer
    ) -> None:
        self.devices = devices
        self.debouncer = debouncer

    @property
    def names(self) -> tuple[str, ...]:
        """The button names."""
        return tuple(self.devices)

    def is_pressed(self, name: str) -> bool:
        """:data:`True` while button *name* is held down."""
        return bool(self.devices[name].is_active)


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
    clock: Callable[[], float] | None = None,
    unsafe_cooldown_override_s: float | None = None,
) -> Hardware:
    """
    Open the table on the Pi's GPIO pins for *config* (its ``profile`` is not checked).

    :param clock:
        Monotonic seconds at real speed (the pins, the button thread and the pulse's sleep
        run in real time); defaults to :func:`time.monotonic`. Tests on mock pins pass one
        they can move forward, e.g. past the cool-down the guard counts from its start.
    :param unsafe_cooldown_override_s:
        Benchmarks only: replaces the configured cool-down, bypassing its floor.

    If any device cannot be opened, those already opened are closed (the
    solenoid gate switched off first) and the error is raised.
    """
    config = HardwareConfig() if config is None else config
    pins = config.pins
    opened: list[Any] = []
    debouncer: FirstEdgeDebouncer | None = None
    switch_interval = sys.getswitchinterval()

    def close_all() -> None:
        if debouncer is not None:
            debouncer.close()  # no more decisions: nothing is emitted or fired from now on
        for device in reversed(opened):  # the solenoid, opened first, closes last
            try:
                if isinstance(device, DigitalOutputDevice):
                    device.off()
                device.close()
            except Exception:
                log.exception("error closing %r", device)
        sys.setswitchinterval(switch_interval)

    try:
        solenoid = DigitalOutputDevice(pins.solenoid, active_high=True, initial_value=False)
        opened.append(solenoid)
        clock = time.monotonic if clock is None else clock
        inputs = InputHub(clock)
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
        buttons: dict[str, DigitalInputDevice] = {}
        for name, pin in (("trigger", pins.trigger), *pins.buttons.items()):
            button = DigitalInputDevice(pin, pull_up=True, bounce_time=None)
            opened.append(button)
            buttons[name] = button

        def emit(kind: InputKind, name: str) -> None:
            if name == "trigger" and kind == "press":
                guard.trigger_edge()  # fires here and now if an explosion is armed
            else:
                inputs.emit(kind, name)

        debouncer = FirstEdgeDebouncer(
            buttons,
            read=lambda name: bool(buttons[name].is_active),
            emit=emit,
            glitch_s=config.glitch_s,
            release_s=config.bounce_s,
            hold_s=config.hold_s,
            clock=clock,
            realtime_priority=BUTTON_THREAD_PRIORITY,
        )
        scheduling = debouncer.scheduling or "no thread"
        if scheduling.startswith("SCHED_OTHER"):
            log.info(
                "button thread: %s; the red button is slower under load "
                "(allow real-time priority: LimitRTPRIO=%d, docs/pi-service.md)",
                scheduling,
                BUTTON_THREAD_PRIORITY,
            )
        else:
            log.info("button thread: %s", scheduling)
        for name, button in buttons.items():
            button.when_activated, button.when_deactivated = debouncer.callbacks(name)
        colours = tuple(pins.turn)
        board = LEDBoard(
            *pins.turn.values(),
            *(pins.die[face] for face in DIE_FACES),
            pwm=False,
            initial_value=False,
        )
        opened.append(board)
        sys.setswitchinterval(min(switch_interval, SWITCH_INTERVAL_S))
        return Hardware(
            profile="gpio",
            config=config,
            inputs=inputs,
            trigger=GpioTrigger(buttons["trigger"], debouncer),
            buttons=GpioButtons({k: v for k, v in buttons.items() if k != "trigger"}, debouncer),
            eliminator=guard,
            status_leds=GpioStatusLeds(board, colours, DIE_FACES),
            display=MemoryArenaDisplay(clock=clock),
            closers=[close_all],
        )
    except BaseException:
        close_all()
        raise
