"""The odds' tables load numpy without BLAS threads (they need no BLAS): OpenBLAS would
start one per further core, each spinning for about 0.1 s of CPU as it loads."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from companion.games.spartacus.odds_tables import ONE_THREAD

PROBE = """
import json, os
from companion.games.spartacus.odds_tables import ONE_THREAD
status = open("/proc/self/status").read()
threads = int(status.split("Threads:")[1].split()[0])
print(json.dumps({"threads": threads, "env": {n: os.environ.get(n) for n in ONE_THREAD}}))
"""


def probe(**env: str) -> dict:
    clean = {k: v for k, v in os.environ.items() if k not in ONE_THREAD}
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(out.stdout)


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's /proc")
def test_loading_the_odds_starts_no_blas_thread() -> None:
    found = probe()
    assert found["env"] == {name: "1" for name in ONE_THREAD}
    assert found["threads"] == 1  # the interpreter's own, nothing else


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's /proc")
def test_a_thread_count_the_user_set_is_kept() -> None:
    found = probe(OPENBLAS_NUM_THREADS="2")
    assert found["env"]["OPENBLAS_NUM_THREADS"] == "2"
    assert found["env"]["OMP_NUM_THREADS"] == "1"
