"""bench/spartacus.py runs (a tiny workload) and reports its targets."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_spartacus_bench_json() -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "spartacus.py"),
            "--games",
            "1",
            "--fights",
            "2",
            "--odds-runs",
            "1",
            "--json",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert set(summary["odds"]) == {"3v3", "5v5", "5v5_abilities_rerolls", "8v8_abilities_rerolls"}
    assert summary["steps"]["game"]["steps"] > 0 and summary["steps"]["fight"]["steps"] > 0
    assert summary["targets"] == {
        "odds_5v5_ms_max": 10.0,
        "odds_8v8_ms_max": 50.0,
        "step_median_ms_max": 0.5,
    }
    assert set(summary["meets_targets"]) == {"odds_5v5", "odds_8v8", "step_median"}
    for case in summary["odds"].values():
        assert case["median_ms"] > 0 and case["wall_median_ms"] > 0
