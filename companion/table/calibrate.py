"""Solenoid calibration behind ``companion calibrate``, free of any terminal.

The shortest pulse that still throws a tile is the kindest to the coil and the
fingers around it. :func:`calibrate` tries pulse lengths from a safe minimum
upwards; each try is one :func:`~companion.table.selftest.check_solenoid`: a person
types ``FIRE`` (anything else stops), the guard is armed, the red button fires ONE
pulse through the normal :class:`~companion.hal.SolenoidGuard` path (capped at
:data:`~companion.hal.PULSE_HARD_CAP_MS`, refused while cooling down or after a
driver fault). Then the person says what the tile did:

* ``y``: it flew out cleanly; this length is chosen;
* ``n``: it did not; try the next, longer pulse;
* ``r``: try the same length again (the tile was not in place, say);
* ``q``: stop without choosing.

The guard fixes its pulse length when it is built, so every try opens the hardware
anew with that length (``open_step``); between tries the configured cool-down is
waited out from the end of the last pulse, as the guard would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass

from companion.hal import PULSE_HARD_CAP_MS, Hardware
from companion.table.selftest import Confirm, DeviceResult, Operator, Say, check_solenoid

__all__ = ["ANSWERS", "CalibrationTry", "calibrate", "pulse_lengths"]

#: What the person answers after a pulse.
ANSWERS = {"y": "keep", "n": "longer", "r": "again", "q": "stop"}


@dataclass(frozen=True)
class CalibrationTry:
    """One try: the pulse length, what the guard did, and the person's answer (or None)."""

    pulse_ms: int
    result: DeviceResult
    answer: str | None


def pulse_lengths(start_ms: int, step_ms: int, max_ms: int = PULSE_HARD_CAP_MS) -> Iterator[int]:
    """``start_ms``, ``start_ms + step_ms``, ... up to ``max_ms`` (never past the hard cap)."""
    if not 1 <= start_ms <= max_ms <= PULSE_HARD_CAP_MS or step_ms < 1:
        raise ValueError(
            f"pulse lengths must satisfy 1 <= start ({start_ms}) <= max ({max_ms}) <= "
            f"{PULSE_HARD_CAP_MS} ms and a step of 1 ms or more (got {step_ms})"
        )
    yield from range(start_ms, max_ms + 1, step_ms)


def calibrate(
    open_step: Callable[[int], AbstractContextManager[Hardware]],
    say: Say,
    confirm_fire: Confirm,
    ask: Callable[[str], str],
    *,
    start_ms: int,
    step_ms: int,
    max_ms: int = PULSE_HARD_CAP_MS,
    cooldown_s: float,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
    timeout_s: float = 30.0,
    operator_for: Callable[[Hardware], Operator | None] = lambda hw: None,
    tries: list[CalibrationTry] | None = None,
) -> int | None:
    """
    Try longer and longer pulses until the person keeps one; return it, or None.

    :param open_step: opens the hardware with the given pulse length (a context manager).
    :param confirm_fire: asks for the typed ``FIRE`` before each pulse.
    :param ask: asks what the tile did; answers as in :data:`ANSWERS` (``q`` on anything
        it cannot get, e.g. end of input).
    :param cooldown_s: waited out between two pulses, from the end of the first.
    :param clock: monotonic seconds of the hardware (the sim's manual clock in tests).
    :param sleep: waits on that clock.
    :param operator_for: presses the red button on simulated hardware.
    :param tries: if given, every try is appended to it.
    """
    lengths = list(pulse_lengths(start_ms, step_ms, max_ms))
    index = 0
    last_end: float | None = None
    while index < len(lengths):
        pulse_ms = lengths[index]
        if last_end is not None:
            wait = cooldown_s - (clock() - last_end)
            if wait > 0:
                say(f"Cooling down for {wait:.1f} s before the next pulse.")
                sleep(wait)
        nxt = f"; next {lengths[index + 1]} ms" if index + 1 < len(lengths) else ""
        say(f"Try {index + 1}: a pulse of {pulse_ms} ms (from {start_ms} ms up to {max_ms}{nxt}).")
        with open_step(pulse_ms) as hw:
            result = check_solenoid(
                hw,
                say,
                fire=True,
                confirm_fire=confirm_fire,
                timeout_s=timeout_s,
                operator=operator_for(hw),
            )
            if hw.eliminator.last_pulse is not None:
                last_end = clock()
        if not result.passed:  # not typed, refused or no press: nothing more to learn
            if tries is not None:
                tries.append(CalibrationTry(pulse_ms, result, None))
            say(f"{result.detail[:1].upper()}{result.detail[1:]}. Stopping; nothing chosen.")
            return None
        longer = f"n = try {lengths[index + 1]} ms" if index + 1 < len(lengths) else "n = give up"
        answer = ask(
            f"Did the tile fly out cleanly? [y = keep {pulse_ms} ms / {longer} / "
            "r = this length again / q = stop] "
        )
        if tries is not None:
            tries.append(CalibrationTry(pulse_ms, result, answer))
        if answer == "y":
            return pulse_ms
        if answer == "q":
            return None
        if answer == "n":
            index += 1
    say(
        f"No length up to {max_ms} ms threw the tile: check the 12 V supply, the coil and "
        "the Eliminator's mechanics (hardware/wiring.md). Nothing chosen."
    )
    return None
