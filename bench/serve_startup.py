"""Start-up and memory of the table service.

Run from the repository root::

    python bench/serve_startup.py            # 10 starts
    python bench/serve_startup.py --runs 3 --json

Measures, each in a fresh process:

- ``companion --help``: wall time (target <= 0.3 s here);
- ``companion serve`` (simulated hardware): from process start to the ``ready``
  line, hardware opened (target <= 1 s here), then SIGTERM;
- peak resident memory (ru_maxrss) of ``companion serve --autoplay --games 3``,
  three whole assist games on simulated hardware (target <= 60 MB).

Every run keeps its journals in a temporary folder (``--journal-dir``), never in
the data directory a real ``serve`` resumes from.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMAND = [sys.executable, "-m", "companion"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
TARGETS = {"help_s": 0.3, "serve_ready_s": 1.0, "serve_rss_mb": 60.0}


def time_help() -> float:
    start = time.perf_counter()
    subprocess.run([*COMMAND, "--help"], cwd=ROOT, env=ENV, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def time_serve_ready(journals: str) -> float:
    return serve_until_ready(journals)[0]


def serve_until_ready(journals: str) -> tuple[float, list[str]]:
    """Seconds from starting ``companion serve --journal-dir journals`` (sim hardware) to
    its ``ready`` line, and the lines it wrote until then; then SIGTERM."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [*COMMAND, "serve", "--hardware", "sim", "--journal-dir", journals],
        cwd=ROOT,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if "ready" in line:
                elapsed = time.perf_counter() - start
                break
        else:
            raise RuntimeError("companion serve ended without saying ready")
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
    finally:
        proc.kill()
    return elapsed, lines


def serve_peak_rss_mb(journals: str) -> float:
    subprocess.run(
        [*COMMAND, "serve", "--autoplay", "--games", "3", "--journal-dir", journals],
        cwd=ROOT,
        env=ENV,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KiB on Linux


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    helps = sorted(time_help() for _ in range(args.runs))
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as journals:
        readies = sorted(time_serve_ready(journals) for _ in range(args.runs))
        rss = serve_peak_rss_mb(journals)
    result = {
        "machine": f"{platform.machine()} {platform.platform()}",
        "python": platform.python_version(),
        "runs": args.runs,
        "help_s": {"median": statistics.median(helps), "max": helps[-1]},
        "serve_ready_s": {"median": statistics.median(readies), "max": readies[-1]},
        "serve_rss_mb": {"peak": rss},
        "targets": TARGETS,
    }
    result["ok"] = (
        result["help_s"]["median"] <= TARGETS["help_s"]
        and result["serve_ready_s"]["median"] <= TARGETS["serve_ready_s"]
        and rss <= TARGETS["serve_rss_mb"]
    )
    if args.json:
        print(json.dumps(result))
    else:
        print(f"machine: {result['machine']}; python {result['python']}; {args.runs} runs")
        print(
            f"companion --help      median {statistics.median(helps):.3f} s  "
            f"max {helps[-1]:.3f} s   target <= {TARGETS['help_s']} s"
        )
        print(
            f"serve to ready        median {statistics.median(readies):.3f} s  "
            f"max {readies[-1]:.3f} s   target <= {TARGETS['serve_ready_s']} s"
        )
        print(
            f"serve peak RSS        {rss:.1f} MB (3 assist games)   "
            f"target <= {TARGETS['serve_rss_mb']} MB"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
