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
from stops import StopDropped

from companion.hal import HardwareConfig, open_hardware

# A table process on mock gpio pins that logs every pin change with its time: it lights a
# turn LED, arms, presses, and says so on stdout the moment the coil is on (a 250 ms pulse,
# fired on the button thread); the test then sends a stop signal. An interactive session
# has Python's default handlers, whatever the test runner's shell ignores.
STOP_CHILD = textwrap.dedent(
    """
    import json, signal, sys, threading, time
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory, MockPin
    from companion.hal import HardwareConfig, open_hardware

    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    changes = []

    class LoggingPin(MockPin):
        def _change_state(self, value):
            changed = super()._change_state(value)
            if changed:
                changes.append([time.monotonic(), self.info.name, bool(value)])
            return changed

    Device.pin_factory = MockFactory(pin_class=LoggingPin)
    config = HardwareConfig(profile="gpio", pulse_ms=250, hold_s=0.2)
    record = {"exit": "none"}
    ahead = [0.0]  # real speed, moved past the cool-down the guard counts from its start
    try:
        with open_hardware(config, clock=lambda: time.monotonic() + ahead[0]) as hw:
            ahead[0] += hw.eliminator.cooldown_left_s
            coil = Device.pin_factory.pin(config.pins.solenoid)
            hw.status_leds.show_turn("purple")

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
    except KeyboardInterrupt:
        record["exit"] = 130
        raise SystemExit(130)
    except SystemExit as exc:
        record["exit"] = exc.code
        raise
    finally:
        record["changes"] = changes
        record["coil_function"] = Device.pin_factory.pin(config.pins.solenoid).function
        with open(sys.argv[1], "w") as fh:
            json.dump(record, fh)
    """
)


@pytest.mark.parametrize(
    ("signum", "status"),
    [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)],
    ids=["SIGTERM", "SIGHUP", "SIGINT"],
)
def test_a_stop_signal_mid_pulse_switches_the_coil_off_first(tmp_path, signum, status) -> None:
    script = tmp_path / "child.py"
    script.write_text(STOP_CHILD, encoding="utf-8")
    report = tmp_path / "report.json"
    child = subprocess.Popen(
        [sys.executable, str(script), str(report)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=subprocess_env(),
    )
    try:
        line = child.stdout.readline().strip()
        assert line == "coil-on", child.stderr.read()
        child.send_signal(signum)
        _, stderr = child.communicate(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == status, stderr
    record = json.loads(report.read_text(encoding="utf-8"))
    assert record["exit"] == status
    config = HardwareConfig()
    coil = f"GPIO{config.pins.solenoid}"
    led = f"GPIO{config.pins.turn['purple']}"
    coil_changes = [(t, on) for t, name, on in record["changes"] if name == coil]
    led_changes = [(t, on) for t, name, on in record["changes"] if name == led]
    assert [on for _, on in coil_changes] == [True, False]  # one pulse, then off for good
    assert [on for _, on in led_changes] == [True, False]
    coil_off, led_off = coil_changes[-1][0], led_changes[-1][0]
    assert coil_off < led_off  # the gate first, then the LEDs
    assert coil_off - coil_changes[0][0] < 0.25  # cut short, not left to run its 250 ms
    assert record["coil_function"] == "input"  # closed, handed back to the gate pull-down


@pytest.mark.parametrize(
    ("signum", "raises"),
    [(signal.SIGTERM, SystemExit), (signal.SIGHUP, SystemExit), (signal.SIGINT, KeyboardInterrupt)],
)
def test_hardware_installs_and_restores_the_stop_handlers(clock, signum, raises) -> None:
    before = signal.getsignal(signum)
    with open_hardware(clock=clock) as hw:
        handler = signal.getsignal(signum)
        assert handler is not before and callable(handler)
        hw.sim.coil.on()
        with pytest.raises(raises) as info:
            handler(signum, None)
        assert not hw.sim.coil_on  # off in the handler, before anything unwinds
        if raises is SystemExit:
            assert info.value.code == 128 + signum
    assert signal.getsignal(signum) is before


def test_a_second_signal_while_closing_only_switches_the_coil_off(clock, mocker) -> None:
    with open_hardware(clock=clock) as hw:
        handler = signal.getsignal(signal.SIGINT)
    hw.sim.coil.on()  # as if something switched it on while the hardware was closing
    handler(signal.SIGINT, None)  # closed: no KeyboardInterrupt cuts the shut-down short
    assert not hw.sim.coil_on


def test_an_ignored_sighup_stays_ignored(clock) -> None:
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as under nohup
    try:
        with open_hardware(clock=clock):
            assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, previous)


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


def test_latency_benchmark_runs_the_full_path_in_every_condition() -> None:
    out = subprocess.run(
        [sys.executable, str(REPO / "bench" / "hal_latency.py"), "--presses", "15"],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        check=True,
        timeout=120,
    )
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    assert set(summary["results"]) == {"unloaded", "busy", "odds"}
    assert "TableLoop.fire_sequence" in summary["path"] and summary["glitch_ms"] == 1
    for result in summary["results"].values():
        assert result["presses"] == 15 and result["fired"] == 15
        assert 0 < result["median_ms"] <= result["p99_ms"] <= result["max_ms"]
    assert summary["results"]["odds"]["odds_computed"] >= 1
    assert summary["results"]["busy"]["busy_processes"] >= 1
    assert "p99 beyond the 1 ms glitch window" in out.stdout


def test_benchmark_override_is_the_only_way_below_the_cool_down_floor(clock) -> None:
    with pytest.raises(ValueError, match="cooldown_s"):
        HardwareConfig(cooldown_s=0)
    with open_hardware(clock=clock, unsafe_cooldown_override_s=0.0) as hw:
        assert hw.eliminator.cooldown_s == 0.0
    with open_hardware(clock=clock) as hw:
        assert hw.eliminator.cooldown_s == 3.0


@pytest.mark.parametrize(
    ("signum", "raises"),
    [(signal.SIGTERM, SystemExit), (signal.SIGHUP, SystemExit), (signal.SIGINT, KeyboardInterrupt)],
    ids=["SIGTERM", "SIGHUP", "SIGINT"],
)
def test_a_stop_that_cpython_dropped_is_raised_where_the_table_waits(
    clock, monkeypatch, signum, raises
) -> None:
    """A stop signal handled inside a ``__del__`` (or an import lock's weakref callback, as
    a serve that got SIGTERM right after ``ready`` showed) is not lost: the coil goes off in
    the handler and the next wait for input raises the stop again."""
    dropped: list[type[BaseException]] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: dropped.append(u.exc_type))
    with open_hardware(clock=clock) as hw:
        hw.sim.coil.on()
        StopDropped(signum)  # dropped at once: its __del__ takes the signal, the raise is lost
        assert dropped == [raises]
        assert not hw.sim.coil_on
        with pytest.raises(raises) as info:
            hw.next_input(0)
        if raises is SystemExit:
            assert info.value.code == 128 + signum
    assert hw.next_input(0) is None  # closed: the shut-down is not cut short


def test_a_stop_is_raised_again_only_on_the_main_thread(clock, monkeypatch) -> None:
    import threading

    monkeypatch.setattr(sys, "unraisablehook", lambda u: None)  # the drop is the point
    with open_hardware(clock=clock) as hw:
        StopDropped(signal.SIGTERM)
        seen: list[object] = []
        other = threading.Thread(target=lambda: seen.append(hw.next_input(0)))
        other.start()
        other.join()
        assert seen == [None]  # a relay thread reading inputs is not stopped by it
        with pytest.raises(SystemExit):
            hw.next_input(0)
