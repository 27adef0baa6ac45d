"""``companion firmware path|flash``: the I/O board's firmware, from the installed package.

``path`` prints the folder the firmware files were installed in (the package's
``companion.firmware``). ``flash`` copies them onto a Raspberry Pi Pico running
MicroPython with ``mpremote`` (the ``board`` extra) and restarts the board: every
``.py`` file of the folder except the host-side ``__init__.py``, ``main.py`` last so
a copy cut short never boots half an upgrade. Docs and test vectors stay on the host.

No mpremote, no board, an unknown port or several boards without ``--port`` are
each one clear message and exit 2; mpremote failing on the board is exit 1 with
its own words and what to try (firmware/README.md has the whole guide).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

from companion.commands.errors import CommandError
from companion.hal.config import DEFAULT_USB_PID, DEFAULT_USB_VID

#: Host-side files of the firmware folder that never go onto the board.
HOST_ONLY = frozenset({"__init__.py"})
#: Longest a flash may take (a few kB over USB serial take seconds).
FLASH_TIMEOUT_S = 120
MPREMOTE_MISSING = (
    "mpremote is not installed: install the board extra into the companion's environment "
    "(pip install 'arena-table-companion[board]', or '.[board]' from a checkout)"
)
MAINTENANCE_HINT = (
    "if the board runs the companion's firmware already, its USB port speaks the table "
    "protocol and mpremote cannot reach the REPL: hold CONFIRM while plugging the board in "
    "(maintenance mode) and flash again; stop the service first (sudo systemctl stop "
    "companion) so it does not hold the port"
)


def firmware_folder() -> Path:
    """The folder of the installed firmware files."""
    return Path(str(resources.files("companion.firmware")))


def firmware_files(folder: Path | None = None) -> list[Path]:
    """The files that go onto the board, ``main.py`` last."""
    folder = firmware_folder() if folder is None else folder
    files = sorted(p for p in folder.glob("*.py") if p.name not in HOST_ONLY)
    return sorted(files, key=lambda p: p.name == "main.py")


def mpremote_search_path() -> str:
    """Where mpremote is looked for: this Python's own scripts folder (the venv the
    companion runs from, even when it is not activated), then ``$PATH``."""
    return os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])


def find_mpremote() -> str | None:
    """The mpremote program, or None."""
    return shutil.which("mpremote", path=mpremote_search_path())


def board_ports() -> list[str]:
    """Serial ports of MicroPython Picos on USB (ids 2e8a:0005)."""
    from serial.tools import list_ports  # lazy: keeps pyserial out of `firmware path`

    pico = (DEFAULT_USB_VID, DEFAULT_USB_PID)
    return sorted(p.device for p in list_ports.comports() if (p.vid, p.pid) == pico)


def choose_port(port: str | None) -> str:
    """The port to flash: ``--port`` if it exists, else the one Pico on USB."""
    if port is not None:
        if not os.path.exists(port):
            raise CommandError(f"no board at {port}: no such serial port (is it plugged in?)")
        return port
    found = board_ports()
    if not found:
        raise CommandError(
            "no I/O board connected: no MicroPython Pico (USB 2e8a:0005) found. Plug it in "
            "(MicroPython must be on it: firmware/README.md, step 1), or give --port"
        )
    if len(found) > 1:
        raise CommandError(f"several Picos connected ({', '.join(found)}): choose one with --port")
    return found[0]


def run_path(args: argparse.Namespace) -> int:
    print(firmware_folder())
    return 0


def run_flash(args: argparse.Namespace) -> int:
    mpremote = find_mpremote()
    if mpremote is None:
        raise CommandError(MPREMOTE_MISSING)
    port = choose_port(args.port)
    files = firmware_files()
    command = [mpremote, "connect", port, "cp", *map(str, files), ":", "+", "reset"]
    print(f"flashing {len(files)} files from {firmware_folder()} to the board on {port}:")
    print("  " + " ".join(p.name for p in files), flush=True)
    try:
        result = subprocess.run(
            command, capture_output=True, text=True, timeout=FLASH_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired:
        print(
            f"companion: mpremote did not finish in {FLASH_TIMEOUT_S} s; {MAINTENANCE_HINT}",
            file=sys.stderr,
        )
        return 1
    output = (result.stdout + result.stderr).strip()
    if result.returncode == 0:
        print(f"flashed and restarted the board on {port}")
        return 0
    if "no device found" in output or "failed to access" in output:
        raise CommandError(
            f"cannot open the board on {port}: {output}; if the companion service runs, stop "
            "it first (sudo systemctl stop companion)"
        )
    print(f"companion: mpremote failed (exit {result.returncode}): {output}", file=sys.stderr)
    print(f"companion: {MAINTENANCE_HINT}", file=sys.stderr)
    return 1
