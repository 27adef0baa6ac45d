"""A season on one Pi: resident memory of a long ``companion serve --autoplay``.

Run from the repository root::

    python bench/season_memory.py                             # sim: RSS after 10 and 1,000 games
    python bench/season_memory.py --profile virtual-board --games 30
    python bench/season_memory.py --games 40 --json

Starts ``companion serve --autoplay --games N --journal-dir <temporary folder>``
on the given hardware profile (simulated people press the buttons; ``sim`` runs
on simulated time, the virtual I/O board in real time, about 45 s a game) and
reads the process's resident set size (``VmRSS`` in ``/proc/<pid>/status``) as
each game ends (the ``game N over`` line), the real service with its real
output (a pipe, as under systemd). Target: RSS after the last game within 5 MB
of RSS after game 10. Everything the service writes stays in the temporary
folder; retention (``[journal] keep_finished``, default 500) applies as on a Pi.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMAND = [sys.executable, "-m", "companion"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
TARGET_GROWTH_MB = 5.0
FIRST = 10
GAME_OVER = re.compile(r"\bgame (\d+) over after")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/<pid>/status")


def season(profile: str, games: int, every: int, first: int) -> dict[int, float]:
    """RSS (MB) after game ``first``, every ``every`` games, and the last game."""
    with tempfile.TemporaryDirectory(prefix="bench-season-memory-") as journals:
        proc = subprocess.Popen(
            [
                *COMMAND,
                "serve",
                "--autoplay",
                "--hardware",
                profile,
                "--games",
                str(games),
                "--journal-dir",
                journals,
            ],
            cwd=ROOT,
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        samples: dict[int, float] = {}
        recent: deque[str] = deque(maxlen=40)  # the service's last lines, if it fails
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                recent.append(line)
                found = GAME_OVER.search(line)
                if found is None:
                    continue
                number = int(found.group(1))
                if number in (1, first, games) or number % every == 0:
                    samples[number] = rss_mb(proc.pid)
            proc.wait(timeout=120)
        finally:
            proc.kill()
        if proc.returncode != 0:
            raise RuntimeError(
                f"companion serve exited with {proc.returncode} after {len(samples)} "
                "sampled games; its last lines:\n" + "".join(recent)
            )
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", choices=("sim", "virtual-board"), default="sim")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--every", type=int, default=100, help="also sample every N games")
    parser.add_argument("--first", type=int, default=FIRST, help="the game compared against")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.first <= args.games:
        parser.error("--first must be 1..--games")
    load_before = os.getloadavg()
    started = time.perf_counter()
    samples = season(args.profile, args.games, args.every, args.first)
    seconds = time.perf_counter() - started
    growth = samples[args.games] - samples[args.first]
    result = {
        "machine": f"{platform.machine()} {platform.platform()}",
        "python": platform.python_version(),
        "profile": args.profile,
        "games": args.games,
        "first": args.first,
        "seconds": seconds,
        "rss_mb": {str(k): v for k, v in sorted(samples.items())},
        "growth_mb": growth,
        "target_growth_mb": TARGET_GROWTH_MB,
        "ok": growth <= TARGET_GROWTH_MB,
        "load_before": list(load_before),
        "load_after": list(os.getloadavg()),
    }
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"machine: {result['machine']}; python {result['python']}")
    print(f"serve --autoplay --hardware {args.profile}: {args.games} games in {seconds:.0f} s")
    for number, value in sorted(samples.items()):
        print(f"  after game {number:>5}: RSS {value:6.1f} MB")
    print(
        f"growth from game {args.first} to game {args.games}: {growth:+.1f} MB "
        f"(target <= {TARGET_GROWTH_MB} MB)"
    )
    print(f"load average before {load_before[0]:.2f}, after {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
