"""SolenoidGuard: every safety rule on its own, with the simulator's coil and a manual clock."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from companion.hal import (
    PULSE_HARD_CAP_MS,
    FireRefused,
    InputEvent,
    InputHub,
    ManualClock,
    Refusal,
    SolenoidGuard,
    SpentToken,
    sigterm_raises_exit,
)
from companion.hal.safety import install_sigterm_handler
from companion.hal.sim import SimSolenoid


@pytest.fixture
def hub(clock: ManualClock) -> InputHub:
    return InputHub(clock)


@pytest.fixture
def coil(clock: ManualClock) -> SimSolenoid:
    return SimSolenoid(clock)


def make_guard(coil, hub, clock, *, ready: bool = True, **kwargs) -> SolenoidGuard:
    """A guard on the manual clock; *ready*: the clock then moved past the cool-down the
    guard counts from its start (for the tests of what happens after that)."""
    guard = SolenoidGuard(coil, inputs=hub, clock=clock, sleep=clock.sleep, **kwargs)
    if ready:
        clock.advance(guard.cooldown_s)
    return guard


@pytest.fixture
def guard(coil: SimSolenoid, hub: InputHub, clock: ManualClock) -> SolenoidGuard:
    return make_guard(coil, hub, clock)


def press(hub: InputHub, clock: ManualClock, button: str = "trigger") -> InputEvent:
    clock.advance(0.01)
    return hub.emit("press", button)  # type: ignore[arg-type]


def test_output_switched_off_when_guard_is_built(coil, hub, clock) -> None:
    coil.on()  # e.g. left on by whatever ran before
    make_guard(coil, hub, clock)
    assert coil.value is False


def test_cool_down_counts_from_the_start(coil, hub, clock) -> None:
    # a new process (a service restart, resume, calibrate) does not know when an earlier
    # one last fired: its guard counts the cool-down from its own start
    started = clock()
    guard = make_guard(coil, hub, clock, ready=False, cooldown_s=10.0)
    guard.arm("after a restart")
    clock.advance(0.1)
    refused = guard.fire(guard.trigger_edge())  # the edge path first, then the table loop's
    assert refused.reason is Refusal.COOLING_DOWN
    assert refused.retry_after_s == pytest.approx(9.9)
    assert guard.cooldown_left_s == pytest.approx(9.9)
    assert "counted from the start" in refused.message
    assert coil.history == [] and guard.armed  # the explosion is still armed: press again
    clock.advance(refused.retry_after_s)
    assert guard.cooldown_left_s == 0.0
    assert guard.fire(press(hub, clock)).fired
    assert coil.pulses[0].start - started >= 10.0


def test_never_fires_unarmed(guard, coil, hub, clock) -> None:
    result = guard.fire(press(hub, clock))
    assert not result
    assert result.reason is Refusal.NOT_ARMED
    assert coil.history == [] and coil.pulses == []


def test_fires_on_armed_press_and_switches_itself_off(guard, coil, hub, clock) -> None:
    guard.arm("boom-1")
    event = press(hub, clock)
    result = guard.fire(event)
    assert result.fired and result.reason is None and result.token == "boom-1"
    assert coil.value is False  # off again before fire() returned
    assert len(coil.pulses) == 1
    assert coil.pulses[0].length_s == pytest.approx(0.060, abs=1e-9)
    assert coil.pulses[0].start == pytest.approx(event.t)
    assert result.pulse is not None and result.pulse.length_s == pytest.approx(0.060, abs=1e-9)
    assert guard.pulse_count == 1 and guard.last_pulse == result.pulse


def test_fire_consumes_the_arming(guard, hub, clock) -> None:
    guard.arm("boom")
    assert guard.armed and guard.armed_token == "boom"
    assert guard.fire(press(hub, clock))
    assert not guard.armed and guard.armed_token is None
    clock.advance(10)
    assert guard.fire(press(hub, clock)).reason is Refusal.NOT_ARMED


def test_one_press_fires_at_most_once(guard, coil, hub, clock) -> None:
    guard.arm("a")
    event = press(hub, clock)
    assert guard.fire(event)
    clock.advance(10)
    guard.arm("b")
    again = guard.fire(event)
    assert again.reason is Refusal.ALREADY_FIRED and "already fired" in again.message
    assert guard.armed  # the refusal did not consume the new arming
    assert len(coil.pulses) == 1


def test_press_before_arming_does_not_fire(guard, coil, hub, clock) -> None:
    early = press(hub, clock)  # e.g. a button held down, or pressed too early
    clock.advance(0.5)
    guard.arm("late")
    result = guard.fire(early)
    assert result.reason is Refusal.PRESS_BEFORE_ARMING
    assert coil.pulses == []


@pytest.mark.parametrize(
    ("kind", "button"),
    [("release", "trigger"), ("long_press", "trigger"), ("press", "roll"), ("press", "confirm")],
)
def test_only_trigger_presses_fire(guard, coil, hub, clock, kind, button) -> None:
    guard.arm("x")
    clock.advance(0.01)
    event = hub.emit(kind, button)
    assert guard.fire(event).reason is Refusal.NOT_A_TRIGGER_PRESS
    assert coil.pulses == [] and guard.armed


def test_hand_made_or_foreign_events_do_not_fire(guard, coil, hub, clock) -> None:
    guard.arm("x")
    clock.advance(0.01)
    forged = InputEvent("press", "trigger", clock(), 99)
    foreign = InputHub(clock).emit("press", "trigger")
    assert guard.fire(forged).reason is Refusal.NOT_A_TRIGGER_PRESS
    assert guard.fire(foreign).reason is Refusal.NOT_A_TRIGGER_PRESS
    assert guard.fire("trigger").reason is Refusal.NOT_A_TRIGGER_PRESS  # type: ignore[arg-type]
    assert coil.pulses == []


def test_cool_down_refuses_with_time_left(guard, coil, hub, clock) -> None:
    guard.arm(1)
    assert guard.fire(press(hub, clock))
    clock.advance(1.0)
    guard.arm(2)
    early = press(hub, clock)  # 1.01 s after the pulse ended
    refused = guard.fire(early)
    assert refused.reason is Refusal.COOLING_DOWN
    assert refused.retry_after_s == pytest.approx(3.0 - 1.01)
    assert "cooling down" in refused.message and "2.0 s" in refused.message
    assert guard.armed  # still armed: the player just presses again later
    clock.advance(refused.retry_after_s)
    assert guard.fire(press(hub, clock))
    assert len(coil.pulses) == 2
    gap = coil.pulses[1].start - (coil.pulses[0].start + coil.pulses[0].length_s)
    assert gap >= 3.0


def test_cool_down_is_configurable(coil, hub, clock) -> None:
    guard = make_guard(coil, hub, clock, cooldown_s=0.5)
    guard.arm(1)
    assert guard.fire(press(hub, clock))
    clock.advance(0.5)
    guard.arm(2)
    assert guard.fire(press(hub, clock))


def test_pulse_length_is_configurable_up_to_the_hard_cap(coil, hub, clock) -> None:
    guard = make_guard(coil, hub, clock, pulse_ms=PULSE_HARD_CAP_MS)
    guard.arm(1)
    assert guard.fire(press(hub, clock))
    assert coil.pulses[0].length_s == pytest.approx(0.250, abs=1e-9)


@pytest.mark.parametrize("pulse_ms", [PULSE_HARD_CAP_MS + 1, 300, 10_000, 0, -5])
def test_pulse_above_hard_cap_is_rejected(coil, hub, clock, pulse_ms) -> None:
    with pytest.raises(ValueError, match="at most 250 ms"):
        make_guard(coil, hub, clock, pulse_ms=pulse_ms)


def test_negative_cool_down_is_rejected(coil, hub, clock) -> None:
    with pytest.raises(ValueError, match="cooldown_s"):
        make_guard(coil, hub, clock, cooldown_s=-1)


def test_driver_fault_on_switch_on(guard, coil, hub, clock) -> None:
    faults: list[str] = []
    guard.on_fault = faults.append
    coil.inject_fault("gate driver dead")
    guard.arm("x")
    result = guard.fire(press(hub, clock))
    assert result.reason is Refusal.DRIVER_FAULT and "gate driver dead" in result.message
    assert coil.value is False
    assert guard.fault is not None and "gate driver dead" in guard.fault
    assert faults == [guard.fault]
    assert not guard.armed


def test_driver_fault_is_latched_until_cleared(guard, coil, hub, clock) -> None:
    coil.inject_fault("over-current")
    guard.arm(1)
    guard.fire(press(hub, clock))
    coil.clear_fault()  # repaired, but nobody acknowledged the fault yet
    clock.advance(10)
    guard.arm(2)
    refused = guard.fire(press(hub, clock))
    assert refused.reason is Refusal.DRIVER_FAULT and "clear_fault" in refused.message
    guard.clear_fault()
    assert guard.fire(press(hub, clock))
    assert len(coil.pulses) == 1


def test_driver_reporting_a_fault_cuts_the_pulse(guard, coil, hub, clock) -> None:
    coil.inject_fault("thermal shutdown", raise_on_switch=False)
    guard.arm(1)
    result = guard.fire(press(hub, clock))
    assert result.reason is Refusal.DRIVER_FAULT and "thermal shutdown" in result.message
    assert coil.value is False
    assert [p.length_s for p in coil.pulses] == [0.0]  # switched off at once, no sleep


class DeadOutput(SimSolenoid):
    """A driver whose output never reads back on."""

    @property
    def value(self) -> bool:
        return False


def test_output_that_reads_back_off_is_a_fault(hub, clock) -> None:
    coil = DeadOutput(clock)
    guard = make_guard(coil, hub, clock)
    guard.arm(1)
    result = guard.fire(press(hub, clock))
    assert result.reason is Refusal.DRIVER_FAULT and "read back" in result.message


class StuckOnOutput(SimSolenoid):
    """A driver that refuses to switch off."""

    def off(self) -> None:
        if self.value:
            raise OSError("gate stuck high")


def test_output_that_will_not_switch_off_is_a_fault(hub, clock) -> None:
    coil = StuckOnOutput(clock)
    guard = make_guard(coil, hub, clock)
    guard.arm(1)
    result = guard.fire(press(hub, clock))
    assert result.reason is Refusal.DRIVER_FAULT and "switching the solenoid off" in result.message


def test_exception_during_pulse_still_switches_off(coil, hub, clock) -> None:
    def interrupted_sleep(seconds: float) -> None:
        clock.advance(seconds / 3)
        raise KeyboardInterrupt

    guard = SolenoidGuard(coil, inputs=hub, clock=clock, sleep=interrupted_sleep)
    clock.advance(guard.cooldown_s)
    guard.arm(1)
    with pytest.raises(KeyboardInterrupt):
        guard.fire(press(hub, clock))
    assert coil.value is False
    assert coil.pulses[0].length_s == pytest.approx(0.020, abs=1e-9)


def test_off_works_mid_pulse_from_elsewhere(coil, hub, clock) -> None:
    seen: list[bool] = []

    def sleep_then_emergency_off(seconds: float) -> None:
        seen.append(coil.value)
        guard.off()  # e.g. Hardware.all_off() from a signal handler or another thread
        seen.append(coil.value)

    guard = SolenoidGuard(coil, inputs=hub, clock=clock, sleep=sleep_then_emergency_off)
    clock.advance(guard.cooldown_s)
    guard.arm(1)
    guard.fire(press(hub, clock))
    assert seen == [True, False]


def test_closed_guard_refuses(guard, coil, hub, clock) -> None:
    guard.arm(1)
    guard.close()
    assert guard.fire(press(hub, clock)).reason is Refusal.CLOSED
    assert coil.pulses == []


def test_check_reports_without_firing(guard, coil, hub, clock) -> None:
    event = press(hub, clock)
    assert guard.check(event).reason is Refusal.NOT_ARMED
    guard.arm(1)
    assert guard.check(event).reason is Refusal.PRESS_BEFORE_ARMING
    assert guard.check(press(hub, clock)) is None
    assert coil.pulses == []


def test_raise_if_refused(guard, hub, clock) -> None:
    with pytest.raises(FireRefused) as info:
        guard.fire(press(hub, clock)).raise_if_refused()
    assert info.value.result.reason is Refusal.NOT_ARMED


def test_concurrent_presses_fire_once() -> None:
    hub = InputHub()
    coil = SimSolenoid(time.monotonic)
    guard = SolenoidGuard(coil, inputs=hub, pulse_ms=5, cooldown_s=0)
    guard.arm("once")
    events = [hub.emit("press", "trigger") for _ in range(8)]
    start = threading.Barrier(len(events))
    results = []

    def fire(event: InputEvent) -> None:
        start.wait()
        results.append(guard.fire(event))

    threads = [threading.Thread(target=fire, args=(e,)) for e in events]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(r.fired for r in results) == 1
    assert len(coil.pulses) == 1
    assert {r.reason for r in results if not r.fired} <= {Refusal.NOT_ARMED}


def test_sigterm_handler_raises_system_exit() -> None:
    previous = signal.getsignal(signal.SIGTERM)
    with sigterm_raises_exit() as installed:
        assert installed
        handler = signal.getsignal(signal.SIGTERM)
        with pytest.raises(SystemExit) as info:
            handler(signal.SIGTERM, None)
        assert info.value.code == 128 + signal.SIGTERM
        with pytest.raises(SystemExit):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1)  # the handler interrupts this
    assert signal.getsignal(signal.SIGTERM) == previous


def test_sigterm_helper_off_the_main_thread_installs_nothing() -> None:
    outcome: list[object] = []

    def run() -> None:
        with sigterm_raises_exit() as installed:
            outcome.append(installed)
        try:
            install_sigterm_handler()
        except ValueError as exc:
            outcome.append(exc)

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert outcome[0] is False and isinstance(outcome[1], ValueError)


# -- the edge path: a trigger press fired on the thread that saw the edge -------------------


def test_edge_path_unarmed_press_only_queues(guard, coil, hub, clock) -> None:
    event = guard.trigger_edge()
    assert hub.get(0) is event and event.is_trigger_press
    assert coil.history == []
    assert guard.fire(event).reason is Refusal.NOT_ARMED  # the table loop's answer, as before


def test_edge_path_fires_and_the_table_loop_collects_the_result_once(
    guard, coil, hub, clock
) -> None:
    guard.arm("boom")
    clock.advance(0.01)
    event = guard.trigger_edge()  # the pulse ran on this call (a ManualClock does not wait)
    assert len(coil.pulses) == 1 and not guard.armed
    assert hub.get(0) is event  # still on the queue for the table loop
    result = guard.fire(event)
    assert result.fired and result.token == "boom" and result.pulse == guard.last_pulse
    assert guard.fire(event).reason is Refusal.ALREADY_FIRED  # asking again is not a new pulse
    assert len(coil.pulses) == 1
    assert coil.pulses[0].length_s == pytest.approx(guard.pulse_ms / 1000)  # the capped pulse


def test_edge_path_pulse_is_capped_like_any_other(coil, hub, clock) -> None:
    guard = make_guard(coil, hub, clock, pulse_ms=PULSE_HARD_CAP_MS)
    guard.arm("max")
    clock.advance(0.01)
    guard.trigger_edge()
    assert coil.pulses[0].length_s == pytest.approx(PULSE_HARD_CAP_MS / 1000)
    assert coil.value is False


def fired_on_the_edge_and_armed_again(guard: SolenoidGuard, clock: ManualClock) -> None:
    """One pulse fired on the edge path (the cool-down starts), and the next explosion armed."""
    guard.arm(1)
    clock.advance(0.01)
    assert guard.fire(guard.trigger_edge()).fired
    guard.arm(2)


def test_edge_path_keeps_the_cool_down_and_once_per_arming(guard, coil, hub, clock) -> None:
    fired_on_the_edge_and_armed_again(guard, clock)
    clock.advance(1.0)
    early = guard.trigger_edge()  # cooling down: queued, not fired
    assert len(coil.pulses) == 1
    assert guard.fire(early).reason is Refusal.COOLING_DOWN
    clock.advance(3.0)
    assert guard.fire(guard.trigger_edge()).fired
    assert guard.fire(guard.trigger_edge()).reason is Refusal.NOT_ARMED  # consumed by the last
    assert len(coil.pulses) == 2


def test_edge_path_press_from_before_arming_cannot_fire_later(guard, coil, hub, clock) -> None:
    early = guard.trigger_edge()
    guard.arm("x")
    assert guard.fire(early).reason is Refusal.NOT_ARMED  # as judged at its edge
    assert coil.pulses == []


def test_a_press_refused_at_its_edge_never_fires_when_the_loop_collects_it(
    guard, coil, hub, clock
) -> None:
    # d1: refused at the edge while cooling down; the table loop's thread, busy for 0.5 s,
    # collects it after the cool-down has ended: it gets the edge's refusal, no pulse
    fired_on_the_edge_and_armed_again(guard, clock)
    clock.advance(guard.cooldown_s - 0.1)  # 0.1 s of cool-down left
    press = guard.trigger_edge()
    clock.advance(0.5)
    refused = guard.fire(press)
    assert refused.reason is Refusal.COOLING_DOWN and refused.retry_after_s == pytest.approx(0.1)
    assert guard.fire(press) == refused  # asking again: the same answer, never a pulse
    assert guard.check(press) == refused
    assert len(coil.pulses) == 1 and guard.armed  # the arming waits for a fresh press
    assert guard.fire(guard.trigger_edge()).fired


def test_a_press_whose_edge_answer_was_dropped_never_fires(guard, coil, hub, clock) -> None:
    fired_on_the_edge_and_armed_again(guard, clock)
    clock.advance(0.01)
    old = guard.trigger_edge()  # refused at its edge: cooling down
    for _ in range(20):  # a child mashing the button: the guard keeps no answer for it
        clock.advance(0.05)
        guard.trigger_edge()
    clock.advance(guard.cooldown_s)
    result = guard.fire(old)
    assert result.reason is Refusal.STALE_PRESS and "never fires" in result.message
    assert guard.check(old) == result
    assert len(coil.pulses) == 1 and guard.armed


def test_the_answer_of_a_press_that_fired_is_kept_until_collected(guard, coil, hub, clock) -> None:
    """Only refusals are forgotten: a press that fired on its edge keeps its answer however
    many presses come before the table loop collects it (it read ALREADY_FIRED, which the
    table took for 'nothing fired', and armed the explosion again)."""
    guard.arm("T")
    clock.advance(0.01)
    first = guard.trigger_edge()  # fires on the button thread
    for _ in range(20):  # a child mashing while the loop is busy: each one cooling down
        clock.advance(0.1)
        guard.trigger_edge()
    result = guard.fire(first)
    assert result.fired and result.token == "T"
    assert len(coil.pulses) == 1


def test_the_answer_of_a_press_whose_pulse_failed_is_kept_until_collected(
    guard, coil, hub, clock
) -> None:
    """Not only a pulse that fired: a press whose pulse was tried keeps its own answer (a
    fault here; on the I/O board an unknown outcome, which the table must resolve) however
    many presses come before the table loop collects it."""

    def broken_on() -> None:
        raise OSError("gate driver not responding")

    coil.on = broken_on
    guard.arm("T")
    clock.advance(0.01)
    first = guard.trigger_edge()
    for _ in range(20):
        clock.advance(0.1)
        guard.trigger_edge()
    result = guard.fire(first)
    # its own answer, not the latched fault's refusal ("driver fault latched (...)") that
    # a fresh judgement gives: the table must learn what became of this press's pulse
    assert result.reason is Refusal.DRIVER_FAULT
    assert result.message.startswith("switching the solenoid on failed: gate driver")


def test_an_explosion_that_fired_is_never_armed_again_in_its_game(guard, coil, hub, clock) -> None:
    guard.arm("turn-3-c3")
    clock.advance(0.01)
    assert guard.fire(guard.trigger_edge()).fired
    assert guard.spent("turn-3-c3") and not guard.spent("turn-4-c3")
    with pytest.raises(SpentToken, match="never armed again"):
        guard.arm("turn-3-c3")  # e.g. a table loop collecting an older press late
    assert not guard.armed
    guard.new_game()  # the next game's turn 3 may explode on c3 too
    assert not guard.spent("turn-3-c3")
    guard.arm("turn-3-c3")
    assert guard.armed


def test_table_loop_fire_waits_for_an_edge_pulse_in_progress() -> None:
    hub = InputHub()
    coil = SimSolenoid(time.monotonic)
    guard = SolenoidGuard(coil, inputs=hub, pulse_ms=50, cooldown_s=0)
    guard.arm("slow")
    edge = threading.Thread(target=guard.trigger_edge)
    edge.start()
    event = hub.get(2.0)  # on the queue before (or while) the edge thread pulses
    result = guard.fire(event)  # blocks until the edge thread's pulse has ended
    edge.join()
    assert result.fired and coil.value is False
    assert len(coil.pulses) == 1 and coil.pulses[0].length_s >= 0.05


def test_off_from_a_signal_handler_while_this_thread_holds_the_guard(coil, hub, clock) -> None:
    guard = make_guard(coil, hub, clock)
    failing = {"off": True}
    real_off = coil.off

    def off() -> None:
        if failing["off"]:
            raise OSError("gate driver gone")
        real_off()

    coil.off = off  # switching off fails: off() latches the fault under the guard's lock
    with guard._lock:  # e.g. a signal arrives while the main thread is inside fire()
        guard.off()  # reentrant: does not deadlock
    assert guard.fault is not None and "gate driver gone" in guard.fault


# -- a stop that lands while a pulse is about to start ------------------------------------


class HookedGate:
    """The guard's gate lock with a hook run just before it is taken: an interleaving forced
    between a pulse's last rule check and its switching on."""

    def __init__(self, gate, hook) -> None:
        self.gate, self.hook = gate, hook

    def __enter__(self):
        self.hook()
        return self.gate.__enter__()

    def __exit__(self, *exc):
        return self.gate.__exit__(*exc)


def test_a_stop_after_the_checks_means_the_coil_never_switches_on(guard, coil, hub, clock) -> None:
    guard._gate = HookedGate(guard._gate, guard.stop)  # the stop handler's call, in the gap
    guard.arm("boom")
    result = guard.fire(press(hub, clock))
    assert result.reason is Refusal.CLOSED and "stopping" in result.message
    assert coil.history == [] and coil.value is False  # never switched on
    assert guard.fire(press(hub, clock)).reason is Refusal.CLOSED  # nor later


def test_an_off_after_the_checks_cancels_that_pulse(guard, coil, hub, clock) -> None:
    guard._gate = HookedGate(guard._gate, guard.off)  # e.g. all_off() from another thread
    guard.arm("boom")
    assert guard.fire(press(hub, clock)).reason is Refusal.CLOSED
    assert coil.history == []
    assert not guard.spent("boom")  # the coil never switched on: it may be armed again
    guard.arm("boom")


def test_a_stop_as_the_coil_switches_on_cuts_it_at_once(guard, coil, hub, clock) -> None:
    real_on = coil.on

    def on() -> None:  # the handler runs between the gate's check and the gate write
        guard.stop()
        real_on()

    coil.on = on
    guard.arm("boom")
    result = guard.fire(press(hub, clock))
    assert result.reason is Refusal.CLOSED and "switched off at once" in result.message
    assert coil.value is False
    assert [p.length_s for p in coil.pulses] == [0.0]  # off before any sleep: no pulse ran
    assert guard.spent("boom")  # but it switched on: that explosion is never armed again


def test_close_waits_for_a_switching_on_and_leaves_the_coil_off(guard, coil, hub, clock) -> None:
    # d5: the button thread is inside on() when close() is called from the main thread
    real_on = coil.on
    in_on, closing = threading.Event(), threading.Event()

    def on() -> None:
        in_on.set()
        assert closing.wait(5)
        for _ in range(5000):  # until close() has started (its first statement)
            if guard._stopping:
                break
            time.sleep(0.001)
        real_on()

    coil.on = on
    guard.arm("boom")
    results: list = []
    edge = threading.Thread(target=lambda: results.append(guard.fire(press(hub, clock))))
    edge.start()
    assert in_on.wait(5)
    closing.set()
    guard.close()
    assert coil.value is False  # close() returned: the switching on was finished and cut
    edge.join(5)
    assert results[0].reason is Refusal.CLOSED
    assert [p.length_s for p in coil.pulses] == [0.0]


def test_the_hardwares_stop_handler_stops_the_guard(sim_hw) -> None:
    # entering `with hw:` on the main thread installed the handlers; SIGTERM arrives
    with pytest.raises(SystemExit):
        signal.raise_signal(signal.SIGTERM)
    sim_hw.eliminator.arm("boom")
    sim_hw.sim.tap("trigger")
    press = next(e for e in sim_hw.drain_inputs() if e.is_trigger_press)
    assert sim_hw.eliminator.fire(press).reason is Refusal.CLOSED
    assert sim_hw.sim.pulses == []
