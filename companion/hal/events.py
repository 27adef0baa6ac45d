"""Input events and the single input queue every backend feeds.

All inputs of a table (red trigger, roll / select / confirm buttons) arrive as
small immutable :class:`InputEvent` objects on one thread-safe queue, owned by
an :class:`InputHub`. Backend callbacks (gpiozero runs them on its own threads)
do nothing but build an event and put it on the queue; whoever owns the table
loop takes them off with :meth:`InputHub.get` (exposed as
:meth:`companion.hal.Hardware.next_input`).

Events carry a sequence number and an origin mark only the issuing hub knows,
so the solenoid guard can tell a genuine trigger press from a hand-made event.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import field
from typing import Literal, get_args

from companion.records import Record

__all__ = [
    "BUTTON_NAMES",
    "INPUT_KINDS",
    "ButtonName",
    "Gesture",
    "GestureTracker",
    "InputEvent",
    "InputHub",
    "InputKind",
]

#: The kinds of input event. ``long_press`` is sent once when a button has
#: been held for the configured hold time; ``release`` follows every press.
InputKind = Literal["press", "long_press", "release"]

#: The buttons of a table: the red ``trigger`` plus the three control buttons.
ButtonName = Literal["trigger", "roll", "select", "confirm"]

INPUT_KINDS: tuple[str, ...] = get_args(InputKind)
BUTTON_NAMES: tuple[str, ...] = get_args(ButtonName)


class InputEvent(Record, eager=True):  # made on the fire path: compiled at import
    """
    One input from the table: *kind* happened to *button* at *t*.

    *t* is in seconds on the hardware's monotonic clock (the same clock the
    solenoid guard uses). *seq* increases by one for every event a hub issues,
    and events leave the queue in *seq* order (and so in *t* order), whichever
    threads queued them.
    """

    kind: InputKind
    button: ButtonName
    t: float
    seq: int = 0
    _origin: object = field(default=None, repr=False, compare=False)

    @property
    def is_trigger_press(self) -> bool:
        """:data:`True` for a press (not a release or long press) of the red trigger."""
        return self.kind == "press" and self.button == "trigger"


class InputHub:
    """
    The single, thread-safe input queue of one :class:`~companion.hal.Hardware`.

    :param clock:
        A callable returning monotonic seconds; it stamps every event.

    Backends call :meth:`emit` from any thread (this is all a gpiozero callback
    does); the table loop calls :meth:`get`.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._queue: queue.Queue[InputEvent] = queue.Queue()
        self._seq = itertools.count(1)
        self._last_seq = 0
        self._lock = threading.Lock()  # numbering and queueing happen together
        self._origin = object()

    @property
    def clock(self) -> Callable[[], float]:
        """The clock that stamps events."""
        return self._clock

    @property
    def last_seq(self) -> int:
        """The sequence number of the latest event issued (0 before the first)."""
        with self._lock:
            return self._last_seq

    def emit(self, kind: InputKind, button: ButtonName) -> InputEvent:
        """Stamp an event with the clock and a sequence number, queue it and return it."""
        with self._lock:
            self._last_seq = next(self._seq)
            event = InputEvent(kind, button, self._clock(), self._last_seq, self._origin)
            self._queue.put(event)
        return event

    def callback(self, kind: InputKind, button: ButtonName) -> Callable[[], None]:
        """Return a zero-argument callable that only emits (*kind*, *button*).

        This is what backends hand to gpiozero as ``when_pressed`` and friends.
        """

        def _enqueue() -> None:
            self.emit(kind, button)

        return _enqueue

    def get(self, timeout: float | None = None) -> InputEvent | None:
        """Return the next event, or :data:`None` if none arrived within *timeout*.

        *timeout* of :data:`None` waits for ever; ``0`` never waits.
        """
        try:
            if timeout is not None and timeout <= 0:
                return self._queue.get_nowait()
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def drain(self) -> list[InputEvent]:
        """Remove and return every queued event, oldest first, without waiting."""
        events: list[InputEvent] = []
        while (event := self.get(0)) is not None:
            events.append(event)
        return events

    def issued(self, event: InputEvent) -> bool:
        """:data:`True` if *event* was issued by this hub (not built by hand)."""
        return event._origin is self._origin


Gesture = Literal["short", "long"]


class GestureTracker:
    """
    Turn press / long_press / release events into short and long presses.

    Feed every event to :meth:`feed`: a ``long_press`` after a ``press`` of the
    same button is a long press (reported at once); a ``release`` with no
    ``long_press`` since the press is a short press. Events out of order (a
    ``long_press`` or ``release`` with no press before it, as can happen when
    gpiozero's hold thread races a release) are ignored.
    """

    def __init__(self) -> None:
        self._down: dict[str, bool] = {}  # button -> long press already reported

    def feed(self, event: InputEvent) -> Gesture | None:
        """Return ``"short"`` or ``"long"`` when *event* completes a gesture, else None."""
        if event.kind == "press":
            self._down[event.button] = False
            return None
        if event.button not in self._down:
            return None
        if event.kind == "long_press":
            if self._down[event.button]:
                return None
            self._down[event.button] = True
            return "long"
        long_reported = self._down.pop(event.button)
        return None if long_reported else "short"
