"""The gpio backend's button thread on real-time scheduling: asked for, reported truly, never
required (a refusal leaves every safety rule and the press itself working), and allowed by
the service unit."""

from __future__ import annotations

import configparser
import os
import threading
from pathlib import Path

import pytest
from clocks import open_ready
from gpiozero.pins.mock import MockFactory

from companion.hal import HardwareConfig, open_hardware
from companion.hal import realtime as realtime_module
from companion.hal.realtime import (
    BUTTON_THREAD_PRIORITY,
    make_this_thread_realtime,
    thread_scheduling,
)

UNIT = Path(__file__).resolve().parents[2] / "deploy" / "companion.service"


def policy_of(thread: threading.Thread) -> tuple[int, int]:
    assert thread.native_id is not None
    return os.sched_getscheduler(thread.native_id), os.sched_getparam(
        thread.native_id
    ).sched_priority


def refuse(*args: object) -> None:
    raise PermissionError(1, "Operation not permitted")


def test_the_button_thread_reports_the_policy_it_really_runs_at(mock_factory) -> None:
    with open_hardware(HardwareConfig(profile="gpio")) as hw:
        debouncer = hw.trigger.debouncer
        policy, priority = policy_of(debouncer._thread)
        if debouncer.scheduling.startswith("SCHED_FIFO"):
            assert (policy, priority) == (os.SCHED_FIFO, BUTTON_THREAD_PRIORITY)
            assert debouncer.scheduling == f"SCHED_FIFO {BUTTON_THREAD_PRIORITY}"
        else:  # not permitted here: it says so, with the reason
            assert policy == os.SCHED_OTHER
            assert "refused" in debouncer.scheduling
    # only the button thread: the thread that opened the hardware keeps its policy
    assert thread_scheduling() == "SCHED_OTHER"


def test_the_button_thread_is_realtime_where_the_process_may_be(mock_factory) -> None:
    # may this process use SCHED_FIFO at all? (root, CAP_SYS_NICE or RLIMIT_RTPRIO)
    errors: list[BaseException] = []

    def run() -> None:
        try:
            os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(BUTTON_THREAD_PRIORITY))
        except OSError as exc:
            errors.append(exc)

    probe = threading.Thread(target=run)
    probe.start()
    probe.join()
    if errors:
        pytest.skip(f"this process may not use SCHED_FIFO: {errors[0]}")
    with open_hardware(HardwareConfig(profile="gpio")) as hw:
        assert policy_of(hw.trigger.debouncer._thread) == (os.SCHED_FIFO, BUTTON_THREAD_PRIORITY)


def test_a_refused_priority_is_said_and_never_raises(monkeypatch) -> None:
    monkeypatch.setattr(realtime_module.os, "sched_setscheduler", refuse)
    got = make_this_thread_realtime(BUTTON_THREAD_PRIORITY)
    assert got.startswith("SCHED_OTHER (real-time priority refused")
    assert thread_scheduling() == "SCHED_OTHER"


def test_without_realtime_priority_the_red_button_still_fires_once_per_armed_press(
    monkeypatch, mock_factory: MockFactory, caplog
) -> None:
    monkeypatch.setattr(realtime_module.os, "sched_setscheduler", refuse)
    config = HardwareConfig(profile="gpio", hold_s=0.2)
    with caplog.at_level("INFO", logger="companion.hal.gpio"):
        hw = open_ready(config)
    with hw:
        assert hw.trigger.debouncer.scheduling.startswith("SCHED_OTHER (real-time")
        assert policy_of(hw.trigger.debouncer._thread)[0] == os.SCHED_OTHER
        assert "LimitRTPRIO" in caplog.text  # the log says how to allow it
        trigger = mock_factory.pin(config.pins.trigger)
        solenoid = mock_factory.pin(config.pins.solenoid)
        trigger.drive_low()  # not armed: a press, no pulse
        press = hw.next_input(timeout=1.0)
        assert press is not None and press.is_trigger_press
        assert not hw.eliminator.fire(press)
        trigger.drive_high()
        assert hw.next_input(timeout=1.0).kind == "release"
        hw.eliminator.arm("boom")
        trigger.drive_low()
        press = hw.next_input(timeout=1.0)
        result = hw.eliminator.fire(press)
        assert result.fired and result.token == "boom" and solenoid.state is False
        assert not hw.eliminator.fire(press)  # once per press
        assert hw.eliminator.pulse_count == 1


def test_the_service_unit_allows_the_button_threads_priority_and_no_more() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # keep the keys' case
    text = UNIT.read_text(encoding="utf-8")
    unit.read_string(text)
    service = unit["Service"]
    assert int(service["LimitRTPRIO"]) == BUTTON_THREAD_PRIORITY
    assert service.get("RestrictRealtime", "no") == "no"
    allowed = [
        line.split("=", 1)[1].split()
        for line in text.splitlines()
        if line.startswith("SystemCallFilter=") and not line.startswith("SystemCallFilter=~")
    ]
    assert any("sched_setscheduler" in names for names in allowed)
    assert "CAP_SYS_NICE" not in text  # a limit on the priority, not a capability
