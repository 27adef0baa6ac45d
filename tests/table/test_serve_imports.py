"""What ``companion serve`` has imported when it says ``ready`` (issue 18).

The service starts in a fresh process on each backend of a Raspberry Pi table, gpio on
gpiozero's mock pins and serial against the virtual board, with no terminal (as under
systemd), and resumes the game a first start began; at its ``ready`` log line the process
writes down ``sys.modules`` and stops itself with SIGTERM. Its start-up needs the hardware,
the configuration and the game, not the dashboard's rich (imported once the table is
ready, for the first game's view), the search bot (an assist table has no bots), the web
view, other games or the other backend.
``bench/import_time.py`` times these imports: its ``serve`` case must import at least what
the service has imported by then, so that it measures the whole start-up; its per-backend
cases import one backend each, as a table does.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

AT_READY = """
import logging, os, signal, sys

class AtReady(logging.Handler):
    def emit(self, record):
        if sys.argv[2] in record.getMessage():
            with open(sys.argv[1], "w") as out:
                out.write("\\n".join(sorted(sys.modules)))
            os.kill(os.getpid(), signal.SIGTERM)

logging.getLogger("companion.commands.serve").addHandler(AtReady())
from companion.cli import main
sys.exit(main(sys.argv[3:]))
"""

#: Imported by no serve start-up (``companion.games.kampf_der_gladiatoren`` and the other
#: games: by their prefix). The table loop that plays the games, with its adapter, and the
#: people at the table (the simulated ones of ``--autoplay``) come right after ``ready``.
#: The simulated hardware is the ``sim`` profile's alone (both start-ups here are real).
NOT_AT_READY = (
    "companion.hal.sim",
    "rich",
    "companion.ui",
    "companion.table.assist",
    "companion.table.loop",
    "companion.table.adapter",
    "companion.table.battle_royale_table",
    "companion.table.people",
    "companion.table.log_view",
    "companion.games.search",
    "companion.games.battle_royale.state",  # the full engine: an assist table's is .assist
    "companion.games.kampf_der_gladiatoren",
    "companion.games.spartacus",
    "companion.games.arena_skirmish",
    "companion.web",
    "companion.worker",
    "starlette",
    "uvicorn",
)
#: The other backend's library, per profile.
OTHER_BACKEND = {"gpio": ("serial", "cobs"), "serial": ("gpiozero", "colorzero")}


def python(code: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -c code args`` from this checkout, outside systemd, with gpiozero's mock
    pins, no terminal (as under systemd) and no standard input."""
    environ = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "JOURNAL_STREAM")}
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), environ.get("PYTHONPATH")]))
    environ["GPIOZERO_PIN_FACTORY"] = "mock"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env=environ,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def serve_until(tmp_path: Path, config: Path, line: str) -> tuple[set[str], str]:
    """``sys.modules`` of ``companion serve --config config`` when it logs ``line``, and
    what it logged; then it is stopped as systemd stops it."""
    found = tmp_path / "modules.txt"
    args = ["serve", "--config", str(config), "--journal-dir", str(tmp_path / "journals")]
    done = python(AT_READY, str(found), line, *args)
    assert done.returncode == 128 + signal.SIGTERM, done.stderr
    return set(found.read_text().split()), done.stderr


def modules_at_ready(tmp_path: Path, hardware: str) -> set[str]:
    """``sys.modules`` of ``companion serve`` (this ``[hardware]``) at its ready line, as it
    resumes the game a first start began (stopped once its journal was written)."""
    config = tmp_path / "table.toml"
    config.write_text(f'[game]\nmode = "assist"\n\n[hardware]\n{hardware}\n')
    serve_until(tmp_path, config, "journal: ")
    modules, log = serve_until(tmp_path, config, "ready")
    assert "resuming the unfinished game" in log
    return modules


def imported_by(code: str) -> set[str]:
    done = python(f"{code}\nimport sys; print(' '.join(sys.modules))")
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def import_time_bench() -> Any:
    spec = importlib.util.spec_from_file_location("import_time", ROOT / "bench" / "import_time.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def bench_serve_imports() -> str:
    return str(import_time_bench().SERVE_IMPORTS)


@pytest.fixture(scope="module")
def at_ready(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[str]]:
    from companion.hal.virtual_board import VirtualBoardProcess

    modules = {"gpio": modules_at_ready(tmp_path_factory.mktemp("gpio"), 'profile = "gpio"')}
    board = VirtualBoardProcess()
    try:
        modules["serial"] = modules_at_ready(
            tmp_path_factory.mktemp("serial"), f'profile = "serial"\nserial_port = "{board.port}"'
        )
    finally:
        board.close()
    return modules


def matching(modules: set[str], prefixes: tuple[str, ...]) -> list[str]:
    """The modules that are one of ``prefixes`` or inside one."""
    inside = tuple(p + "." for p in prefixes)
    return sorted(m for m in modules if m in prefixes or m.startswith(inside))


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["gpio", "serial"])
def test_serve_starts_without_what_it_does_not_need(
    at_ready: dict[str, set[str]], profile: str
) -> None:
    modules = at_ready[profile]
    assert "companion.commands.serve" in modules and "companion.games.battle_royale" in modules
    assert matching(modules, NOT_AT_READY) == []
    assert matching(modules, OTHER_BACKEND[profile]) == []
    assert ("gpiozero" if profile == "gpio" else "serial") in modules


@pytest.mark.slow
def test_the_import_benchmark_imports_what_serve_has_imported_when_ready(
    at_ready: dict[str, set[str]],
) -> None:
    """bench/import_time.py's ``serve`` case, the two backends at once, imports every module
    of the companion and of its libraries that either start-up had imported when ready,
    give or take the pin factory (mock pins here, lgpio on a Pi)."""
    bench = imported_by(bench_serve_imports())
    ready = (at_ready["gpio"] | at_ready["serial"]) - imported_by("pass")
    ours = {m for m in ready if m.split(".")[0] in ("companion", "gpiozero", "serial", "cobs")}
    missing = sorted(m for m in ours - bench if not m.startswith("gpiozero.pins."))
    assert missing == []


@pytest.mark.slow
def test_the_printed_dashboard_imports_no_live_display(tmp_path: Path) -> None:
    """Without a terminal (standard output a pipe or a file) serve prints its dashboard: a
    whole game imports rich's console but not its live display (``Live``, ``Layout``), which
    only a terminal redraws."""
    journals = str(tmp_path)
    code = (
        "import sys\nfrom companion.cli import main\n"
        f"code = main(['serve', '--autoplay', '--games', '1', '--journal-dir', {journals!r}])\n"
        "print(code, ' '.join(m for m in ('rich.console', 'rich.live', 'rich.layout') "
        "if m in sys.modules), file=sys.stderr)"
    )
    done = python(code, timeout=120)
    assert "Turn 1" in done.stdout  # the dashboard was printed
    assert done.stderr.splitlines()[-1] == "0 rich.console", done.stderr[-2000:]


@pytest.mark.slow
def test_under_systemd_the_board_goes_nowhere_and_rich_is_never_imported(tmp_path: Path) -> None:
    """Standard output is the journal (``$JOURNAL_STREAM`` names it, as systemd sets it): a
    whole game draws no board into the log, imports no rich, and logs what it logs."""
    out, err = tmp_path / "stdout", tmp_path / "stderr"
    code = (
        "import sys\nfrom companion.cli import main\n"
        "code = main(['--log-level', 'debug', 'serve', '--autoplay', '--games', '1',"
        " '--journal-dir', sys.argv[1]])\n"
        "print('exit', code, 'rich' in sys.modules, file=sys.stderr)"
    )
    environ = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET",)}
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), environ.get("PYTHONPATH")]))
    with out.open("w") as stdout, err.open("w") as stderr:
        info = os.fstat(stdout.fileno())
        environ["JOURNAL_STREAM"] = f"{info.st_dev}:{info.st_ino}"
        subprocess.run(
            [sys.executable, "-c", code, str(tmp_path / "journals")],
            cwd=ROOT,
            env=environ,
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=stderr,
            timeout=120,
        )
    log = err.read_text()
    assert log.splitlines()[-1] == "exit 0 False", log[-2000:]
    assert out.read_text() == ""  # nothing drawn into the journal
    assert "game 1 over after" in log and "waiting: " in log  # the log, with the prompts


@pytest.mark.parametrize("profile", ["gpio", "serial"])
def test_the_import_benchmark_times_each_backend_with_only_its_library(profile: str) -> None:
    """bench/import_time.py's ``serve-gpio`` and ``serve-serial`` cases import the serve
    path with one backend, as a table runs it: the other backend's library is not paid."""
    command = import_time_bench().CASES[f"serve-{profile}"]
    modules = imported_by(command[-1])
    assert "companion.commands.serve" in modules
    assert ("gpiozero" if profile == "gpio" else "serial") in modules
    assert matching(modules, OTHER_BACKEND[profile]) == []


COUNT_DATACLASSES = """
import dataclasses, sys
from companion.records import Record
made = []
process = dataclasses._process_class
def counted(cls, *args, **kwargs):
    made.append(cls)
    return process(cls, *args, **kwargs)
dataclasses._process_class = counted
exec(sys.argv[1])
print(" ".join(sorted(c.__qualname__ for c in made if not issubclass(c, Record))))
"""


@pytest.mark.slow
def test_serve_start_up_compiles_no_dataclass_but_the_engines_event() -> None:
    """``dataclass()`` compiles up to six methods a class at import (Python 3.11), 0.5-2.3
    ms a class here, ten times that on a Pi Zero 2 W: the records serve reads before it is
    ready are :class:`~companion.records.Record`s (compiled on first use). The engines'
    ``Event`` stays a slotted dataclass: one is made on every action."""
    done = python(COUNT_DATACLASSES, bench_serve_imports())
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["Event"]  # one made per action, slotted
