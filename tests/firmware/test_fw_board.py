"""The board's logic (firmware/fw_logic.py) on a hand-made IO and a manual clock:
outputs off, solenoid safety in firmware, host silence, debounce, LEDs, protocol errors."""

from __future__ import annotations

import struct

import pytest
from fw_helpers import PERIOD, FwHost, fw_logic

from companion.hal import link as L

T = L.MsgType


def session(**kwargs) -> FwHost:
    host = FwHost(
        **{k: kwargs.pop(k) for k in ("start_ms", "reset_cause", "min_cooldown_ms") if k in kwargs}
    )
    host.hello(**kwargs)
    host.frames()
    return host


def fired(host: FwHost) -> list[tuple[int, int, int]]:
    return [L.FIRED.unpack(f.payload) for f in host.messages(T.FIRED, ack=False)]


# -- outputs off ---------------------------------------------------------------------------


def test_outputs_off_at_boot() -> None:
    host = FwHost()
    assert host.io.coil.level == 0
    assert host.io.matrix.writes and set(host.io.matrix.writes[-1]) == {(0, 0, 0)}
    assert host.io.status.writes and set(host.io.status.writes[-1]) == {(0, 0, 0)}
    assert not host.board.session and not host.board.solenoid.armed


def test_ident_says_who_the_board_is() -> None:
    host = FwHost(reset_cause="watchdog")
    ident = host.hello(nonce=0xBEEF)
    assert ident.nonce == 0xBEEF and ident.protocol == L.PROTOCOL_VERSION
    assert ident.firmware == fw_logic.FW_VERSION and ident.board_id == b"TESTBRD1"
    assert ident.caps & L.REQUIRED_CAPS == L.REQUIRED_CAPS
    assert (ident.matrix_size, ident.status_leds, ident.buttons) == (5, 12, 4)
    assert ident.pulse_cap_ms == 250
    assert ident.flags == L.FLAG_FIRST_SESSION | L.FLAG_WATCHDOG_RESET


# -- the solenoid --------------------------------------------------------------------------


def test_arm_then_fire_pulses_and_the_firmware_switches_the_coil_off_itself() -> None:
    host = session(pulse_ms=60)
    host.arm_fire(token=7, pulse_ms=60)
    assert host.io.coil.level == 1
    [(token, pulse_ms, _)] = fired(host)
    assert (token, pulse_ms) == (7, 60)
    host.advance(59)
    assert host.io.coil.level == 1
    host.advance(1)  # no host command: the board ends the pulse
    assert host.io.coil.level == 0
    [off] = [L.COIL_OFF.unpack(f.payload) for f in host.messages(T.COIL_OFF)]
    assert off[0] == 7 and off[1] == 60 and off[3] == 0


@pytest.mark.parametrize(
    ("hello_ms", "fire_ms", "expected"),
    [(60, 60, 60), (60, 200, 60), (250, 200, 200), (1000, 5000, 250), (65535, 65535, 250)],
)
def test_pulse_is_capped_at_250_ms_whatever_the_host_asks(hello_ms, fire_ms, expected) -> None:
    host = session(pulse_ms=hello_ms)
    host.arm_fire(pulse_ms=fire_ms)
    [(_, length, _)] = fired(host)
    assert length == expected
    host.advance(expected - 1)
    assert host.io.coil.level == 1
    host.advance(1)
    assert host.io.coil.level == 0
    on, off = [t for t, level in host.io.coil.history if level == 1][-1], host.io.coil.history[-1]
    assert off[1] == 0 and off[0] - on == expected


def refused(host: FwHost) -> list[int]:
    return [L.REFUSED.unpack(f.payload)[1] for f in host.messages(T.REFUSED)]


def test_fire_without_arm_is_refused() -> None:
    host = session()
    host.send(T.FIRE, host.fire_payload(1, 60))
    assert refused(host) == [fw_logic.REFUSE_NOT_ARMED]
    assert all(level == 0 for _, level in host.io.coil.history)


def test_wrong_token_is_refused_and_drops_the_arming() -> None:
    host = session()
    host.send(T.ARM, L.ARM.pack(1, 1000))
    host.send(T.FIRE, host.fire_payload(2, 60))
    host.send(T.FIRE, host.fire_payload(1, 60))  # no second guess
    assert refused(host) == [fw_logic.REFUSE_WRONG_TOKEN, fw_logic.REFUSE_NOT_ARMED]
    assert host.io.coil.level == 0


def test_fire_after_the_arm_window_is_refused() -> None:
    host = session()
    host.send(T.ARM, L.ARM.pack(1, 5000))  # the board caps the window at 1000 ms
    host.advance(1001, keepalive=True)
    host.send(T.FIRE, host.fire_payload(1, 60))
    assert refused(host) == [fw_logic.REFUSE_NOT_ARMED]
    assert host.io.coil.level == 0


def test_one_arm_one_fire() -> None:
    host = session(cooldown_ms=1000)
    host.arm_fire(token=5)
    host.frames()
    host.advance(2000, keepalive=True)
    host.send(T.FIRE, host.fire_payload(5, 60))
    assert len(host.executed(T.FIRE)) == 2
    assert refused(host) == [fw_logic.REFUSE_NOT_ARMED]
    assert host.board.solenoid.pulses == 1


def test_cooldown_is_enforced_in_firmware_with_a_floor() -> None:
    host = session(cooldown_ms=0, min_cooldown_ms=1000)  # the host asks for none: 1000 it is
    host.arm_fire(token=1)
    end = host.now + 60
    host.advance(60 + 500)
    host.arm_fire(token=2)  # (its press takes the board a few ms)
    [(token, reason, retry_ms)] = [L.REFUSED.unpack(f.payload) for f in host.messages(T.REFUSED)]
    assert (token, reason) == (2, fw_logic.REFUSE_COOLING_DOWN)
    assert retry_ms == 1000 - (host.now - end) and 480 < retry_ms < 500
    host.advance(retry_ms)
    host.arm_fire(token=3)
    assert host.board.solenoid.pulses == 2


def test_a_board_left_on_for_a_week_still_takes_the_press_and_fires() -> None:
    """Found by a review: the board kept the end of its last pulse for ever, and MicroPython's
    ticks_diff turns negative 2**29 ms (6.2 days) later, so a board left powered that long
    after its last pulse refused every FIRE as cooling down, for up to 6 more days. Writing
    this test found the same in the buttons: one nobody pressed for 6.2 days looked like it
    was bouncing and took no press. Both are forgotten once past every window."""
    host = session(cooldown_ms=1000)
    host.arm_fire(token=1)
    host.advance(100)  # the pulse ends
    assert host.board.solenoid.pulses == 1 and not host.board.solenoid.on
    host.advance(fw_logic.MAX_COOLDOWN_MS + 2000, step=1000)  # the board ticks on, alone
    host.io.clock.advance(PERIOD // 2 + 1000)  # days later: the counter's diff has turned
    host.board.tick(host.now)
    host.hello(cooldown_ms=1000)  # a host starts a new session
    host.frames()
    host.arm_fire(token=2)
    assert host.board.solenoid.pulses == 2 and refused(host) == []


def test_a_fire_without_a_press_on_the_board_is_refused() -> None:
    """ARM + FIRE alone never fire: the board wants a red-button press it sampled itself
    (a host that makes up a FIRE, or answers a press the board never saw, fires nothing)."""
    host = session()
    host.arm_fire(token=1, press=False)
    [(token, reason, _)] = [L.REFUSED.unpack(f.payload) for f in host.messages(T.REFUSED)]
    assert (token, reason) == (1, fw_logic.REFUSE_NO_PRESS)
    assert all(level == 0 for _, level in host.io.coil.history)
    assert host.board.solenoid.armed  # no fault of the arming: a real press may still fire
    host.press_trigger()
    host.send(T.FIRE, host.fire_payload(1, 60))
    assert [t for t, _, _ in fired(host)] == [1]


def test_a_press_before_the_arm_never_fires() -> None:
    host = session()
    host.press_trigger()  # pressed while nothing is armed (its EVENT held up on the link)
    host.advance(100)
    host.arm_fire(token=1, press=False)  # the host arms, then answers the late EVENT
    assert refused(host) == [fw_logic.REFUSE_NO_PRESS]
    host.press_trigger()  # also not while armed for another token, then re-armed
    host.send(T.ARM, L.ARM.pack(2, 1000))
    host.send(T.FIRE, host.fire_payload(2, 60))
    assert refused(host) == [fw_logic.REFUSE_NO_PRESS]
    assert all(level == 0 for _, level in host.io.coil.history)


def test_a_repeated_arm_of_the_same_token_keeps_the_press() -> None:
    """The host refreshes the ARM, and sends it again with the FIRE: the press made after
    the first ARM still fires."""
    host = session()
    host.send(T.ARM, L.ARM.pack(3, 1000))
    host.advance(50)
    host.press_trigger()
    host.advance(20)
    host.arm_fire(token=3, press=False)  # ARM (again) + FIRE, as the host answers the EVENT
    assert [t for t, _, _ in fired(host)] == [3]


def test_one_press_fires_once_even_if_the_host_fires_again() -> None:
    host = session(cooldown_ms=1000)
    host.send(T.ARM, L.ARM.pack(1, 1000))
    host.press_trigger()
    host.send(T.FIRE, host.fire_payload(1, 60))
    host.advance(1100, keepalive=True)  # past the cool-down
    host.arm_fire(token=2, press=False)  # a new token, but no new press
    assert refused(host) == [fw_logic.REFUSE_NO_PRESS]
    assert host.board.solenoid.pulses == 1


def test_a_press_older_than_the_limit_does_not_fire() -> None:
    host = session()
    host.send(T.ARM, L.ARM.pack(1, 1000))
    host.press_trigger()
    for _ in range(4):  # the host keeps the arming fresh, but sends no FIRE for 1 s
        host.advance(fw_logic.PRESS_MAX_AGE_MS // 4, keepalive=True)
        host.send(T.ARM, L.ARM.pack(1, 1000))
    host.advance(1)
    host.send(T.FIRE, host.fire_payload(1, 60))
    assert refused(host) == [fw_logic.REFUSE_NO_PRESS]
    assert all(level == 0 for _, level in host.io.coil.history)


def test_disarm_switches_the_coil_off_now() -> None:
    host = session(pulse_ms=250)
    host.arm_fire(pulse_ms=250)
    host.advance(10)
    host.send(T.DISARM)
    assert host.io.coil.level == 0
    [off] = [L.COIL_OFF.unpack(f.payload) for f in host.messages(T.COIL_OFF)]
    assert off[1] == 10 and off[3] == fw_logic.OFF_HOST


def test_coil_timer_switches_off_even_if_the_loop_is_late() -> None:
    """On the RP2040 a one-shot timer ends the pulse; the loop only reports it."""
    host = FwHost()
    timers = []

    class Timer:
        def deinit(self) -> None:
            timers.append("deinit")

    def coil_timer(ms, callback):
        timers.append(ms)
        host.io.clock.advance(ms)
        callback(None)  # the timer fires while the main loop is busy elsewhere
        return Timer()

    host.io.coil_timer = coil_timer
    host.board = fw_logic.Board(host.io)
    host.hello(pulse_ms=80)
    host.frames()
    host.arm_fire(pulse_ms=80)
    assert timers[0] == 80 and host.io.coil.level == 0
    host.board.tick(host.now)
    [off] = [L.COIL_OFF.unpack(f.payload) for f in host.messages(T.COIL_OFF)]
    assert off[1] == 80


def test_pulse_ends_on_time_across_the_tick_wrap() -> None:
    host = session(start_ms=PERIOD - 30, pulse_ms=60)
    host.arm_fire(pulse_ms=60)
    host.advance(59)
    assert host.io.coil.level == 1
    host.advance(1)
    assert host.io.coil.level == 0 and host.now < 100


# -- host silence --------------------------------------------------------------------------


def test_host_silence_switches_off_disarms_shows_the_fault_and_is_reported() -> None:
    host = session(pulse_ms=250)
    host.send(T.ARM, L.ARM.pack(9, 1000))
    host.advance(900)
    host.send(T.ARM, L.ARM.pack(9, 1000))  # the host refreshes the arming...
    host.advance(1000)
    assert host.board.session and host.board.solenoid.armed  # ...1000 ms is not yet silence
    host.advance(1)
    assert not host.board.session and not host.board.solenoid.armed
    assert host.io.coil.level == 0
    host.advance(250, step=5)
    reds = [w for w in host.io.matrix.writes if set(w) == {(40, 0, 0)}]
    assert reds, "the matrix shows the fault pattern"
    host.send(T.FIRE, host.fire_payload(9, 60))  # a late FIRE from the old session
    errors = [L.ERROR.unpack(f.payload) for f in host.frames() if f.type == T.ERROR]
    assert errors == [(fw_logic.ERR_NO_SESSION, T.FIRE, 2)]
    assert host.io.coil.level == 0
    ident = host.hello()
    assert ident.flags & L.FLAG_HOST_SILENCE and ident.faults == 1
    host.send(T.PING)  # the host has seen IDENT: the flag is cleared
    assert not host.hello().flags & L.FLAG_HOST_SILENCE


def test_silence_during_a_pulse_still_ends_the_pulse_within_the_cap() -> None:
    host = session(pulse_ms=250)
    host.arm_fire(pulse_ms=250)
    host.advance(250)
    assert host.io.coil.level == 0


def test_retransmission_gives_up_and_ends_the_session() -> None:
    host = session()
    host.io.buttons[1].level = 0
    host.advance(1 + fw_logic.GLITCH_MS)
    first = [f for f in host.frames() if f.type == T.EVENT]
    assert len(first) == 1
    for _ in range(20):  # the host hears nothing: the board retransmits...
        host.send(T.PING)  # (but the host is alive, so no silence)
        host.advance(60)
    assert host.board.session
    again = [f for f in host.frames() if f.type == T.EVENT]
    assert sum(f.seq == first[0].seq for f in again) >= 20
    host.send(T.PING)
    host.advance(60)
    assert not host.board.session  # ...and gives up: session over, outputs safe
    assert host.hello().flags & L.FLAG_LINK_LOST


# -- buttons -------------------------------------------------------------------------------


def events(host: FwHost) -> list[tuple[str, str, int]]:
    """Every button event the board has delivered so far."""
    host.messages()
    return [
        (L.BOARD_BUTTONS[b], L.EVENT_KINDS[k], t)
        for b, k, t in (L.EVENT.unpack(f.payload) for f in host.delivered if f.type == T.EVENT)
    ]


def test_bounce_is_filtered_and_events_carry_board_time() -> None:
    host = session(bounce_ms=20, hold_ms=1000)
    trigger = host.io.buttons[0]
    t0 = host.now
    for level in (0, 1, 0, 1, 0):  # a bouncy press, 1 ms per edge
        trigger.level = level
        host.advance(1)
    host.advance(100)
    for level in (1, 0, 1):  # a bouncy release
        trigger.level = level
        host.advance(1)
    host.advance(50)
    got = events(host)
    assert [(b, k) for b, k, _ in got] == [("trigger", "press"), ("trigger", "release")]
    # the press counts once the pin still reads pressed a glitch window after its first edge
    # (sampled at t0 + 1): bounce inside the window does not matter
    assert got[0][2] == t0 + 1 + fw_logic.GLITCH_MS and got[1][2] == t0 + 106
    assert host.board.buttons[0].ignored >= 4


def test_release_within_the_bounce_window_is_reported_when_it_ends() -> None:
    host = session(bounce_ms=20)
    host.io.buttons[2].level = 0
    host.advance(5)
    host.io.buttons[2].level = 1
    host.advance(30)
    assert [(b, k) for b, k, _ in events(host)] == [("select", "press"), ("select", "release")]


def latching_board() -> tuple[FwHost, list]:
    """A board in a session whose buttons' pin interrupts the test can fire."""
    host = FwHost()
    watched: list = []
    host.io.watch_press = lambda pin, callback: watched.append((pin, callback))
    host.board = fw_logic.Board(host.io)
    host.board.log = []
    assert [pin for pin, _ in watched] == host.io.buttons
    host.hello(bounce_ms=20)
    host.frames()
    return host, watched


def spike(pin, irq) -> None:
    """A contact closed and open again at once (the pin IRQ sees both edges)."""
    pin.level = 0
    irq(pin)
    pin.level = 1
    irq(pin)


@pytest.mark.parametrize("button", [0, 1])
def test_a_spike_shorter_than_the_glitch_window_is_not_a_press(button) -> None:
    """A spike on a button's line (a long wire next to the coil, static) latched by the pin
    interrupt is no press: the pin reads released again before the glitch window ends.
    The red button's spike used to count, and fire an armed coil (/tmp/safety/demos/d6)."""
    host, watched = latching_board()
    host.send(T.ARM, L.ARM.pack(1, 1000))
    spike(host.io.buttons[button], watched[button][1])
    host.advance(1)
    host.advance(30)
    assert events(host) == [] and host.board.buttons[button].glitches == 1
    host.send(T.FIRE, host.fire_payload(1, 60))
    assert refused(host) == [fw_logic.REFUSE_NO_PRESS] and host.board.solenoid.pulses == 0
    pin = host.io.buttons[button]
    pin.level = 0
    watched[button][1](pin)
    host.io.clock.advance(fw_logic.GLITCH_MS - 1)  # released one tick too soon
    pin.level = 1
    watched[button][1](pin)
    host.advance(1)
    host.advance(30)
    assert events(host) == [] and host.board.buttons[button].glitches == 2


def test_a_press_shorter_than_one_loop_counts_if_it_outlasted_the_glitch_window() -> None:
    host, watched = latching_board()
    roll, irq = host.io.buttons[1], watched[1][1]
    roll.level = 0
    irq(roll)  # the IRQ stamps the press edge...
    host.io.clock.advance(fw_logic.GLITCH_MS)
    roll.level = 1
    irq(roll)  # ...and the release, a glitch window later, before the loop samples
    host.advance(1)
    host.advance(30)
    assert [(b, k) for b, k, _ in events(host)] == [("roll", "press"), ("roll", "release")]


def roll_just_released() -> tuple[FwHost, list, object]:
    """A latching board whose ROLL was pressed and released: a new bounce window opens."""
    host, watched = latching_board()
    roll = host.io.buttons[1]
    roll.level = 0
    host.advance(30)
    roll.level = 1
    host.advance(1)  # the release is reported
    assert [k for _, k, _ in events(host)] == ["press", "release"]
    return host, watched, roll


def test_a_late_loop_never_turns_a_releases_bounce_into_a_press() -> None:
    host, watched, roll = roll_just_released()
    roll.level = 0
    watched[1][1](roll)  # a bounce closes the contact for a moment, the IRQ latches it...
    host.io.clock.advance(fw_logic.GLITCH_MS)  # (long enough not to be a spike)
    roll.level = 1
    watched[1][1](roll)
    host.advance(25, step=25)  # ...and the loop next samples only after the window (a stall)
    host.advance(30)
    assert [(b, k) for b, k, _ in events(host)] == [("roll", "press"), ("roll", "release")]
    roll.level = 0
    watched[1][1](roll)  # a press shorter than one loop, well after the window: counts
    host.io.clock.advance(fw_logic.GLITCH_MS)
    roll.level = 1
    watched[1][1](roll)
    host.advance(1)
    host.advance(30)
    assert [k for _, k, _ in events(host)] == ["press", "release", "press", "release"]


def test_a_short_press_after_the_bounce_window_counts_though_the_loop_ran_late() -> None:
    # The flake of tests/serial/test_serial_game.py under load: the loop sampled once more
    # inside the release's bounce window, then stalled; a whole (short) press came and went
    # after the window. The edge's own time says it is no bounce: it must count.
    host, watched, roll = roll_just_released()
    host.advance(1)  # the loop samples once more, inside the window
    host.io.clock.advance(25)  # then stalls (no tick) past the window's end
    roll.level = 0
    watched[1][1](roll)  # a press: the IRQ latches its edge
    host.io.clock.advance(5)
    roll.level = 1  # released again before the loop runs (the IRQ stamps that too)
    watched[1][1](roll)
    host.io.clock.advance(10)
    host.advance(1)
    host.advance(30)
    assert [k for _, k, _ in events(host)] == ["press", "release", "press", "release"]


@pytest.mark.parametrize("end", ["hello", "host silence"])
def test_a_press_lost_with_the_session_is_reported_in_the_next_ident(end) -> None:
    # The press's EVENT is sent but never acknowledged (the host went away); a new session
    # resets the link: the board says events were lost, so the table can ask again.
    host = session(bounce_ms=20)
    host.io.buttons[1].level = 0
    host.advance(5)
    assert [f.type for f in host.frames() if f.type == T.EVENT] == [T.EVENT]  # unacknowledged
    if end == "host silence":
        host.advance(1100, step=10)
        assert not host.board.session
    ident = host.hello()
    assert ident.flags & L.FLAG_EVENTS_LOST
    host.send(L.MsgType.PING)
    host.messages()
    host.io.buttons[1].level = 1
    host.advance(30)
    host.messages()
    assert not host.hello().flags & L.FLAG_EVENTS_LOST  # every EVENT was acknowledged


def test_a_new_session_after_every_event_was_acknowledged_reports_no_loss() -> None:
    host = session(bounce_ms=20)
    host.io.buttons[1].level = 0
    host.advance(5)
    host.messages()  # acknowledged
    assert not host.hello().flags & L.FLAG_EVENTS_LOST


def test_long_press_once() -> None:
    host = session(hold_ms=500)
    host.io.buttons[3].level = 0
    host.advance(1200, step=10, keepalive=True)
    host.io.buttons[3].level = 1
    host.advance(30)
    assert [k for _, k, _ in events(host)] == ["press", "long_press", "release"]


def test_buttons_before_a_session_are_not_queued() -> None:
    host = FwHost()
    host.io.buttons[0].level = 0
    host.advance(10)
    ident = host.hello()
    assert ident.buttons_down == 1  # reported as held, never as a press
    host.advance(10)
    assert events(host) == []


# -- LEDs --------------------------------------------------------------------------------------


def matrix_payload(cells: dict[int, tuple[int, int, int]], blink: int = 0) -> bytes:
    rgb = [cells.get(i, (0, 0, 0)) for i in range(25)]
    return bytes(v for p in rgb for v in p) + struct.pack(">I", blink)


def test_matrix_image_goes_to_the_zigzag_pixels_and_blink_cells_blink() -> None:
    host = session()
    host.advance(250 - host.now % 250)  # start of a blink phase
    host.send(T.MATRIX, matrix_payload({0: (1, 2, 3), 5: (4, 5, 6), 7: (9, 9, 9)}, blink=1 << 7))
    host.advance(1)
    pixels = host.io.matrix.pixels
    assert pixels[0] == (1, 2, 3)
    assert pixels[9] == (4, 5, 6)  # row 1 runs right to left: (1, 0) is pixel 9
    shown = {host.io.matrix.writes[i][7] for i in range(-1, -len(host.io.matrix.writes), -1)}
    host.advance(500, step=5)
    seen = {w[7] for w in host.io.matrix.writes}
    assert {(9, 9, 9), (0, 0, 0)} <= seen | shown  # (1, 2) blinks: pixel 7


def test_status_image_and_board_owned_leds() -> None:
    host = session()
    payload = bytes([60, 0, 60] + [0] * 15 + [0, 0, 0] * 3 + [70, 40, 0]) + b"\x00\x00"
    host.send(T.STATUS, payload)
    host.advance(1)
    status = host.io.status.pixels
    assert status[0] == (60, 0, 60) and status[9] == (70, 40, 0)
    assert status[11] == (0, 12, 0)  # link LED: green in a session
    host.send(T.ARM, L.ARM.pack(1, 1000))
    host.advance(300, step=5)
    assert {w[10] for w in host.io.status.writes} >= {(80, 0, 0), (0, 0, 0)}  # armed blink


def test_roll_animation_runs_on_the_board() -> None:
    host = session()
    host.send(T.ROLL, L.ROLL.pack(6, 4, 0xFF, 8, 50, 48, 48, 48))
    host.advance(400, step=5)
    lit = []
    for w in host.io.status.writes:
        on = [i for i in range(6, 10) if w[i] == (48, 48, 48)]
        if on and (not lit or lit[-1] != on[0]):
            lit.append(on[0])
    assert lit == [6, 7, 8, 9, 6, 7, 8, 9]
    assert all(host.io.status.pixels[i] == (0, 0, 0) for i in range(6, 10))  # back to the image


def test_goodbye_darkens_without_a_fault() -> None:
    host = session()
    host.send(T.MATRIX, matrix_payload({3: (9, 9, 9)}))
    host.send(T.GOODBYE)
    host.advance(2000, step=10)
    assert not host.board.session and host.board.faults == 0
    assert set(host.io.matrix.writes[-1]) == {(0, 0, 0)}
    assert not host.hello().flags & L.FLAG_HOST_SILENCE


def test_maintenance_needs_the_magic_and_switches_everything_off() -> None:
    host = session()
    host.send(T.MAINTENANCE, b"MAINX")
    assert host.io.maintenance == 0
    host.send(T.MAINTENANCE, b"MAINT")
    assert host.io.maintenance == 1 and host.io.coil.level == 0 and not host.board.session


# -- protocol errors -----------------------------------------------------------------------


def test_duplicate_is_acknowledged_but_not_executed_twice() -> None:
    host = session()
    host.send(T.ARM, L.ARM.pack(1, 1000), seq=0)
    host.send(T.ARM, L.ARM.pack(1, 1000), seq=0)
    assert len(host.executed(T.ARM)) == 1
    acks = [f.ack for f in host.frames() if f.type == T.ACK]
    assert acks == [0, 0]
    assert host.board.link.duplicates == 1


def test_out_of_sequence_frame_is_not_executed() -> None:
    host = session()
    host.send(T.ARM, L.ARM.pack(1, 1000), seq=1)  # seq 0 never arrived
    host.send(T.FIRE, host.fire_payload(1, 60), seq=2)
    assert host.executed(T.ARM) == [] and host.executed(T.FIRE) == []
    assert host.io.coil.level == 0
    assert [f.ack for f in host.frames() if f.type == T.ACK] == [255, 255]


def test_unknown_type_and_bad_payload_are_acknowledged_and_not_executed() -> None:
    host = session()
    host.send(0x7E, b"\x01")
    host.send(T.ARM, b"\x00\x00\x00\x01")  # 4 bytes, not 6
    host.send(T.EVENT, L.EVENT.pack(0, 1, 0))  # a board-to-host type
    host.send(T.FIRE, host.fire_payload(1, 60))
    frames = host.frames()
    errors = [L.ERROR.unpack(f.payload) for f in frames if f.type == T.ERROR]
    assert errors == [
        (fw_logic.ERR_UNKNOWN_TYPE, 0x7E, 0),
        (fw_logic.ERR_BAD_PAYLOAD, T.ARM, 1),
        (fw_logic.ERR_UNKNOWN_TYPE, T.EVENT, 2),
    ]
    assert [f.ack for f in frames if f.type == T.ACK] == [0, 1, 2, 3]
    assert not host.board.solenoid.armed and host.io.coil.level == 0


def test_hello_with_another_version_gives_ident_but_no_session() -> None:
    host = FwHost()
    ident = host.hello(version=1)
    assert ident.protocol == L.PROTOCOL_VERSION and not host.board.session
    host.arm_fire()
    assert host.io.coil.level == 0 and host.executed(T.ARM) == []


def test_hello_resets_a_running_session_safely() -> None:
    host = session(pulse_ms=250)
    host.arm_fire(pulse_ms=250)
    assert host.io.coil.level == 1
    host.hello()
    assert host.io.coil.level == 0 and not host.board.solenoid.armed


# -- FIRE deadlines, spent tokens, the board's own account (protocol 2) ----------------------


def test_a_fire_after_its_deadline_is_refused_and_clears_the_arming() -> None:
    host = session()
    host.send(T.ARM, L.ARM.pack(4, 1000))
    payload = host.fire_payload(4, 60, ttl_ms=100)
    host.advance(101, keepalive=True)  # the FIRE was held up past its deadline
    host.send(T.FIRE, payload)
    [(token, reason, _)] = [L.REFUSED.unpack(f.payload) for f in host.messages(T.REFUSED)]
    assert (token, reason) == (4, fw_logic.REFUSE_LATE)
    assert not host.board.solenoid.armed
    host.send(T.FIRE, host.fire_payload(4, 60))  # a retransmitted copy: still nothing
    assert refused(host) == [fw_logic.REFUSE_NOT_ARMED]
    assert all(level == 0 for _, level in host.io.coil.history)


def test_a_fire_on_its_deadline_still_fires() -> None:
    host = session()
    host.send(T.ARM, L.ARM.pack(4, 1000))
    host.press_trigger()
    payload = host.fire_payload(4, 60, ttl_ms=100)
    host.advance(100, keepalive=True)
    host.send(T.FIRE, payload)
    assert [t for t, _, _ in fired(host)] == [4] and host.io.coil.level == 1


def test_a_deadline_too_far_ahead_is_refused() -> None:
    host = session()
    host.send(T.ARM, L.ARM.pack(4, 1000))
    host.send(T.FIRE, host.fire_payload(4, 60, ttl_ms=fw_logic.FIRE_DEADLINE_MAX_MS + 1))
    assert refused(host) == [fw_logic.REFUSE_BAD_DEADLINE]
    assert host.io.coil.level == 0 and not host.board.solenoid.armed


def test_deadlines_work_across_the_tick_wrap() -> None:
    host = session(start_ms=PERIOD - 100)
    host.arm_fire(token=3, ttl_ms=500)  # the deadline lies past the wrap
    assert [t for t, _, _ in fired(host)] == [3]
    host = session(start_ms=PERIOD - 100)
    host.send(T.ARM, L.ARM.pack(3, 1000))
    late = host.fire_payload(3, 60, ttl_ms=150)
    host.advance(151, keepalive=True)  # now past the wrap, and past the deadline
    host.send(T.FIRE, late)
    assert refused(host) == [fw_logic.REFUSE_LATE] and host.io.coil.level == 0


def test_a_token_that_fired_is_never_armed_again() -> None:
    host = session(cooldown_ms=1000)
    host.arm_fire(token=5)
    host.advance(1100, keepalive=True)
    host.arm_fire(token=5)  # a stale ARM + FIRE of the same token, after the cool-down
    assert refused(host) == [fw_logic.REFUSE_SPENT, fw_logic.REFUSE_NOT_ARMED]
    assert host.board.solenoid.pulses == 1 and not host.board.solenoid.armed


def test_query_answers_with_the_boards_own_account_of_the_coil() -> None:
    host = session(pulse_ms=60)
    state = host.query(1)
    assert (state.coil_on, state.armed, state.last_token, state.pulses) == (False, False, 0, 0)
    assert state.board_ms == host.now
    host.send(T.ARM, L.ARM.pack(0xABCD, 1000))
    assert host.query(2).armed
    host.press_trigger()
    host.messages()  # its EVENT, acknowledged
    host.send(T.FIRE, host.fire_payload(0xABCD, 60))
    host.advance(20)
    state = host.query(3)
    assert (state.coil_on, state.last_token, state.pulses, state.on_ms) == (True, 0xABCD, 1, 20)
    host.advance(40)
    state = host.query(4)
    assert (state.coil_on, state.armed, state.pulses, state.on_ms) == (False, False, 1, 60)
    # the COIL_OFF went out before the STATE: in order, like everything the board sends
    types = [f.type for f in host.delivered]
    assert types.index(T.COIL_OFF) < len(types) - 1 and types[-1] == T.STATE


def test_the_pulse_is_reported_as_long_as_it_really_was() -> None:
    """COIL_OFF's on_ms is measured to the tick the gate went low, not capped at the
    commanded length: a main loop that noticed the end late shows (no timer here)."""
    host = session(pulse_ms=60)
    host.arm_fire(pulse_ms=60)
    host.advance(75, step=25)  # a main loop that only gets round every 25 ms
    [off] = [L.COIL_OFF.unpack(f.payload) for f in host.messages(T.COIL_OFF)]
    assert off[1] == 75 and host.query().on_ms == 75
