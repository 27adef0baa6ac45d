"""The :class:`Hardware` bundle: one object per role plus the single input queue."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from types import TracebackType
from typing import TYPE_CHECKING, Any

from companion.hal.config import HardwareConfig
from companion.hal.contracts import ArenaDisplay, Buttons, StatusLeds, Trigger
from companion.hal.events import InputEvent, InputHub
from companion.hal.safety import SolenoidGuard, StopHandlers, install_stop_handlers

if TYPE_CHECKING:
    from companion.hal.sim import SimControls

__all__ = ["Hardware"]

log = logging.getLogger(__name__)


class Hardware:
    """
    A table's hardware: the role objects, and every input on one queue.

    Built by :func:`companion.hal.open_hardware` (or a backend's ``open_*``).
    Use it as a context manager: on the way out, normally or by any exception
    (including those the stop signals raise inside the block), every output is
    switched off and the devices are closed. Entering the block on the main
    thread installs handlers for SIGINT, SIGTERM and SIGHUP (each only where
    Python's default handler is still in place): the solenoid is switched off
    inside the handler, then SIGINT raises :exc:`KeyboardInterrupt` and
    SIGTERM / SIGHUP raise :exc:`SystemExit` (143 / 129), so the command stops
    the way it stops on Ctrl-C or ``systemctl stop`` and leaving the block
    switches the LEDs and the display off. Leaving restores the handlers; see
    :func:`companion.hal.safety.install_stop_handlers`.

    .. attribute:: trigger
        The red button (:class:`~companion.hal.contracts.Trigger`).
    .. attribute:: buttons
        roll / select / confirm (:class:`~companion.hal.contracts.Buttons`).
    .. attribute:: eliminator
        The guarded solenoid (:class:`~companion.hal.safety.SolenoidGuard`).
    .. attribute:: status_leds
        Turn and die LEDs (:class:`~companion.hal.contracts.StatusLeds`).
    .. attribute:: display
        The arena display (:class:`~companion.hal.contracts.ArenaDisplay`).
    .. attribute:: sim
        Injection and inspection controls on the ``sim`` profile, else None.
    """

    def __init__(
        self,
        *,
        profile: str,
        config: HardwareConfig,
        inputs: InputHub,
        trigger: Trigger,
        buttons: Buttons,
        eliminator: SolenoidGuard,
        status_leds: StatusLeds,
        display: ArenaDisplay,
        closers: Iterable[Callable[[], Any]] = (),
        sim: SimControls | None = None,
    ) -> None:
        if not isinstance(eliminator, SolenoidGuard):
            raise TypeError("the eliminator must be a SolenoidGuard: the coil is never unguarded")
        self.profile = profile
        self.config = config
        self.trigger = trigger
        self.buttons = buttons
        self.eliminator = eliminator
        self.status_leds = status_leds
        self.display = display
        self.sim = sim
        self._inputs = inputs
        self._closers = list(closers)
        self._closed = False
        self._close_lock = threading.Lock()
        self._stop_handlers: StopHandlers | None = None
        eliminator.on_fault = self._driver_fault
        self.all_off()

    @property
    def inputs(self) -> InputHub:
        """The input queue (for backends and tests; the table uses :meth:`next_input`)."""
        return self._inputs

    @property
    def closed(self) -> bool:
        """:data:`True` once :meth:`close` has run."""
        return self._closed

    @property
    def clock(self) -> Callable[[], float]:
        """The monotonic clock that stamps events and times pulses."""
        return self._inputs.clock

    def next_input(self, timeout: float | None = None) -> InputEvent | None:
        """
        Return the next input event, oldest first, or :data:`None` after *timeout*
        seconds with none (``None`` waits for ever, ``0`` does not wait).

        A stop signal that arrived while the main thread ran code whose exceptions CPython
        drops (see :class:`~companion.hal.safety.StopHandlers`) is raised here, on the main
        thread: the table waits here for every prompt, so a ``systemctl stop`` is never lost.
        """
        self.raise_if_stopped()
        return self._inputs.get(timeout)

    def raise_if_stopped(self) -> None:
        """
        Raise a stop signal's stop again if CPython dropped it (see
        :class:`~companion.hal.safety.StopHandlers`) and the program still runs; on the main
        thread only. :meth:`next_input` calls it at every poll; other waits of the table
        call it too (the journal's wait for space on a full disk), so they end on a stop.
        """
        if self._stop_handlers is not None:
            self._stop_handlers.raise_if_stopped()

    def drain_inputs(self) -> list[InputEvent]:
        """Remove and return every queued input event without waiting."""
        return self._inputs.drain()

    def all_off(self) -> None:
        """Switch every output off: solenoid first, then status LEDs and display.

        Each step runs even if an earlier one fails; failures are logged.
        """
        steps: tuple[tuple[str, Callable[[], None]], ...] = (
            ("solenoid", self.eliminator.off),
            ("status LEDs", self.status_leds.off),
            ("arena display", self.display.clear),
        )
        for what, step in steps:
            try:
                step()
            except Exception:
                log.exception("could not switch the %s off", what)

    def _driver_fault(self, message: str) -> None:
        log.error("driver fault, switching every output off: %s", message)
        self.all_off()

    def close(self) -> None:
        """Switch everything off and release the devices (idempotent)."""
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        try:
            self.eliminator.close()
            self.all_off()
        finally:
            for closer in self._closers:
                try:
                    closer()
                except Exception:
                    log.exception("error while closing hardware")

    def __enter__(self) -> Hardware:
        if threading.current_thread() is threading.main_thread():
            # while close() runs, a second signal only switches the coil off again
            self._stop_handlers = install_stop_handlers(
                self.eliminator.stop, quiet=lambda: self._closed
            )
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            self.close()
        finally:
            if self._stop_handlers is not None:
                self._stop_handlers.restore()

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open"
        return f"<Hardware profile={self.profile!r} {state}>"
