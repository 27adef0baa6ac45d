"""Red button -> coil on through the serial link, the arena frames per second it carries,
and what the host's frame codec costs.

The virtual I/O board (the firmware's own logic behind a pseudo-terminal,
``companion/hal/virtual_board.py``) runs in a process of its own
(``python -m companion.hal.virtual_board``), as a real board runs on its own
microcontroller: its firmware loop does not share this interpreter or its lock.
This process opens the real ``serial`` backend on the board's tty and runs a table
loop on its own thread doing what the companion's table loop does: wait on
``Hardware.next_input`` and pass each trigger press to ``Hardware.eliminator.fire``.
For every press the benchmark arms the guard and asks the board process to close the
red button's contact; the board process reports when the contact closed and when
the solenoid gate went high (both ``time.monotonic()`` in the board process): the
board debounces the edge, sends EVENT, the host's link thread receives it and, the
explosion being armed, fires through the guard itself (``SolenoidGuard.trigger_edge``,
as the gpio backend's button thread does): it sends ARM + FIRE, the board switches the
gate on. The table loop's ``fire`` then returns that pulse's result. ``--board
thread`` runs the board in this process instead (as before).

The cool-downs (host and board) are switched off through the explicit benchmark
override, never through the configuration, and the pulse is 1 ms.

The host's link thread runs at the scheduling the serial backend gets (``SCHED_FIFO``
where allowed, as the gpio backend's button thread), and the interpreter's switch interval
is the backend's (0.2 ms). While the presses run, the board process puts the firmware's
loop on ``SCHED_FIFO`` too (where allowed): a real board's loop has a microcontroller to
itself, and this machine's other work must not stand in for a board the table does not
have. ``--no-realtime`` puts both back on the normal policy, for comparison;
``--switch-interval-ms`` sets another switch interval.

Then it shows alternating arena frames through ``hw.display.show`` for a few
seconds and counts the images the board applied per second; and it times the host's
codec on a MATRIX frame (CRC-16, COBS, encode, decode).

Usage::

    python bench/serial_latency.py [--presses N] [--fps-seconds S] [--board process|thread]
                                   [--profile] [--hops] [--no-realtime]
                                   [--switch-interval-ms MS] [--strict]

``--profile`` samples both processes with py-spy (``pip install py-spy``) during the
presses and reports where the active time goes, by module. ``--hops`` stamps each hop
of every press (``time.monotonic()``, the same clock in both processes): board edge ->
the board's loop wrote the EVENT -> the host's link thread has read and decoded it ->
ARM + FIRE written (the guard, on the link thread) -> the board's loop was handed them
-> the board's gate high, and says where the median and the slowest 1 % went. Prints
median, p99 and max latency, the frame rate, the codec
timings, then a one-line JSON summary. With ``--strict`` the exit status is 1 if p99
is above the 5 ms target.
"""

from __future__ import annotations

import argparse
import binascii
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import timeit
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from companion.hal import FireResult, Hardware, HardwareConfig  # noqa: E402
from companion.hal import link as L  # noqa: E402
from companion.hal.realtime import SWITCH_INTERVAL_S  # noqa: E402
from companion.hal.serial_board import (  # noqa: E402
    LinkSettings,
    open_serial,
    open_virtual_board_hardware,
)

TARGET_P99_MS = 5.0
#: The virtual board's loop while the presses run (a microcontroller has its core to itself).
BOARD_PRIORITY = 10


HOPS = (
    ("edge", "sent", "board edge -> EVENT written by the board's firmware loop"),
    ("sent", "decoded", "EVENT written -> read and decoded by the host's link thread"),
    ("decoded", "written", "EVENT -> the guard -> ARM + FIRE written, on the link thread"),
    ("written", "read", "ARM + FIRE written -> read by the board's firmware loop"),
    ("read", "rise", "ARM + FIRE read -> the board's gate high"),
)


class Hops:
    """Stamps of one press at each hop (the bench's own wrappers around the host's objects)."""

    def __init__(self, hw: Hardware) -> None:
        self.current: dict[str, float] = {}
        self.rows: list[dict[str, float]] = []
        link = hw.link  # type: ignore[attr-defined]
        message, write_now = link._message, link._write_now

        def stamped_message(frame: L.Frame, now: float) -> None:
            if frame.type == L.MsgType.EVENT and "decoded" not in self.current:
                self.current["decoded"] = time.monotonic()
            message(frame, now)

        def stamped_write_now(data: bytes) -> bool:
            ok = write_now(data)
            if "decoded" in self.current:  # the first write after the EVENT: ARM + FIRE
                self.current.setdefault("written", time.monotonic())
            return ok

        link._message = stamped_message
        link._write_now = stamped_write_now

    def press(self) -> None:
        self.current = {}

    def done(self, stamps: dict) -> None:
        """The board's stamps of the press: edge, rise, and its writes to the host and reads
        from it in between. The EVENT is the board's last write before the host decoded it;
        the ARM + FIRE the board's last read before its gate went high."""
        row = {**self.current, "edge": stamps["edge"], "rise": stamps["rise"]}
        if "decoded" in row:
            sent = [t for t in stamps["to_host"] if t <= row["decoded"]]
            if sent:
                row["sent"] = sent[-1]
        if "written" in row:
            read = [t for t in stamps["to_board"] if t >= row["written"]]
            if read:
                row["read"] = read[-1]
        self.rows.append(row)

    def summary(self) -> dict:
        rows = [r for r in self.rows if all(a in r and b in r for a, b, _ in HOPS)]
        if not rows:
            return {}
        slowest = sorted(rows, key=lambda r: r["rise"] - r["edge"])[-max(1, len(rows) // 100) :]
        out = {"presses": len(rows), "hops": []}
        for a, b, name in HOPS:
            values = sorted((r[b] - r[a]) * 1000 for r in rows)
            out["hops"].append(
                {
                    "hop": name,
                    "median_ms": round(statistics.median(values), 3),
                    "p99_ms": round(percentile(values, 0.99), 3),
                    "slowest_1pct_mean_ms": round(
                        statistics.fmean((r[b] - r[a]) * 1000 for r in slowest), 3
                    ),
                }
            )
        return out


def table_loop(hw: Hardware, results: list[FireResult], fired: threading.Event) -> None:
    """A minimal table loop: fire on every trigger press until the hardware closes (an
    armed press has fired on the link thread already: fire() returns its result)."""
    while not hw.closed:
        event = hw.next_input(timeout=0.2)
        if event is not None and event.is_trigger_press:
            results.append(hw.eliminator.fire(event))
            fired.set()


def percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    index = max(0, min(len(sorted_values) - 1, round(fraction * len(sorted_values)) - 1))
    return sorted_values[index]


class ThreadBoard:
    """The board in this process (``--board thread``), with the process board's interface."""

    def __init__(self, hw: Hardware) -> None:
        self.vb = hw.virtual_board

    def fire_stamps(self, timeout: float) -> dict:
        edge = self.vb.press("trigger")
        return self.vb.press_stamps(edge, self.vb.wait_rise(edge, timeout))

    def release(self, name: str) -> float:
        return self.vb.release(name)

    def counts(self) -> dict[str, int]:
        return {"matrix_images": len(self.vb.matrix_images), "pulses": len(self.vb.pulses)}

    def set_firmware_priority(self, priority: int | None) -> str:
        return self.vb.set_firmware_priority(priority)


def measure_latency(
    hw: Hardware, board: object, presses: int, bounce_s: float, hops: Hops | None = None
) -> dict:
    latencies_ms: list[float] = []
    results: list[FireResult] = []
    fired = threading.Event()
    loop = threading.Thread(target=table_loop, args=(hw, results, fired), daemon=True)
    loop.start()
    missed: list[str] = []
    for i in range(presses):
        hw.wait_connected(5.0)
        hw.eliminator.arm(i)
        fired.clear()
        if hops is not None:
            hops.press()
        stamps = board.fire_stamps(2.0)  # type: ignore[attr-defined]
        edge, rise = stamps["edge"], stamps["rise"]
        handled = fired.wait(2.0)
        if rise is None:  # counted, not hidden: the press did not fire within 2 s
            reason = results[-1].reason if handled and results else "no press event"
            missed.append(f"press {i}: {reason}")
            hw.eliminator.resolve_outcome(3.0)  # type: ignore[attr-defined]
        else:
            latencies_ms.append((rise - edge) * 1000)
            if hops is not None:
                hops.done(stamps)
        time.sleep(bounce_s)
        board.release("trigger")  # type: ignore[attr-defined]
        time.sleep(bounce_s + 0.002)
    if not latencies_ms:
        raise RuntimeError(f"no press fired: {missed[:3]}")
    latencies_ms.sort()
    p99 = percentile(latencies_ms, 0.99)
    return {
        "presses": presses,
        "fired": sum(r.fired for r in results),
        "missed": missed,
        "median_ms": round(statistics.median(latencies_ms), 3),
        "p90_ms": round(percentile(latencies_ms, 0.90), 3),
        "p99_ms": round(p99, 3),
        "max_ms": round(latencies_ms[-1], 3),
        "ok": p99 <= TARGET_P99_MS and not missed,
    }


def measure_fps(hw: Hardware, board: object, seconds: float) -> dict:
    frames = [[["field"] * 5 for _ in range(5)], [["hole"] * 5 for _ in range(5)]]
    frames[1][2][2] = "blink"
    before = board.counts()["matrix_images"]  # type: ignore[attr-defined]
    shown = 0
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        hw.display.show(frames[shown % 2])
        shown += 1
    hw.link.flush(2.0)  # type: ignore[attr-defined]
    elapsed = time.monotonic() - start
    received = board.counts()["matrix_images"] - before  # type: ignore[attr-defined]
    return {
        "seconds": round(elapsed, 3),
        "frames_shown_by_host": shown,
        "frames_applied_by_board": received,
        "board_fps": round(received / elapsed, 1),
        "bytes_per_frame": 87,
    }


def measure_codec() -> dict:
    """Microseconds per call of the host's codec on a MATRIX frame (best of 5)."""
    payload = bytes((i * 7) % 256 for i in range(79))
    wire = L.encode_frame(L.MsgType.MATRIX, payload, seq=4, ack=9)
    body = L.cobs_decode(wire[:-1])
    stuffed = L.cobs_encode(body)

    def best(stmt: object, number: int = 20_000) -> float:
        runs = timeit.repeat(stmt, number=number, repeat=5)  # type: ignore[arg-type]
        return round(min(runs) / number * 1e6, 3)

    return {
        "crc16_us": best(lambda: binascii.crc_hqx(body, 0xFFFF)),
        "cobs_encode_us": best(lambda: L.cobs_encode(body)),
        "cobs_decode_us": best(lambda: L.cobs_decode(stuffed)),
        "encode_frame_us": best(lambda: L.encode_frame(L.MsgType.MATRIX, payload, seq=4, ack=9)),
        "decode_frame_us": best(lambda: L.FrameDecoder().feed(wire), 5000),
        "body_bytes": len(body),
    }


# -- where the time goes (py-spy) -------------------------------------------------------------

#: Where an active sample's innermost frame in one of these files puts it, first match wins.
CATEGORIES = (
    ("serial/", "pyserial (read, write, select)"),
    ("companion/hal/link.py", "host codec and go-back-N (link.py)"),
    ("cobs/", "host codec (cobs)"),
    ("companion/hal/serial_board.py", "host link thread and guard (serial_board.py)"),
    ("companion/hal/safety.py", "host solenoid guard (safety.py)"),
    ("companion/hal/events.py", "host input queue (events.py)"),
    ("enum.py", "enum construction and lookups"),
    ("fw_proto.py", "firmware codec and link (fw_proto.py)"),
    ("fw_logic.py", "firmware logic (fw_logic.py)"),
    ("mpshims/", "MicroPython shims (pins, pixels, timers)"),
    ("virtual_board.py", "virtual board (its USB loop on the pty; the host's pipe to it)"),
    ("threading.py", "thread hand-offs (threading)"),
    ("queue.py", "thread hand-offs (queue)"),
    ("dataclasses.py", "dataclasses"),
    ("struct", "struct"),
)


#: Innermost frames of a thread that is waiting, not working (py-spy counts a thread that
#: waits for the interpreter lock as active, so these are sorted out by name).
WAITING = ("select", "Event.wait", "Condition.wait", "_wait_for_tstate_lock", "sleep")


def classify(stack: list[str]) -> str:
    if not stack or any(stack[-1].startswith(w + " ") for w in WAITING):
        return "waiting (select, Event.wait, sleep)"
    for frame in reversed(stack):
        for needle, name in CATEGORIES:
            if needle in frame:
                return name
    return "other (interpreter, stdlib)"


def summarise_profile(raw: str) -> dict:
    """py-spy's raw output (``frame;frame;... count`` per line; with --subprocesses the
    first frame names the process) -> active samples per category, host and board."""
    tally: dict[str, Counter[str]] = {"host": Counter(), "board": Counter()}
    for line in raw.splitlines():
        stack_text, _, count = line.rpartition(" ")
        if not stack_text or not count.isdigit():
            continue
        stack = stack_text.split(";")
        process = [f for f in stack[:2] if f.startswith("process ")]
        side = "board" if any("companion.hal.virtual_board" in f for f in process) else "host"
        frames = stack[len(process) :]
        tally[side][classify(frames)] += int(count)
    out = {}
    for side, counts in tally.items():
        total = sum(counts.values())
        out[side] = {
            "samples": total,
            "share_pct": {k: round(100 * v / total, 1) for k, v in counts.most_common()}
            if total
            else {},
        }
    return out


class Profiler:
    """py-spy sampling this process and its children (the board) while running."""

    def __init__(self, rate: int = 1000) -> None:
        tool = shutil.which("py-spy") or shutil.which(
            "py-spy", path=str(Path(sys.executable).parent)
        )
        if tool is None:
            raise SystemExit("--profile needs py-spy: pip install py-spy")
        self.out = Path(tempfile.mkdtemp(prefix="serial-latency-")) / "profile.txt"
        self.proc = subprocess.Popen(
            [
                tool,
                "record",
                "--pid",
                str(os.getpid()),
                "--subprocesses",
                "--rate",
                str(rate),
                "--format",
                "raw",
                "--output",
                str(self.out),
                "--nonblocking",
                "--gil",  # only the thread holding the interpreter lock: the work, not the waits
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(1.0)  # py-spy attaches

    def stop(self) -> dict:
        self.proc.send_signal(2)  # SIGINT: py-spy writes what it sampled
        self.proc.wait(30)
        raw = self.out.read_text() if self.out.exists() else ""
        if os.environ.get("SERIAL_LATENCY_KEEP_PROFILE"):
            shutil.copy(self.out, os.environ["SERIAL_LATENCY_KEEP_PROFILE"])
        shutil.rmtree(self.out.parent, ignore_errors=True)
        return summarise_profile(raw)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=1000, help="default 1000")
    parser.add_argument("--fps-seconds", type=float, default=3.0, help="default 3")
    parser.add_argument("--bounce-ms", type=int, default=20, help="debounce time, default 20")
    parser.add_argument(
        "--board",
        choices=("process", "thread"),
        default="process",
        help="the virtual board in its own process (default) or in this one",
    )
    parser.add_argument("--profile", action="store_true", help="sample both sides with py-spy")
    parser.add_argument("--hops", action="store_true", help="stamp every hop of each press")
    parser.add_argument(
        "--no-realtime",
        action="store_true",
        help="comparison: the host's link thread and the board's loop on the normal policy",
    )
    parser.add_argument(
        "--switch-interval-ms",
        type=float,
        help="comparison: the interpreter's switch interval while measuring (the backend "
        "sets 0.2 ms)",
    )
    parser.add_argument("--strict", action="store_true", help="exit 1 if p99 is above the target")
    args = parser.parse_args(argv)
    if args.presses < 1:
        parser.error("--presses must be at least 1")
    config = HardwareConfig(profile="serial", pulse_ms=1, bounce_ms=args.bounce_ms)
    settings = LinkSettings(realtime_priority=None) if args.no_realtime else None
    child = None
    if args.board == "process":
        from companion.hal.virtual_board import VirtualBoardProcess

        child = VirtualBoardProcess(min_cooldown_ms=0)
        hw = open_serial(config, port=child.port, unsafe_cooldown_override_s=0.0, settings=settings)
        board: object = child
    else:
        hw = open_virtual_board_hardware(config, unsafe_cooldown_override_s=0.0, settings=settings)
        board = ThreadBoard(hw)
    profile = None
    load_before = os.getloadavg()[0]
    if args.switch_interval_ms is not None:
        sys.setswitchinterval(args.switch_interval_ms / 1000)
    try:
        # the board's loop stands for a microcontroller of its own: real-time priority while
        # the presses run (not while the frame rate is measured: that loop is then busy)
        board_scheduling = board.set_firmware_priority(  # type: ignore[attr-defined]
            None if args.no_realtime else BOARD_PRIORITY
        )
        profiler = Profiler() if args.profile else None
        hops = Hops(hw) if args.hops else None
        latency = measure_latency(hw, board, args.presses, args.bounce_ms / 1000, hops)
        if profiler is not None:
            profile = profiler.stop()
        board.set_firmware_priority(None)  # type: ignore[attr-defined]
        fps = measure_fps(hw, board, args.fps_seconds)
        stats = hw.link.stats
    finally:
        hw.close()
        if child is not None:
            child.close()
    codec = measure_codec()
    summary = {
        "bench": "serial_latency",
        "backend": "serial (pyserial) on a pty to the virtual board (firmware on CPython)",
        "board": "own process" if args.board == "process" else "a thread of the host process",
        # the host's link thread (the red button's EVENT, ARM + FIRE): SCHED_FIFO where allowed
        "link_thread": hw.link.scheduling,  # type: ignore[attr-defined]
        "board_loop": board_scheduling,
        "switch_interval_ms": args.switch_interval_ms or SWITCH_INTERVAL_S * 1000,
        "machine": {
            "python": platform.python_version(),
            "processor": platform.machine(),
            "system": platform.system(),
        },
        "latency": latency,
        "matrix": fps,
        "codec": codec,
        "profile": profile,
        "hops": hops.summary() if hops is not None else None,
        "link": {"retransmits": stats["retransmits"], "decode_errors": stats["decode_errors"]},
        "target_p99_ms": TARGET_P99_MS,
        "ok": latency["ok"],
        # other work on the machine: the latency's tail follows it
        "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "cpus": os.cpu_count(),
    }
    print(
        f"red button edge -> coil on, {latency['presses']} presses ({latency['fired']} fired), "
        f"board in {summary['board']} (its loop {board_scheduling}), host link thread "
        f"{summary['link_thread']}: "
        f"median {latency['median_ms']:.3f} ms, "
        f"p99 {latency['p99_ms']:.3f} ms, max {latency['max_ms']:.3f} ms "
        f"(target p99 <= {TARGET_P99_MS} ms)"
    )
    print(
        f"arena matrix: {fps['frames_applied_by_board']} frames applied by the board in "
        f"{fps['seconds']} s = {fps['board_fps']} frames/s "
        f"({fps['frames_shown_by_host']} shown by the host; newer images replace waiting ones)"
    )
    print(
        f"host codec, {codec['body_bytes']}-byte MATRIX body: CRC-16 {codec['crc16_us']} us, "
        f"COBS encode {codec['cobs_encode_us']} us / decode {codec['cobs_decode_us']} us, "
        f"frame encode {codec['encode_frame_us']} us / decode {codec['decode_frame_us']} us"
    )
    if summary["hops"]:
        for hop in summary["hops"]["hops"]:
            print(
                f"hop {hop['hop']}: median {hop['median_ms']:.3f} ms, p99 {hop['p99_ms']:.3f} ms,"
                f" in the slowest 1 % {hop['slowest_1pct_mean_ms']:.3f} ms"
            )
    if profile is not None:
        for side, data in profile.items():
            shares = ", ".join(f"{k} {v}%" for k, v in list(data["share_pct"].items())[:6])
            print(f"profile, {side} ({data['samples']} active samples): {shares}")
    print(json.dumps(summary))
    return 1 if args.strict and not summary["ok"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
