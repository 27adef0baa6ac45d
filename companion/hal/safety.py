"""Solenoid safety: the guard every backend puts between the table and the coil.

The solenoid can overheat and can hurt fingers. :class:`SolenoidGuard` wraps
any switchable output (a gpiozero ``DigitalOutputDevice``, the simulator's
coil) and is the only code that ever switches it on. It enforces:

* the output is switched off when the guard is built and by :meth:`off` /
  :meth:`stop` / :meth:`close` at any time, from any thread; a pulse that has
  passed its checks does not start after any of them (the last check and the
  switching on share a lock that :meth:`close` takes; :meth:`off` and
  :meth:`stop`, a signal handler's calls, take none, so a pulse that switches
  on in that very instant is seen right after and switched off at once, before
  its sleep); after :meth:`stop` or :meth:`close` no pulse starts at all;
* a pulse fires only while armed (:meth:`arm`), only for a genuine trigger
  press from the hardware's own input queue that was issued after arming (a
  press queued earlier, or a button held down since before, never fires), and
  at most once per press; firing consumes the arming;
* the pulse is at most ``pulse_ms`` long, which can never exceed
  :data:`PULSE_HARD_CAP_MS`; the guard switches the coil off itself (in a
  ``finally`` block) before :meth:`fire` returns;
* a cool-down of ``cooldown_s`` from the end of one pulse to the next, and
  from the guard's own construction to its first pulse: the start of a
  process counts as a pulse that just ended, because the pulse an earlier
  process (a service restart, ``companion resume``, ``companion calibrate``)
  fired a moment ago is not known to this one;
* a driver fault (switching on raises, the output reads back wrong, or the
  output reports a fault) switches the coil off, latches, and refuses every
  fire until :meth:`clear_fault`.

On the gpio backend a trigger press can also fire from the thread that saw its
edge (:meth:`SolenoidGuard.trigger_edge`), so that neither the table loop's
thread nor CPU work elsewhere in the process stands between the red button
and the coil; every rule above holds the same way, and the table loop's
:meth:`~SolenoidGuard.fire` for that press returns what happened.

It also holds the stop-signal handling: SIGINT, SIGTERM and SIGHUP switch the
coil off inside the handler, then become :exc:`KeyboardInterrupt` (SIGINT) or
:exc:`SystemExit` (``128 + n``), so that ``finally`` blocks and ``__exit__``
methods switch the rest off and the command ends the way it ends on Ctrl-C or
``systemctl stop`` (:func:`install_stop_handlers`).
"""

from __future__ import annotations

import itertools
import logging
import signal
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from companion.hal.contracts import Cell, FireResult, Pulse, Refusal
from companion.hal.events import InputEvent, InputHub

__all__ = [
    "DEFAULT_COOLDOWN_S",
    "DEFAULT_PULSE_MS",
    "PULSE_HARD_CAP_MS",
    "STOP_SIGNALS",
    "SolenoidDriverError",
    "SolenoidGuard",
    "SpentToken",
    "StopHandlers",
    "SwitchOutput",
    "install_sigterm_handler",
    "install_stop_handlers",
    "sigterm_raises_exit",
]

log = logging.getLogger(__name__)

#: No configuration can make a solenoid pulse longer than this.
PULSE_HARD_CAP_MS = 250
#: Default pulse length: enough to throw a tile, short enough to stay cool.
DEFAULT_PULSE_MS = 60
#: Default pause from the end of one pulse to the start of the next.
DEFAULT_COOLDOWN_S = 3.0
#: Edge-path answers (a pulse's result, or a refusal) kept for the table loop to collect;
#: older ones are dropped, and a press whose answer was dropped never fires.
_EDGE_RESULTS_KEPT = 16


class SpentToken(ValueError):
    """An explosion that fired (on the I/O board: that may have fired) is never armed
    again, until :meth:`SolenoidGuard.new_game`."""


class SolenoidDriverError(RuntimeError):
    """Raised by a solenoid output whose driver has failed."""


class SwitchOutput(Protocol):
    """What the guard needs of an output: gpiozero's ``DigitalOutputDevice`` fits.

    An output may also have a ``fault`` attribute (a message, or None) that
    the guard reads before and after switching on.
    """

    def on(self) -> None: ...

    def off(self) -> None: ...

    @property
    def value(self) -> Any: ...


class SolenoidGuard:
    """
    The safe :class:`~companion.hal.contracts.Eliminator`: arm, then fire on a press.

    :param output:
        The coil driver (``on()``, ``off()``, ``value``). Switched off at once.
    :param inputs:
        The hardware's :class:`~companion.hal.events.InputHub`; only trigger
        presses it issued can fire.
    :param pulse_ms:
        Pulse length in milliseconds, 1 to :data:`PULSE_HARD_CAP_MS`.
    :param cooldown_s:
        Minimum seconds from the end of a pulse to the next pulse, and from the
        guard's construction to its first pulse (>= 0; the configuration
        enforces a higher floor for real tables).
    :param clock:
        Monotonic seconds; must be the clock that stamps the input events.
    :param sleep:
        Waits while the coil is on (``time.sleep``, or a simulated clock's).
    :param position:
        Reads the sensed Eliminator cell, if a sensor exists.
    :param on_fault:
        Called with the message after a driver fault (e.g. to darken the
        whole table).
    :param cool_from_start:
        Count a cool-down from the guard's construction (the default). Only a
        driver that keeps its own cool-down across this process's restarts
        (the I/O board's firmware) turns it off.
    """

    def __init__(
        self,
        output: SwitchOutput,
        *,
        inputs: InputHub,
        pulse_ms: int = DEFAULT_PULSE_MS,
        cooldown_s: float = DEFAULT_COOLDOWN_S,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        position: Callable[[], Cell | None] | None = None,
        on_fault: Callable[[str], None] | None = None,
        cool_from_start: bool = True,
    ) -> None:
        if isinstance(pulse_ms, bool) or not isinstance(pulse_ms, int | float):
            raise TypeError(f"pulse_ms must be a number of milliseconds, not {pulse_ms!r}")
        if not 0 < pulse_ms <= PULSE_HARD_CAP_MS:
            raise ValueError(
                f"pulse_ms={pulse_ms!r} is out of range: the solenoid pulse must be more than "
                f"0 and at most {PULSE_HARD_CAP_MS} ms (the hard cap)"
            )
        if not cooldown_s >= 0:
            raise ValueError(f"cooldown_s={cooldown_s!r} must be 0 or more seconds")
        self._output = output
        self._inputs = inputs
        self._pulse_s = pulse_ms / 1000
        self._cooldown_s = float(cooldown_s)
        self._clock = clock
        self._sleep = sleep
        self._position = position
        self._on_fault = on_fault
        # reentrant: off() may run in a signal handler on a thread that holds it
        self._lock = threading.RLock()
        self._edge_done = threading.Condition(self._lock)
        # press seq -> the edge path's answer for it (None while its pulse runs)
        self._edge_results: dict[int, FireResult | None] = {}
        self._edge_dropped_upto = 0  # the newest press seq whose edge answer was dropped
        self._armed = False
        self._token: Hashable | None = None
        self._armed_after_seq = 0
        self._fired_seqs: set[int] = set()
        # explosions whose pulse started (it may have switched the coil on): never armed
        # again in this game, whoever asks (a table loop that collects an old press late)
        self._spent: set[Hashable] = set()
        self._pulsing_since: float | None = None
        # the start counts as a pulse that just ended: an earlier process may have fired
        self._last_end: float = clock() - (0.0 if cool_from_start else self._cooldown_s)
        self._cooling_since_start = cool_from_start
        self._last_pulse: Pulse | None = None
        self._pulse_count = 0
        self._fault: str | None = None
        self._closed = False
        # set by stop() (a stop signal's handler: no lock, no waiting) and close(): from then
        # on no pulse starts
        self._stopping = False
        # the mark of the last off() call: one that lands after a pulse's checks cancels it.
        # Each call takes a new mark from a counter (next() on it is atomic, no lock): two
        # calls at once can leave either's mark, but never the one a pulse read before them
        self._off_marks = itertools.count(1)
        self._offs = 0
        # held from the last check before switching on through on() itself; close() takes
        # it, so once close() returns no on() is under way or still to come. Not the guard's
        # lock: an output's on() may wait for a thread that needs that one (the I/O board's
        # link thread reads the FIRE's answer, and takes the guard's lock for a new press)
        self._gate = threading.RLock()
        self.off()

    # -- state -------------------------------------------------------------

    @property
    def pulse_ms(self) -> float:
        """The pulse length in milliseconds."""
        return self._pulse_s * 1000

    @property
    def cooldown_s(self) -> float:
        """The cool-down between pulses in seconds."""
        return self._cooldown_s

    @property
    def cooldown_left_s(self) -> float:
        """Seconds until the cool-down allows a pulse (0.0 if it allows one now).

        Counted from the end of the last pulse, or from the guard's construction before
        its first pulse (an earlier process may have fired just before this one started).
        """
        with self._lock:
            return max(0.0, self._cooldown_wait(self._clock()))

    @property
    def armed(self) -> bool:
        """:data:`True` between :meth:`arm` and a fire or :meth:`disarm`."""
        return self._armed

    @property
    def armed_token(self) -> Hashable | None:
        """The token given to :meth:`arm`, while armed."""
        return self._token

    @property
    def fault(self) -> str | None:
        """The latched driver fault message, or :data:`None`."""
        return self._fault

    @property
    def last_pulse(self) -> Pulse | None:
        """The most recent pulse the guard fired."""
        return self._last_pulse

    @property
    def pulse_count(self) -> int:
        """How many pulses the guard has fired."""
        return self._pulse_count

    @property
    def has_position_sensor(self) -> bool:
        """:data:`True` if :attr:`position` comes from a sensor."""
        return self._position is not None

    @property
    def position(self) -> Cell | None:
        """The sensed cell above the Eliminator, or None if unknown or unsensed."""
        return None if self._position is None else self._position()

    @property
    def on_fault(self) -> Callable[[str], None] | None:
        """Called with the message after a driver fault; :class:`Hardware` sets it."""
        return self._on_fault

    @on_fault.setter
    def on_fault(self, handler: Callable[[str], None] | None) -> None:
        self._on_fault = handler

    @property
    def is_on(self) -> bool:
        """:data:`True` if the coil output currently reads on."""
        return bool(self._output.value)

    # -- arming ------------------------------------------------------------

    def arm(self, token: Hashable) -> None:
        """Allow one pulse for the explosion *token*; presses from now on may fire.

        Raises :exc:`SpentToken` if *token* has fired in this game (its pulse started,
        on any thread): one explosion never fires twice, even if the table, busy with
        presses made before, asks to arm it again after the edge path fired it."""
        with self._lock:
            if token in self._spent:
                raise SpentToken(
                    f"the explosion {token!r} has fired (or may have): it is never armed again"
                )
            self._armed = True
            self._token = token
            # presses already issued (even if still queued) are too early
            self._armed_after_seq = self._inputs.last_seq

    def disarm(self) -> None:
        """Withdraw the arming; no-op if not armed."""
        with self._lock:
            self._armed = False
            self._token = None

    def new_game(self) -> None:
        """A new game starts on this hardware: explosions of earlier games are not its own
        (a token names an explosion within one game: its turn and field recur), so the
        fired tokens are forgotten (one hardware serves a season of games in ``companion
        serve``)."""
        with self._lock:
            self._spent.clear()

    def spent(self, token: Hashable) -> bool:
        """Whether the explosion *token* has fired (or may have) in this game: then
        :meth:`arm` refuses it, and the press that fired it is on the input queue."""
        with self._lock:
            return token in self._spent

    def clear_fault(self) -> None:
        """Forget a latched driver fault, so that later fires are tried again."""
        with self._lock:
            self._fault = None

    # -- firing ------------------------------------------------------------

    def check(self, press: InputEvent) -> FireResult | None:
        """Return the refusal :meth:`fire` would give for *press* now, or None."""
        with self._lock:
            judged = self._edge_judgement(press)
            if judged is not None and not judged.fired:
                return judged
            return self._refusal(press, self._clock())

    def fire(self, press: InputEvent) -> FireResult:
        """
        Fire one pulse for the trigger press *press*, or say why not.

        Blocks for the pulse length (at most :data:`PULSE_HARD_CAP_MS`); the
        coil is off again when this returns or raises. A press the edge path
        (:meth:`trigger_edge`) has judged is not judged again: if it fired
        there, this waits for that pulse to end and returns its result (once:
        asking again is :attr:`Refusal.ALREADY_FIRED`); if it was refused there,
        this returns that same refusal, whatever the rules would say now (a
        press refused while cooling down does not fire later, when the table
        loop gets to it).
        """
        with self._lock:
            if isinstance(press, InputEvent) and press.seq in self._edge_results:
                while self._edge_results.get(press.seq, False) is None:  # its pulse runs
                    self._edge_done.wait()
            result = self._edge_judgement(press)
            if result is not None:
                if result.fired:  # collected once; asking again is ALREADY_FIRED
                    del self._edge_results[press.seq]
                return result
        return self._fire(press)

    def _edge_judgement(self, press: InputEvent) -> FireResult | None:
        """The edge path's answer for *press*, if it judged it (under the lock; None while
        its pulse runs, or if the edge path did not judge it)."""
        if not (isinstance(press, InputEvent) and self._inputs.issued(press)):
            return None
        if press.seq in self._edge_results:
            return self._edge_results[press.seq]
        if press.seq <= self._edge_dropped_upto and press.seq not in self._fired_seqs:
            return FireResult(
                False,
                Refusal.STALE_PRESS,
                f"trigger press #{press.seq} was judged when it happened, and "
                f"{_EDGE_RESULTS_KEPT} presses have come since: it never fires now",
                self._token,
            )
        return None

    def trigger_edge(self) -> InputEvent:
        """
        The edge path: issue a trigger press on the input queue and, if it may
        fire now, fire it on this thread before returning it.

        For the thread that sees the red button's edge (the gpio backend's
        button thread). Every rule of :meth:`fire` applies, and a press is
        judged once, here at its edge: a press that may not fire (not armed,
        cooling down, a fault...) only goes on the queue with its refusal
        recorded, and the table loop's :meth:`fire` returns that refusal, even
        if the rules would allow a pulse by the time it gets to the press. A
        press that fires is claimed before it is on the queue, so the table
        loop's :meth:`fire` waits for the pulse and returns its result.
        """
        with self._lock:
            press = self._emit_trigger_press()
            refusal = self._edge_refusal(press)
            self._edge_results[press.seq] = refusal  # None: claimed, its pulse to come
            self._forget_old_refusals()
            if refusal is not None:
                return press
        result: FireResult | None = None
        try:
            result = self._fire(press)
        finally:  # the table loop waits for this press: it gets an answer whatever happens
            if result is None:
                result = FireResult(
                    False, Refusal.DRIVER_FAULT, "the pulse on the edge path was interrupted"
                )
            with self._lock:
                if press.seq in self._edge_results:
                    self._edge_results[press.seq] = result
                self._edge_done.notify_all()
        return press

    def _forget_old_refusals(self) -> None:
        """Keep the edge's answers of the last :data:`_EDGE_RESULTS_KEPT` presses nobody
        collected (under the lock). Only refusals of presses that never reached the coil are
        forgotten (their presses are then STALE_PRESS): the answer of a press whose pulse
        was tried (fired, firing, a fault, an I/O board's unknown outcome) stays until the
        table loop collects it, so the table always learns what became of its explosion."""
        excess = len(self._edge_results) - _EDGE_RESULTS_KEPT
        if excess <= 0:
            return
        old = [
            seq
            for seq, answer in self._edge_results.items()
            if answer is not None and seq not in self._fired_seqs  # None: claimed, to come
        ]
        for seq in old[:excess]:
            del self._edge_results[seq]
            self._edge_dropped_upto = max(self._edge_dropped_upto, seq)

    def _edge_refusal(self, press: InputEvent) -> FireResult | None:
        """The edge path's judgement of *press* (under the lock): the refusal
        :meth:`fire` would give now, or None to fire it. A backend whose driver
        can be away adds its own refusals here, so they are recorded at the edge
        like the guard's."""
        return self._refusal(press, self._clock())

    def _emit_trigger_press(self) -> InputEvent:
        """Issue the edge path's trigger press on the input queue (called with the lock
        held, before the press is judged: a backend may note what it knows of it)."""
        return self._inputs.emit("press", "trigger")

    def _fire(self, press: InputEvent) -> FireResult:
        with self._lock:
            refusal = self._refusal(press, self._clock())
            if refusal is not None:
                return refusal
            token = self._token
            self._armed = False
            self._token = None
            self._fired_seqs.add(press.seq)
            self._spent.add(token)
            start = self._pulsing_since = self._clock()
            offs = self._offs
        fault: str | None = None
        stopped: str | None = None
        try:
            try:
                with self._gate:
                    if self._stopped_since(offs):
                        stopped = "the hardware is stopping: nothing fired"
                        with self._lock:  # the coil never switched on for it
                            self._spent.discard(token)
                    else:
                        self._output.on()
            except Exception as exc:
                fault = f"switching the solenoid on failed: {exc}"
            else:
                if stopped is None and self._stopped_since(offs):
                    # a stop signal's off() (lock-free) landed between the check and on()
                    stopped = "a stop came as the coil switched on: switched off at once"
                if stopped is None:
                    fault = self._output_fault()
                    if fault is None and not self._output.value:
                        fault = "the solenoid output read back off right after switching on"
                    if fault is None:
                        self._sleep(self._pulse_s)
        finally:
            off_fault = self._switch_off()
            end = self._clock()
            with self._lock:
                self._pulsing_since = None
                self._last_end = end
                self._cooling_since_start = False
        fault = fault or off_fault or self._output_fault()
        if fault is not None:
            self._latch(fault)
            return FireResult(False, Refusal.DRIVER_FAULT, fault, token)
        if stopped is not None:
            return FireResult(False, Refusal.CLOSED, stopped, token)
        pulse = Pulse(start, end - start, token)
        with self._lock:
            self._last_pulse = pulse
            self._pulse_count += 1
        return FireResult(True, None, "fired", token, pulse)

    def _stopped_since(self, offs: int) -> bool:
        """Whether a stop, close() or off() came after the check that read *offs*."""
        return self._stopping or self._closed or self._offs != offs

    def _refusal(self, press: InputEvent, now: float) -> FireResult | None:
        token = self._token
        if self._closed:
            return FireResult(False, Refusal.CLOSED, "the hardware is closed", token)
        if self._stopping:
            return FireResult(False, Refusal.CLOSED, "the hardware is stopping", token)
        if self._fault is not None:
            return FireResult(
                False,
                Refusal.DRIVER_FAULT,
                f"driver fault latched ({self._fault}); check the driver, then clear_fault()",
                token,
            )
        if not (
            isinstance(press, InputEvent) and press.is_trigger_press and self._inputs.issued(press)
        ):
            return FireResult(
                False,
                Refusal.NOT_A_TRIGGER_PRESS,
                f"only a trigger press from this hardware's input queue can fire, not {press!r}",
                token,
            )
        if press.seq in self._fired_seqs:
            return FireResult(
                False, Refusal.ALREADY_FIRED, f"trigger press #{press.seq} already fired", token
            )
        if not self._armed:
            return FireResult(False, Refusal.NOT_ARMED, "no explosion is armed", token)
        if press.seq <= self._armed_after_seq:
            return FireResult(
                False,
                Refusal.PRESS_BEFORE_ARMING,
                f"trigger press #{press.seq} happened before the explosion was armed",
                token,
            )
        wait = self._cooldown_wait(now)
        if wait > 0:
            since = (
                ", counted from the start: an earlier run may have just fired"
                if self._cooling_since_start
                else ""
            )
            return FireResult(
                False,
                Refusal.COOLING_DOWN,
                f"cooling down: the solenoid may fire again in {wait:.1f} s "
                f"(cool-down {self._cooldown_s:g} s{since})",
                token,
                retry_after_s=wait,
            )
        return None

    def _cooldown_wait(self, now: float) -> float:
        """Seconds of cool-down left at *now* (<= 0: none); under the lock."""
        if self._pulsing_since is not None:
            return self._pulse_s - (now - self._pulsing_since) + self._cooldown_s
        return self._cooldown_s - (now - self._last_end)

    def _output_fault(self) -> str | None:
        fault = getattr(self._output, "fault", None)
        return None if not fault else f"the solenoid driver reports a fault: {fault}"

    def _switch_off(self) -> str | None:
        """Switch the output off, trying twice; return a fault message if it fails."""
        error: Exception | None = None
        for _ in range(2):
            try:
                self._output.off()
            except Exception as exc:
                error = exc
                continue
            return None
        log.critical("could not switch the solenoid off: %s", error)
        return f"switching the solenoid off failed: {error}"

    def _latch(self, fault: str) -> None:
        with self._lock:
            self._fault = fault
            self._armed = False
            self._token = None
        log.error("solenoid driver fault: %s", fault)
        if self._on_fault is not None:
            self._on_fault(fault)

    # -- shutdown ----------------------------------------------------------

    def off(self) -> None:
        """Switch the coil off now, from any thread, even mid-pulse; a pulse that has
        passed its checks but not switched on yet does not start (or, if it switches on in
        the same instant, is switched off at once). Takes no lock and never waits, except to
        latch a fault if switching off fails (the guard's reentrant lock)."""
        self._offs = next(self._off_marks)  # before switching off: a pulse that checks
        # after this sees a mark other than the one it read
        fault = self._switch_off()
        if fault is not None:
            with self._lock:
                self._fault = fault

    def stop(self) -> None:
        """The stop signals' handler's call: switch the coil off, and let no pulse start
        from now on (not even one that has passed its checks). Takes no lock and never
        waits (see :meth:`off`); :meth:`close` follows when the program unwinds."""
        self._stopping = True
        self.off()

    def close(self) -> None:
        """Switch off and refuse every later fire. Returns once no pulse is switching on:
        from then on the coil stays off."""
        self._stopping = True
        with self._lock:
            self._closed = True
            self._armed = False
            self._token = None
        with self._gate:  # an on() under way has finished (and is switched off below)
            self.off()


#: The signals that stop a table: Ctrl-C, ``systemctl stop``, a dropped SSH session.
STOP_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _is_default(signum: int, handler: Any) -> bool:
    if signum == signal.SIGINT:
        return handler is signal.default_int_handler or handler == signal.SIG_DFL
    return handler == signal.SIG_DFL


class StopHandlers:
    """
    The stop signals' handlers one piece of open hardware installed, and the stop they took.

    Built by :func:`install_stop_handlers`. A handler raises its exception wherever the main
    thread happens to be, and CPython runs handlers at any bytecode boundary, also inside
    code whose exceptions it only prints and drops: a weak-reference callback (the import
    system's module locks have one), a ``__del__`` method, a garbage-collection callback
    ("Exception ignored in ..."). A ``systemctl stop`` that lands there would be lost and the
    service would run on until systemd kills it. So the handler also remembers the stop,
    and :meth:`raise_if_stopped`, called where the table waits for input
    (:meth:`companion.hal.hardware.Hardware.next_input`), raises it again.
    """

    def __init__(self, off: Callable[[], None], quiet: Callable[[], bool]) -> None:
        self._off = off
        self._quiet = quiet
        self.previous: dict[int, Any] = {}
        #: The stop signal taken (its number), once one arrived; :data:`None` before.
        self.received: int | None = None

    def handle(self, signum: int, frame: object) -> None:
        """The handler: the coil off first, then the stop raised (unless shutting down)."""
        self._off()
        if self._quiet():
            return
        self.received = signum
        raise self._stop(signum)

    def raise_if_stopped(self) -> None:
        """
        Raise the stop again if a stop signal arrived and the program still runs.

        Only on the main thread (where the handler raised it) and only while not shutting
        down (*quiet()* false); a stop that unwound the way it should never comes back here,
        since nothing waits for input on the way out.
        """
        signum = self.received
        if signum is None or self._quiet():
            return
        if threading.current_thread() is threading.main_thread():
            raise self._stop(signum)

    @staticmethod
    def _stop(signum: int) -> BaseException:
        if signum == signal.SIGINT:
            return KeyboardInterrupt()
        return SystemExit(128 + signum)

    def restore(self) -> None:
        """Put back the handlers this replaced (main thread only)."""
        for signum, handler in self.previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        self.previous = {}


def install_stop_handlers(
    off: Callable[[], None], *, quiet: Callable[[], bool] = lambda: False
) -> StopHandlers:
    """
    Make the stop signals switch the coil off first, then stop the program the usual way.

    For each of :data:`STOP_SIGNALS` whose handler is still Python's default
    (a handler somebody installed, or ``SIG_IGN`` as under ``nohup``, is left
    alone), the new handler

    1. calls *off* at once (:class:`~companion.hal.hardware.Hardware` gives the
       solenoid guard's :meth:`~SolenoidGuard.stop`: the output switched off and
       no pulse started from then on, not even one that has passed its checks;
       it takes no lock, except the guard's reentrant one to latch a fault if
       switching off fails, and never raises);
    2. then raises :exc:`KeyboardInterrupt` for SIGINT, so an interactive
       command's own Ctrl-C path runs (its resume hint, exit status 130), or
       :exc:`SystemExit` with status ``128 + n`` for SIGTERM (143) and SIGHUP
       (129); unwinding runs the ``finally`` blocks and ``__exit__`` methods
       that switch the LEDs and the display off. It also remembers the stop, for
       :meth:`StopHandlers.raise_if_stopped` (a raise CPython dropped).

    While *quiet()* is true (the hardware is already shutting down) a signal
    only switches the coil off again, so a second Ctrl-C cannot cut the
    shut-down short. Must run on the main thread (:exc:`ValueError`
    elsewhere). Returns the :class:`StopHandlers` (``restore()`` puts the
    replaced handlers back).
    """
    handlers = StopHandlers(off, quiet)
    for signum in STOP_SIGNALS:
        current = signal.getsignal(signum)
        if _is_default(signum, current):
            handlers.previous[signum] = signal.signal(signum, handlers.handle)
    return handlers


def _raise_system_exit(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def install_sigterm_handler() -> Any:
    """
    Make SIGTERM raise :exc:`SystemExit` (exit status 143), so ``finally``
    blocks and context managers switch the outputs off before the process ends.

    Returns the previous handler. Raises :exc:`ValueError` off the main thread
    (only the main thread may handle signals).
    """
    return signal.signal(signal.SIGTERM, _raise_system_exit)


@contextmanager
def sigterm_raises_exit() -> Iterator[bool]:
    """
    Context manager: SIGTERM raises :exc:`SystemExit` inside the block.

    Yields :data:`True` if the handler was installed (only possible on the main
    thread; elsewhere nothing changes) and restores the previous handler on
    the way out.
    """
    if threading.current_thread() is not threading.main_thread():
        yield False
        return
    previous = install_sigterm_handler()
    try:
        yield True
    finally:
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)
