"""Whole-process behaviour: SIGTERM mid-pulse, Hardware's signal handling, light imports,
layering, and the latency benchmark script."""

from __future__ import annotations

import ast
import json
import signal
import subprocess
import sys
import textwrap

import pytest
from hal_helpers import REPO, subprocess_env

from companion.hal import HardwareConfig, open_hardware

# A table process on mock gpio pins: arms, presses, fires a 250 ms pulse and
# says so on stdout the moment the coil is on; the test then sends SIGTERM.
SIGTERM_CHILD = textwrap.dedent(
    """
    import json, sys, threading, time
    from gpiozero import Device
    from companion.hal import HardwareConfig, open_hardware

    config = HardwareConfig(profile="gpio", pulse_ms=250, hold_s=0.2)
    record = {"exit": "none"}
    try:
        with open_hardware(config) as hw:
            coil = Device.pin_factory.pin(config.pins.solenoid)
            record["coil"] = coil

            def announce():
                while not coil.state:
                    time.sleep(0.0005)
                print("coil-on", flush=True)

            threading.Thread(target=announce, daemon=True).start()
            hw.eliminator.arm("boom")
            Device.pin_factory.pin(config.pins.trigger).drive_low()
            hw.eliminator.fire(hw.next_input(2.0))
            print("pulse-completed", flush=True)
            time.sleep(10)
    except SystemExit as exc:
        record["exit"] = exc.code
        raise
    finally:
        coil = record.pop("coil")
        record["final_state"] = bool(coil.state)
        record["function"] = coil.function
        record["states"] = [[s.timestamp, bool(s.state)] for s in coil.states]
        with open(sys.argv[1], "w") as fh:
            json.dump(record, fh)
    """
)


def test_sigterm_mid_pulse_leaves_the_coil_off(tmp_path) -> None:
    script = tmp_path / "child.py"
    script.write_text(SIGTERM_CHILD, encoding="utf-8")
    report = tmp_path / "report.json"
    child = subprocess.Popen(
        [sys.executable, str(script), str(report)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=subprocess_env(GPIOZERO_PIN_FACTORY="mock"),
    )
    try:
        line = child.stdout.readline().strip()
        assert line == "coil-on", child.stderr.read()
        child.send_signal(signal.SIGTERM)
        _, stderr = child.communicate(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 128 + signal.SIGTERM, stderr
    record = json.loads(report.read_text(encoding="utf-8"))
    assert record["exit"] == 128 + signal.SIGTERM
    assert record["final_state"] is False
    assert record["function"] == "input"  # closed, handed back to the gate pull-down
    assert [state for _, state in record["states"]] == [False, True, False]
    on_time = record["states"][2][0]
    assert on_time < 0.2  # cut short by SIGTERM, not left to run its full 250 ms


def test_hardware_installs_and_restores_a_sigterm_handler(clock) -> None:
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    with open_hardware(clock=clock) as hw:
        handler = signal.getsignal(signal.SIGTERM)
        assert callable(handler)
        hw.sim.coil.on()
        with pytest.raises(SystemExit):
            handler(signal.SIGTERM, None)
    assert not hw.sim.coil_on
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


def test_hardware_leaves_someone_elses_sigterm_handler_alone(clock) -> None:
    def custom(signum, frame):  # pragma: no cover - never delivered
        pass

    previous = signal.signal(signal.SIGTERM, custom)
    try:
        with open_hardware(clock=clock):
            assert signal.getsignal(signal.SIGTERM) is custom
        assert signal.getsignal(signal.SIGTERM) is custom
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_importing_hal_does_not_import_gpiozero() -> None:
    code = (
        "import sys, companion.hal; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('gpiozero', 'serial', 'rich') or m == 'companion.hal.gpio'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        check=True,
    )
    assert out.stdout.strip() == "[]"


def test_gpio_profile_uses_the_environments_pin_factory() -> None:
    code = (
        "from gpiozero import Device; from companion.hal import HardwareConfig, open_hardware\n"
        "with open_hardware(HardwareConfig(profile='gpio')) as hw:\n"
        "    print(type(Device.pin_factory).__name__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=subprocess_env(GPIOZERO_PIN_FACTORY="mock"),
        check=True,
    )
    assert out.stdout.strip() == "MockFactory"


def test_hal_imports_nothing_above_it() -> None:
    forbidden = ("companion.games", "companion.table", "companion.ui", "companion.cli")
    for path in sorted((REPO / "companion" / "hal").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert not name.startswith(forbidden), f"{path.name} imports {name}"
                assert name != "companion.dice", f"{path.name} imports {name}"


def test_latency_benchmark_runs() -> None:
    out = subprocess.run(
        [sys.executable, str(REPO / "bench" / "hal_latency.py"), "--presses", "20"],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        check=True,
        timeout=60,
    )
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    assert summary["presses"] == 20 and summary["fired"] == 20
    assert 0 < summary["median_ms"] <= summary["p99_ms"] <= summary["max_ms"]
    assert "median" in out.stdout and "p99" in out.stdout


def test_benchmark_override_is_the_only_way_below_the_cool_down_floor(clock) -> None:
    with pytest.raises(ValueError, match="cooldown_s"):
        HardwareConfig(cooldown_s=0)
    with open_hardware(clock=clock, unsafe_cooldown_override_s=0.0) as hw:
        assert hw.eliminator.cooldown_s == 0.0
    with open_hardware(clock=clock) as hw:
        assert hw.eliminator.cooldown_s == 3.0
