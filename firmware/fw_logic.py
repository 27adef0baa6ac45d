# The I/O board's logic: command dispatch, solenoid safety, button debounce,
# LED images and animations, host-silence watchdog (see PROTOCOL.md).
#
# Pure logic: everything physical comes through the *io* object that
# fw_hw.PicoIO builds on the RP2040 (and the virtual board builds on the
# CPython shims, and the tests build by hand):
#
#   io.ticks_ms(), io.ticks_diff(a, b)     the millisecond clock (wrapping)
#   io.coil                                 solenoid gate pin: value(0/1), value()
#   io.buttons                              4 pins, pulled up: value() == 0 is pressed
#   io.matrix, io.status                    NeoPixel-like: [i] = (r, g, b), write()
#   io.serpentine                           matrix wired in a zig-zag
#   io.unique_id                            8 bytes
#   io.reset_cause                          "power", "watchdog" or "soft"
#   io.write(data)                          bytes to the host
#   io.coil_timer(ms, callback) (optional)  one-shot timer; returns an object with deinit()
#   io.watch_press(pin, callback) (optional) call callback() on every edge of the pin (IRQ)
#   io.enter_maintenance() (optional)       restart into the REPL
#
# MicroPython subset: no f-strings, annotations, dataclasses or match.

import struct

import fw_proto as P

FW_VERSION = (2, 1, 1)

# capabilities (IDENT caps)
CAP_SOLENOID = 0x01
CAP_MATRIX = 0x02
CAP_STATUS = 0x04
CAP_BUTTONS = 0x08
CAP_ROLL = 0x10
CAP_BLINK = 0x20
CAP_MAINTENANCE = 0x40
CAP_GOODBYE = 0x80
CAPS = 0xFF

# safety limits: the host cannot change these
PULSE_HARD_CAP_MS = 250
MIN_COOLDOWN_MS = 1000
MAX_COOLDOWN_MS = 600000
SILENCE_MS = 1000
ARM_WINDOW_MAX_MS = 1000
FIRE_DEADLINE_MAX_MS = 1000  # a FIRE is valid for at most this long ahead
SPENT_TOKENS = 4  # tokens that fired, never armed again
# A FIRE needs a red-button press the board sampled itself, after the ARM for its token
# first arrived, at most this long ago: the longest a FIRE may be valid for, and the
# longest an arming lasts without a refresh. So the coil never switches on more than
# 1 s after the press that fired it, whatever the host does.
PRESS_MAX_AGE_MS = 1000
DEFAULT_PULSE_MS = 60
DEFAULT_COOLDOWN_MS = 3000
DEFAULT_BOUNCE_MS = 20
DEFAULT_HOLD_MS = 1000
MAX_BOUNCE_MS = 200
# A press counts only if the pin still reads pressed (or was released only) this many ticks
# after its first edge: 2 ticks of a 1 ms clock are at least 1 ms whatever the phase. A
# spike (a long wire next to the coil, static) is shorter; a finger's press lasts >= 10 ms.
GLITCH_MS = 2
MIN_HOLD_MS = 200
MAX_HOLD_MS = 10000
# a button's last change, older than this, is forgotten (it is past every bounce, glitch and
# hold window): ticks_ms wraps at 2**30 ms and a diff turns negative after 2**29 ms (6.2
# days), which made a button nobody pressed for 6.2 days look bouncing, deaf for 6.2 more
FORGET_MS = 60000

MATRIX_SIZE = 5
STATUS_LEDS = 12
HOST_STATUS_LEDS = 10  # 0-5 turn colours, 6-9 die faces
LED_ARMED = 10  # board-owned: blinks while armed, white while the coil is on
LED_LINK = 11  # board-owned: green in a session, blinking red after a fault

BUTTON_NAMES = ("trigger", "roll", "select", "confirm")
EV_PRESS = 1
EV_RELEASE = 2
EV_LONG = 3

REFUSE_NOT_ARMED = 1
REFUSE_WRONG_TOKEN = 2
REFUSE_ARM_EXPIRED = 3
REFUSE_COOLING_DOWN = 4
REFUSE_FAULT = 5
REFUSE_BAD_PULSE = 6
REFUSE_LATE = 7  # the FIRE's deadline had passed: the host has given up on it
REFUSE_BAD_DEADLINE = 8  # the deadline lies further ahead than FIRE_DEADLINE_MAX_MS
REFUSE_SPENT = 9  # ARM of a token that already fired
REFUSE_NO_PRESS = 10  # no unused red-button press since the ARM, within PRESS_MAX_AGE_MS

ERR_UNKNOWN_TYPE = 1
ERR_BAD_PAYLOAD = 2
ERR_NO_SESSION = 3
ERR_BAD_VERSION = 4

FLAG_HOST_SILENCE = 0x01
FLAG_WATCHDOG_RESET = 0x02
FLAG_FIRST_SESSION = 0x04
FLAG_LINK_LOST = 0x08
FLAG_EVENTS_LOST = 0x10

OFF_PULSE_END = 0
OFF_HOST = 1
OFF_FAULT = 2

MODE_DARK = 0
MODE_SESSION = 1
MODE_FAULT = 2

MAINTENANCE_MAGIC = b"MAINT"

HELLO_FMT = ">BHHIBH"  # version, nonce, pulse_ms, cooldown_ms, bounce_ms, hold_ms
IDENT_FMT = ">BHBBB8sHBBBHHIBHBI"
ARM_FMT = ">IH"  # token, window_ms
FIRE_FMT = ">IHI"  # token, pulse_ms, deadline (board ms)
QUERY_FMT = ">H"  # query id
ROLL_FMT = ">BBBBHBBB"  # first, count, final, steps, step_ms, r, g, b
EVENT_FMT = ">BBI"  # button, kind, board ms
FIRED_FMT = ">IHI"  # token, pulse_ms, board ms
COIL_OFF_FMT = ">IHIB"  # token, on_ms, board ms, reason
REFUSED_FMT = ">IBI"  # token, reason, retry_ms
STATE_FMT = ">HBBIIHI"  # query id, coil, armed, last fired token, pulses, on ms, board ms
ERROR_FMT = ">BBB"  # code, type, seq


def _clamp(value, low, high):
    if value < low:
        return low
    if value > high:
        return high
    return value


class Button:
    """Debounce one pulled-up button: a press counts at its first edge if the pin
    still reads pressed GLITCH_MS later (a shorter spike is ignored), then edges
    are ignored for bounce_ms; a press held hold_ms is a long press.

    The pin interrupt (edge()) stamps both edges with the clock: a press edge
    after the bounce window starts the glitch window at its own time, and a
    press that came and went before the main loop sampled it counts if it was
    released GLITCH_MS or more after its edge. So a loop that ran late neither
    turns a release's bounce into a press (the edge lies inside the window),
    nor a spike into one (released too soon), nor loses a short real press
    that came after the window."""

    def __init__(self, pin, ticks):
        self.pin = pin
        self.ticks = ticks
        self.bounce_ms = DEFAULT_BOUNCE_MS
        self.hold_ms = DEFAULT_HOLD_MS
        self.state = False
        self.raw = False
        self.last = None
        self.pressed_at = 0
        self.held = False
        self.ignored = 0
        self.glitches = 0  # first edges that were spikes, not presses
        self.since = None  # the glitch window's start: a press not decided yet
        self.latched = False
        self.edge_at = 0  # when the pin interrupt last saw a press edge
        self.opened = False
        self.released_at = 0  # when it last saw a release edge after that press edge

    def edge(self, *args):
        """Pin IRQ on any edge: remember a press edge (the pin reads pressed) or a release
        edge, and when, until the next sample. (pin.value() and ticks_ms() allocate
        nothing: safe in an interrupt handler.)"""
        now = self.ticks()
        if self.pin.value() == 0:
            self.edge_at = now
            self.latched = True
            self.opened = False
        else:
            self.released_at = now
            self.opened = True

    def sample(self, now, diff):
        raw = self.pin.value() == 0
        if self.last is not None and diff(now, self.last) > FORGET_MS:
            self.last = None  # long settled (see FORGET_MS)
        settled = self.last is None or diff(now, self.last) >= self.bounce_ms
        if raw != self.raw:
            self.raw = raw
            if not settled or self.since is not None:
                self.ignored += 1
        if self.latched:
            self.latched = False
            # a press edge after the bounce window starts a press at its own time (an edge
            # inside the window may be bounce)
            after = self.last is None or diff(self.edge_at, self.last) >= self.bounce_ms
            if after and not self.state and self.since is None:
                self.since = self.edge_at
        if self.state:
            if raw:
                if not self.held and diff(now, self.pressed_at) >= self.hold_ms:
                    self.held = True
                    return EV_LONG
            elif settled:
                self.state = False
                self.last = now
                return EV_RELEASE
            return 0
        if self.since is None:
            if not (raw and settled):
                return 0
            self.since = now  # the loop saw the press before the interrupt did (or has none)
        if diff(now, self.since) < GLITCH_MS:
            return 0
        since = self.since
        self.since = None
        if raw or (self.opened and diff(self.released_at, since) >= GLITCH_MS):
            self.state = True
            self.last = now
            self.pressed_at = now
            self.held = False
            return EV_PRESS
        self.glitches += 1  # released within the glitch window: a spike
        return 0


class Solenoid:
    """The coil: on only for a FIRE matching a fresh ARM and arriving before its
    deadline, and only for a red-button press the board sampled itself after that
    ARM first arrived (press()), once per press; pulse capped, cool-down enforced,
    switched off by the firmware itself; a token fires once and is never armed again."""

    def __init__(self, pin, diff, min_cooldown_ms, timer=None, ticks=None):
        self.pin = pin
        pin.value(0)
        self.diff = diff
        self.ticks = ticks
        self.timer_factory = timer
        self.timer = None
        self.min_cooldown_ms = min_cooldown_ms
        self.pulse_ms = DEFAULT_PULSE_MS
        self.cooldown_ms = max(DEFAULT_COOLDOWN_MS, min_cooldown_ms)
        self.armed = False
        self.token = 0
        self.arm_at = 0
        self.arm_window = 0
        self.press_at = None  # board ms of the last trigger press while armed, unused
        self.on = False
        self.on_since = 0
        self.off_at = None  # tick the timer drove the gate low, until off() books it
        self.length = 0
        self.fired_token = 0
        self.spent = []
        self.last_end = None
        self.last_on_ms = 0
        self.last_off_reason = -1
        self.pulses = 0

    def configure(self, pulse_ms, cooldown_ms):
        self.pulse_ms = _clamp(pulse_ms, 1, PULSE_HARD_CAP_MS)
        self.cooldown_ms = _clamp(cooldown_ms, self.min_cooldown_ms, MAX_COOLDOWN_MS)

    def arm(self, token, window_ms, now):
        """Arm for *token*; False (and disarmed) if that token already fired.

        A repeated ARM of the token armed now (the host refreshes it, and sends it again
        with the FIRE) only extends the window; any other ARM starts a new arming, and
        only presses sampled from then on may fire it."""
        if token in self.spent:
            self.disarm()
            return False
        if not self.armed or token != self.token:
            self.press_at = None
        self.armed = True
        self.token = token
        self.arm_at = now
        self.arm_window = _clamp(window_ms, 1, ARM_WINDOW_MAX_MS)
        return True

    def disarm(self):
        self.armed = False
        self.token = 0
        self.press_at = None

    def press(self, now):
        """The red button's press, as the board sampled it: while armed, it may fire."""
        if self.armed:
            self.press_at = now

    def fire(self, token, pulse_ms, deadline, now):
        """(0, pulse length) when the coil is on, else (refusal, retry_ms)."""
        ahead = self.diff(deadline, now)
        if ahead < 0:
            self.disarm()  # the host has given up on this FIRE: it never fires late
            return REFUSE_LATE, 0
        if ahead > FIRE_DEADLINE_MAX_MS:
            self.disarm()
            return REFUSE_BAD_DEADLINE, 0
        if not self.armed:
            return REFUSE_NOT_ARMED, 0
        if self.diff(now, self.arm_at) > self.arm_window:
            self.disarm()
            return REFUSE_ARM_EXPIRED, 0
        if token != self.token:
            self.disarm()  # no second guess
            return REFUSE_WRONG_TOKEN, 0
        if pulse_ms < 1:
            return REFUSE_BAD_PULSE, 0
        if self.press_at is None or not 0 <= self.diff(now, self.press_at) <= PRESS_MAX_AGE_MS:
            self.press_at = None
            return REFUSE_NO_PRESS, 0  # no press of its own since the ARM: never fires
        if self.on:
            return REFUSE_COOLING_DOWN, self.length + self.cooldown_ms
        if self.last_end is not None:
            wait = self.cooldown_ms - self.diff(now, self.last_end)
            if wait > 0:
                return REFUSE_COOLING_DOWN, wait
        length = min(pulse_ms, self.pulse_ms, PULSE_HARD_CAP_MS)
        self.disarm()  # uses the press up too: one press fires at most once
        self.spent.append(token)
        if len(self.spent) > SPENT_TOKENS:
            self.spent.pop(0)
        self.off_at = None
        self.pin.value(1)
        self.on = True
        # the tick the gate went high (``now`` is when the loop began this round), so that
        # on_ms counts from the rise to the fall, both to the tick
        self.on_since = now if self.ticks is None else self.ticks()
        self.length = length
        self.fired_token = token
        self.pulses += 1
        if self.timer_factory is not None:
            self.timer = self.timer_factory(length, self._timer_off(self.pulses))
        return 0, length

    def _timer_off(self, pulse):
        pin = self.pin
        ticks = self.ticks
        solenoid = self

        def _off(t):
            pin.value(0)
            if ticks is not None and solenoid.pulses == pulse and solenoid.off_at is None:
                solenoid.off_at = ticks()  # when the gate went low, for an honest report

        return _off

    def update(self, now):
        """Switch the coil off at the end of the pulse; returns a COIL_OFF report or None."""
        if self.armed and self.diff(now, self.arm_at) > self.arm_window:
            self.disarm()
        if self.press_at is not None and self.diff(now, self.press_at) > PRESS_MAX_AGE_MS:
            self.press_at = None  # too old to fire
        if self.last_end is not None and self.diff(now, self.last_end) > MAX_COOLDOWN_MS:
            # past any cool-down a host can ask for: forgotten, so that the tick counter's
            # wrap (2**30 ms, 12.4 days; a diff turns negative after 6.2) never makes an
            # old pulse look recent and the board refuse for days
            self.last_end = None
        if self.on and (self.diff(now, self.on_since) >= self.length or self.pin.value() == 0):
            return self.off(now, OFF_PULSE_END)
        return None

    def off(self, now, reason):
        """Coil off now; returns (token, on_ms, reason) if a pulse ended.

        on_ms runs from the tick the gate went high to the tick it went low (the
        timer's, if it switched the coil off first), not capped: a late switch-off
        shows."""
        self.pin.value(0)
        if self.timer is not None:
            try:  # noqa: SIM105 - no contextlib on MicroPython
                self.timer.deinit()
            except Exception:
                pass
            self.timer = None
        if not self.on:
            return None
        self.on = False
        end = now
        if self.off_at is not None and self.diff(now, self.off_at) >= 0:
            end = self.off_at
        self.off_at = None
        self.last_end = end
        on_ms = self.diff(end, self.on_since)
        if on_ms < 0:
            on_ms = 0
        self.last_on_ms = on_ms
        self.last_off_reason = reason
        return self.fired_token, on_ms, reason

    def on_ms(self, now):
        """How long the current (or last) pulse has been on."""
        if self.on:
            return self.diff(now, self.on_since)
        return self.last_on_ms


class Leds:
    """The arena matrix and the status strip: host images plus board animations."""

    def __init__(self, matrix, status, size, serpentine):
        self.np_matrix = matrix
        self.np_status = status
        self.size = size
        self.cells = size * size
        self.serpentine = serpentine
        self.matrix = bytearray(self.cells * 3)
        self.matrix_blink = 0
        self.status = bytearray(STATUS_LEDS * 3)
        self.status_blink = 0
        self.mode = MODE_DARK
        self.roll = None
        self.armed = False
        self.coil = False
        self.key = None
        self.writes = 0

    def index(self, cell):
        row = cell // self.size
        col = cell % self.size
        if self.serpentine and row % 2:
            col = self.size - 1 - col
        return row * self.size + col

    def dark(self):
        self.mode = MODE_DARK
        self.clear_images()

    def session(self):
        self.mode = MODE_SESSION
        self.clear_images()

    def fault(self):
        self.mode = MODE_FAULT
        self.clear_images()

    def clear_images(self):
        self.matrix = bytearray(self.cells * 3)
        self.matrix_blink = 0
        self.status = bytearray(STATUS_LEDS * 3)
        self.status_blink = 0
        self.roll = None
        self.key = None

    def set_matrix(self, payload):
        n = self.cells * 3
        self.matrix = bytearray(payload[:n])
        self.matrix_blink = struct.unpack(">I", payload[n : n + 4])[0]
        self.key = None

    def set_status(self, payload):
        count = (len(payload) - 2) // 3
        status = bytearray(STATUS_LEDS * 3)
        for i in range(min(count, HOST_STATUS_LEDS) * 3):
            status[i] = payload[i]
        self.status = status
        self.status_blink = struct.unpack(">H", payload[count * 3 : count * 3 + 2])[0]
        self.key = None

    def start_roll(self, payload, now):
        first, count, final, steps, step_ms, r, g, b = struct.unpack(ROLL_FMT, payload)
        if count == 0 or first + count > HOST_STATUS_LEDS:
            return False
        self.roll = (first, count, final, steps, max(step_ms, 1), (r, g, b), now)
        self.key = None
        return True

    def render(self, now, diff):
        """Write the pixels if anything visible changed; returns True if written."""
        slow = (now // 250) & 1  # 2 Hz blink
        fast = (now // 125) & 1  # 4 Hz blink
        step = -1
        if self.roll is not None:
            first, count, final, steps, step_ms, rgb, start = self.roll
            step = diff(now, start) // step_ms
            if step >= steps:
                self.roll = None
                step = -1
        key = (self.mode, slow, fast, step, self.armed, self.coil)
        if key == self.key:
            return False
        self.key = key
        off = (0, 0, 0)
        m = self.np_matrix
        s = self.np_status
        if self.mode == MODE_SESSION:
            img = self.matrix
            for cell in range(self.cells):
                i = cell * 3
                if (self.matrix_blink >> cell) & 1 and not slow:
                    m[self.index(cell)] = off
                else:
                    m[self.index(cell)] = (img[i], img[i + 1], img[i + 2])
            img = self.status
            for led in range(HOST_STATUS_LEDS):
                i = led * 3
                if (self.status_blink >> led) & 1 and not slow:
                    s[led] = off
                else:
                    s[led] = (img[i], img[i + 1], img[i + 2])
            if self.roll is not None:
                first, count, final, steps, step_ms, rgb, start = self.roll
                for led in range(first, first + count):
                    s[led] = rgb if led == first + step % count else off
            if self.coil:
                s[LED_ARMED] = (60, 60, 60)
            elif self.armed and fast:
                s[LED_ARMED] = (80, 0, 0)
            else:
                s[LED_ARMED] = off
            s[LED_LINK] = (0, 12, 0)
        elif self.mode == MODE_FAULT:
            red = (40, 0, 0) if slow else off
            for cell in range(self.cells):
                m[cell] = red
            for led in range(STATUS_LEDS):
                s[led] = off
            s[LED_LINK] = (80, 0, 0) if fast else off
        else:
            for cell in range(self.cells):
                m[cell] = off
            for led in range(STATUS_LEDS):
                s[led] = off
        m.write()
        s.write()
        self.writes += 1
        return True


class Board:
    """The whole I/O board: feed() it the bytes from the host, tick() it often."""

    def __init__(self, io, min_cooldown_ms=MIN_COOLDOWN_MS, silence_ms=SILENCE_MS):
        self.io = io
        self.diff = io.ticks_diff
        now = io.ticks_ms()
        self.solenoid = Solenoid(
            io.coil, self.diff, min_cooldown_ms, getattr(io, "coil_timer", None), io.ticks_ms
        )
        self.buttons = [Button(pin, io.ticks_ms) for pin in io.buttons]
        watch = getattr(io, "watch_press", None)
        if watch is not None:
            for b in self.buttons:
                watch(b.pin, b.edge)
        self.leds = Leds(io.matrix, io.status, MATRIX_SIZE, io.serpentine)
        self.decoder = P.Decoder()
        self.link = P.Link(io.write, self.diff)
        self.silence_ms = silence_ms
        self.protocol_version = P.PROTOCOL_VERSION
        self.firmware_version = FW_VERSION
        self.session = False
        self.last_rx = now
        self.flags = FLAG_FIRST_SESSION
        if io.reset_cause == "watchdog":
            self.flags |= FLAG_WATCHDOG_RESET
        self.reported = 0
        self.faults = 0
        self.errors_sent = 0
        self.log = None  # a list to record executed commands (tests)
        self.leds.render(now, self.diff)

    # -- input from the host ----------------------------------------------

    def feed(self, data, now):
        for item in self.decoder.feed(data):
            if isinstance(item, int):
                continue  # counted by the decoder; the sender retransmits
            self.last_rx = now
            self._frame(item, now)

    def _frame(self, frame, now):
        t = frame.type
        if t == P.T_HELLO:
            self._hello(frame.payload, now)
            return
        if t == P.T_IDENT or t == P.T_ERROR:
            return  # host-bound types: ignored
        if not self.session:
            if t != P.T_ACK:
                self._error(ERR_NO_SESSION, t, frame.seq)
            return
        for f in self.link.on_frame(frame, now):
            if self.reported:
                self.flags &= ~self.reported  # the host has seen IDENT
                self.reported = 0
            self._execute(f, now)
            if not self.session:
                return

    def _error(self, code, ftype, seq):
        self.errors_sent += 1
        self.io.write(P.encode_frame(P.T_ERROR, 0, 0, struct.pack(ERROR_FMT, code, ftype, seq)))

    def _send(self, ftype, payload, now):
        if not self.link.send(ftype, payload, now):
            self.flags |= FLAG_EVENTS_LOST

    def _end_link(self, now):
        """Reset the link for a new session (or none); button events still queued or
        unacknowledged are lost with it: say so in the next IDENT (flag 0x10)."""
        for frame in self.link.unacked:
            if frame[1] == P.T_EVENT:
                self.flags |= FLAG_EVENTS_LOST
        for frame in self.link.pending:
            if frame[0] == P.T_EVENT:
                self.flags |= FLAG_EVENTS_LOST
        self.link.reset(now)

    def _hello(self, payload, now):
        self._outputs_safe(now)
        self._end_link(now)
        nonce = 0
        if len(payload) >= 3:
            nonce = (payload[1] << 8) | payload[2]
        ok = len(payload) == struct.calcsize(HELLO_FMT) and payload[0] == self.protocol_version
        if ok:
            version, nonce, pulse, cooldown, bounce, hold = struct.unpack(HELLO_FMT, payload)
            self.solenoid.configure(pulse, cooldown)
            for b in self.buttons:
                b.bounce_ms = _clamp(bounce, 0, MAX_BOUNCE_MS)
                b.hold_ms = _clamp(hold, MIN_HOLD_MS, MAX_HOLD_MS)
            self.session = True
            self.leds.session()
        else:
            self.session = False
            self.leds.dark()
        self.last_rx = now
        self.io.write(P.encode_frame(P.T_IDENT, 0, 0xFF, self.ident(nonce, now)))
        self.reported = self.flags if ok else 0

    def ident(self, nonce, now):
        down = 0
        for i, b in enumerate(self.buttons):
            if b.state:
                down |= 1 << i
        uid = bytes(self.io.unique_id)[:8]
        uid = uid + bytes(8 - len(uid))
        s = self.solenoid
        return struct.pack(
            IDENT_FMT,
            self.protocol_version,
            nonce,
            self.firmware_version[0],
            self.firmware_version[1],
            self.firmware_version[2],
            uid,
            CAPS,
            MATRIX_SIZE,
            STATUS_LEDS,
            len(self.buttons),
            PULSE_HARD_CAP_MS,
            s.pulse_ms,
            s.cooldown_ms,
            self.flags,
            self.faults & 0xFFFF,
            down,
            now & 0xFFFFFFFF,
        )

    def state(self, query_id, now):
        """The STATE payload: what the coil did and does, on the board's own account."""
        s = self.solenoid
        coil = 1 if s.on or self.io.coil.value() else 0
        return struct.pack(
            STATE_FMT,
            query_id,
            coil,
            1 if s.armed else 0,
            s.fired_token,
            s.pulses & 0xFFFFFFFF,
            min(s.on_ms(now), 0xFFFF),
            now & 0xFFFFFFFF,
        )

    def _execute(self, frame, now):
        t = frame.type
        p = frame.payload
        n = len(p)
        ok = True
        if t == P.T_PING:
            ok = n == 0
        elif t == P.T_ARM:
            ok = n == 6
            if ok:
                token, window = struct.unpack(ARM_FMT, p)
                if not self.solenoid.arm(token, window, now):
                    self._send(P.T_REFUSED, struct.pack(REFUSED_FMT, token, REFUSE_SPENT, 0), now)
        elif t == P.T_DISARM:
            ok = n == 0
            if ok:
                self.solenoid.disarm()
                self._coil_off(now, OFF_HOST)
        elif t == P.T_FIRE:
            ok = n == 10
            if ok:
                token, pulse, deadline = struct.unpack(FIRE_FMT, p)
                reason, value = self.solenoid.fire(token, pulse, deadline, now)
                if reason == 0:
                    self._send(P.T_FIRED, struct.pack(FIRED_FMT, token, value, now), now)
                else:
                    self._send(P.T_REFUSED, struct.pack(REFUSED_FMT, token, reason, value), now)
        elif t == P.T_QUERY:
            ok = n == 2
            if ok:
                self._coil_report(self.solenoid.update(now), now)  # book a pulse just ended
                query_id = struct.unpack(QUERY_FMT, p)[0]
                self._send(P.T_STATE, self.state(query_id, now), now)
        elif t == P.T_MATRIX:
            ok = n == self.leds.cells * 3 + 4
            if ok:
                self.leds.set_matrix(p)
        elif t == P.T_STATUS:
            ok = n >= 2 and (n - 2) % 3 == 0 and (n - 2) // 3 <= STATUS_LEDS
            if ok:
                self.leds.set_status(p)
        elif t == P.T_ROLL:
            ok = n == struct.calcsize(ROLL_FMT) and self.leds.start_roll(p, now)
        elif t == P.T_GOODBYE:
            ok = n == 0
            if ok:
                self._outputs_safe(now)
                self.session = False
                self.leds.dark()
        elif t == P.T_MAINTENANCE:
            ok = p == MAINTENANCE_MAGIC
            if ok:
                self.all_off()
                enter = getattr(self.io, "enter_maintenance", None)
                if enter is not None:
                    enter()
        else:
            self._error(ERR_UNKNOWN_TYPE, t, frame.seq)
            return
        if not ok:
            self._error(ERR_BAD_PAYLOAD, t, frame.seq)
            return
        if self.log is not None:
            self.log.append((t, bytes(p)))

    # -- time passing -------------------------------------------------------

    def tick(self, now):
        self._coil_report(self.solenoid.update(now), now)
        for i, b in enumerate(self.buttons):
            kind = b.sample(now, self.diff)
            if i == 0 and kind == EV_PRESS:
                self.solenoid.press(now)
            if kind and self.session:
                self._send(P.T_EVENT, struct.pack(EVENT_FMT, i, kind, now & 0xFFFFFFFF), now)
        if self.session:
            if self.diff(now, self.last_rx) > self.silence_ms:
                self._fault(FLAG_HOST_SILENCE, now)
            elif not self.link.poll(now):
                self._fault(FLAG_LINK_LOST, now)
        self.leds.armed = self.solenoid.armed
        self.leds.coil = self.solenoid.on
        self.leds.render(now, self.diff)

    def _coil_off(self, now, reason):
        self._coil_report(self.solenoid.off(now, reason), now)

    def _coil_report(self, report, now):
        if report is not None and self.session:
            token, on_ms, reason = report
            on_ms = min(on_ms, 0xFFFF)
            self._send(P.T_COIL_OFF, struct.pack(COIL_OFF_FMT, token, on_ms, now, reason), now)

    def _outputs_safe(self, now):
        self.solenoid.disarm()
        self.solenoid.off(now, OFF_FAULT)

    def _fault(self, flag, now):
        """The host went silent (or the link broke): coil off, arm cleared, fault LEDs."""
        self._outputs_safe(now)
        self.session = False
        self._end_link(now)
        self.flags |= flag
        self.reported = 0
        self.faults += 1
        self.leds.fault()

    def all_off(self):
        """Every output off (boot, shutdown, maintenance)."""
        now = self.io.ticks_ms()
        self._outputs_safe(now)
        self.session = False
        self.leds.dark()
        self.leds.render(now, self.diff)
