"""Red button -> coil on through the serial link, and the arena frames per second it carries.

Runs the virtual I/O board (the firmware's own logic behind a pseudo-terminal,
``companion/hal/virtual_board.py``) and the real ``serial`` backend on its
tty, with a table loop on its own thread doing what the companion's table loop
does: wait on ``Hardware.next_input`` and pass each trigger press to
``Hardware.eliminator.fire``. For every press the benchmark arms the guard,
closes the red button's contact on the virtual board and reads, from the
solenoid gate pin's history, how long after the edge the coil went on: the
board debounces the edge, sends EVENT, the host's link thread receives it, the
table loop fires through the guard, the host sends ARM + FIRE, the board
switches the gate on.

The cool-downs (host and board) are switched off through the explicit
benchmark override, never through the configuration, and the pulse is 1 ms.

Then it shows alternating arena frames through ``hw.display.show`` for a few
seconds and counts the images the board received and applied per second.

Usage::

    python bench/serial_latency.py [--presses N] [--fps-seconds S] [--strict]

Prints median, p99 and max latency, the frame rate, then a one-line JSON
summary. With ``--strict`` the exit status is 1 if p99 is above the 10 ms target.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from companion.hal import FireResult, Hardware, HardwareConfig  # noqa: E402
from companion.hal.serial_board import open_virtual_board_hardware  # noqa: E402

TARGET_P99_MS = 10.0


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


def measure_latency(hw: Hardware, presses: int, bounce_s: float) -> dict[str, object]:
    vb = hw.virtual_board
    latencies_ms: list[float] = []
    results: list[FireResult] = []
    fired = threading.Event()
    loop = threading.Thread(target=table_loop, args=(hw, results, fired), daemon=True)
    loop.start()
    for i in range(presses):
        hw.eliminator.arm(i)
        fired.clear()
        edge = vb.press("trigger")
        rise = vb.wait_rise(edge, 2.0)
        if rise is None:
            raise RuntimeError(f"press {i}: the coil did not go on within 2 s")
        latencies_ms.append((rise - edge) * 1000)
        if not fired.wait(2.0):
            raise RuntimeError(f"press {i} was not handled within 2 s")
        time.sleep(bounce_s)
        vb.release("trigger")
        time.sleep(bounce_s + 0.002)
    latencies_ms.sort()
    p99 = percentile(latencies_ms, 0.99)
    return {
        "presses": presses,
        "fired": sum(r.fired for r in results),
        "median_ms": round(statistics.median(latencies_ms), 3),
        "p99_ms": round(p99, 3),
        "max_ms": round(latencies_ms[-1], 3),
        "ok": p99 <= TARGET_P99_MS,
    }


def measure_fps(hw: Hardware, seconds: float) -> dict[str, object]:
    vb = hw.virtual_board
    frames = [[["field"] * 5 for _ in range(5)], [["hole"] * 5 for _ in range(5)]]
    frames[1][2][2] = "blink"
    before = len(vb.matrix_images)
    shown = 0
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        hw.display.show(frames[shown % 2])
        shown += 1
    deadline = time.monotonic() + 2.0
    while not hw.link._link.idle and time.monotonic() < deadline:
        time.sleep(0.001)
    elapsed = time.monotonic() - start
    received = len(vb.matrix_images) - before
    return {
        "seconds": round(elapsed, 3),
        "frames_shown_by_host": shown,
        "frames_applied_by_board": received,
        "board_fps": round(received / elapsed, 1),
        "bytes_per_frame": 87,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=1000, help="default 1000")
    parser.add_argument("--fps-seconds", type=float, default=3.0, help="default 3")
    parser.add_argument("--bounce-ms", type=int, default=20, help="debounce time, default 20")
    parser.add_argument("--strict", action="store_true", help="exit 1 if p99 is above the target")
    args = parser.parse_args(argv)
    if args.presses < 1:
        parser.error("--presses must be at least 1")
    config = HardwareConfig(profile="virtual-board", pulse_ms=1, bounce_ms=args.bounce_ms)
    hw = open_virtual_board_hardware(config, unsafe_cooldown_override_s=0.0)
    try:
        latency = measure_latency(hw, args.presses, args.bounce_ms / 1000)
        fps = measure_fps(hw, args.fps_seconds)
        stats = hw.link.stats
    finally:
        hw.close()
    summary = {
        "bench": "serial_latency",
        "backend": "serial (pyserial) on a pty to the virtual board (firmware on CPython)",
        "machine": {
            "python": platform.python_version(),
            "processor": platform.machine(),
            "system": platform.system(),
        },
        "latency": latency,
        "matrix": fps,
        "link": {"retransmits": stats["retransmits"], "decode_errors": stats["decode_errors"]},
        "target_p99_ms": TARGET_P99_MS,
        "ok": latency["ok"],
    }
    print(
        f"red button edge -> coil on, {latency['presses']} presses ({latency['fired']} fired): "
        f"median {latency['median_ms']:.3f} ms, p99 {latency['p99_ms']:.3f} ms, "
        f"max {latency['max_ms']:.3f} ms (target p99 <= {TARGET_P99_MS} ms)"
    )
    print(
        f"arena matrix: {fps['frames_applied_by_board']} frames applied by the board in "
        f"{fps['seconds']} s = {fps['board_fps']} frames/s "
        f"({fps['frames_shown_by_host']} shown by the host; newer images replace waiting ones)"
    )
    print(json.dumps(summary))
    return 1 if args.strict and not summary["ok"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
