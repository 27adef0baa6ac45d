"""First-edge button handling for buttons on bare pins: a press counts at its first edge.

A mechanical contact bounces for a few milliseconds when it closes and when it
opens, and a long wire next to a solenoid can pick up short spikes. A
*trailing* debounce (wait until the contact has been stable for the bounce
time, then report) handles both, but delays every press by the whole bounce
time: that is what gpiozero's ``bounce_time`` does on the ``lgpio`` pin
factory (see ``docs/hardware.md``). :class:`FirstEdgeDebouncer` does this instead:

* **press: first edge + glitch filter.** The first closing edge of a released
  button opens a short window (``glitch_s``, default 1 ms). If the pin still
  reads pressed when the window ends, the press counts, at once: bounce inside
  the window does not matter, and nothing waits for the contact to settle. If
  it reads released, the edge was a spike and is ignored.
* **once per press.** While a press counts, further closing edges (contact
  bounce) are ignored. The press ends when the pin has read released for
  ``release_s`` (the configured ``bounce_ms``) without an edge; only then can
  the next press count.
* **long press** once when a press has lasted ``hold_s``.

Edges arrive from the pin library's callback thread through :meth:`edge` and
only record the edge. One worker thread (``companion-buttons``) decides when
windows end and calls ``emit(kind, name)`` for ``press``, ``long_press`` and
``release`` in order; emitting may take a while (on the gpio backend a trigger
press can fire the solenoid right there, see
:meth:`companion.hal.safety.SolenoidGuard.trigger_edge`), and edges that come in
meanwhile are still recorded. :meth:`poll` runs the same decisions for a given
time without the thread, for tests. With ``realtime_priority`` the worker
thread asks for ``SCHED_FIFO`` first (:mod:`companion.hal.realtime`), so that
the end of a glitch window is acted on at once even when other processes keep
every core busy; :attr:`FirstEdgeDebouncer.scheduling` says what it got.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable

from companion.hal.events import InputKind
from companion.hal.realtime import make_this_thread_realtime, thread_scheduling
from companion.records import Record

__all__ = ["ContactState", "FirstEdgeDebouncer"]

log = logging.getLogger(__name__)


class ContactState(Record, frozen=False):
    """What the debouncer knows about one button (read it for diagnostics and tests)."""

    name: str
    level: bool = False  #: the last level an edge reported (True: pressed)
    last_edge: float = 0.0  #: when that edge came, on the debouncer's clock
    down: bool = False  #: a press counted and has not been released yet
    press_due: float | None = None  #: end of the glitch window of a first edge
    hold_due: float | None = None  #: when a counted press becomes a long press
    edges: int = 0  #: edges seen
    glitches: int = 0  #: first edges rejected by the glitch filter
    bounces: int = 0  #: closing edges ignored because a press was already counted


class FirstEdgeDebouncer:
    """
    Turn the raw edges of several buttons into ``press`` / ``long_press`` / ``release``.

    :param names: the buttons.
    :param read: ``read(name)`` returns :data:`True` while the pin reads pressed
        (gpiozero's ``is_active``); consulted when a glitch window ends.
    :param emit: ``emit(kind, name)``, called on the worker thread, in order.
    :param glitch_s: the glitch window after a first edge (0: the press counts
        as soon as the worker sees the edge).
    :param release_s: how long a button must read released, without an edge,
        before its press ends (the debounce time).
    :param hold_s: how long a press lasts before it is also a long press.
    :param clock: monotonic seconds.
    :param start: start the worker thread (tests pass False and call :meth:`poll`).
    :param realtime_priority: run the worker thread on ``SCHED_FIFO`` at this
        priority if the system allows it (None: the normal policy).
    """

    def __init__(
        self,
        names: Iterable[str],
        read: Callable[[str], bool],
        emit: Callable[[InputKind, str], object],
        *,
        glitch_s: float,
        release_s: float,
        hold_s: float,
        clock: Callable[[], float] = time.monotonic,
        start: bool = True,
        realtime_priority: int | None = None,
    ) -> None:
        if glitch_s < 0 or release_s < 0 or hold_s <= 0:
            raise ValueError("glitch_s and release_s must be >= 0 and hold_s > 0")
        self._contacts = {name: ContactState(name) for name in names}
        self._read = read
        self._emit = emit
        self._glitch_s = glitch_s
        self._release_s = release_s
        self._hold_s = hold_s
        self._clock = clock
        self._cond = threading.Condition()
        self._closed = False
        self._thread: threading.Thread | None = None
        self._realtime_priority = realtime_priority
        self._scheduling: str | None = None
        self._started = threading.Event()
        if start:
            self._thread = threading.Thread(target=self._run, name="companion-buttons", daemon=True)
            self._thread.start()

    @property
    def glitch_s(self) -> float:
        """The glitch window after a first edge, in seconds."""
        return self._glitch_s

    @property
    def release_s(self) -> float:
        """How long a button must read released before its press ends, in seconds."""
        return self._release_s

    @property
    def scheduling(self) -> str | None:
        """The worker thread's scheduling policy (``"SCHED_FIFO 10"``, ``"SCHED_OTHER
        (...)"``), or None without a worker thread."""
        if self._thread is None:
            return None
        self._started.wait(1.0)
        return self._scheduling

    def contact(self, name: str) -> ContactState:
        """The state of button *name* (a live object: read, do not change)."""
        return self._contacts[name]

    # -- from the pin library's thread ------------------------------------------------

    def edge(self, name: str, pressed: bool) -> None:
        """Record that button *name*'s pin changed to *pressed*; never waits for long."""
        with self._cond:
            contact = self._contacts[name]
            now = self._clock()
            contact.level = pressed
            contact.last_edge = now
            contact.edges += 1
            if pressed:
                if contact.down:
                    contact.bounces += 1
                elif contact.press_due is None:
                    contact.press_due = now + self._glitch_s
            self._cond.notify()

    def callbacks(self, name: str) -> tuple[Callable[[], None], Callable[[], None]]:
        """Zero-argument ``(when_pressed, when_released)`` callables for gpiozero."""
        return (lambda: self.edge(name, True)), (lambda: self.edge(name, False))

    # -- decisions --------------------------------------------------------------------

    def poll(self, now: float | None = None) -> float | None:
        """
        Decide every window that has ended by *now* (default: the clock), emit the
        events, and return when the next window ends (None: nothing pending).
        """
        with self._cond:
            now = self._clock() if now is None else now
            events = self._decide(now)
            wake = self._next_due()
        for kind, name in events:
            self._emit(kind, name)
        return wake

    def _decide(self, now: float) -> list[tuple[InputKind, str]]:
        """The events due at *now* (called with the lock held; reads the pins)."""
        events: list[tuple[InputKind, str]] = []
        for contact in self._contacts.values():
            if contact.press_due is not None and now >= contact.press_due:
                contact.press_due = None
                if not contact.down and self._read(contact.name):
                    contact.down = True
                    contact.hold_due = now + self._hold_s
                    events.append(("press", contact.name))
                elif not contact.down:
                    contact.glitches += 1
            if not contact.down:
                continue
            if contact.hold_due is not None and now >= contact.hold_due:
                contact.hold_due = None
                if contact.level:  # not while a release is being confirmed
                    events.append(("long_press", contact.name))
            # the same sum as in _next_due, so a wake-up at that time always decides
            if not contact.level and now >= contact.last_edge + self._release_s:
                if self._read(contact.name):  # missed an edge: it is still held
                    contact.level = True
                    continue
                contact.down = False
                contact.hold_due = None
                events.append(("release", contact.name))
        return events

    def _next_due(self) -> float | None:
        due: list[float] = []
        for contact in self._contacts.values():
            if contact.press_due is not None:
                due.append(contact.press_due)
            if contact.down:
                if contact.hold_due is not None:
                    due.append(contact.hold_due)
                if not contact.level:
                    due.append(contact.last_edge + self._release_s)
        return min(due) if due else None

    def _run(self) -> None:
        if self._realtime_priority is not None:
            self._scheduling = make_this_thread_realtime(self._realtime_priority)
        else:
            self._scheduling = thread_scheduling()
        self._started.set()
        while True:
            try:
                self.poll()
            except Exception:  # a failing emit must not end the buttons
                log.exception("button event handling failed")
            with self._cond:  # recomputed under the lock: an edge since poll() is not missed
                if self._closed:
                    return
                wake = self._next_due()
                now = self._clock()
                if wake is None:
                    self._cond.wait()
                elif wake > now:
                    self._cond.wait(wake - now)

    def close(self) -> None:
        """Stop the worker thread (edges after this are recorded but never decided)."""
        with self._cond:
            self._closed = True
            self._cond.notify()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(1.0)
