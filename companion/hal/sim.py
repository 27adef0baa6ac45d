"""The ``sim`` backend: in-process simulated table hardware.

For laptops, tests and demos. Everything a real table has is here - the red
trigger, roll / select / confirm, the guarded solenoid, status LEDs and the
arena display - driven through :class:`SimControls` (``hardware.sim``):

* inject presses, releases, taps, long holds, contact bounce (several rapid
  edges, debounced exactly as ``bounce_ms`` says) and stuck buttons;
* inject a solenoid driver fault;
* place the Eliminator for the simulated position sensor;
* inspect every coil pulse (start, length), every status LED change and
  every arena frame.

Time comes from an injectable clock. With a :class:`ManualClock` nothing
waits: the guard's pulse "sleep" advances the clock, and hold / debounce
timing is evaluated whenever the clock moves, so tests never sleep. With a
real clock (the default) a small thread does the same every few milliseconds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from companion.hal.config import HardwareConfig
from companion.hal.contracts import DIE_FACES, Cell, Frame, Pulse
from companion.hal.display import MemoryArenaDisplay, Recent
from companion.hal.events import BUTTON_NAMES, InputHub, InputKind
from companion.hal.hardware import Hardware
from companion.hal.leds import StatusLedsBase
from companion.hal.safety import SolenoidDriverError, SolenoidGuard

__all__ = [
    "ManualClock",
    "SimButtons",
    "SimControls",
    "SimSolenoid",
    "SimStatusLeds",
    "SimTrigger",
    "open_sim",
]

#: How often the background thread evaluates holds and debounce on a real clock.
TICK_S = 0.005


class ManualClock:
    """
    A monotonic clock that only moves when told to: call it for the time.

    :meth:`sleep` advances it instead of waiting, so code that sleeps (like
    the solenoid guard during a pulse) runs instantly and exactly. Listeners
    added with :meth:`add_listener` are called with the new time after every
    advance.
    """

    def __init__(self, start: float = 1000.0) -> None:
        self._now = float(start)
        self._lock = threading.Lock()
        self._listeners: list[Callable[[float], None]] = []

    def __call__(self) -> float:
        return self._now

    @property
    def now(self) -> float:
        """The current time in seconds."""
        return self._now

    def advance(self, seconds: float) -> float:
        """Move the clock forward by *seconds* (>= 0) and return the new time."""
        if seconds < 0:
            raise ValueError("a monotonic clock cannot go back")
        with self._lock:
            self._now += seconds
            now = self._now
            listeners = list(self._listeners)
        for listener in listeners:
            listener(now)
        return now

    def sleep(self, seconds: float) -> None:
        """Advance by *seconds* instead of waiting."""
        self.advance(max(0.0, seconds))

    def add_listener(self, listener: Callable[[float], None]) -> None:
        """Call *listener(now)* after every advance."""
        with self._lock:
            self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[float], None]) -> None:
        """Stop calling *listener*."""
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)


class _SimButton:
    """One button contact: raw level, debounced state and hold timing."""

    def __init__(self, name: str, bounce_s: float, hold_s: float) -> None:
        self.name = name
        self.bounce_s = bounce_s
        self.hold_s = hold_s
        self.raw = False  # contact closed?
        self.pressed = False  # debounced
        self.last_accepted: float | None = None
        self.pressed_at = 0.0
        self.held = False
        self.stuck = False
        self.edges = 0  # raw edges seen
        self.ignored_edges = 0  # raw edges dropped by debounce or while stuck

    def edge(self, closed: bool, now: float) -> list[InputKind]:
        """The contact changed to *closed*; return the events it causes."""
        if closed == self.raw:
            return []
        self.raw = closed
        self.edges += 1
        if self._settled(now):
            return self._accept(now)
        self.ignored_edges += 1
        return []

    def tick(self, now: float) -> list[InputKind]:
        """Time passed: settle a bounced contact, send a long press if due."""
        kinds: list[InputKind] = []
        if self.raw != self.pressed and self._settled(now):
            kinds += self._accept(now)
        if self.pressed and not self.held and now - self.pressed_at >= self.hold_s:
            self.held = True
            kinds.append("long_press")
        return kinds

    def _settled(self, now: float) -> bool:
        # the epsilon keeps float rounding (1000.12 - 1000.1 < 0.02) from adding a tick
        return self.last_accepted is None or now - self.last_accepted >= self.bounce_s - 1e-9

    def _accept(self, now: float) -> list[InputKind]:
        self.pressed = self.raw
        self.last_accepted = now
        if self.pressed:
            self.pressed_at = now
            self.held = False
            return ["press"]
        return ["release"]


class SimSolenoid:
    """
    The simulated coil driver (a :class:`~companion.hal.safety.SwitchOutput`).

    Records the recent switches in :attr:`history` and completed on-periods in
    :attr:`pulses` (the last :data:`~companion.hal.display.RECORD_LIMIT` of each).
    A fault injected with :meth:`inject_fault` either makes :meth:`on` raise
    :exc:`SolenoidDriverError`, or (``raise_on_switch=False``) is reported through
    :attr:`fault` the way a driver's fault pin would.
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._on_since: float | None = None
        self._fault: str | None = None
        self._raise_on_switch = True
        self.history: list[tuple[float, bool]] = Recent()
        self.pulses: list[Pulse] = Recent()

    @property
    def value(self) -> bool:
        """:data:`True` while the coil is energised."""
        return self._on_since is not None

    @property
    def fault(self) -> str | None:
        """The fault the driver reports (only in report mode), else None."""
        return None if self._raise_on_switch else self._fault

    def inject_fault(
        self, message: str = "injected driver fault", *, raise_on_switch: bool = True
    ) -> None:
        """Make the driver fail from now on."""
        self._fault = message
        self._raise_on_switch = raise_on_switch

    def clear_fault(self) -> None:
        """Repair the driver."""
        self._fault = None
        self._raise_on_switch = True

    def on(self) -> None:
        """Energise the coil (raises if a fault was injected in raise mode)."""
        if self._fault is not None and self._raise_on_switch:
            raise SolenoidDriverError(self._fault)
        with self._lock:
            if self._on_since is None:
                self._on_since = self._clock()
                self.history.append((self._on_since, True))

    def off(self) -> None:
        """De-energise the coil, recording the pulse."""
        with self._lock:
            if self._on_since is not None:
                now = self._clock()
                self.history.append((now, False))
                self.pulses.append(Pulse(self._on_since, now - self._on_since))
                self._on_since = None


class SimStatusLeds(StatusLedsBase):
    """Status LEDs in memory; :attr:`changes` records (time, name, on) of the recent changes
    (the last :data:`~companion.hal.display.RECORD_LIMIT`)."""

    def __init__(
        self, colours: tuple[str, ...], faces: tuple[str, ...], clock: Callable[[], float]
    ) -> None:
        super().__init__(colours, faces)
        self._clock = clock
        self._on = dict.fromkeys(self.names, False)
        self.changes: list[tuple[float, str, bool]] = Recent()

    def _set(self, name: str, on: bool) -> None:
        if self._on[name] != on:
            self._on[name] = on
            self.changes.append((self._clock(), name, on))

    def _get(self, name: str) -> bool:
        return self._on[name]


class SimTrigger:
    """The simulated red button (:class:`~companion.hal.contracts.Trigger`)."""

    def __init__(self, button: _SimButton) -> None:
        self._button = button

    @property
    def is_pressed(self) -> bool:
        """Debounced state of the red button."""
        return self._button.pressed


class SimButtons:
    """The simulated roll / select / confirm buttons."""

    def __init__(self, buttons: dict[str, _SimButton]) -> None:
        self._buttons = buttons

    @property
    def names(self) -> tuple[str, ...]:
        """The button names."""
        return tuple(self._buttons)

    def is_pressed(self, name: str) -> bool:
        """Debounced state of button *name*."""
        return self._buttons[name].pressed


class SimControls:
    """
    Drive and inspect a simulated table: ``hardware.sim``.

    Button names are ``"trigger"``, ``"roll"``, ``"select"`` and ``"confirm"``.
    Helpers that need time to pass (:meth:`tap`, :meth:`hold`,
    :meth:`bounce_press`) advance a :class:`ManualClock`, or sleep on a real one.
    """

    def __init__(
        self,
        *,
        config: HardwareConfig,
        clock: Callable[[], float],
        inputs: InputHub,
        coil: SimSolenoid,
        leds: SimStatusLeds,
        display: MemoryArenaDisplay,
        position_sensor: bool,
    ) -> None:
        self.config = config
        self.clock = clock
        self.coil = coil
        self.leds = leds
        self.display = display
        self.position_sensor = position_sensor
        self._inputs = inputs
        self._lock = threading.RLock()
        self._buttons = {
            name: _SimButton(name, config.bounce_s, config.hold_s) for name in BUTTON_NAMES
        }
        self._position: Cell | None = None
        self._wait: Callable[[float], None] = (
            clock.sleep if isinstance(clock, ManualClock) else time.sleep
        )

    # -- buttons -----------------------------------------------------------

    def _button(self, name: str) -> _SimButton:
        try:
            return self._buttons[name]
        except KeyError:
            raise ValueError(
                f"no button {name!r}; the buttons are {', '.join(self._buttons)}"
            ) from None

    def edge(self, name: str, closed: bool) -> None:
        """One raw contact edge of button *name* (closed = pressed), now."""
        with self._lock:
            button = self._button(name)
            if button.stuck:
                button.ignored_edges += 1
                return
            kinds = button.edge(closed, self.clock())
        self._emit(name, kinds)

    def press(self, name: str) -> None:
        """Close the contact of *name* cleanly (one edge)."""
        self.edge(name, True)

    def release(self, name: str) -> None:
        """Open the contact of *name* cleanly (one edge)."""
        self.edge(name, False)

    def tap(self, name: str, duration_s: float = 0.1) -> None:
        """Press, keep pressed *duration_s* (shorter than the hold time), release."""
        self.press(name)
        self.wait(duration_s)
        self.release(name)
        self.wait(self.config.bounce_s)

    def hold(self, name: str, duration_s: float | None = None) -> None:
        """Press and keep pressed past the hold time (or *duration_s*), then release."""
        self.press(name)
        self.wait(self.config.hold_s + 0.01 if duration_s is None else duration_s)
        self.release(name)
        self.wait(self.config.bounce_s)

    def bounce_press(self, name: str, bounces: int = 3, spacing_s: float = 0.001) -> None:
        """
        A bouncy press: the contact closes, then opens and closes again
        *bounces* times, *spacing_s* apart, and stays closed.
        """
        self._bounce(name, True, bounces, spacing_s)

    def bounce_release(self, name: str, bounces: int = 3, spacing_s: float = 0.001) -> None:
        """A bouncy release: like :meth:`bounce_press`, ending open."""
        self._bounce(name, False, bounces, spacing_s)

    def _bounce(self, name: str, final: bool, bounces: int, spacing_s: float) -> None:
        self.edge(name, final)
        for _ in range(bounces):
            self.wait(spacing_s)
            self.edge(name, not final)
            self.wait(spacing_s)
            self.edge(name, final)

    def stick(self, name: str) -> None:
        """The contact of *name* welds shut: pressed, and deaf to further edges."""
        with self._lock:
            button = self._button(name)
            kinds = button.edge(True, self.clock())
            button.stuck = True
        self._emit(name, kinds)

    def unstick(self, name: str) -> None:
        """The stuck contact of *name* opens again."""
        with self._lock:
            button = self._button(name)
            button.stuck = False
            kinds = button.edge(False, self.clock())
        self._emit(name, kinds)

    def ignored_edges(self, name: str) -> int:
        """Raw edges of *name* that produced no event (bounce, or stuck)."""
        return self._button(name).ignored_edges

    def is_pressed(self, name: str) -> bool:
        """Debounced state of button *name*."""
        return self._button(name).pressed

    # -- time --------------------------------------------------------------

    def wait(self, seconds: float) -> None:
        """Let *seconds* pass (advance a ManualClock, or sleep)."""
        self._wait(seconds)
        self.tick()

    def tick(self, now: float | None = None) -> None:
        """Evaluate debounce settling and long presses at the current time."""
        now = self.clock() if now is None else now
        for name, button in self._buttons.items():
            with self._lock:
                kinds = button.tick(now)
            self._emit(name, kinds)

    def _emit(self, name: str, kinds: list[InputKind]) -> None:
        for kind in kinds:
            self._inputs.emit(kind, name)  # type: ignore[arg-type]

    # -- eliminator --------------------------------------------------------

    def inject_driver_fault(
        self, message: str = "injected driver fault", *, raise_on_switch: bool = True
    ) -> None:
        """Break the solenoid driver (see :meth:`SimSolenoid.inject_fault`)."""
        self.coil.inject_fault(message, raise_on_switch=raise_on_switch)

    def repair_driver(self) -> None:
        """Undo :meth:`inject_driver_fault` (the guard's latch still needs clearing)."""
        self.coil.clear_fault()

    def place_eliminator(self, cell: Cell | None) -> None:
        """Where the position sensor says the Eliminator is (None: not sensed)."""
        self._position = cell

    def sensed_position(self) -> Cell | None:
        """What the simulated position sensor reads."""
        return self._position

    # -- inspection --------------------------------------------------------

    @property
    def pulses(self) -> list[Pulse]:
        """The recent completed coil pulses, with start time and length."""
        return list(self.coil.pulses)

    @property
    def coil_on(self) -> bool:
        """:data:`True` while the coil is energised."""
        return self.coil.value

    @property
    def led_changes(self) -> list[tuple[float, str, bool]]:
        """The recent status LED changes as (time, name, on)."""
        return list(self.leds.changes)

    @property
    def frames(self) -> list[tuple[float, Frame]]:
        """The recent arena frames shown, as (time, frame)."""
        return self.display.frames


def open_sim(
    config: HardwareConfig | None = None,
    *,
    clock: Callable[[], float] | None = None,
    position_sensor: bool = True,
    unsafe_cooldown_override_s: float | None = None,
) -> Hardware:
    """
    Open simulated hardware for *config* (its ``profile`` is not checked).

    :param clock:
        Monotonic seconds; pass a :class:`ManualClock` for tests. Defaults to
        :func:`time.monotonic`, with a thread evaluating holds and debounce.
    :param position_sensor:
        Simulate an Eliminator position sensor (``hardware.sim.place_eliminator``).
    :param unsafe_cooldown_override_s:
        Benchmarks only: replaces the configured cool-down, bypassing its floor.
    """
    config = HardwareConfig() if config is None else config
    clock = time.monotonic if clock is None else clock
    sleep = clock.sleep if isinstance(clock, ManualClock) else time.sleep
    inputs = InputHub(clock)
    coil = SimSolenoid(clock)
    leds = SimStatusLeds(tuple(config.pins.turn), DIE_FACES, clock)
    display = MemoryArenaDisplay(clock=clock, record=True)
    controls = SimControls(
        config=config,
        clock=clock,
        inputs=inputs,
        coil=coil,
        leds=leds,
        display=display,
        position_sensor=position_sensor,
    )
    cooldown = (
        config.cooldown_s if unsafe_cooldown_override_s is None else unsafe_cooldown_override_s
    )
    guard = SolenoidGuard(
        coil,
        inputs=inputs,
        pulse_ms=config.pulse_ms,
        cooldown_s=cooldown,
        clock=clock,
        sleep=sleep,
        position=controls.sensed_position if position_sensor else None,
    )
    closers: list[Callable[[], object]] = []
    if isinstance(clock, ManualClock):
        clock.add_listener(controls.tick)
        closers.append(lambda: clock.remove_listener(controls.tick))
    else:
        stop = threading.Event()

        def run() -> None:
            while not stop.wait(TICK_S):
                controls.tick()

        ticker = threading.Thread(target=run, name="sim-hal-ticker", daemon=True)
        ticker.start()
        closers.append(stop.set)
        closers.append(lambda: ticker.join(1.0))
    buttons = controls._buttons
    return Hardware(
        profile="sim",
        config=config,
        inputs=inputs,
        trigger=SimTrigger(buttons["trigger"]),
        buttons=SimButtons({name: buttons[name] for name in ("roll", "select", "confirm")}),
        eliminator=guard,
        status_leds=leds,
        display=display,
        closers=closers,
        sim=controls,
    )
