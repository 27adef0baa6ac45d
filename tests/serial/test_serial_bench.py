"""bench/serial_latency.py runs (a tiny workload, the board in its own process) and prints
its summary; bench/run's writer turns that summary into the serial section of
docs/performance.md; the profile summary sorts py-spy's samples by module."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import subprocess
import sys

import pytest
from serial_helpers import REPO, subprocess_env


def run_bench(*args: str) -> dict:
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "serial_latency.py"), *args],
        cwd=REPO,
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "red button edge -> coil on, 20 presses" in result.stdout
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    summary["_command"] = "python bench/serial_latency.py " + " ".join(args)
    return summary


def bench_run_module():
    loader = importlib.machinery.SourceFileLoader("bench_run", str(REPO / "bench" / "run"))
    spec = importlib.util.spec_from_loader("bench_run", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


@pytest.mark.slow
def test_serial_latency_bench_runs_with_the_board_in_its_own_process() -> None:
    summary = run_bench("--presses", "20", "--fps-seconds", "0.5", "--bounce-ms", "5")
    assert summary["bench"] == "serial_latency" and summary["target_p99_ms"] == 5.0
    assert summary["board"] == "own process"
    latency = summary["latency"]
    assert latency["presses"] == 20 and latency["fired"] + len(latency["missed"]) == 20
    assert latency["median_ms"] > 0 and latency["p99_ms"] >= latency["median_ms"]
    assert summary["matrix"]["frames_applied_by_board"] > 0
    assert all(summary["codec"][k] > 0 for k in ("crc16_us", "encode_frame_us"))
    text = "\n".join(bench_run_module().render_serial(summary, None))
    assert "## Red button to coil through the I/O board link" in text
    assert "python bench/serial_latency.py --presses 20" in text
    assert f"{latency['median_ms']:.3f} ms" in text and "Pi Zero 2 W (estimate)" in text


def test_the_profile_summary_sorts_samples_by_side_and_module() -> None:
    sys.path.insert(0, str(REPO / "bench"))
    try:
        import serial_latency
    finally:
        sys.path.remove(str(REPO / "bench"))
    host = 'process 1:"python bench/serial_latency.py"'
    board = 'process 2:"python -m companion.hal.virtual_board --min-cooldown-ms 0"'
    raw = "\n".join(
        [
            f"{host};_pump (companion/hal/serial_board.py:808);read (serial/serialposix.py:565) 6",
            f"{host};feed (companion/hal/link.py:200) 2",
            f"{host};{board};run (firmware/fw_app.py:17);tick (firmware/fw_logic.py:640) 3",
            f"{host};{board};run (firmware/fw_app.py:17) 1",
        ]
    )
    profile = serial_latency.summarise_profile(raw)
    assert profile["host"]["samples"] == 8 and profile["board"]["samples"] == 4
    assert profile["host"]["share_pct"] == {
        "pyserial (read, write, select)": 75.0,
        "host codec and go-back-N (link.py)": 25.0,
    }
    assert profile["board"]["share_pct"]["firmware logic (fw_logic.py)"] == 75.0
