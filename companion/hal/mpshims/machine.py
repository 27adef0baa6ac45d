"""CPython stand-in for MicroPython's ``machine`` module (the RP2040 parts the firmware uses).

Only the virtual board and the firmware tests put this directory on ``sys.path``.

Several virtual boards can live in one process: every ``Pin``, ``WDT`` and
``Timer`` belongs to the :class:`Chip` that was current when it was made: the
chip bound to the calling thread (:meth:`Chip.bind`, what a virtual board's
firmware thread does first), else the one selected with
``with machine.Chip(...).selected(): ...``. A chip lets its owner drive input
levels (:meth:`Chip.drive`, or a timed waveform with :meth:`Chip.drive_at`), read
output levels and their history, and hears of every change through ``on_change``.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

PWRON_RESET = 1
HISTORY_LIMIT = 2000  # output changes kept per pin
WDT_RESET = 3
SOFT_RESET = 5  # not an rp2 constant; what the shim reports for a soft reset


class ResetRequested(BaseException):
    """Raised by :func:`reset`: the virtual board restarts the firmware."""


class _PinState:
    def __init__(self, chip: Chip, pin_id: Any) -> None:
        self.chip = chip
        self.id = pin_id
        self.mode = Pin.IN
        self.pull = None
        self.out = 0
        self.external: int | None = None  # level driven from outside (inputs)
        # the recent output changes (monotonic s, level): bounded, a board runs for months
        self.history: deque[tuple[float, int]] = deque(maxlen=HISTORY_LIMIT)
        self.irqs: list[tuple[int, Callable[[Any], None], Pin]] = []
        self.script: deque[tuple[float, int | None]] = deque()  # (monotonic s, level) to come

    def read(self) -> int:
        """The level now, after the scripted edges whose time has come (:meth:`Chip.drive_at`)."""
        if self.script:
            self.chip.apply_script(self.id, time.monotonic())
        return self.level()

    def level(self) -> int:
        if self.mode == Pin.OUT:
            return self.out
        if self.external is not None:
            return self.external
        return 1 if self.pull == Pin.PULL_UP else 0


class Chip:
    """One simulated RP2040: its pins, watchdog and timers."""

    def __init__(
        self, unique_id: bytes = b"\xe6\x60\x38\xb7\x13\x5a\x2b\x2f", reset_cause: int = PWRON_RESET
    ) -> None:
        self.unique_id = bytes(unique_id)
        self.reset_cause = reset_cause
        self.pins: dict[Any, _PinState] = {}
        self.lock = threading.RLock()
        self.on_change: Callable[[Any, int], None] | None = None  # output changed
        self.wdt_timeout_ms: int | None = None
        self.wdt_feeds = 0
        self.wdt_last_feed = 0.0
        self.timers: list[Timer] = []
        self.neopixels: dict[Any, Any] = {}

    def state(self, pin_id: Any) -> _PinState:
        with self.lock:
            if pin_id not in self.pins:
                self.pins[pin_id] = _PinState(self, pin_id)
            return self.pins[pin_id]

    def drive(self, pin_id: Any, level: int | None) -> None:
        """Drive input *pin_id* to *level* (None: let it float to its pull), after any
        scripted edges still to come on it."""
        self.apply_script(pin_id, None)
        self._drive(pin_id, level)

    def drive_at(self, pin_id: Any, edges: Iterable[tuple[float, int | None]]) -> None:
        """Script a waveform on input *pin_id*: ``(time.monotonic() time, level)`` pairs in
        order. Each edge takes effect at its time as the firmware sees it: a read of the pin
        (the firmware's sampling) applies every edge whose time has come, with its IRQs, so
        the waveform the firmware samples does not depend on when the thread that scripted
        it runs (a contact's bounce stays a bounce however busy the machine is)."""
        st = self.state(pin_id)
        with self.lock:
            st.script.extend(edges)
        self.apply_script(pin_id, time.monotonic())

    def apply_script(self, pin_id: Any, now: float | None) -> None:
        """Apply *pin_id*'s scripted edges due by *now* (None: all of them), in order."""
        st = self.state(pin_id)
        while True:
            with self.lock:
                if not st.script or (now is not None and st.script[0][0] > now):
                    return
                _, level = st.script.popleft()
            self._drive(pin_id, level)

    def _drive(self, pin_id: Any, level: int | None) -> None:
        st = self.state(pin_id)
        before = st.level()
        st.external = level
        after = st.level()
        if before != after:
            for trigger, handler, pin in list(st.irqs):
                if (after == 0 and trigger & Pin.IRQ_FALLING) or (
                    after == 1 and trigger & Pin.IRQ_RISING
                ):
                    handler(pin)

    def level(self, pin_id: Any) -> int:
        return self.state(pin_id).read()

    def scripted(self, pin_id: Any) -> bool:
        """Whether edges scripted on *pin_id* are still to come."""
        with self.lock:
            return bool(self.state(pin_id).script)

    def history(self, pin_id: Any) -> list[tuple[float, int]]:
        with self.lock:
            return list(self.state(pin_id).history)

    def stop_timers(self) -> None:
        for timer in list(self.timers):
            timer.deinit()

    @contextmanager
    def selected(self) -> Iterator[Chip]:
        """Within the block, this thread's new Pins, WDTs and Timers belong to this chip."""
        previous = getattr(_local, "chip", None)
        _local.chip = self
        try:
            yield self
        finally:
            _local.chip = previous

    def bind(self) -> None:
        """From now on, the calling thread's new Pins, WDTs and Timers belong to this chip."""
        _local.chip = self


_local = threading.local()
_default = Chip()


def current_chip() -> Chip:
    """The chip of the calling thread (a default chip if none is bound or selected)."""
    return getattr(_local, "chip", None) or _default


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(
        self, pin_id: Any, mode: int = -1, pull: int | None = -1, *, value: int | None = None
    ) -> None:
        self._st = current_chip().state(pin_id)
        self.init(mode, pull, value=value)

    def init(self, mode: int = -1, pull: int | None = -1, *, value: int | None = None) -> None:
        if value is not None:
            self._set(value)
        if mode != -1:
            self._st.mode = mode
        if pull != -1:
            self._st.pull = pull

    def _set(self, level: Any) -> None:
        st = self._st
        level = 1 if level else 0
        with st.chip.lock:
            changed = level != st.out
            st.out = level
            if changed and st.mode == Pin.OUT:
                st.history.append((time.monotonic(), level))
        if changed and st.mode == Pin.OUT and st.chip.on_change is not None:
            st.chip.on_change(st.id, level)

    def value(self, level: Any = None) -> int | None:
        if level is None:
            return self._st.read()
        if self._st.mode != Pin.OUT:
            self._st.out = 1 if level else 0  # kept for when it becomes an output
            return None
        self._set(level)
        return None

    __call__ = value

    def on(self) -> None:
        self.value(1)

    def off(self) -> None:
        self.value(0)

    def irq(
        self, handler: Callable[[Any], None] | None = None, trigger: int = IRQ_FALLING | IRQ_RISING
    ) -> None:
        self._st.irqs = [] if handler is None else [(trigger, handler, self)]

    @property
    def id(self) -> Any:
        return self._st.id


class WDT:
    def __init__(self, id: int = 0, timeout: int = 5000) -> None:  # noqa: A002
        self._chip = current_chip()
        self._chip.wdt_timeout_ms = timeout
        self.feed()

    def feed(self) -> None:
        self._chip.wdt_feeds += 1
        self._chip.wdt_last_feed = time.monotonic()


class Timer:
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id: int = -1, **kwargs: Any) -> None:  # noqa: A002
        self._chip = current_chip()
        self._thread: threading.Timer | None = None
        self._stop = threading.Event()
        if kwargs:
            self.init(**kwargs)

    def init(
        self,
        *,
        mode: int = PERIODIC,
        period: int = -1,
        freq: float | None = None,
        callback: Callable[[Timer], None] | None = None,
    ) -> None:
        self.deinit()
        if freq is not None:
            period = int(1000 / freq)
        self._stop = threading.Event()
        stop = self._stop
        # periods count from now, as on the chip, not from when the thread gets to run
        due = time.monotonic() + period / 1000

        def run() -> None:
            nonlocal due
            while not stop.wait(max(0.0, due - time.monotonic())):
                if callback is not None:
                    callback(self)
                if mode == Timer.ONE_SHOT:
                    break
                due += period / 1000
            if self in self._chip.timers:
                self._chip.timers.remove(self)

        self._chip.timers.append(self)
        self._thread = threading.Thread(target=run, name="mpshim-timer", daemon=True)
        self._thread.start()

    def deinit(self) -> None:
        self._stop.set()
        if self in self._chip.timers:
            self._chip.timers.remove(self)


def unique_id() -> bytes:
    return current_chip().unique_id


def reset_cause() -> int:
    return current_chip().reset_cause


def reset() -> None:
    raise ResetRequested("machine.reset()")


def soft_reset() -> None:
    raise ResetRequested("machine.soft_reset()")


def freq(hz: int | None = None) -> int | None:
    return 125_000_000 if hz is None else None


def idle() -> None:
    time.sleep(0)


def disable_irq() -> int:
    return 0


def enable_irq(state: int = 0) -> None:
    return None
