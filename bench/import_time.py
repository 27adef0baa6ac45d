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

- ``help``: ``companion --help``, the command pip installed (its console script, which
  imports ``re`` first, then the companion's import and argument parsing);
- ``cli``: ``import companion.cli``;
- ``serve``: the serve path with both backends of a Raspberry Pi table: the command line
  and its parser (which ``companion serve`` builds too), ``companion.commands.serve``, the
  assist-mode engine that replays the game it resumes, and
  the ``gpio`` and ``serial`` backends (gpiozero and pyserial included): every module
  ``companion serve`` has imported when it logs ``ready`` on either backend, give or take
  the pin factory (``tests/table/test_serve_imports.py`` checks that, and what serve
  must not import by then);
- ``serve-gpio``, ``serve-serial``: the same with one backend, as a table runs it (a
  gpio table never imports pyserial, a serial one never gpiozero);
- ``dashboard``: ``serve`` and then what serve imports right after ``ready``: the table
  loop that plays the games, the people at the table and the first game's dashboard
  (rich, ``companion.ui``): what the process has paid once it draws the table, with or
  without a terminal (without one, under systemd, it prints the dashboard);
- ``libraries``: only the serve path's libraries, gpiozero and pyserial (with its port
  finder and cobs): the part of ``serve`` that is not the companion's own;
  ``library-gpio`` and ``library-serial`` each backend's alone.

Targets (issue 18): ``serve`` <= 0.12 s CPU beyond bare (judged for both backends at once
and for each alone); ``help`` <= 1.5x bare. Find what a case costs with
``python -X importtime -c "import companion.cli"`` (``PYTHONDONTWRITEBYTECODE=`` so that
the bytecode is cached) and, unmoved by load, instructions counted by
``valgrind --tool=callgrind python -c CODE`` minus those of ``python -c pass``.

The interpreter (:func:`installed_python`) starts as on a table where the companion is
installed from its wheel, and the companion is that wheel, built from the checkout and
installed by pip (:func:`installed_companion`; the cases start outside the checkout, with
no PYTHONPATH). Until issue 18's seventh round the cases imported the checkout through
PYTHONPATH and ``help`` ran ``python -c "...main()" --help`` rather than the command:
pip's console script imports ``re``, which ``argparse`` imports too, so the figure hardly
moved (62 M instructions beyond bare either way), but ``re`` alone is 1.64x a bare start
here (median of 40 starts; 26 M instructions beyond a bare start's 36 M, where 1.5x leaves
18 M): ``companion --help`` as pip installs it cannot reach 1.5x bare whatever the
companion does. Until issue 18's fourth round this script ran the checkout's
``pip install -e`` interpreter, whose every start loads setuptools' editable finder
(pathlib, re, enum, contextlib, importlib.util: about 17 ms and 44 M instructions here):
in the bare interpreter that hid what ``--help`` and the serve path pay for those modules
(``--help`` measured 1.45x bare that way, 2.8x as a table starts it).

Where it goes (2026-11-24, Python 3.11, instructions beyond a bare start of the installed
interpreter (36-38 M), callgrind with ``PYTHONHASHSEED=0``; at about 0.3 ms of CPU per
million here on a quiet day, 0.12 s is about 400 M; on a slow day the same instructions
measure about 1.5 times the CPU time). The serve cases import the assist-mode engine that
the resume replays (until the fifth round the session's own import brought it in):

==================================  ==========  ==========  ==========  ==========
case                                 round 3     round 4     round 5     round 6
==================================  ==========  ==========  ==========  ==========
serve-serial                         445 M       433 M       319 M       317 M
serve-gpio                           523 M       512 M       421 M       419 M
serve (both backends)                569 M       572 M       439 M       440 M
dashboard (what is drawn at ready)   --          678 M       563 M       559 M
``companion --help``                  80 M        62 M        62 M        62 M
library-serial (pyserial + cobs)      45 M        45 M        45 M        45 M
library-gpio (gpiozero)              288 M       288 M       288 M       288 M
==================================  ==========  ==========  ==========  ==========

*Round 4*: an assist-mode table resumes without the Battle Royale engine's state (the
package loads it and ``GAME`` on first use, PEP 562; a resume reads the configuration
class itself); ``--help`` no longer imports pathlib (through the data-file check, now
imported when a data file is named, and an annotation). Earlier rounds moved the table
loop, the people at the table and the log view to right after ``ready``
(``tests/table/test_serve_imports.py`` pins both).

*Round 5*: ``dataclass()`` was 36-48 ms of the serve path's 150-210 ms of CPU
(``time.process_time`` around ``dataclasses._process_class``; 69 classes, 0.5 to 2.3 ms
each: on Python 3.11, which a Pi OS Bookworm table runs, it compiles each generated method
in its own ``exec``, six a frozen class, and ``slots=True`` builds the class twice). The
records start-up reads are now ``companion.records.Record``: dataclasses (frozen, or
mutable with ``frozen=False``) whose ``__init__``, ``__eq__`` and ``__hash__`` are
compiled together on a class's first use (the machinery the engines' actions already had,
moved out of ``games/core/actions.py``): ``dataclass()`` is 5-8 ms of 130-162 ms now,
the fields of the records and the engines' slotted ``Event``. The fire path's three
records are compiled at import (``eager=True``, about 3 M): the first press does not pay.
``games/core`` and ``games/battle_royale`` give their names on first use
(``games/lazy.py``), so reading a configuration loads no engine; the session loads assist
mode's engine when a game starts or resumes.

*Round 6* (2026-11-25; main measured again 320.5 M serial, 423.1 M gpio, the round-5
column's commit give or take 1-2 M): the ``sim`` backend (and ``ManualClock``) loads when
the sim profile is opened or first named (PEP 562), so a gpio or serial table never loads
it (serial 320.5 -> 318.9 M); a record without a docstring carries its class name as a
placeholder while ``dataclass()`` reads its fields (an empty ``__doc__`` counts as none,
and ``dataclass()`` worked ``inspect.signature`` out for 8 classes: 318.9 -> 317.3 M).
Counted per module (callgrind dumps around each module's execution), the serial path's
320 M: the cyclic garbage collector 43 M (16 M in 45 collections during the imports,
27.5 M at the interpreter's exit, which a running table does not pay at start-up),
unmarshalling bytecode 48 M (the companion's files about 11 M of it), class creation 45 M,
the companion's own module bodies about 90 M (``dataclass()`` reading the records' fields
about 51 k a class and 46 k a field, 68 classes and 248 fields; the three eager records and
the module constants' compiled methods 10.8 M), the rest the standard library the path
needs (socket for sd_notify 12.8 M, typing 10 M, hashlib 10 M, importlib.resources with
tempfile and shutil 7.5 M). Measured and left: socket imported only under systemd (-12.8 M
here, but a table under systemd pays it before ``ready``); the collector off until ``ready``
and then frozen (-16 M at start-up; the objects of start-up would then never be collected,
a design decision for the serve command rather than an import); bypassing ``dataclass()``'s
string-annotation checks (-5 M, relies on dataclasses' internals); compiling ``__eq__`` and
``__hash__`` apart from ``__init__`` (-4 M here, -2.5 M on a real resume).

What is left is the standard library the path needs (logging with traceback and
threading, argparse with gettext and locale, typing, dataclasses with inspect, ast and
dis, tomllib with datetime, json, hashlib with OpenSSL, socket for sd_notify, fractions
with decimal, pathlib with urllib.parse, tempfile with shutil, random) and module bodies.
gpiozero alone is 288 M (about 90-150 ms of CPU here): its ``devices`` module imports
``importlib.metadata`` at module level, which every gpiozero import pays, so
``serve-gpio`` cannot reach 0.12 s whatever the companion does. ``companion --help``
cannot reach 1.5x a bare start with argparse: ``import argparse`` alone is 1.85x bare here
and building and printing a help 2.35-2.5x (argparse imports re, gettext, and formats with
textwrap); the companion's own part is nearly nothing (2.47x against 2.88x before round 4,
medians of 9 rounds, alternated).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import site
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Bytecode cached as on an installed system (pip compiles on install): a
# PYTHONDONTWRITEBYTECODE in the environment would have every process compile every module.
# The cache goes to a temporary folder (PYTHONPYCACHEPREFIX), not into the checkout.
# The companion comes from the wheel installed beside the interpreter (:func:`installed_companion`),
# not the checkout: no PYTHONPATH, and the processes start outside the checkout.
ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
#: the command line, serve, and the engine that replays the unfinished game a table
#: resumes before it is ready (assist mode, a table's default: the pieces on the table are
#: the truth)
SERVE_COMMON = (
    "import companion.cli, companion.logs, companion.commands.serve, companion.data, "
    "companion.games.battle_royale.assist"
)
PARSE_SERVE = "companion.cli.build_parser().parse_args(['serve'])"
#: per backend: a table runs one of them (the other's library is never imported)
SERVE_BACKENDS = {"gpio": "companion.hal.gpio", "serial": "companion.hal.serial_board"}
SERVE_IMPORTS = f"{SERVE_COMMON}, {', '.join(SERVE_BACKENDS.values())}; {PARSE_SERVE}"
#: what serve imports right after ``ready``: the table loop that plays the games, the
#: simulated people (``--autoplay``) and the first game's dashboard
DASHBOARD_IMPORTS = (
    SERVE_IMPORTS + "; import companion.table.assist, companion.table.people, "
    "companion.ui.dashboard, rich.console; rich.console.Console()"
)
LIBRARIES = {"gpio": "gpiozero", "serial": "serial, serial.tools.list_ports, cobs.cobs"}
LIBRARY_IMPORTS = f"import {', '.join(LIBRARIES.values())}"
CASES: dict[str, list[str]] = {
    "bare": [sys.executable, "-c", "pass"],
    "help": ["companion", "--help"],  # the console script pip wrote (installed_companion)
    "cli": [sys.executable, "-c", "import companion.cli"],
    "serve": [sys.executable, "-c", SERVE_IMPORTS],
    **{
        f"serve-{name}": [sys.executable, "-c", f"{SERVE_COMMON}, {module}; {PARSE_SERVE}"]
        for name, module in SERVE_BACKENDS.items()
    },
    "dashboard": [sys.executable, "-c", DASHBOARD_IMPORTS],
    "libraries": [sys.executable, "-c", LIBRARY_IMPORTS],
    **{f"library-{name}": [sys.executable, "-c", f"import {m}"] for name, m in LIBRARIES.items()},
}
TARGETS = {"serve_beyond_bare_s": 0.12, "help_ratio": 1.5}


def installed_python(folder: str) -> str:
    """An interpreter that starts as on a table where the companion is installed from its
    wheel: a virtual environment in ``folder`` whose one ``.pth`` file puts this
    interpreter's site-packages on its path (the libraries: gpiozero, pyserial, ...), so
    that their ``.pth`` files are not run. A ``pip install -e`` checkout's ``.pth`` loads
    setuptools' editable finder at every start (pathlib, re, enum, ~17 ms here), which a
    table never runs: in a bare interpreter it would hide what the serve path pays for
    those modules."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", folder], check=True)
    python = Path(folder, "bin", "python")
    target = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    Path(target, "libraries.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return str(python)


def installed_companion(folder: str) -> str:
    """The ``companion`` command as a table has it: the checkout built into a wheel and
    installed by pip (without its dependencies: the interpreter of :func:`installed_python`
    reaches them) into a virtual environment in ``folder``; its path. The command is
    pip's console script, which imports :mod:`re` before the companion (``re`` alone is
    about 1.6x a bare start here), as every ``companion`` a user types or systemd starts
    (``deploy/companion.service``) does."""
    python = installed_python(folder)
    dist = Path(folder, "dist")
    pip = [sys.executable, "-m", "pip", "--quiet", "--disable-pip-version-check"]
    quiet = {"check": True, "stdout": subprocess.DEVNULL, "env": ENV}
    subprocess.run([*pip, "wheel", "--no-deps", "--wheel-dir", str(dist), str(ROOT)], **quiet)
    (wheel,) = dist.glob("*.whl")
    # --ignore-installed: the libraries' site-packages, which the interpreter reaches, may
    # hold the checkout's own ``pip install -e`` (pip would take it as installed already)
    install = ["install", "--no-deps", "--no-index", "--ignore-installed", str(wheel)]
    subprocess.run([*pip, "--python", python, *install], **quiet)
    return str(Path(python).parent / "companion")


def cpu_seconds(command: list[str], cwd: str) -> float:
    """CPU time (user + system) of one fresh process running ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=cwd, env=ENV, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(runs: int, companion: str) -> dict[str, list[float]]:
    """CPU seconds of every case, ``runs`` interleaved rounds (one warm-up round first,
    which also writes the bytecode cache), run by the interpreter beside the installed
    ``companion`` command (:func:`installed_companion`) from the folder above its
    environment: nothing of the checkout on the path."""
    python = str(Path(companion).with_name("python"))
    cwd = str(Path(companion).parents[2])  # venv/bin/companion: the venv's folder
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for round_ in range(runs + 1):
        for name, command in CASES.items():
            head = [companion] if command[0] == "companion" else [python]
            seconds = cpu_seconds([*head, *command[1:]], cwd)
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
    target = TARGETS["serve_beyond_bare_s"]
    return {
        "cases": cases,
        "targets": TARGETS,
        "serve_ok": cases["serve"]["beyond_bare_s"] <= target,
        **{
            f"serve_{name}_ok": cases[f"serve-{name}"]["beyond_bare_s"] <= target
            for name in SERVE_BACKENDS
        },
        "help_ok": cases["help"]["ratio"] <= TARGETS["help_ratio"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="interleaved rounds (default 21)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-import-") as tmp:
        ENV["PYTHONPYCACHEPREFIX"] = f"{tmp}/pycache"
        result = summary(measure(args.runs, installed_companion(f"{tmp}/venv")))
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
            f"{name:14} median {c['median_s'] * 1000:7.1f} ms CPU   beyond bare "
            f"{c['beyond_bare_s'] * 1000:7.1f} ms   x{c['ratio']:.2f} bare"
        )
    met = {True: "met", False: "MISSED"}
    serve = ", ".join(
        f"{key.removesuffix('_ok').replace('_', '-')} {met[ok]}"
        for key, ok in result.items()
        if key.startswith("serve") and key.endswith("_ok")
    )
    print(
        f"beyond bare <= {TARGETS['serve_beyond_bare_s']} s: {serve}; "
        f"help <= {TARGETS['help_ratio']}x bare: {met[result['help_ok']]}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
