"""Start-up and memory of the table service, with the hardware of a real table.

Run from the repository root::

    python bench/serve_startup.py            # 10 starts of each profile
    python bench/serve_startup.py --runs 3 --json

Measures, each in a fresh process:

- ``companion --help``: wall and CPU time (target <= 0.3 s wall here);
- ``companion serve`` from process start to its ``ready`` log line, for the two profiles
  of a Raspberry Pi table, each resuming a prepared unfinished game (target <= 1 s here):

  - ``gpio``: the Pi's pins through gpiozero, on its mock pins (``GPIOZERO_PIN_FACTORY=mock``,
    gpiozero's ``MockFactory``): gpiozero imported, every device made, the button thread
    started;
  - ``serial``: the I/O board link (pyserial) to the virtual board, which runs the
    firmware's own code in a process of its own behind a pseudo-terminal: the port opened,
    the board's handshake done.

  The bytecode is cached as on an installed system (one start of each, not counted,
  writes it), and ``companion`` is the command pip installs from the checkout's wheel
  (``import_time.installed_companion``: its console script, as systemd starts it, and an
  interpreter without the editable finder), started outside the checkout. Wall time, and the CPU
  time the service used until then (from ``/proc/PID/stat`` when the line arrives: what a
  Pi Zero 2 W pays about ten times over). Then SIGTERM. The two profiles' runs are
  interleaved, so drifting load on a shared machine hits them alike;
- peak resident memory (ru_maxrss) of ``companion serve --autoplay --games 3``,
  three whole assist games on simulated hardware (target <= 60 MB).

Every run reads its own ``table.toml`` and keeps its journals in a temporary folder
(``--config``, ``--journal-dir``), never the configuration or the data directory a
real ``serve`` uses. Before each start the same unfinished game (a prefix of a game the
simulated people played with ``serve --autoplay``) is put back in the folder, and each
run checks that the service said it resumed it.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import platform
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import import_time  # bench/ is on sys.path when run as a script

ROOT = Path(__file__).resolve().parent.parent
# Bytecode cached as on an installed system (pip compiles on install), in a temporary
# folder rather than the checkout: a PYTHONDONTWRITEBYTECODE in the environment would
# have every start compile every module (about 0.2 s of CPU here).
PYCACHE = tempfile.mkdtemp(prefix="bench-pycache-")
atexit.register(shutil.rmtree, PYCACHE, ignore_errors=True)
# The command as a table has it: pip's console script of the checkout's wheel, whose
# interpreter loads no ``pip install -e`` editable finder (~17 ms a start); the processes
# start in the temporary folder, with nothing of the checkout on their path.
COMMAND = [import_time.installed_companion(f"{PYCACHE}/venv")]
ENV = {**import_time.ENV, "PYTHONPYCACHEPREFIX": PYCACHE, "COLUMNS": "120"}
TARGETS = {"help_s": 0.3, "serve_ready_s": 1.0, "serve_rss_mb": 60.0}
PROFILES = ("gpio", "serial")
UNFINISHED_RECORDS = 60
UNFINISHED_NAME = "20270101-000000-000000-battle-royale-assist.jsonl"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def time_help() -> tuple[float, float]:
    """Wall and CPU seconds of one ``companion --help``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [*COMMAND, "--help"], cwd=PYCACHE, env=ENV, check=True, stdout=subprocess.DEVNULL
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cpu_seconds_of(pid: int) -> float:
    """User + system CPU time of a running process so far (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime


def serve_until_ready(
    journals: str, *args: str, env: dict[str, str] | None = None
) -> tuple[float, list[str], float]:
    """Seconds from starting ``companion serve --journal-dir journals *args`` (sim hardware
    unless ``args`` say otherwise) to its ``ready`` line, the lines it wrote until then and
    the CPU seconds it had used; then SIGTERM."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [*COMMAND, "serve", "--journal-dir", journals, *(args or ("--hardware", "sim"))],
        cwd=PYCACHE,
        env=env or ENV,
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
                cpu = cpu_seconds_of(proc.pid)
                break
        else:
            raise RuntimeError("companion serve ended without saying ready:\n" + "".join(lines))
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
    finally:
        proc.kill()
    return elapsed, lines, cpu


def real_game(directory: Path, hardware: str = "sim") -> tuple[bytes, bytes]:
    """A finished assist game played by simulated people, and an unfinished prefix of it,
    as a table with ``hardware`` wrote it."""
    path = directory / "played-game.jsonl"  # played once per folder
    if not path.exists():
        run_quietly([*COMMAND, "serve", "--autoplay", "--games", "1", "--journal", str(path)])
    finished = path.read_bytes()
    lines = finished.splitlines(keepends=True)
    header = json.loads(lines[0])
    header["session"].pop("demo", None)  # a real table's game: serve resumes it
    header["session"]["hardware"] = hardware
    header.pop("crc")
    sys.path.insert(0, str(ROOT))
    from companion.table.journal import record_crc

    header["crc"] = record_crc(header)
    first = json.dumps(header).encode() + b"\n"
    return first + b"".join(lines[1:]), first + b"".join(lines[1 : UNFINISHED_RECORDS + 1])


def reset_unfinished(folder: Path, unfinished: bytes) -> None:
    """Serve continued the game (and may have cut a torn tail): put the same file back."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in folder.glob("*.jsonl"):
        path.unlink()
    (folder / UNFINISHED_NAME).write_bytes(unfinished)


def time_ready(
    folder: Path, unfinished: bytes, config: Path, env: dict[str, str]
) -> tuple[float, float]:
    """Wall and CPU seconds to ``ready`` of ``serve --config config`` resuming ``unfinished``."""
    reset_unfinished(folder, unfinished)
    elapsed, lines, cpu = serve_until_ready(str(folder), "--config", str(config), env=env)
    if not any("resuming the unfinished game" in line for line in lines):
        raise RuntimeError("companion serve did not resume the prepared game:\n" + "".join(lines))
    return elapsed, cpu


def run_quietly(command: list[str]) -> resource.struct_rusage:
    """Run ``command``; its resource usage (of that process alone). Its output is shown
    only if it fails."""
    proc = subprocess.Popen(
        command, cwd=PYCACHE, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert proc.stderr is not None
    errors = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.stderr.write(errors.decode(errors="replace")[-4000:])
        raise subprocess.CalledProcessError(proc.returncode, command)
    return usage


def serve_peak_rss_mb(journals: str, games: int = 3) -> float:
    """Peak resident memory of ``serve --autoplay --games N`` (that process alone)."""
    usage = run_quietly(
        [*COMMAND, "serve", "--autoplay", "--games", str(games), "--journal-dir", journals]
    )
    return usage.ru_maxrss / 1024  # KiB on Linux


def stats(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "max": max(values)}


def measure_profiles(runs: int, base: Path, warm_up: bool = True) -> dict[str, dict]:
    """Wall and CPU seconds to ``ready`` of each profile in ``PROFILES``, interleaved."""
    sys.path.insert(0, str(ROOT))
    from companion.hal.virtual_board import VirtualBoardProcess

    board = VirtualBoardProcess()
    try:
        configs = {
            "gpio": 'profile = "gpio"',
            "serial": f'profile = "serial"\nserial_port = "{board.port}"',
        }
        envs = {"gpio": {**ENV, "GPIOZERO_PIN_FACTORY": "mock"}, "serial": ENV}
        paths = {}
        unfinished = {}
        for profile in PROFILES:
            paths[profile] = base / f"{profile}.toml"
            paths[profile].write_text(
                f'[game]\nmode = "assist"\n\n[hardware]\n{configs[profile]}\n'
            )
            unfinished[profile] = real_game(base, hardware=profile)[1]
        walls: dict[str, list[float]] = {p: [] for p in PROFILES}
        cpus: dict[str, list[float]] = {p: [] for p in PROFILES}
        first = 1 if warm_up else 0  # round 0 warms the bytecode cache: not counted
        for round_ in range(1 - first, runs + 1):
            for profile in PROFILES:
                wall, cpu = time_ready(
                    base / f"journals-{profile}", unfinished[profile], paths[profile], envs[profile]
                )
                if round_:
                    walls[profile].append(wall)
                    cpus[profile].append(cpu)
    finally:
        board.close()
    return {
        p: {
            "wall_s": stats(walls[p]),
            "cpu_s": stats(cpus[p]),
            "backend": "gpiozero MockFactory pins" if p == "gpio" else "pyserial, virtual board",
        }
        for p in PROFILES
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a smoke test: no uncounted first start, one autoplay game for the memory",
    )
    args = parser.parse_args()
    games = 1 if args.quick else 3
    load_before = os.getloadavg()[0]
    helps = [time_help() for _ in range(args.runs + (0 if args.quick else 1))]
    helps = helps[-args.runs :]  # the first (not counted) warms the cache
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        profiles = measure_profiles(args.runs, Path(tmp), warm_up=not args.quick)
        rss = serve_peak_rss_mb(str(Path(tmp) / "journals-rss"), games)
    ready = max(p["wall_s"]["median"] for p in profiles.values())
    result = {
        "machine": f"{platform.machine()} {platform.platform()}",
        "python": platform.python_version(),
        "runs": args.runs,
        "help_s": stats([w for w, _ in helps]),
        "help_cpu_s": stats([c for _, c in helps]),
        "serve_ready": profiles,
        "serve_rss_mb": {"peak": rss, "games": games},
        "targets": TARGETS,
        "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }
    result["ok"] = (
        result["help_s"]["median"] <= TARGETS["help_s"]
        and ready <= TARGETS["serve_ready_s"]
        and rss <= TARGETS["serve_rss_mb"]
    )
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"machine: {result['machine']}; python {result['python']}; {args.runs} runs")
    h, hc = result["help_s"], result["help_cpu_s"]
    print(
        f"companion --help        median {h['median']:.3f} s (CPU {hc['median']:.3f} s)  "
        f"max {h['max']:.3f} s   target <= {TARGETS['help_s']} s"
    )
    for profile, r in profiles.items():
        print(
            f"serve to ready, {profile:6}  median {r['wall_s']['median']:.3f} s "
            f"(CPU {r['cpu_s']['median']:.3f} s)  max {r['wall_s']['max']:.3f} s   "
            f"target <= {TARGETS['serve_ready_s']} s   ({r['backend']}, game resumed)"
        )
    print(
        f"serve peak RSS          {rss:.1f} MB ({games} assist games)   "
        f"target <= {TARGETS['serve_rss_mb']} MB"
    )
    print(f"1-minute load average {result['load_average_1min']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
