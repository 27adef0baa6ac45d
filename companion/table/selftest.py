"""The hardware self-test behind ``companion selftest``, free of any terminal.

:func:`run_selftest` takes an open :class:`~companion.hal.Hardware`, a
``say(text)`` callback for what a person should look at or do, and a
``confirm(prompt) -> bool`` callable for what only a person can see. It
checks, in this order:

1. every status LED, one at a time (the turn colours, then the die faces):
   on ``sim`` through the simulator's recorded LED state; on real pins the
   pin is read back and then the person confirms what they saw. With no one
   to ask (``confirm=None``) a visual check is reported *not confirmed*,
   never passed;
2. the arena display: every cell state on the whole arena, then every cell on
   its own, read back (it is in memory until the LED matrix has its board);
3. each button (trigger, roll, select, confirm): pressed and released within
   the timeout, read from ``hw.next_input`` like the table loop does. A
   button that reads pressed before the test and is never released is stuck.
   On ``sim`` a :class:`SelftestOperator` makes the presses (*simulated presses*);
4. the solenoid, only with ``fire=True`` and only after ``confirm_fire``
   returned True (the command line asks for the word ``FIRE`` at a
   terminal): the guard is armed with :data:`SELFTEST_TOKEN` and fires for a
   red-button press through the normal :class:`~companion.hal.SolenoidGuard`
   path - pulse capped, cool-down respected, one pulse at most.

It returns one :class:`DeviceResult` per device; :func:`exit_code` turns them
into the command's exit status.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from companion.hal import CellState, Hardware, Refusal, blank_frame
from companion.hal.display import CELL_SYMBOLS
from companion.hal.sim import SimControls

__all__ = [
    "BUTTON_ORDER",
    "FIRE_WORD",
    "SELFTEST_TOKEN",
    "DeviceResult",
    "SelftestOperator",
    "check_button",
    "check_display",
    "check_solenoid",
    "check_status_leds",
    "exit_code",
    "run_selftest",
    "summary",
]

#: The token the guard is armed with for the test pulse.
SELFTEST_TOKEN = "selftest"
#: What a person types to allow the test pulse.
FIRE_WORD = "FIRE"
#: The buttons, in the order they are tested.
BUTTON_ORDER: tuple[str, ...] = ("trigger", "roll", "select", "confirm")

_BUTTON_LABELS = {
    "trigger": "red (trigger)",
    "roll": "roll",
    "select": "select",
    "confirm": "confirm",
}

Say = Callable[[str], None]
Confirm = Callable[[str], bool]
Operator = Callable[[str], None]


@dataclass(frozen=True)
class DeviceResult:
    """
    The outcome for one device.

    *passed* is True (passed), False (failed) or None (not tested: skipped,
    or a visual check no one confirmed); *status* says which in a word
    (``pass``, ``FAIL``, ``skipped``, ``not confirmed``).
    """

    device: str
    passed: bool | None
    detail: str
    status: str = ""

    def __post_init__(self) -> None:
        if not self.status:
            status = {True: "pass", False: "FAIL", None: "skipped"}[self.passed]
            object.__setattr__(self, "status", status)


class SelftestOperator:
    """
    A scripted person for the ``sim`` profile: presses and releases each
    button the self-test asks for, so ``companion selftest --hardware sim``
    runs with no input at all (*simulated presses*). The self-test's twin of
    the table loop's :class:`companion.table.people.SimOperator`, called with
    a button name, and able to leave buttons out to test the failure path.

    :param controls: the simulator's controls (``hw.sim``).
    :param skip: buttons it never presses (to test the failure path).
    :param hold_s: how long each press lasts (shorter than the long-press time).
    """

    def __init__(
        self, controls: SimControls, *, skip: Iterable[str] = (), hold_s: float = 0.05
    ) -> None:
        self.controls = controls
        self.skip = frozenset(skip)
        self.hold_s = hold_s
        #: The buttons it pressed, in order.
        self.pressed: list[str] = []

    def __call__(self, button: str) -> None:
        if button in self.skip:
            return
        self.pressed.append(button)
        self.controls.tap(button, self.hold_s)


# -- status LEDs -----------------------------------------------------------------------------


def _led_pin(hw: Hardware, name: str) -> int | None:
    pins = hw.config.pins
    return pins.turn.get(name, pins.die.get(name))


def led_words(group: str, name: str) -> str:
    """A status LED as people name it: ``turn LED red``, ``Doom die LED move eliminator``
    (never the configuration's ``move_eliminator``)."""
    if group == "die":
        return f"Doom die LED {name.replace('_', ' ')}"
    return f"{group} LED {name}"


def check_status_leds(
    hw: Hardware,
    say: Say,
    confirm: Confirm | None,
    *,
    pause_s: float = 0.0,
) -> list[DeviceResult]:
    """Light each status LED alone and check it; every LED is dark afterwards."""
    leds = hw.status_leds
    names = [("turn", c) for c in leds.colours] + [("die", f) for f in leds.faces]
    results: list[DeviceResult] = []
    leds.off()
    try:
        for index, (group, name) in enumerate(names, 1):
            device = led_words(group, name)
            mark = len(hw.sim.led_changes) if hw.sim is not None else 0
            if group == "turn":
                leds.show_die(None)
                leds.show_turn(name)
            else:
                leds.show_turn(None)
                leds.show_die(name)
            say(f"({index}/{len(names)}) now lit: the {device}; every other status LED is dark")
            results.append(_check_led(hw, device, name, confirm, mark))
            if pause_s > 0:
                time.sleep(pause_s)
    finally:
        leds.off()
    return results


def _check_led(
    hw: Hardware, device: str, name: str, confirm: Confirm | None, mark: int
) -> DeviceResult:
    lit = sorted(n for n, on in hw.status_leds.state().items() if on)
    if lit != [name]:
        return DeviceResult(
            device, False, f"expected only {name} lit, but lit: {', '.join(lit) or 'none'}"
        )
    if hw.sim is not None:
        recorded = [c for c in hw.sim.led_changes[mark:] if c[1] == name and c[2]]
        if not recorded:
            return DeviceResult(device, False, "sim: no switch-on recorded for this LED")
        return DeviceResult(device, True, "sim: recorded on, the only status LED lit")
    pin = _led_pin(hw, name)
    where = f"GPIO {pin}" if pin is not None else "its pin"
    if confirm is None:
        return DeviceResult(
            device,
            None,
            f"{where} reads on; no terminal, so no one confirmed it is lit",
            "not confirmed",
        )
    if confirm(f"Is the {device} lit (and no other status LED)?"):
        return DeviceResult(device, True, f"{where} reads on; confirmed lit")
    return DeviceResult(
        device,
        False,
        f"{where} reads on but the LED was not seen lit: check its polarity, its resistor "
        f"and the wires from {where} to GND",
    )


# -- arena display ---------------------------------------------------------------------------


def check_display(hw: Hardware, say: Say) -> DeviceResult:
    """Show every cell state on the whole arena, then light each cell alone; read back."""
    display = hw.display
    size = display.size
    frames_before = len(hw.sim.frames) if hw.sim is not None else 0
    problems: list[str] = []
    try:
        for state in CellState:
            expected = blank_frame(state, size)
            display.show(expected)
            symbol = CELL_SYMBOLS.get(state, "?")
            say(f"arena display: every cell {state.value!r} ({symbol * size})")
            if display.frame != expected:
                problems.append(f"{state.value} did not read back")
        for row in range(size):
            for col in range(size):
                display.clear()
                display.set_cell((row, col), CellState.HIGHLIGHT)
                frame = display.frame
                lit = [
                    (r, c)
                    for r in range(size)
                    for c in range(size)
                    if frame[r][c] is not CellState.OFF
                ]
                if lit != [(row, col)]:
                    problems.append(f"cell ({row}, {col}) lit {lit}")
        say(f"arena display: each of the {size * size} cells highlighted on its own")
    finally:
        display.clear()
    count = len(CellState)
    if problems:
        return DeviceResult("arena display", False, "; ".join(problems[:5]))
    if hw.sim is not None:
        shown = len(hw.sim.frames) - frames_before
        return DeviceResult(
            "arena display",
            True,
            f"sim: {count} states and {size * size} single cells, {shown} frames recorded",
        )
    return DeviceResult(
        "arena display",
        True,
        f"{count} states and {size * size} single cells read back (in memory: the LED "
        "matrix has no I/O board yet)",
    )


# -- buttons ---------------------------------------------------------------------------------


def _is_pressed(hw: Hardware, name: str) -> bool:
    return hw.trigger.is_pressed if name == "trigger" else hw.buttons.is_pressed(name)


def _button_pin(hw: Hardware, name: str) -> int:
    return int(getattr(hw.config.pins, name))


def _wait_for(
    hw: Hardware, name: str, kind: str, deadline: float, seen: list[str] | None = None
) -> bool:
    """Read inputs until a *kind* event of *name* arrives (True) or *deadline* passes."""
    while (remaining := deadline - time.monotonic()) > 0:
        event = hw.next_input(remaining)
        if event is None:
            return False
        if event.button == name and event.kind == kind:
            return True
        if seen is not None and event.kind == "press" and event.button != name:
            seen.append(event.button)
    return False


def check_button(
    hw: Hardware,
    name: str,
    say: Say,
    *,
    timeout_s: float,
    operator: Operator | None = None,
) -> DeviceResult:
    """Ask for one press and release of button *name* within *timeout_s* seconds."""
    device = f"button {name}"
    label = _BUTTON_LABELS.get(name, name)
    pin = _button_pin(hw, name)
    simulated = " (simulated press)" if operator is not None and hw.sim is not None else ""
    hw.drain_inputs()
    if _is_pressed(hw, name):
        say(f"The {label} button reads pressed before the test: release it now.")
        if not _wait_for(hw, name, "release", time.monotonic() + timeout_s):
            return DeviceResult(
                device,
                False,
                f"stuck: reads pressed since before the test and was not released within "
                f"{timeout_s:g} s (a jammed switch, or GPIO {pin} shorted to GND)",
            )
    say(f"Press and release the {label} button (within {timeout_s:g} s){simulated}.")
    start = time.monotonic()
    others: list[str] = []
    if operator is not None:
        operator(name)
    if not _wait_for(hw, name, "press", start + timeout_s, others):
        detail = f"no press within {timeout_s:g} s"
        if others:
            detail += f"; pressed instead: {', '.join(others)} (wires swapped?)"
        detail += f"; check the switch and its wires from GPIO {pin} to GND"
        return DeviceResult(device, False, detail)
    pressed_after = time.monotonic() - start
    if not _wait_for(hw, name, "release", max(start + timeout_s, time.monotonic() + 1.0)):
        return DeviceResult(
            device,
            False,
            f"pressed, but not released within {timeout_s:g} s (stuck closed? check GPIO {pin})",
        )
    if simulated:
        return DeviceResult(device, True, "simulated press: pressed and released")
    return DeviceResult(device, True, f"pressed after {pressed_after:.1f} s and released")


# -- solenoid --------------------------------------------------------------------------------


def check_solenoid(
    hw: Hardware,
    say: Say,
    *,
    fire: bool,
    confirm_fire: Confirm | None,
    confirm: Confirm | None = None,
    timeout_s: float = 10.0,
    operator: Operator | None = None,
) -> DeviceResult:
    """
    Fire ONE test pulse through the guard, if *fire* and the person confirms.

    The guard is armed with :data:`SELFTEST_TOKEN`; the pulse fires for a
    red-button press, exactly as in a game (capped, cool-down respected). A cool-down
    still running (the guard counts one from its start) is waited out before arming,
    so the press asked for is not refused.
    """
    guard = hw.eliminator
    pulse_ms = hw.config.pulse_ms
    if not fire:
        return DeviceResult("solenoid", None, "not fired: run with --fire for one test pulse")
    if confirm_fire is None:
        return DeviceResult(
            "solenoid",
            None,
            f"not fired: --fire needs a person at a terminal to type {FIRE_WORD}; "
            "it never fires without one",
        )
    if guard.fault is not None:
        return DeviceResult("solenoid", False, f"driver fault latched: {guard.fault}")
    say(
        f"The solenoid will fire ONE pulse of {pulse_ms} ms. Keep fingers and faces away "
        "from the arena; the Eliminator may throw a tile."
    )
    if not confirm_fire(f"Type {FIRE_WORD} to arm it (anything else skips): "):
        return DeviceResult("solenoid", None, f"not fired: {FIRE_WORD} was not typed")
    left = guard.cooldown_left_s
    if left > 0:  # e.g. the hardware opened a moment ago: a press now would be refused
        say(f"Cooling down for {left:.1f} s before the solenoid may fire.")
        getattr(hw.clock, "sleep", time.sleep)(left)  # a ManualClock's sleep moves it
    pulses_before = len(hw.sim.pulses) if hw.sim is not None else 0
    hw.drain_inputs()
    guard.arm(SELFTEST_TOKEN)
    try:
        simulated = " (simulated press)" if operator is not None and hw.sim is not None else ""
        say(f"Armed. Press the red button to fire (within {timeout_s:g} s){simulated}.")
        if operator is not None:
            operator("trigger")
        deadline = time.monotonic() + timeout_s
        result = None
        while (remaining := deadline - time.monotonic()) > 0:
            event = hw.next_input(remaining)
            if event is None:
                break
            if not event.is_trigger_press:
                continue
            result = guard.fire(event)
            if result or result.reason is not Refusal.COOLING_DOWN:
                break
            say(f"Cooling down: press again in {result.retry_after_s or 0:.1f} s.")
    finally:
        guard.disarm()
    if result is None:
        return DeviceResult(
            "solenoid",
            False,
            f"armed, but no red-button press within {timeout_s:g} s; disarmed, nothing fired",
        )
    if not result:
        return DeviceResult(
            "solenoid", False, f"the guard refused ({result.reason}): {result.message}"
        )
    assert result.pulse is not None
    length_ms = result.pulse.length_s * 1000
    if hw.sim is not None:
        new = hw.sim.pulses[pulses_before:]
        if len(new) != 1:
            return DeviceResult("solenoid", False, f"sim: {len(new)} coil pulses recorded, not 1")
        return DeviceResult(
            "solenoid",
            True,
            f"sim: one coil pulse of {new[0].length_s * 1000:.0f} ms "
            f"(configured {pulse_ms} ms) through the guard",
        )
    detail = f"one pulse of {length_ms:.0f} ms (configured {pulse_ms} ms) through the guard"
    if confirm is None:
        return DeviceResult("solenoid", True, detail)
    if confirm("Did the Eliminator kick?"):
        return DeviceResult("solenoid", True, detail + "; kick confirmed")
    return DeviceResult(
        "solenoid",
        False,
        detail + ", but no kick was seen: check the 12 V supply, the fuse, the MOSFET and "
        "the coil wiring (hardware/wiring.md)",
    )


# -- the whole test --------------------------------------------------------------------------


def run_selftest(
    hw: Hardware,
    say: Say,
    confirm: Confirm | None,
    *,
    button_timeout_s: float = 10.0,
    fire: bool = False,
    confirm_fire: Confirm | None = None,
    operator: Operator | None = None,
    led_pause_s: float = 0.0,
) -> list[DeviceResult]:
    """
    Test every device of *hw* and return one :class:`DeviceResult` each.

    :param say: shows a line to the person at the table.
    :param confirm: asks a yes/no question about what the person sees; None
        when no one can answer (visual checks are then *not confirmed*).
    :param button_timeout_s: seconds to wait for each button press.
    :param fire: also fire one test pulse (after *confirm_fire*).
    :param confirm_fire: asks the person to allow the pulse (the command line
        wants the word :data:`FIRE_WORD`); None never fires.
    :param operator: called with a button name when a press is wanted (a
        :class:`SelftestOperator` on ``sim``; tests drive mock pins with it).
    :param led_pause_s: how long each LED stays lit when no one is asked.
    """
    results = check_status_leds(hw, say, confirm, pause_s=led_pause_s)
    results.append(check_display(hw, say))
    for name in BUTTON_ORDER:
        results.append(check_button(hw, name, say, timeout_s=button_timeout_s, operator=operator))
    results.append(
        check_solenoid(
            hw,
            say,
            fire=fire,
            confirm_fire=confirm_fire,
            confirm=confirm,
            timeout_s=button_timeout_s,
            operator=operator,
        )
    )
    hw.all_off()
    return results


def exit_code(results: Iterable[DeviceResult]) -> int:
    """0 if no tested device failed, 1 if any did."""
    return 1 if any(r.passed is False for r in results) else 0


def summary(results: Iterable[DeviceResult]) -> str:
    """One line: how many passed, failed, were not confirmed or skipped."""
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    order = ("pass", "FAIL", "not confirmed", "skipped")
    words = {"pass": "passed", "FAIL": "failed"}
    parts = [f"{counts[s]} {words.get(s, s)}" for s in order if counts.get(s)]
    parts += [f"{n} {s}" for s, n in counts.items() if s not in order]
    return ", ".join(parts) or "nothing tested"
