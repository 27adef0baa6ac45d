"""The firmware under real MicroPython: the WebAssembly port of MicroPython 1.27 (the npm
package pinned in tests/firmware/mpy-wasm/package.json) runs, under node, every entry of
protocol_vectors.json, the solenoid's rules, the hardware layer on small machine/neopixel
shims, and a seeded fuzz of 20,000 frames with zero spurious or over-cap pulses
(tests/firmware/mpy-wasm/harness.py).

``.ci/run`` installs the package (``npm ci``); locally, without node or the package, these
tests are skipped with the command to run, but under ``CI=true`` a missing package fails."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # seconds of real time each

MPY_WASM = Path(__file__).resolve().parent / "mpy-wasm"
PACKAGE = MPY_WASM / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
FUZZ_FRAMES = 20_000


def _missing() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    if not (PACKAGE / "micropython.mjs").exists():
        return (
            "the MicroPython WebAssembly package is not installed: "
            f"npm ci --prefix {MPY_WASM.relative_to(MPY_WASM.parents[2])}"
        )
    return None


@pytest.fixture(scope="module")
def checks() -> dict[str, dict]:
    missing = _missing()
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the firmware under real MicroPython: {missing}")
        pytest.skip(missing)
    result = subprocess.run(
        ["node", "run.mjs", "--fuzz-frames", str(FUZZ_FRAMES)],
        cwd=MPY_WASM,
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert lines and "summary" in lines[-1], result.stdout + result.stderr
    summary = lines[-1]
    assert summary["summary"] == "micropython" and summary["version"][:2] == [1, 27]
    assert result.returncode == (1 if summary["failed"] else 0), result.stderr
    return {line["check"]: line for line in lines[:-1]}


def failures(checks: dict[str, dict], prefix: str) -> list[str]:
    found = [c for name, c in checks.items() if name.startswith(prefix)]
    assert found, f"no {prefix!r} checks ran"
    return [f"{c['check']}: {c['detail']}" for c in found if not c["ok"]]


def test_every_protocol_vector_under_micropython(checks) -> None:
    assert failures(checks, "vectors:") == []
    assert checks["vectors: every entry"]["detail"].endswith("checks")


def test_the_solenoid_rules_under_micropython(checks) -> None:
    assert failures(checks, "rule:") == []
    names = " ".join(checks)
    for rule in (
        "capped at 250",
        "cooldown",
        "host silence",
        "deadline",
        "never armed again",
        "press",
    ):
        assert rule in names


def test_the_hardware_layer_and_main_loop_under_micropython(checks) -> None:
    assert failures(checks, "hardware layer:") == []
    assert failures(checks, "main loop:") == []


def test_a_seeded_fuzz_fires_no_spurious_or_over_cap_pulse_under_micropython(checks) -> None:
    [fuzz] = [c for name, c in checks.items() if name.startswith("fuzz:")]
    assert fuzz["ok"], fuzz["detail"]
    assert f"{FUZZ_FRAMES} frames" in fuzz["detail"]
    assert "0 spurious, 0 over the cap, 0 twice" in fuzz["detail"]
