"""The gpio backend on gpiozero's MockFactory: real gpiozero devices, mock pins."""

from __future__ import annotations

import time
from threading import Event, Thread, current_thread

import pytest
from clocks import AheadClock, open_ready
from gpiozero import LED, Device
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory
from hal_helpers import ever_high, high_periods

from companion.hal import (
    DIE_FACES,
    ArenaDisplay,
    Buttons,
    CellState,
    Eliminator,
    Hardware,
    HardwareConfig,
    HardwareConfigError,
    Refusal,
    StatusLeds,
    Trigger,
    load_hardware_config,
    open_hardware,
)


def pins(factory: MockFactory, config: HardwareConfig):
    p = config.pins
    return factory.pin(p.trigger), factory.pin(p.solenoid)


def trigger_press(hw: Hardware, trigger_pin) -> object:
    """Press the red button (pull-up: pressed = driven low); return its queued event."""
    trigger_pin.drive_low()
    while (event := hw.next_input(timeout=1.0)) is not None:
        if event.is_trigger_press:
            return event
    raise AssertionError("no trigger press arrived")


def trigger_release(hw: Hardware, trigger_pin) -> object:
    """Release the red button; return its release event (after the debounce time)."""
    trigger_pin.drive_high()
    while (event := hw.next_input(timeout=1.0)) is not None:
        if (event.kind, event.button) == ("release", "trigger"):
            return event
    raise AssertionError("no trigger release arrived")


def test_devices_use_gpiozeros_configured_factory(gpio_hw, mock_factory, gpio_config) -> None:
    p = gpio_config.pins
    assert mock_factory.pin(p.solenoid).function == "output"
    for pin in (p.trigger, p.roll, p.select, p.confirm):
        assert mock_factory.pin(pin).function == "input"
        assert mock_factory.pin(pin).pull == "up"
    for pin in (*p.turn.values(), *p.die.values()):
        assert mock_factory.pin(pin).function == "output"
    assert Device.pin_factory is mock_factory


def test_roles_fulfil_the_contracts(gpio_hw) -> None:
    assert isinstance(gpio_hw.trigger, Trigger)
    assert isinstance(gpio_hw.buttons, Buttons)
    assert isinstance(gpio_hw.eliminator, Eliminator)
    assert isinstance(gpio_hw.status_leds, StatusLeds)
    assert isinstance(gpio_hw.display, ArenaDisplay)
    assert gpio_hw.profile == "gpio" and gpio_hw.eliminator.position is None


def test_output_low_at_start(gpio_hw, mock_factory, gpio_config) -> None:
    _, solenoid = pins(mock_factory, gpio_config)
    assert solenoid.state is False
    assert not ever_high(solenoid)
    assert not any(gpio_hw.status_leds.state().values())


def test_never_fires_unarmed(gpio_hw, mock_factory, gpio_config) -> None:
    trigger, solenoid = pins(mock_factory, gpio_config)
    event = trigger_press(gpio_hw, trigger)
    assert gpio_hw.eliminator.fire(event).reason is Refusal.NOT_ARMED
    assert not ever_high(solenoid)


def test_an_unarmed_press_only_goes_on_the_queue(gpio_hw, mock_factory, gpio_config) -> None:
    trigger, solenoid = pins(mock_factory, gpio_config)
    trigger.drive_low()
    event = gpio_hw.next_input(timeout=1.0)
    assert event is not None and (event.kind, event.button) == ("press", "trigger")
    assert gpio_hw.next_input(timeout=0.05) is None
    assert not ever_high(solenoid)
    assert gpio_hw.eliminator.fire(event).reason is Refusal.NOT_ARMED


def test_an_armed_press_fires_on_the_button_thread(
    gpio_hw, mock_factory, gpio_config, mocker
) -> None:
    trigger, solenoid = pins(mock_factory, gpio_config)
    device = gpio_hw.eliminator._output  # the gpiozero DigitalOutputDevice on the gate
    threads: list[str] = []
    real_on = device.on
    mocker.patch.object(device, "on", lambda: (threads.append(current_thread().name), real_on()))
    gpio_hw.eliminator.arm("armed")
    trigger.drive_low()
    event = gpio_hw.next_input(timeout=1.0)
    result = gpio_hw.eliminator.fire(event)  # the table loop collects what the edge path did
    assert threads == ["companion-buttons"]  # switched on by the button thread, not this one
    assert result.fired and result.token == "armed"
    assert gpio_hw.eliminator.fire(event).reason is Refusal.ALREADY_FIRED
    assert len(high_periods(solenoid)) == 1 and solenoid.state is False
    assert not gpio_hw.eliminator.armed


def test_buttons_use_no_gpiozero_bounce_time(gpio_hw, mock_factory, gpio_config) -> None:
    # gpiozero's bounce_time is lgpio's trailing debounce: it would delay every press
    p = gpio_config.pins
    for pin in (p.trigger, p.roll, p.select, p.confirm):
        assert mock_factory.pin(pin).bounce is None


GLITCH_CONFIG = HardwareConfig(profile="gpio", hold_s=0.2, glitch_ms=5, bounce_ms=30)


def test_a_spike_on_the_trigger_pin_is_not_a_press(mock_factory) -> None:
    with open_hardware(GLITCH_CONFIG) as hw:
        trigger, solenoid = pins(mock_factory, GLITCH_CONFIG)
        assert hw.trigger.debouncer.glitch_s == GLITCH_CONFIG.glitch_s == 0.005
        assert hw.trigger.debouncer.release_s == GLITCH_CONFIG.bounce_s
        contact = hw.trigger.debouncer.contact("trigger")
        for _ in range(5):
            start = time.monotonic()
            trigger.drive_low()
            trigger.drive_high()
            if time.monotonic() - start < GLITCH_CONFIG.glitch_s:
                break  # the spike ended before its glitch window did: it must be ignored
            time.sleep(0.1)  # this thread was held up for 5 ms; try again
            hw.drain_inputs()
        else:
            raise AssertionError("could not make a spike shorter than 5 ms")
        time.sleep(0.05)
        assert hw.next_input(timeout=0) is None
        assert contact.glitches >= 1 and not contact.down
        assert not ever_high(solenoid)


def bouncing_press(mock_factory: MockFactory) -> bool:
    """Close the red button with bounce, fire, bounce while held, release; check that the
    press counted once. False: this thread was held up long enough that an "open" moment
    lasted the release time, a real release (and the next close a real second press)."""
    with open_ready(GLITCH_CONFIG) as hw:
        trigger, solenoid = pins(mock_factory, GLITCH_CONFIG)
        hw.eliminator.arm("boom")
        seen = Event()
        longest_open = 0.0

        def open_briefly(pause: float) -> None:
            nonlocal longest_open
            opened = time.monotonic()
            trigger.drive_high()
            if pause:
                time.sleep(pause)
            trigger.drive_low()
            longest_open = max(longest_open, time.monotonic() - opened)

        def bounce() -> None:  # closed 3 ms, open 0.2 ms, until the press has been counted
            trigger.drive_low()
            while not seen.is_set():
                time.sleep(0.003)
                open_briefly(0.0002)

        bouncer = Thread(target=bounce)
        bouncer.start()
        try:
            press = hw.next_input(timeout=2.0)  # a trailing debounce never settles here
        finally:
            seen.set()
            bouncer.join()
        assert press is not None and press.is_trigger_press
        assert hw.eliminator.fire(press).fired
        for _ in range(10):  # more bounce while it is held: no second press
            open_briefly(0)
        held = []
        while (event := hw.next_input(timeout=0.1)) is not None:
            held.append(event.kind)
        release = trigger_release(hw, trigger)
        if longest_open >= GLITCH_CONFIG.bounce_s:
            return False
        assert set(held) <= {"long_press"}  # held past hold_s is a long press, not a press
        assert release.t > press.t
        assert hw.next_input(timeout=0.05) is None
        assert len(high_periods(solenoid)) == 1
        assert hw.trigger.debouncer.contact("trigger").bounces >= 10
        return True


def test_a_bouncing_press_counts_once_while_the_contact_still_bounces(mock_factory) -> None:
    # The contact is driven from threads in real time: a run in which a busy machine held
    # this process up for the release time is tried again (it pressed twice, for real).
    assert any(bouncing_press(mock_factory) for _ in range(5)), "held up in every try"


@pytest.mark.parametrize("pulse_ms", [20, 60])
def test_fires_on_armed_press_with_measured_pulse_length(mock_factory, pulse_ms) -> None:
    config = HardwareConfig(profile="gpio", pulse_ms=pulse_ms, hold_s=0.2)
    with open_ready(config) as hw:
        trigger, solenoid = pins(mock_factory, config)
        hw.eliminator.arm("boom")
        result = hw.eliminator.fire(trigger_press(hw, trigger))
        assert result.fired and result.token == "boom"
        assert solenoid.state is False
        (measured,) = high_periods(solenoid)
        assert measured == pytest.approx(pulse_ms / 1000, abs=0.015)
        assert measured >= pulse_ms / 1000


def test_pulse_above_cap_is_a_config_error() -> None:
    with pytest.raises(HardwareConfigError) as info:
        load_hardware_config({"profile": "gpio", "pulse_ms": 300})
    assert info.value.key == "hardware.pulse_ms"
    assert "250" in str(info.value) and "300" in str(info.value)


def test_one_press_fires_once(gpio_hw, mock_factory, gpio_config) -> None:
    trigger, solenoid = pins(mock_factory, gpio_config)
    gpio_hw.eliminator.arm(1)
    event = trigger_press(gpio_hw, trigger)
    assert gpio_hw.eliminator.fire(event)
    gpio_hw.eliminator.arm(2)
    assert gpio_hw.eliminator.fire(event).reason is Refusal.ALREADY_FIRED
    assert len(high_periods(solenoid)) == 1


def test_cool_down_refusal(gpio_hw, mock_factory, gpio_config) -> None:
    trigger, solenoid = pins(mock_factory, gpio_config)
    gpio_hw.eliminator.arm(1)
    assert gpio_hw.eliminator.fire(trigger_press(gpio_hw, trigger))
    trigger_release(gpio_hw, trigger)
    gpio_hw.eliminator.arm(2)
    second = gpio_hw.eliminator.fire(trigger_press(gpio_hw, trigger))
    assert second.reason is Refusal.COOLING_DOWN
    assert 2.5 < second.retry_after_s <= 3.0
    assert len(high_periods(solenoid)) == 1 and solenoid.state is False


def test_button_held_since_before_arming_never_fires(gpio_hw, mock_factory, gpio_config) -> None:
    trigger, solenoid = pins(mock_factory, gpio_config)
    early = trigger_press(gpio_hw, trigger)  # pressed, and stays down (stuck)
    gpio_hw.eliminator.arm("x")
    assert gpio_hw.eliminator.fire(early).reason is Refusal.NOT_ARMED  # judged at its edge
    assert gpio_hw.next_input(timeout=0) is None  # a held button sends no new press
    assert not ever_high(solenoid)


def test_output_low_after_exception_in_with_block(mock_factory, gpio_config) -> None:
    _, solenoid = pins(mock_factory, gpio_config)
    with (
        pytest.raises(RuntimeError, match="rules engine crashed"),
        open_hardware(gpio_config) as hw,
    ):
        hw.status_leds.show_turn("purple")
        solenoid.state = True  # the coil is on when the crash happens
        assert solenoid.state is True
        raise RuntimeError("rules engine crashed")
    assert solenoid.state is False
    assert [s.state for s in solenoid.states] == [False, True, False]
    assert mock_factory.pin(gpio_config.pins.turn["purple"]).state is False
    assert hw.closed


def test_driver_fault_switches_outputs_off_and_is_reported(
    gpio_hw, mock_factory, gpio_config
) -> None:
    trigger, solenoid = pins(mock_factory, gpio_config)
    real_set_state = solenoid._set_state

    def failing_set_state(value):
        if value:
            raise OSError("MOSFET driver not responding")
        real_set_state(value)

    solenoid._set_state = failing_set_state  # the pin driver fails when switching on
    gpio_hw.status_leds.show_turn("grey")
    gpio_hw.status_leds.show_die("explosion")
    gpio_hw.display.show([[CellState.FIELD] * 5] * 5)
    gpio_hw.eliminator.arm("x")
    result = gpio_hw.eliminator.fire(trigger_press(gpio_hw, trigger))
    assert result.reason is Refusal.DRIVER_FAULT
    assert "MOSFET driver not responding" in result.message
    assert "MOSFET driver not responding" in gpio_hw.eliminator.fault
    assert solenoid.state is False and not ever_high(solenoid)
    assert not any(gpio_hw.status_leds.state().values())
    assert gpio_hw.display.frame[0][0] is CellState.OFF


def test_status_leds_on_pins(gpio_hw, mock_factory, gpio_config) -> None:
    p = gpio_config.pins
    leds = gpio_hw.status_leds
    assert leds.colours == ("purple", "grey", "turquoise", "red") and leds.faces == DIE_FACES
    leds.show_turn("turquoise")
    leds.show_die("move_eliminator")
    lit = {pin for pin in (*p.turn.values(), *p.die.values()) if mock_factory.pin(pin).state}
    assert lit == {p.turn["turquoise"], p.die["move_eliminator"]}
    leds.show_turn("red")
    assert mock_factory.pin(p.turn["turquoise"]).state is False
    assert mock_factory.pin(p.turn["red"]).state is True
    assert leds.state()["red"] and not leds.state()["turquoise"]
    leds.show_die(None)
    assert not any(mock_factory.pin(pin).state for pin in p.die.values())
    with pytest.raises(ValueError, match="pink"):
        leds.show_turn("pink")


def test_buttons_press_long_press_release(gpio_hw, mock_factory, gpio_config) -> None:
    roll = mock_factory.pin(gpio_config.pins.roll)
    roll.drive_low()
    assert gpio_hw.buttons.is_pressed("roll")
    held = gpio_hw.next_input(1.0), gpio_hw.next_input(1.0)  # hold_s is 0.2 here
    roll.drive_high()
    released = gpio_hw.next_input(1.0)
    assert [(e.kind, e.button) for e in (*held, released)] == [
        ("press", "roll"),
        ("long_press", "roll"),
        ("release", "roll"),
    ]
    assert held[1].t - held[0].t == pytest.approx(0.2, abs=0.1)
    assert not gpio_hw.buttons.is_pressed("roll")


def test_trigger_reports_pressed_state(gpio_hw, mock_factory, gpio_config) -> None:
    trigger, _ = pins(mock_factory, gpio_config)
    assert not gpio_hw.trigger.is_pressed
    trigger.drive_low()
    assert gpio_hw.trigger.is_pressed


def test_display_keeps_the_last_frame(gpio_hw) -> None:
    gpio_hw.display.set_cell((2, 2), "centre")
    gpio_hw.display.set_cell((0, 4), CellState.ELIMINATOR)
    assert gpio_hw.display.frame[2][2] is CellState.CENTRE
    assert gpio_hw.display.render().splitlines()[0] == "    E"


def test_close_releases_pins(mock_factory, gpio_config) -> None:
    open_hardware(gpio_config).close()
    with open_hardware(gpio_config) as hw:  # pins are free again
        assert not hw.closed
    assert hw.closed
    hw.close()  # idempotent


def test_failed_open_releases_what_it_opened(mock_factory, gpio_config) -> None:
    squatter = LED(gpio_config.pins.die["free_choice"])  # the last pin the backend claims
    try:
        with pytest.raises(GPIOPinInUse):
            open_hardware(gpio_config)
        solenoid = mock_factory.pin(gpio_config.pins.solenoid)
        assert solenoid.function == "input" and not ever_high(solenoid)
        assert mock_factory.pin(gpio_config.pins.trigger).when_changed is None
    finally:
        squatter.close()
    with open_hardware(gpio_config):
        pass


def test_a_press_refused_at_its_edge_does_not_fire_when_the_loop_collects_it(
    mock_factory,
) -> None:
    """d1 on the gpio backend: the button thread refused the press (cooling down); the table
    loop's thread gets to it after the cool-down has ended and must not fire it then."""
    config = HardwareConfig(profile="gpio", hold_s=0.2, cooldown_s=600.0)
    trigger, solenoid = pins(mock_factory, config)
    clock = AheadClock()
    with open_ready(config, clock) as hw:
        hw.eliminator.arm(1)
        assert hw.eliminator.fire(trigger_press(hw, trigger)).fired
        trigger_release(hw, trigger)
        hw.eliminator.arm(2)
        late = trigger_press(hw, trigger)  # cooling down: refused on the button thread
        clock.advance(config.cooldown_s)  # the table loop's thread was busy until now
        result = hw.eliminator.fire(late)
        assert result.reason is Refusal.COOLING_DOWN, result
        assert len(high_periods(solenoid)) == 1 and hw.eliminator.armed


def test_a_new_opening_does_not_fire_within_the_cool_down_of_the_last_one(mock_factory) -> None:
    """A service restart, ``companion resume`` or ``calibrate`` opens the pins again: the
    new guard does not know the last pulse, so it counts the cool-down from its start."""
    config = HardwareConfig(profile="gpio", hold_s=0.2, cooldown_s=600.0)
    trigger, solenoid = pins(mock_factory, config)
    with open_ready(config) as hw:  # the earlier process, open long enough to fire
        hw.eliminator.arm("before the restart")
        assert hw.eliminator.fire(trigger_press(hw, trigger)).fired
        trigger_release(hw, trigger)
    with open_hardware(config) as hw:  # the next process, a moment later
        hw.eliminator.arm("after the restart")
        refused = hw.eliminator.fire(trigger_press(hw, trigger))
        assert refused.reason is Refusal.COOLING_DOWN, refused
        assert hw.eliminator.armed  # still armed: a press after the cool-down fires it
    assert len(high_periods(solenoid)) == 1


def test_gpio_profile_refuses_a_fake_clock(mock_factory, gpio_config, clock) -> None:
    with pytest.raises(ValueError, match="a ManualClock is for sim only"):
        open_hardware(gpio_config, clock=clock)


def test_the_backend_shortens_the_switch_interval_while_open(mock_factory, gpio_config) -> None:
    import sys

    from companion.hal.gpio import SWITCH_INTERVAL_S

    before = sys.getswitchinterval()
    with open_hardware(gpio_config):
        assert sys.getswitchinterval() == pytest.approx(min(before, SWITCH_INTERVAL_S))
    assert sys.getswitchinterval() == before
