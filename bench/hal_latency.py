"""Latency from the red button's edge to the solenoid pin going high.

Runs the real ``gpio`` backend on gpiozero's MockFactory pins, with a table
loop on its own thread doing what the companion's table loop does: wait on
``Hardware.next_input``, and pass each trigger press to
``Hardware.eliminator.fire``. For every press the benchmark arms the guard,
drives the trigger pin low (a press, with the Pi's pull-ups) and reads from the
solenoid pin's state history how long after the edge it went high.

The cool-down is switched off through the explicit benchmark override
(``unsafe_cooldown_override_s=0``), never through the configuration, and the
pulse is 1 ms so that 10,000 presses take seconds, not hours.

Usage::

    python bench/hal_latency.py [--presses N] [--pulse-ms MS] [--strict]

Prints the median, p99 and max latency in ms, then a one-line JSON summary.
With ``--strict`` the exit status is 1 if p99 is above the 2 ms target.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from gpiozero import Device  # noqa: E402
from gpiozero.pins.mock import MockFactory  # noqa: E402

from companion.hal import FireResult, Hardware, HardwareConfig, open_hardware  # noqa: E402

TARGET_P99_MS = 2.0


def table_loop(hw: Hardware, results: list[FireResult], fired: threading.Event) -> None:
    """A minimal table loop: fire on every trigger press until the hardware closes."""
    while not hw.closed:
        event = hw.next_input(timeout=0.2)
        if event is not None and event.is_trigger_press:
            results.append(hw.eliminator.fire(event))
            fired.set()


def percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    index = max(0, min(len(sorted_values) - 1, round(fraction * len(sorted_values)) - 1))
    return sorted_values[index]


def measure(presses: int, pulse_ms: int) -> dict[str, object]:
    """Press the trigger *presses* times; return the latency summary."""
    previous_factory = Device.pin_factory
    Device.pin_factory = factory = MockFactory()
    config = HardwareConfig(profile="gpio", pulse_ms=pulse_ms)
    latencies_ms: list[float] = []
    results: list[FireResult] = []
    fired = threading.Event()
    try:
        with open_hardware(config, unsafe_cooldown_override_s=0.0) as hw:
            trigger = factory.pin(config.pins.trigger)
            coil = factory.pin(config.pins.solenoid)
            loop = threading.Thread(target=table_loop, args=(hw, results, fired), daemon=True)
            loop.start()
            for i in range(presses):
                hw.eliminator.arm(i)
                fired.clear()
                coil.clear_states()  # states[0] is "now"; the next entry is the rise
                trigger.drive_low()
                if not fired.wait(2.0):
                    raise RuntimeError(f"press {i} was not handled within 2 s")
                rise = coil.states[1]
                if not rise.state:
                    raise RuntimeError(f"press {i}: the coil did not go high ({results[-1]})")
                latencies_ms.append(rise.timestamp * 1000)
                trigger.drive_high()
        loop.join(1.0)
    finally:
        factory.reset()
        Device.pin_factory = previous_factory
    latencies_ms.sort()
    p99 = percentile(latencies_ms, 0.99)
    return {
        "bench": "hal_latency",
        "backend": "gpio on gpiozero MockFactory",
        "presses": presses,
        "fired": sum(r.fired for r in results),
        "pulse_ms": pulse_ms,
        "median_ms": round(statistics.median(latencies_ms), 4),
        "p99_ms": round(p99, 4),
        "max_ms": round(latencies_ms[-1], 4),
        "target_p99_ms": TARGET_P99_MS,
        "ok": p99 <= TARGET_P99_MS,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=10_000, help="default 10000")
    parser.add_argument("--pulse-ms", type=int, default=1, help="solenoid pulse, default 1")
    parser.add_argument("--strict", action="store_true", help="exit 1 if p99 is above the target")
    args = parser.parse_args(argv)
    if args.presses < 1:
        parser.error("--presses must be at least 1")
    summary = measure(args.presses, args.pulse_ms)
    print(
        f"trigger edge -> solenoid high, {summary['presses']} presses "
        f"({summary['fired']} fired): median {summary['median_ms']:.3f} ms, "
        f"p99 {summary['p99_ms']:.3f} ms, max {summary['max_ms']:.3f} ms "
        f"(target p99 <= {TARGET_P99_MS} ms)"
    )
    print(json.dumps(summary))
    return 1 if args.strict and not summary["ok"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
