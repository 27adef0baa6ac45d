"""The serial backend end to end: real pyserial on a real tty, the firmware's own logic
behind it (the virtual board): roles, buttons, LEDs, firing, and the link's faults."""

from __future__ import annotations

import threading
import time

import pytest
import serial
from serial_helpers import LinkFaults, LinkSettings, next_event, virtual_hw, wait_until

from companion.hal import (
    ArenaDisplay,
    Buttons,
    CellState,
    Eliminator,
    HardwareConfig,
    Refusal,
    SolenoidGuard,
    StatusLeds,
    Trigger,
)
from companion.hal import link as L
from companion.hal.serial_board import CELL_COLOURS, DIE_COLOURS, TURN_COLOURS, open_serial
from companion.hal.virtual_board import FaultWindow, open_virtual_board


def test_roles_and_handshake() -> None:
    with virtual_hw() as hw:
        assert isinstance(hw.trigger, Trigger) and isinstance(hw.buttons, Buttons)
        assert isinstance(hw.eliminator, Eliminator) and isinstance(hw.eliminator, SolenoidGuard)
        assert isinstance(hw.status_leds, StatusLeds) and isinstance(hw.display, ArenaDisplay)
        assert hw.connected and hw.board.firmware_version == "2.1.1"
        assert hw.board.flags & L.FLAG_FIRST_SESSION
        assert "connected on" in hw.link_status and hw.virtual_board.port in hw.link_status


def test_buttons_arrive_debounced_on_the_one_queue() -> None:
    with virtual_hw() as hw:
        vb = hw.virtual_board
        vb.bounce_press("roll", bounces=3, spacing_s=0.002)
        press = next_event(hw, "press", "roll")
        assert hw.buttons.is_pressed("roll")
        time.sleep(0.05)
        vb.bounce_release("roll", bounces=3, spacing_s=0.002)
        next_event(hw, "release", "roll")
        time.sleep(0.05)
        assert [e for e in hw.drain_inputs() if e.button == "roll"] == []  # one press, one release
        assert vb.ignored_edges("roll") >= 1
        assert hw.inputs.issued(press)
        vb.press("confirm")
        next_event(hw, "press", "confirm")
        next_event(hw, "long_press", "confirm", timeout=1.0)  # hold_s = 0.3
        vb.release("confirm")
        next_event(hw, "release", "confirm")
        board_times = [ms for _, ms, name, _ in hw.board_events if name == "confirm"]
        assert board_times[1] - board_times[0] >= 300  # the board's own clock


def test_waiting_for_a_button_the_firmware_cannot_take_again_says_so() -> None:
    """``wait_debounced`` (after every tap) returned silently when its time was up, and the
    next press went to a firmware that would not take it as one."""
    with virtual_hw() as hw:
        vb = hw.virtual_board
        vb.press("select")  # held: the firmware never reports a release
        next_event(hw, "press", "select")
        with pytest.raises(TimeoutError, match=r"'select'.* the firmware to see and report the"):
            vb.wait_debounced("select", timeout_s=0.2)
        vb.release("select")
        vb.wait_debounced("select")  # released and debounced: ready, no error
        next_event(hw, "release", "select")
        vb.tap("select", 0.01)  # taken as a new press
        next_event(hw, "press", "select")


def test_a_tap_on_a_board_in_maintenance_mode_waits_for_no_firmware() -> None:
    with virtual_hw() as hw:
        vb = hw.virtual_board
        assert hw.link.request_maintenance()
        wait_until(lambda: vb.maintenance and not vb._fw_thread.is_alive())
        vb.tap("select", 0.01)  # latched by the pin's interrupt, never sampled: no loop runs
        assert vb.board.buttons[2].latched and hw.next_input(0.1) is None


def test_status_leds_and_arena_images_reach_the_board() -> None:
    with virtual_hw() as hw:
        vb = hw.virtual_board
        hw.status_leds.show_turn("turquoise")
        hw.status_leds.show_die("explosion")
        wait_until(
            lambda: (
                vb.status_images
                and vb.status_images[-1][1][2] == TURN_COLOURS["turquoise"]
                and vb.status_images[-1][1][8] == DIE_COLOURS["explosion"]
            )
        )
        hw.display.show(
            [["field"] * 5] * 2
            + [["field", "hole", "centre", "eliminator", "blink"]]
            + [["off"] * 5] * 2
        )
        wait_until(
            lambda: (
                vb.matrix_images and vb.matrix_images[-1][1][12] == CELL_COLOURS[CellState.CENTRE]
            )
        )
        _, rgb, blink = vb.matrix_images[-1]
        assert rgb[10] == CELL_COLOURS[CellState.FIELD] and blink == 1 << 14
        assert hw.sim.frames[-1][1] == hw.display.frame
        # the board blinks the cell itself: on and off pixels without more frames from the host
        images = len(vb.matrix_images)
        time.sleep(0.6)
        seen = {pixels[14] for _, strip, pixels in vb.pixel_frames if strip == "matrix"}
        assert {CELL_COLOURS[CellState.BLINK], (0, 0, 0)} <= seen
        assert len(vb.matrix_images) == images
        assert [c[1:] for c in hw.sim.led_changes][-2:] == [
            ("turquoise", True),
            ("explosion", True),
        ]


def test_identical_images_are_not_sent_twice() -> None:
    with virtual_hw() as hw:
        vb = hw.virtual_board
        hw.display.set_cell((0, 0), "field")
        wait_until(lambda: vb.matrix_images and vb.matrix_images[-1][1][0] != (0, 0, 0))
        count = len(vb.matrix_images)
        for _ in range(5):
            hw.display.set_cell((0, 0), "field")
        time.sleep(0.1)
        assert len(vb.matrix_images) == count


def test_fire_pulses_the_board_coil_through_the_guard() -> None:
    with virtual_hw() as hw:
        vb = hw.virtual_board
        hw.eliminator.arm("boom")
        wait_until(lambda: vb.armed)
        vb.tap("trigger", 0.01)
        press = next_event(hw, "press", "trigger")
        result = hw.eliminator.fire(press)
        assert result and result.token == "boom"
        assert result.pulse.length_s == 0.060  # the board's pulse, not the host's round trip
        wait_until(lambda: vb.pulses)
        [(_, length)] = vb.pulses
        assert 0.05 <= length <= 0.15  # 60 ms timed by the board (CPython thread jitter)
        wait_until(lambda: hw.link.coil_reports)
        # the board's own account: its ticks from the gate's rise to its fall, which differ
        # from the pin's measured on-time by less than one tick (60 ms ticks can be 60 or 61
        # for a 60.4 ms pulse; how long a CPython timer thread takes is not the firmware's)
        assert abs(hw.link.coil_reports[0][1] - length * 1000) < 1
        assert not vb.armed and not vb.coil_on
        again = hw.eliminator.fire(press)
        assert not again and again.reason is Refusal.ALREADY_FIRED
        time.sleep(0.3)
        assert len(vb.pulses) == 1


def test_guard_rules_still_hold_on_the_host() -> None:
    with virtual_hw(cooldown_s=None) as hw:  # the configured 3 s cool-down
        vb = hw.virtual_board
        vb.tap("trigger", 0.01)
        early = next_event(hw, "press", "trigger")
        assert hw.eliminator.fire(early).reason is Refusal.NOT_ARMED
        hw.eliminator.arm("t1")
        assert hw.eliminator.fire(early).reason is Refusal.NOT_ARMED  # judged at its edge
        hw.link.flush(1.0)  # the board has the ARM: it fires only for a press after it
        vb.tap("trigger", 0.01)
        assert hw.eliminator.fire(next_event(hw, "press", "trigger"))
        hw.eliminator.arm("t2")
        vb.tap("trigger", 0.01)
        result = hw.eliminator.fire(next_event(hw, "press", "trigger"))
        assert result.reason is Refusal.COOLING_DOWN and 2 < result.retry_after_s <= 3
        time.sleep(0.2)
        assert len(vb.pulses) == 1


def test_the_link_sends_no_fire_while_nothing_is_armed() -> None:
    """BoardLink.fire without an arming sends nothing (it used to make up a token and its
    ARM, and the board fired with no press and no explosion armed)."""
    with virtual_hw() as hw:
        vb = hw.virtual_board
        assert not hw.eliminator.armed and not hw.link.armed
        kind, why = hw.link.fire(60)
        assert kind == "not sent" and "nothing is armed" in why
        hw.link.flush()
        assert vb.pulses == [] and not vb.armed


def test_a_press_the_board_never_saw_does_not_fire() -> None:
    """The board fires only for a red-button press it sampled itself after its ARM: a
    trigger press the host has but the board never saw (a host bug, a made-up event) is
    refused by the board (REFUSED 10), which the guard reports as PRESS_BEFORE_ARMING,
    without a driver fault and without using up the arming."""
    with virtual_hw() as hw:
        vb = hw.virtual_board
        guard = hw.eliminator
        guard.arm("boom")
        wait_until(lambda: vb.armed)
        phantom = hw.inputs.emit("press", "trigger")  # not from the board's pins
        result = guard.fire(phantom)
        assert result.reason is Refusal.PRESS_BEFORE_ARMING, result
        assert "no press of the red button" in result.message
        assert guard.fault is None and guard.armed and guard.armed_token == "boom"
        assert guard.fire(phantom).reason is Refusal.ALREADY_FIRED  # used, all the same
        assert vb.pulses == []
        wait_until(lambda: vb.armed)  # armed again on the board, with a fresh token
        assert [e.seq for e in hw.drain_inputs()] == [phantom.seq]
        vb.tap("trigger", 0.01)
        assert guard.fire(next_event(hw, "press", "trigger"))  # a real press fires
        wait_until(lambda: len(vb.pulses) == 1)


@pytest.mark.parametrize("held_up_s", [0.3, 0.6])
def test_a_press_before_arming_whose_event_arrives_after_it_never_fires(held_up_s) -> None:
    """The red button pressed while nothing is armed; its EVENT is held up on the link
    (bytes to the host lost for a while, well under the 1 s silence limit: retransmitted);
    the table arms 0.1 s after the press. The EVENT arrives after the arming and gets its
    press number then, but the board stamped it before: the host refuses it by that stamp
    and sends no FIRE (it used to fire, with no press after the arming)."""
    with virtual_hw() as hw:
        vb = hw.virtual_board
        sent: list[int] = []
        link_fire = hw.link.fire

        def recording_fire(pulse_ms: int) -> tuple:
            sent.append(pulse_ms)
            return link_fire(pulse_ms)

        hw.link.fire = recording_fire  # type: ignore[method-assign]
        vb.faults = LinkFaults(
            windows=[FaultWindow("to_host", 0.0, held_up_s, drop=1.0, anchor="trigger")]
        )
        vb.press("trigger")
        time.sleep(0.03)
        vb.release("trigger")
        time.sleep(0.07)
        hw.eliminator.arm("explosion")
        press = next_event(hw, "press", "trigger", timeout=3.0)
        assert hw.link.disconnects == 0  # retransmitted, not lost with the session
        result = hw.eliminator.fire(press)
        assert result.reason is Refusal.PRESS_BEFORE_ARMING, result
        assert "by the I/O board's clock" in result.message
        assert hw.eliminator.armed and hw.eliminator.fault is None
        hw.link.flush(1.0)
        assert sent == [] and vb.pulses == []
        vb.faults = LinkFaults()
        vb.tap("trigger", 0.01)  # a press after the arming fires
        assert hw.eliminator.fire(next_event(hw, "press", "trigger"))
        wait_until(lambda: len(vb.pulses) == 1)


def test_the_boards_cool_down_after_a_host_restart_is_a_cool_down_not_a_fault() -> None:
    """A host that restarts right after a pulse has no cool-down of its own to keep; the
    board refuses the next FIRE as cooling down. The guard says COOLING_DOWN with the
    board's retry time, as for its own cool-down, and stays armed: no driver fault, no
    "lift the tile out by hand" (it used to latch a DRIVER_FAULT, /tmp/safety/demos/d4b)."""
    board, port = open_virtual_board()
    config = HardwareConfig(profile="serial", cooldown_s=10.0)
    try:
        with open_serial(config, port=port) as hw:
            hw.eliminator.arm("e1")
            hw.link.flush(1.0)
            board.tap("trigger", 0.01)
            assert hw.eliminator.fire(next_event(hw, "press", "trigger"))
        with open_serial(config, port=port) as hw:  # the host restarted
            guard = hw.eliminator
            guard.arm("e2")
            hw.link.flush(1.0)
            board.tap("trigger", 0.01)
            result = guard.fire(next_event(hw, "press", "trigger"))
            assert result.reason is Refusal.COOLING_DOWN, result
            assert 8.0 < result.retry_after_s <= 10.0 and "cooling down" in result.message
            assert guard.fault is None and guard.armed and guard.armed_token == "e2"
            board.tap("trigger", 0.01)  # pressed again at once: the guard's own cool-down
            again = guard.fire(next_event(hw, "press", "trigger"))
            assert again.reason is Refusal.COOLING_DOWN
            assert again.retry_after_s < result.retry_after_s and guard.fault is None
            wait_until(lambda: board.armed)  # armed on the board: the host keeps it so
        assert len(board.pulses) == 1
    finally:
        board.close()


def test_a_stuck_trigger_never_fires() -> None:
    with virtual_hw() as hw:
        vb = hw.virtual_board
        vb.stick("trigger")
        press = next_event(hw, "press", "trigger")
        hw.eliminator.arm("stuck")
        assert hw.eliminator.fire(press).reason is Refusal.NOT_ARMED  # judged at its edge
        vb.tap("trigger")  # deaf while stuck
        assert hw.next_input(0.2) is None
        hw.eliminator.disarm()
        wait_until(lambda: not vb.armed)
        assert vb.pulses == [] and hw.trigger.is_pressed


def test_unplug_pauses_refuses_to_fire_and_replug_restores_the_board() -> None:
    with virtual_hw() as hw:
        vb = hw.virtual_board
        hw.display.set_cell((4, 4), "eliminator")
        hw.status_leds.show_turn("red")
        hw.eliminator.arm("boom")
        wait_until(lambda: vb.armed)  # the board fires only for a press after its ARM
        vb.tap("trigger", 0.01)
        assert hw.eliminator.fire(next_event(hw, "press", "trigger")).fired  # on its EVENT
        wait_until(lambda: len(vb.pulses) == 1)
        time.sleep(0.1)  # the cool-down
        hw.eliminator.arm("boom again")
        vb.unplug()
        wait_until(lambda: not hw.connected, timeout=2.0)
        assert "disconnected" in hw.link_status
        press = hw.inputs.emit("press", "trigger")  # one the table loop reaches after the drop
        result = hw.eliminator.fire(press)
        assert result.reason is Refusal.DRIVER_FAULT and "not connected" in result.message
        assert hw.eliminator.fault is None and hw.eliminator.armed  # not latched, still armed
        assert press.seq in [e.seq for e in hw.drain_inputs()]  # handled: off the queue
        assert not hw.wait_connected(0.2)
        vb.replug()
        assert hw.wait_connected(5.0)
        wait_until(lambda: vb.armed)  # the arming is re-sent...
        wait_until(
            lambda: (
                vb.matrix_images
                and vb.matrix_images[-1][1][24] == CELL_COLOURS[CellState.ELIMINATOR]
            )
        )  # ...and the images
        wait_until(lambda: vb.status_images and vb.status_images[-1][1][3] == TURN_COLOURS["red"])
        vb.tap("trigger", 0.01)
        assert hw.eliminator.fire(next_event(hw, "press", "trigger"))
        assert hw.link.disconnects == 1 and hw.link.connects == 2
        wait_until(lambda: len(vb.pulses) == 2)


def test_board_reset_is_noticed_and_the_session_restarts() -> None:
    with virtual_hw() as hw:
        vb = hw.virtual_board
        hw.display.set_cell((0, 0), "highlight")
        vb.reset("watchdog")
        wait_until(lambda: hw.link.connects == 2, timeout=5.0)
        assert hw.board.flags & L.FLAG_WATCHDOG_RESET
        assert any("watchdog" in n for n in hw.link.notices)
        wait_until(
            lambda: (
                vb.matrix_images and vb.matrix_images[-1][1][0] == CELL_COLOURS[CellState.HIGHLIGHT]
            )
        )


def test_host_silence_is_reported_to_the_next_connection() -> None:
    slow = LinkSettings(keepalive_s=5.0, silence_s=5.0)  # a host that hangs
    with virtual_hw(settings=slow) as hw:
        vb = hw.virtual_board
        hw.eliminator.arm("boom")
        wait_until(lambda: vb.armed)
        hw.link._arm_token = None  # stop refreshing: the host "hangs"
        wait_until(lambda: not vb.session, timeout=2.5)
        assert not vb.armed and not vb.coil_on
        wait_until(lambda: (vb.last_pixels() or [None])[0] == (40, 0, 0), timeout=1.0)
        board = vb
        hw.link._drop("test: reconnect")  # what the host does on restart
        wait_until(lambda: hw.link.connects == 2, timeout=3.0)
        assert hw.board.flags & L.FLAG_HOST_SILENCE and hw.board.faults == 1
        assert any("lost the host" in n for n in hw.link.notices)
        assert board.pulses == []


def test_close_says_goodbye_and_the_board_goes_dark_without_a_fault() -> None:
    with virtual_hw() as hw:
        vb = hw.virtual_board
        hw.display.set_cell((1, 1), "field")
        hw.status_leds.show_turn("purple")
        wait_until(lambda: vb.matrix_images)
        board = vb.board
        vb.close = lambda: None  # keep the board running past hw.close() to look at it
    wait_until(lambda: not board.session)
    assert board.faults == 0 and not board.solenoid.armed
    time.sleep(0.05)
    assert set(vb.last_pixels("matrix")) == {(0, 0, 0)}
    type(vb).close(vb)


def test_an_armed_trigger_press_fires_on_the_link_thread_that_read_it() -> None:
    """The edge path of the serial backend: the board's trigger EVENT fires the coil on
    the link thread that read it (no hand-over to the table loop's thread); the table
    loop's fire() then gets that pulse's result, once. Unarmed presses only queue."""
    with virtual_hw() as hw:
        vb = hw.virtual_board
        firing_threads: list[str] = []
        link_fire = hw.link.fire

        def recording_fire(pulse_ms: int) -> tuple:
            firing_threads.append(threading.current_thread().name)
            return link_fire(pulse_ms)

        hw.link.fire = recording_fire  # type: ignore[method-assign]
        vb.tap("trigger", 0.01)  # not armed: only on the queue
        unarmed = next_event(hw, "press", "trigger")
        assert vb.pulses == [] and firing_threads == []
        hw.eliminator.arm("boom")
        assert hw.eliminator.fire(unarmed).reason is Refusal.NOT_ARMED  # judged at its edge
        hw.link.flush(1.0)  # the board has the ARM: it fires only for a press after it
        vb.tap("trigger", 0.01)
        wait_until(lambda: len(vb.pulses) == 1)  # nobody has called fire() yet
        assert firing_threads == ["io-board-link"] and not hw.eliminator.armed
        press = next_event(hw, "press", "trigger")
        result = hw.eliminator.fire(press)
        assert result.fired and result.token == "boom" and result.pulse is not None
        assert hw.eliminator.fire(press).reason is Refusal.ALREADY_FIRED  # once per press
        time.sleep(0.1)  # the cool-down
        vb.tap("trigger", 0.01)  # fired once, not armed again: nothing more
        assert hw.eliminator.fire(next_event(hw, "press", "trigger")).reason is Refusal.NOT_ARMED
        assert len(vb.pulses) == 1 and firing_threads == ["io-board-link"]


def test_an_armed_press_is_answered_by_arm_and_fire_in_one_write_carrying_the_ack() -> None:
    """The red button's EVENT is answered by ARM + FIRE in one write to the board, which
    acknowledge the EVENT themselves: no ACK frame goes ahead of them (one write, one
    wake-up of the board on the way to the coil)."""
    with virtual_hw() as hw:
        vb = hw.virtual_board
        hw.eliminator.arm("boom")
        hw.link.flush(1.0)
        writes: list[list[L.Frame]] = []
        events: list[int] = []
        ser = hw.link._ser
        write, message = ser.write, hw.link._message

        def recording_write(data: bytes) -> int | None:
            writes.append([f for f in L.FrameDecoder().feed(data) if isinstance(f, L.Frame)])
            return write(data)

        def recording_message(frame: L.Frame, now: float) -> None:
            if frame.type == L.MsgType.EVENT:
                events.append(frame.seq)
                writes.append([])  # where the EVENT was read
            message(frame, now)

        ser.write = recording_write
        hw.link._message = recording_message  # type: ignore[method-assign]
        vb.tap("trigger", 0.01)
        wait_until(lambda: len(vb.pulses) == 1)
        assert events, "the press's EVENT"
        after_event = writes[writes.index([]) + 1 :]
        first = after_event[0]
        assert [f.type for f in first] == [L.MsgType.ARM, L.MsgType.FIRE]
        assert all(f.ack == events[0] for f in first)  # the EVENT acknowledged on them
        press = next_event(hw, "press", "trigger")
        assert hw.eliminator.fire(press).fired


def test_the_link_thread_runs_at_realtime_priority_where_allowed() -> None:
    """The link thread reads the red button's EVENT and fires an armed press itself: it asks
    for SCHED_FIFO as the gpio backend's button thread does, and says what it got."""
    import os
    import sys

    from companion.hal.realtime import BUTTON_THREAD_PRIORITY, SWITCH_INTERVAL_S

    before = sys.getswitchinterval()
    with virtual_hw() as hw:
        thread = hw.link._thread
        policy = os.sched_getscheduler(thread.native_id)
        if hw.link.scheduling.startswith("SCHED_FIFO"):
            assert policy == os.SCHED_FIFO
            assert os.sched_getparam(thread.native_id).sched_priority == BUTTON_THREAD_PRIORITY
        else:  # not permitted here: it says so, with the reason
            assert policy == os.SCHED_OTHER and "refused" in hw.link.scheduling
        assert sys.getswitchinterval() == pytest.approx(min(before, SWITCH_INTERVAL_S))
    assert sys.getswitchinterval() == before
    with virtual_hw(settings=LinkSettings(realtime_priority=None)) as hw:
        assert os.sched_getscheduler(hw.link._thread.native_id) == os.SCHED_OTHER
        assert hw.link.scheduling.startswith("SCHED_OTHER (real-time priority not asked")


def test_a_press_is_delivered_before_it_is_acknowledged() -> None:
    """A write to the board that fails after its bytes went out (pyserial raises a write
    timeout after a complete write when the link thread was held up past it, as under
    heavy load) loses no press: the EVENT is handed to the table before the host writes its
    acknowledgement. Acknowledged first, the press was gone: the board had its ACK and
    never sent it again, the host dropped the link before handing it on, and no IDENT said
    an event was lost (the flake in test_a_whole_game_with_one_percent_bad_bytes)."""
    with virtual_hw() as hw:
        assert hw.link.query(1.0) is not None  # the start-up's answers are in
        time.sleep(0.05)
        ser = hw.link._ser
        write = ser.write
        failed: list[bytes] = []
        event_seq = hw.virtual_board.board.link.tx_next  # the press's EVENT will have it

        def write_then_time_out(data: bytes) -> int | None:
            written = write(data)
            frames = [f for f in L.FrameDecoder().feed(data) if isinstance(f, L.Frame)]
            acks = [f.ack for f in frames if f.type == L.MsgType.ACK]
            if not failed and any((ack - event_seq) & 0xFF < 128 for ack in acks):
                failed.append(data)  # the write that acknowledges the press's EVENT
                raise serial.SerialTimeoutException("Write timeout")
            return written

        ser.write = write_then_time_out
        hw.virtual_board.tap("roll", 0.01)
        assert next_event(hw, "press", "roll", timeout=3.0)
        wait_until(lambda: hw.link.connects == 2, timeout=3.0)
        assert failed and hw.link.disconnects == 1


def test_a_press_lost_with_the_session_is_reported_and_counted_as_an_input_gap() -> None:
    faults = LinkFaults()
    faults.blackout("to_host", 1.5, anchor="trigger")  # the press's EVENT never gets through
    with virtual_hw(faults=faults) as hw:
        gaps = hw.input_gaps
        hw.virtual_board.tap("trigger", 0.01)
        wait_until(lambda: hw.link.connects == 2, timeout=6.0)
        assert hw.board.flags & L.FLAG_EVENTS_LOST
        assert hw.link.events_lost == 1 and hw.link.stats["events_lost"] == 1
        assert any("dropped button events" in n for n in hw.link.notices)
        assert hw.input_gaps == gaps + 2  # the session that ended, and the lost events


def test_the_virtual_boards_loop_takes_the_priority_it_is_given_and_stamps_the_pty() -> None:
    """The benchmark's stand-in for a microcontroller of its own: the board's loop on
    SCHED_FIFO where allowed (and back), and where a press crossed the pty."""
    import os

    with virtual_hw() as hw:
        vb = hw.virtual_board
        thread = vb._fw_thread
        got = vb.set_firmware_priority(10)
        if got.startswith("SCHED_FIFO"):
            assert os.sched_getscheduler(thread.native_id) == os.SCHED_FIFO
        else:  # not permitted here: it says so
            assert "refused" in got
        assert vb.set_firmware_priority(None) == "SCHED_OTHER"
        assert os.sched_getscheduler(thread.native_id) == os.SCHED_OTHER
        hw.eliminator.arm("boom")
        hw.link.flush(1.0)
        edge = vb.press("trigger")
        rise = vb.wait_rise(edge, 2.0)
        assert rise is not None
        stamps = vb.press_stamps(edge, rise)
        assert stamps["edge"] == edge and stamps["rise"] == rise
        # the EVENT went out after the edge, the ARM + FIRE came in before the gate went high
        assert stamps["to_host"] and stamps["to_board"]
        assert edge <= stamps["to_host"][0] <= stamps["to_board"][-1] <= rise
        vb.release("trigger")
