"""The benchmark script runs (a tiny workload) and reports the odds target."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_gladiatoren_bench_json() -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "gladiatoren.py"),
            "--games",
            "1",
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
    assert summary["targets"] == {"odds_ms_max": 50.0, "odds_vs_icepool_ratio_max": 1.0}
    assert set(summary["results"]) == {"2", "3", "4", "5"}
    assert len(summary["odds"]) == 2
    vs = summary["vs_icepool"]  # None without the bench extra (icepool)
    if vs is not None:
        assert len(vs) == 2 and all(case["equal"] for case in vs.values())
    for r in summary["results"].values():
        assert r["step"]["steps"] > 0 and r["game"]["games_per_s"] > 0
