"""Import cost: CPU time of fresh processes beside a bare interpreter.

Run from the repository root::

    python bench/import_time.py              # 21 rounds
    python bench/import_time.py --runs 5 --json

Each round starts, one after another, a bare ``python -c pass`` and each case below in
a fresh process, so a busy moment of the shared machine falls on all of them alike.
A process's CPU time (user + system) is read with ``resource.getrusage(RUSAGE_CHILDREN)``
around its run: the work the process did, not the time it waited for a core. Figures are
medians over the rounds; *beyond bare* is the median of each round's difference to the
bare interpreter of the same round.

Cases:

- ``help``: ``companion --help`` (the console script's import and argument parsing);
- ``cli``: ``import companion.cli``;
- ``serve``: the serve path with both backends of a Raspberry Pi table: the command line
  and its parser (which ``companion serve`` builds too), ``companion.commands.serve`` and
  the ``gpio`` and ``serial`` backends (gpiozero and pyserial included): every module
  ``companion serve`` has imported when it logs ``ready`` on either backend, give or take
  the pin factory (``tests/table/test_serve_imports.py`` checks that, and what serve
  must not import by then);
- ``dashboard``: ``serve`` and then what the first game's dashboard imports right after
  ``ready`` (rich, ``companion.ui``): what the process has paid once it draws the table,
  with or without a terminal (without one, under systemd, it prints the dashboard);
- ``libraries``: only the serve path's libraries, gpiozero and pyserial (with its port
  finder and cobs): the part of ``serve`` that is not the companion's own.

Targets (issue 18): ``serve`` <= 0.12 s CPU beyond bare; ``help`` <= 1.5x bare.
Find what a case costs with ``python -X importtime -c "import companion.cli"``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Bytecode cached as on an installed system (pip compiles on install): a
# PYTHONDONTWRITEBYTECODE in the environment would have every process compile every module.
# The cache goes to a temporary folder (PYTHONPYCACHEPREFIX), not into the checkout.
ENV = {
    **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    "PYTHONPATH": str(ROOT),
}
SERVE_IMPORTS = (
    "import companion.cli, companion.logs, companion.commands.serve, companion.data, "
    "companion.hal.gpio, companion.hal.serial_board; "
    "companion.cli.build_parser().parse_args(['serve'])"
)
DASHBOARD_IMPORTS = (
    SERVE_IMPORTS + "; import companion.ui.dashboard, rich.console; rich.console.Console()"
)
LIBRARY_IMPORTS = "import gpiozero, serial, serial.tools.list_ports, cobs.cobs"
CASES: dict[str, list[str]] = {
    "bare": [sys.executable, "-c", "pass"],
    "help": [sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())"],
    "cli": [sys.executable, "-c", "import companion.cli"],
    "serve": [sys.executable, "-c", SERVE_IMPORTS],
    "dashboard": [sys.executable, "-c", DASHBOARD_IMPORTS],
    "libraries": [sys.executable, "-c", LIBRARY_IMPORTS],
}
HELP_ARGV = {"help": ["--help"]}
TARGETS = {"serve_beyond_bare_s": 0.12, "help_ratio": 1.5}


def cpu_seconds(command: list[str]) -> float:
    """CPU time (user + system) of one fresh process running ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=ROOT, env=ENV, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(runs: int) -> dict[str, list[float]]:
    """CPU seconds of every case, ``runs`` interleaved rounds (one warm-up round first,
    which also writes the bytecode cache)."""
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for round_ in range(runs + 1):
        for name, command in CASES.items():
            seconds = cpu_seconds(command + HELP_ARGV.get(name, []))
            if round_:  # the first round warms the file cache and the bytecode
                times[name].append(seconds)
    return times


def summary(times: dict[str, list[float]]) -> dict:
    bare = times["bare"]
    cases = {}
    for name, values in times.items():
        beyond = [v - b for v, b in zip(values, bare, strict=True)]
        cases[name] = {
            "median_s": statistics.median(values),
            "beyond_bare_s": statistics.median(beyond),
            "ratio": statistics.median(v / b for v, b in zip(values, bare, strict=True) if b),
        }
    serve, help_ = cases["serve"]["beyond_bare_s"], cases["help"]["ratio"]
    return {
        "cases": cases,
        "targets": TARGETS,
        "serve_ok": serve <= TARGETS["serve_beyond_bare_s"],
        "help_ok": help_ <= TARGETS["help_ratio"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="interleaved rounds (default 21)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-pycache-") as cache:
        ENV["PYTHONPYCACHEPREFIX"] = cache
        result = summary(measure(args.runs))
    result["runs"] = args.runs
    result["serve_imports"] = SERVE_IMPORTS
    result["load_average_1min"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    result["python"] = sys.version.split()[0]
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{args.runs} rounds; 1-minute load average {result['load_average_1min']}")
    for name, c in result["cases"].items():
        print(
            f"{name:9} median {c['median_s'] * 1000:7.1f} ms CPU   beyond bare "
            f"{c['beyond_bare_s'] * 1000:7.1f} ms   x{c['ratio']:.2f} bare"
        )
    print(
        f"serve beyond bare <= {TARGETS['serve_beyond_bare_s']} s: "
        f"{'met' if result['serve_ok'] else 'MISSED'}; help <= {TARGETS['help_ratio']}x bare: "
        f"{'met' if result['help_ok'] else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
