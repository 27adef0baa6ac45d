"""bench/serial_latency.py runs (a tiny workload) and prints its summary."""

from __future__ import annotations

import json
import subprocess
import sys

from serial_helpers import REPO, subprocess_env


def test_serial_latency_bench_runs() -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "serial_latency.py"),
            "--presses",
            "20",
            "--fps-seconds",
            "0.5",
            "--bounce-ms",
            "5",
        ],
        cwd=REPO,
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "red button edge -> coil on, 20 presses (20 fired)" in result.stdout
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["bench"] == "serial_latency" and summary["target_p99_ms"] == 10.0
    assert summary["latency"]["fired"] == 20 and summary["latency"]["median_ms"] > 0
    assert summary["matrix"]["frames_applied_by_board"] > 0
