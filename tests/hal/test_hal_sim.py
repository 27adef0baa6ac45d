"""The sim backend: injection, inspection and fault injection on a manual clock."""

from __future__ import annotations

import pytest

from companion.hal import (
    ArenaDisplay,
    Buttons,
    CellState,
    Eliminator,
    GestureTracker,
    Hardware,
    HardwareConfig,
    ManualClock,
    Refusal,
    StatusLeds,
    Trigger,
    blank_frame,
    make_frame,
    open_hardware,
    open_sim,
)


def kinds(hw: Hardware) -> list[tuple[str, str]]:
    return [(e.kind, e.button) for e in hw.drain_inputs()]


def fire_once(hw: Hardware, token: object) -> object:
    hw.eliminator.arm(token)
    hw.sim.tap("trigger")
    press = next(e for e in hw.drain_inputs() if e.is_trigger_press)
    return hw.eliminator.fire(press)


def test_roles_fulfil_the_contracts(sim_hw: Hardware) -> None:
    assert isinstance(sim_hw.trigger, Trigger)
    assert isinstance(sim_hw.buttons, Buttons)
    assert isinstance(sim_hw.eliminator, Eliminator)
    assert isinstance(sim_hw.status_leds, StatusLeds)
    assert isinstance(sim_hw.display, ArenaDisplay)
    assert sim_hw.buttons.names == ("roll", "select", "confirm")


def test_clean_tap_is_press_then_release(sim_hw: Hardware) -> None:
    sim_hw.sim.tap("roll")
    assert kinds(sim_hw) == [("press", "roll"), ("release", "roll")]


def test_bounce_injection_yields_exactly_one_press(sim_hw: Hardware) -> None:
    sim_hw.sim.bounce_press("trigger", bounces=3, spacing_s=0.001)
    assert sim_hw.trigger.is_pressed
    assert kinds(sim_hw) == [("press", "trigger")]
    assert sim_hw.sim.ignored_edges("trigger") == 6
    sim_hw.sim.wait(0.1)
    sim_hw.sim.bounce_release("trigger", bounces=3, spacing_s=0.001)
    sim_hw.sim.wait(0.1)
    assert kinds(sim_hw) == [("release", "trigger")]


def test_bounce_is_debounced_as_configured(clock: ManualClock) -> None:
    # Without debouncing, the same contact bounce is four presses.
    with open_sim(HardwareConfig(bounce_ms=0), clock=clock) as hw:
        hw.sim.bounce_press("trigger", bounces=3, spacing_s=0.001)
        assert [k for k, _ in kinds(hw)] == ["press", "release"] * 3 + ["press"]
    # Bounces slower than bounce_ms are separate presses, as on the real pins.
    with open_sim(HardwareConfig(bounce_ms=5), clock=clock) as hw:
        hw.sim.bounce_press("trigger", bounces=1, spacing_s=0.006)
        assert [k for k, _ in kinds(hw)] == ["press", "release", "press"]


def test_bounce_that_settles_open_is_released_after_the_bounce_time(sim_hw: Hardware) -> None:
    sim = sim_hw.sim
    sim.press("select")
    sim.wait(0.002)
    sim.release("select")  # inside the 20 ms window: ignored for now
    assert kinds(sim_hw) == [("press", "select")]
    sim.wait(0.010)
    assert kinds(sim_hw) == []
    sim.wait(0.010)
    assert kinds(sim_hw) == [("release", "select")]
    assert not sim_hw.buttons.is_pressed("select")


def test_stuck_button(sim_hw: Hardware, clock: ManualClock) -> None:
    sim = sim_hw.sim
    sim.stick("confirm")
    clock.advance(1.5)  # past hold_s = 1.0
    sim.tap("confirm")
    sim.hold("confirm")
    assert kinds(sim_hw) == [("press", "confirm"), ("long_press", "confirm")]
    assert sim_hw.buttons.is_pressed("confirm")
    assert sim.ignored_edges("confirm") == 4
    sim.unstick("confirm")
    assert kinds(sim_hw) == [("release", "confirm")]


def test_stuck_trigger_cannot_fire_a_later_arming(sim_hw: Hardware, clock: ManualClock) -> None:
    sim_hw.sim.stick("trigger")
    clock.advance(5)
    stale, held = sim_hw.drain_inputs()
    assert (stale.kind, held.kind) == ("press", "long_press")
    sim_hw.eliminator.arm("x")
    sim_hw.sim.tap("trigger")  # the welded contact sends nothing new
    assert sim_hw.drain_inputs() == []
    assert sim_hw.eliminator.fire(stale).reason is Refusal.PRESS_BEFORE_ARMING
    assert sim_hw.sim.pulses == []


def test_long_press_on_the_clock(sim_hw: Hardware, clock: ManualClock) -> None:
    tracker = GestureTracker()
    sim_hw.sim.press("roll")
    clock.advance(0.99)
    assert kinds(sim_hw) == [("press", "roll")]
    clock.advance(0.01)
    events = sim_hw.drain_inputs()
    assert [(e.kind, e.t) for e in events] == [("long_press", clock())]
    sim_hw.sim.release("roll")
    sim_hw.sim.wait(0.05)
    sim_hw.sim.tap("roll")
    gestures = [tracker.feed(e) for e in sim_hw.drain_inputs()]
    assert [g for g in gestures if g] == ["short"]
    assert tracker.feed(events[0]) is None  # long press after its release: ignored


def test_every_pulse_recorded_with_start_and_length(sim_hw: Hardware, clock: ManualClock) -> None:
    results = []
    for token in ("a", "b", "c"):
        results.append(fire_once(sim_hw, token))
        clock.advance(3.0)
    assert all(results)
    pulses = sim_hw.sim.pulses
    assert [p.start for p in pulses] == pytest.approx([r.pulse.start for r in results])
    assert [p.length_s for p in pulses] == pytest.approx([0.060] * 3)
    # tap: 0.1 s pressed + 0.02 s debounce, then the 0.06 s pulse, then 3 s waiting
    assert pulses[1].start - pulses[0].start == pytest.approx(0.1 + 0.02 + 0.06 + 3.0)
    assert not sim_hw.sim.coil_on


def test_configured_pulse_length_in_the_sim(clock: ManualClock) -> None:
    with open_sim(HardwareConfig(pulse_ms=35), clock=clock) as hw:
        clock.advance(hw.eliminator.cooldown_left_s)  # the cool-down counted from the start
        assert fire_once(hw, 1)
        assert hw.sim.pulses[0].length_s == pytest.approx(0.035)


def test_led_frames_recorded(sim_hw: Hardware, clock: ManualClock) -> None:
    start = clock()
    rows = [[CellState.FIELD] * 5 for _ in range(5)]
    rows[2][2] = CellState.CENTRE
    sim_hw.display.show(rows)
    clock.advance(0.5)
    sim_hw.display.set_cell((1, 3), "hole")
    clock.advance(0.5)
    sim_hw.display.set_cell((1, 3), CellState.BLINK)
    initial, *frames = sim_hw.sim.frames
    assert initial[1] == blank_frame(CellState.OFF)  # cleared when the hardware opened
    assert [t - start for t, _ in frames] == pytest.approx([0.0, 0.5, 1.0])
    assert frames[0][1] == make_frame(rows)
    assert frames[1][1][1][3] is CellState.HOLE and frames[2][1][1][3] is CellState.BLINK
    assert frames[2][1][2][2] is CellState.CENTRE
    assert sim_hw.display.frame == frames[-1][1]


def test_status_led_changes_recorded(sim_hw: Hardware, clock: ManualClock) -> None:
    t0 = clock()
    sim_hw.status_leds.show_turn("purple")
    clock.advance(1)
    sim_hw.status_leds.show_turn("grey")
    sim_hw.status_leds.show_die("explosion")
    changes = [(round(t - t0, 6), name, on) for t, name, on in sim_hw.sim.led_changes]
    assert changes == [
        (0, "purple", True),
        (1, "purple", False),
        (1, "grey", True),
        (1, "explosion", True),
    ]


def test_driver_fault_reported_and_outputs_off(sim_hw: Hardware, clock: ManualClock) -> None:
    sim_hw.status_leds.show_turn("turquoise")
    sim_hw.display.show(blank_frame(CellState.FIELD))
    sim_hw.sim.inject_driver_fault("coil open circuit")
    result = fire_once(sim_hw, "x")
    assert result.reason is Refusal.DRIVER_FAULT and "coil open circuit" in result.message
    assert "coil open circuit" in sim_hw.eliminator.fault
    assert not sim_hw.sim.coil_on and sim_hw.sim.pulses == []
    assert not any(sim_hw.status_leds.state().values())
    assert sim_hw.display.frame == blank_frame(CellState.OFF)
    # latched: a repaired driver still needs the fault acknowledged
    sim_hw.sim.repair_driver()
    clock.advance(5)
    assert fire_once(sim_hw, "y").reason is Refusal.DRIVER_FAULT
    sim_hw.eliminator.clear_fault()
    assert fire_once(sim_hw, "z")


def test_position_sensing(sim_hw: Hardware, clock: ManualClock) -> None:
    assert sim_hw.eliminator.has_position_sensor
    assert sim_hw.eliminator.position is None
    sim_hw.sim.place_eliminator((2, 3))
    assert sim_hw.eliminator.position == (2, 3)
    with open_sim(clock=clock, position_sensor=False) as hw:
        hw.sim.place_eliminator((1, 1))
        assert hw.eliminator.position is None and not hw.eliminator.has_position_sensor


def test_exception_in_with_block_switches_everything_off(clock: ManualClock) -> None:
    with pytest.raises(ZeroDivisionError), open_hardware(clock=clock) as hw:
        hw.status_leds.show_die("battle_royale")
        hw.sim.coil.on()  # the coil is on when the crash happens
        1 / 0  # noqa: B018
    assert not hw.sim.coil_on
    assert not any(hw.status_leds.state().values())
    assert hw.closed and hw.eliminator.fire(None).reason is Refusal.CLOSED  # type: ignore[arg-type]


def test_unknown_button_is_an_error(sim_hw: Hardware) -> None:
    with pytest.raises(ValueError, match="trigger, roll, select, confirm"):
        sim_hw.sim.press("fire")


def test_frames_are_validated(sim_hw: Hardware) -> None:
    with pytest.raises(ValueError, match="5 rows"):
        sim_hw.display.show([[CellState.FIELD] * 5] * 4)
    with pytest.raises(ValueError, match="allowed: off, field, hole"):
        sim_hw.display.set_cell((0, 0), "lava")
    with pytest.raises(ValueError, match="outside"):
        sim_hw.display.set_cell((5, 0), "hole")


def test_real_clock_sim_sends_long_presses_by_itself() -> None:
    with open_sim(HardwareConfig(hold_s=0.2)) as hw:
        hw.sim.press("confirm")
        first = hw.next_input(1.0)
        second = hw.next_input(1.0)
        assert (first.kind, second.kind) == ("press", "long_press")
        assert second.t - first.t == pytest.approx(0.2, abs=0.05)
