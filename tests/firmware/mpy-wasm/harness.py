# Checks of the I/O board firmware that run under real MicroPython (the WebAssembly port, by
# run.mjs): every entry of protocol_vectors.json, the solenoid's rules (ARM/FIRE, a press of
# the red button the board sampled itself, cap, cool-down, deadlines, spent tokens, host
# silence), the hardware layer on small machine and neopixel shims, and a seeded fuzz of
# frames with zero spurious or over-cap pulses.
#
# This file is MicroPython: no f-strings, annotations or dataclasses. It prints one JSON line
# per check: {"check": name, "ok": true/false, "detail": text}, then a summary line.

import binascii
import json
import struct
import sys

import fw_logic as F
import fw_proto as P

PERIOD = 1 << 30  # MicroPython's ticks_ms wraps here
FAILED = []


def report(check, ok, detail=""):
    if not ok:
        FAILED.append(check)
    print(json.dumps({"check": check, "ok": bool(ok), "detail": str(detail)}))


def unhex(text):
    return binascii.unhexlify(text)


# -- a board on a manual clock -------------------------------------------------------------


class Clock:
    def __init__(self, start):
        self.now = start % PERIOD

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return ((a - b + PERIOD // 2) % PERIOD) - PERIOD // 2


class FakePin:
    def __init__(self, clock, level=1):
        self.clock = clock
        self.level = level
        self.history = []

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = 1 if v else 0
        self.history.append((self.clock.now, self.level))


class Strip:
    def __init__(self, n):
        self.pixels = [(0, 0, 0)] * n
        self.writes = 0

    def __setitem__(self, i, v):
        self.pixels[i] = v

    def __getitem__(self, i):
        return self.pixels[i]

    def write(self):
        self.writes += 1


class Timer:
    def __init__(self, io, due, callback):
        self.io = io
        self.due = due
        self.callback = callback

    def deinit(self):
        if self in self.io.timers:
            self.io.timers.remove(self)


class FakeIO:
    """What fw_logic.Board needs, with one-shot timers that fire at their exact tick."""

    def __init__(self, start):
        self.clock = Clock(start)
        self.ticks_ms = self.clock.ticks_ms
        self.ticks_diff = self.clock.ticks_diff
        self.coil = FakePin(self.clock, 1)  # high: the board must drive it low
        self.buttons = [FakePin(self.clock, 1) for _ in range(4)]
        self.matrix = Strip(25)
        self.status = Strip(12)
        self.serpentine = True
        self.unique_id = b"WASMBRD1"
        self.reset_cause = "power"
        self.out = bytearray()
        self.timers = []

    def write(self, data):
        self.out.extend(data)

    def coil_timer(self, ms, callback):
        timer = Timer(self, (self.clock.now + ms) % PERIOD, callback)
        self.timers.append(timer)
        return timer

    def advance(self, ms):
        """Let *ms* pass; a timer due meanwhile fires at its own tick."""
        target = (self.clock.now + ms) % PERIOD
        while True:
            due = [t for t in self.timers if 0 <= self.ticks_diff(t.due, self.clock.now) <= ms]
            due = [t for t in due if self.ticks_diff(target, t.due) >= 0]
            if not due:
                break
            first = due[0]
            for t in due:
                if self.ticks_diff(t.due, first.due) < 0:
                    first = t
            ms -= self.ticks_diff(first.due, self.clock.now)
            self.clock.now = first.due
            self.timers.remove(first)
            first.callback(first)
        self.clock.now = target


class Host:
    """A scripted host for one Board, speaking with the firmware's own codec (the vectors
    show it is byte-identical to the host's)."""

    def __init__(self, start=1000, min_cooldown_ms=F.MIN_COOLDOWN_MS):
        self.io = FakeIO(start)
        self.board = F.Board(self.io, min_cooldown_ms=min_cooldown_ms)
        self.board.log = []
        self.decoder = P.Decoder()
        self.seq = 0
        self.expected = 0
        self.delivered = []

    @property
    def now(self):
        return self.io.clock.now

    def feed(self, wire):
        self.board.feed(wire, self.now)

    def hello(self, pulse=60, cooldown=3000, bounce=20, hold=1000, version=None):
        version = P.PROTOCOL_VERSION if version is None else version
        payload = struct.pack(F.HELLO_FMT, version, 0x1234, pulse, cooldown, bounce, hold)
        self.feed(P.encode_frame(P.T_HELLO, 0, 0xFF, payload))
        self.seq = 0
        self.expected = 0
        return [f for f in self.frames() if f.type == P.T_IDENT]

    def wire(self, ftype, payload=b""):
        return P.encode_frame(ftype, self.seq, (self.expected - 1) & 0xFF, payload)

    def send(self, ftype, payload=b""):
        self.feed(self.wire(ftype, payload))
        self.seq = (self.seq + 1) & 0xFF

    def frames(self):
        data = bytes(self.io.out)
        self.io.out = bytearray()
        out = [f for f in self.decoder.feed(data) if not isinstance(f, int)]
        for f in out:
            if f.type in (P.T_ACK, P.T_IDENT, P.T_ERROR):
                continue
            if f.seq == self.expected:
                self.expected = (self.expected + 1) & 0xFF
                self.delivered.append(f)
        return out

    def messages(self, ftype):
        got = [f for f in self.frames() if f.type == ftype]
        self.feed(P.encode_frame(P.T_ACK, 0, (self.expected - 1) & 0xFF))
        return got

    def advance(self, ms, step=1, keepalive=False):
        last = self.now
        done = 0
        while done < ms:
            self.io.advance(step)
            done += step
            if keepalive and self.io.ticks_diff(self.now, last) >= 250:
                last = self.now
                self.send(P.T_PING)
                self.frames()
                self.feed(P.encode_frame(P.T_ACK, 0, (self.expected - 1) & 0xFF))
            self.board.tick(self.now)

    def fire_payload(self, token, pulse=60, ttl=500):
        return struct.pack(F.FIRE_FMT, token, pulse, (self.now + ttl) % PERIOD)

    def press_trigger(self):
        """Press the red button, let go once the board has the press (as fw_helpers)."""
        button = self.board.buttons[0]
        pin = self.io.buttons[0]
        pin.level = 1
        for _ in range(100):
            if not button.state:
                break
            self.advance(1)
        pin.level = 0
        for _ in range(100):
            if button.state:
                break
            self.advance(1)
        pin.level = 1
        return button.state

    def arm_fire(self, token=0xC0FFEE, pulse=60, ttl=500, press=True):
        self.send(P.T_ARM, struct.pack(F.ARM_FMT, token, 1000))
        if press:
            self.press_trigger()
        self.send(P.T_FIRE, self.fire_payload(token, pulse, ttl))

    def refusals(self):
        return [struct.unpack(F.REFUSED_FMT, f.payload)[1] for f in self.messages(P.T_REFUSED)]

    def on_periods(self):
        """Every completed coil pulse at the pin: (start tick, length ms)."""
        out = []
        start = None
        for t, level in self.io.coil.history:
            if level and start is None:
                start = t
            elif not level and start is not None:
                out.append((start, self.io.ticks_diff(t, start)))
                start = None
        return out


def session(**kwargs):
    start = kwargs.pop("start", 1000)
    cooldown_floor = kwargs.pop("min_cooldown_ms", F.MIN_COOLDOWN_MS)
    host = Host(start, cooldown_floor)
    host.hello(**kwargs)
    host.frames()
    return host


# -- the vectors -----------------------------------------------------------------------------

ERRORS = {"cobs": P.E_COBS, "short": P.E_SHORT, "length": P.E_LENGTH, "crc": P.E_CRC}
ERRORS["oversize"] = P.E_OVERSIZE


def check_vectors(vectors):
    report(
        "vectors: limits",
        vectors["protocol_version"] == P.PROTOCOL_VERSION
        and vectors["max_payload"] == P.MAX_PAYLOAD
        and vectors["max_encoded"] == P.MAX_ENCODED,
    )
    n = 0
    for case in vectors["crc16"]:
        n += 1
        got = P.crc16(unhex(case["data"]))
        if got != int(case["crc"], 16):
            report("vectors: crc16 " + case["data"], False, hex(got))
    for case in vectors["cobs"]:
        n += 1
        decoded, encoded = unhex(case["decoded"]), unhex(case["encoded"])
        if bytes(P.cobs_encode(decoded)) != encoded or bytes(P.cobs_decode(encoded)) != decoded:
            report("vectors: cobs " + case["decoded"][:16], False)
    for case in vectors["messages"]:
        n += 1
        fmt = getattr(F, case["type"] + "_FMT")
        values = [unhex(v) if isinstance(v, str) else v for v in case["values"]]
        if fmt != case["format"] or struct.pack(fmt, *values) != unhex(case["payload"]):
            report("vectors: message " + case["name"], False)
    for case in vectors["frames"]:
        n += 1
        payload, wire = unhex(case["payload"]), unhex(case["wire"])
        ok = bytes(P.encode_frame(case["type"], case["seq"], case["ack"], payload)) == wire
        got = P.Decoder().feed(wire)
        ok = ok and len(got) == 1 and not isinstance(got[0], int)
        if ok:
            f = got[0]
            ok = (f.type, f.seq, f.ack, bytes(f.payload)) == (
                case["type"],
                case["seq"],
                case["ack"],
                payload,
            )
        if not ok:
            report("vectors: frame " + case["name"], False)
    for case in vectors["streams"]:
        wire = unhex(case["wire"])
        expected = []
        for r in case["results"]:
            if "error" in r:
                expected.append(ERRORS[r["error"]])
            else:
                expected.append((r["type"], r["seq"], r["ack"], unhex(r["payload"])))
        for chunk in (0, 1, 7):
            n += 1
            decoder = P.Decoder()
            pieces = [wire]
            if chunk:
                pieces = [wire[i : i + chunk] for i in range(0, len(wire), chunk)]
            got = []
            for piece in pieces:
                for r in decoder.feed(piece):
                    if not isinstance(r, int):
                        r = (r.type, r.seq, r.ack, bytes(r.payload))
                    got.append(r)
            if got != expected:
                name = "vectors: stream " + case["name"] + " in " + str(chunk) + "-byte pieces"
                report(name, False)
    report("vectors: every entry", not FAILED, str(n) + " checks")


# -- the solenoid's rules --------------------------------------------------------------------


def rule_outputs_off_at_boot():
    host = Host()
    return host.io.coil.level == 0 and not host.board.session and not host.board.solenoid.armed


def rule_arm_fire_pulses_and_the_board_ends_it():
    host = session(pulse=60)
    host.arm_fire(token=7)
    [fired] = host.messages(P.T_FIRED)
    ok = host.io.coil.level == 1 and struct.unpack(F.FIRED_FMT, fired.payload)[:2] == (7, 60)
    host.advance(59)
    ok = ok and host.io.coil.level == 1
    host.advance(1)
    [off] = host.messages(P.T_COIL_OFF)
    token, on_ms, _, reason = struct.unpack(F.COIL_OFF_FMT, off.payload)
    return ok and host.io.coil.level == 0 and (token, on_ms, reason) == (7, 60, F.OFF_PULSE_END)


def rule_pulse_capped_at_250_whatever_the_host_asks():
    ok = True
    for hello_ms, fire_ms, expected in ((60, 200, 60), (1000, 5000, 250), (65535, 65535, 250)):
        host = session(pulse=hello_ms)
        host.arm_fire(pulse=fire_ms)
        host.advance(expected + 5)
        ok = ok and host.on_periods() == [(host.on_periods()[0][0], expected)]
    return ok


def rule_fire_without_arm_wrong_token_and_expired_arm_are_refused():
    host = session()
    host.send(P.T_FIRE, host.fire_payload(1))
    ok = host.refusals() == [F.REFUSE_NOT_ARMED]
    host.send(P.T_ARM, struct.pack(F.ARM_FMT, 1, 1000))
    host.send(P.T_FIRE, host.fire_payload(2))
    host.send(P.T_FIRE, host.fire_payload(1))  # no second guess
    ok = ok and host.refusals() == [F.REFUSE_WRONG_TOKEN, F.REFUSE_NOT_ARMED]
    host.send(P.T_ARM, struct.pack(F.ARM_FMT, 3, 5000))  # the board caps the window at 1 s
    host.advance(1001, keepalive=True)
    host.send(P.T_FIRE, host.fire_payload(3))
    ok = ok and host.refusals() == [F.REFUSE_NOT_ARMED]
    return ok and all(level == 0 for _, level in host.io.coil.history)


def rule_one_arm_one_fire():
    host = session(cooldown=1000)
    host.arm_fire(token=5)
    host.advance(2000, keepalive=True)
    host.send(P.T_FIRE, host.fire_payload(5))
    return host.refusals() == [F.REFUSE_NOT_ARMED] and host.board.solenoid.pulses == 1


def rule_cooldown_enforced_with_a_floor():
    host = session(cooldown=0)  # the host asks for none: 1000 ms it is
    host.arm_fire(token=1)
    end = host.now + 60
    host.advance(60 + 500)
    host.arm_fire(token=2)
    [refused] = host.messages(P.T_REFUSED)
    token, reason, retry = struct.unpack(F.REFUSED_FMT, refused.payload)
    ok = (token, reason) == (2, F.REFUSE_COOLING_DOWN) and retry == 1000 - (host.now - end)
    host.advance(retry)
    host.arm_fire(token=3)
    return ok and 480 < retry < 500 and host.board.solenoid.pulses == 2


def rule_no_fire_without_a_press_sampled_after_the_arm():
    host = session(cooldown=1000)
    host.arm_fire(token=1, press=False)  # no press at all
    ok = host.refusals() == [F.REFUSE_NO_PRESS]
    host.press_trigger()  # a press before the ARM of another token
    host.advance(100)
    host.arm_fire(token=2, press=False)
    ok = ok and host.refusals() == [F.REFUSE_NO_PRESS]
    host.press_trigger()  # a press after it: fires, once
    host.send(P.T_FIRE, host.fire_payload(2))
    ok = ok and host.board.solenoid.pulses == 1
    host.advance(1100, keepalive=True)
    host.arm_fire(token=3, press=False)  # the same press, a new token: nothing
    ok = ok and host.refusals() == [F.REFUSE_NO_PRESS]
    return ok and host.board.solenoid.pulses == 1


def rule_fire_deadline():
    host = session()
    host.send(P.T_ARM, struct.pack(F.ARM_FMT, 4, 1000))
    late = host.fire_payload(4, ttl=100)
    host.advance(101, keepalive=True)
    host.send(P.T_FIRE, late)
    ok = host.refusals() == [F.REFUSE_LATE] and not host.board.solenoid.armed
    host.send(P.T_ARM, struct.pack(F.ARM_FMT, 5, 1000))
    host.send(P.T_FIRE, host.fire_payload(5, ttl=F.FIRE_DEADLINE_MAX_MS + 1))
    ok = ok and host.refusals() == [F.REFUSE_BAD_DEADLINE]
    host = session(start=PERIOD - 100)  # a deadline across the tick wrap
    host.send(P.T_ARM, struct.pack(F.ARM_FMT, 6, 1000))
    host.press_trigger()
    payload = host.fire_payload(6, ttl=300)
    host.advance(250, keepalive=True)
    host.send(P.T_FIRE, payload)
    return ok and host.io.coil.level == 1 and host.now < 1000


def rule_a_token_that_fired_is_never_armed_again():
    host = session(cooldown=1000)
    host.arm_fire(token=9)
    host.advance(1100, keepalive=True)
    host.arm_fire(token=9)
    refused = host.refusals()
    return refused == [F.REFUSE_SPENT, F.REFUSE_NOT_ARMED] and host.board.solenoid.pulses == 1


def rule_disarm_and_hello_switch_the_coil_off_now():
    host = session(pulse=250, cooldown=1000)
    host.arm_fire(pulse=250)
    host.advance(10)
    host.send(P.T_DISARM)
    ok = host.io.coil.level == 0
    host.advance(1100, keepalive=True)
    host.arm_fire(token=11, pulse=250)
    ok = ok and host.io.coil.level == 1
    host.hello()
    return ok and host.io.coil.level == 0 and not host.board.solenoid.armed


def rule_host_silence():
    host = session(pulse=250)
    host.send(P.T_ARM, struct.pack(F.ARM_FMT, 9, 1000))
    host.advance(900)
    host.send(P.T_ARM, struct.pack(F.ARM_FMT, 9, 1000))
    host.advance(1000)
    ok = host.board.session and host.board.solenoid.armed  # 1000 ms is not yet silence
    host.advance(1)
    ok = ok and not host.board.session and not host.board.solenoid.armed
    [ident] = host.hello()
    flags = struct.unpack(F.IDENT_FMT, ident.payload)[13]
    return ok and host.io.coil.level == 0 and flags & F.FLAG_HOST_SILENCE


def rule_silence_during_a_pulse_still_ends_it_at_the_cap():
    host = session(pulse=250)
    host.arm_fire(pulse=250)
    host.advance(250)
    return host.io.coil.level == 0 and host.on_periods()[0][1] == 250


def rule_query_reports_the_boards_account():
    host = session(pulse=60)
    host.arm_fire(token=0xABCD)
    host.advance(20)
    host.send(P.T_QUERY, struct.pack(F.QUERY_FMT, 7))
    [state] = host.messages(P.T_STATE)
    fields = struct.unpack(F.STATE_FMT, state.payload)
    return fields[:6] == (7, 1, 0, 0xABCD, 1, 20) and fields[6] == host.now


def rule_a_corrupt_fire_is_never_executed():
    host = session()
    host.send(P.T_ARM, struct.pack(F.ARM_FMT, 12, 1000))
    wire = bytearray(host.wire(P.T_FIRE, host.fire_payload(12)))
    ok = True
    for i in range(len(wire) - 1):
        bad = bytearray(wire)
        bad[i] ^= 0x40
        host.feed(bytes(bad))
        ok = ok and host.io.coil.level == 0
    return ok and not [p for t, p in host.board.log if t == P.T_FIRE]


RULES = [
    rule_outputs_off_at_boot,
    rule_arm_fire_pulses_and_the_board_ends_it,
    rule_pulse_capped_at_250_whatever_the_host_asks,
    rule_fire_without_arm_wrong_token_and_expired_arm_are_refused,
    rule_one_arm_one_fire,
    rule_cooldown_enforced_with_a_floor,
    rule_no_fire_without_a_press_sampled_after_the_arm,
    rule_fire_deadline,
    rule_a_token_that_fired_is_never_armed_again,
    rule_disarm_and_hello_switch_the_coil_off_now,
    rule_host_silence,
    rule_silence_during_a_pulse_still_ends_it_at_the_cap,
    rule_query_reports_the_boards_account,
    rule_a_corrupt_fire_is_never_executed,
]


def check_rules():
    for rule in RULES:
        try:
            ok = rule()
            detail = ""
        except Exception as exc:  # a rule that raises fails, with the reason
            ok = False
            detail = type(exc).__name__ + ": " + str(exc)
        report("rule: " + rule.__name__[5:].replace("_", " "), ok, detail)


# -- the hardware layer on the shims ---------------------------------------------------------


class NullLink:
    def __init__(self, loops):
        self.loops = loops

    def read(self):
        return b""

    def write(self, data):
        pass

    def wait(self, ms):
        self.loops -= 1


def check_hardware_layer():
    import fw_app
    import fw_hw
    import machine

    machine.Pin(fw_hw.PIN_SOLENOID, machine.Pin.OUT).value(1)  # whatever the pin did before
    link = NullLink(50)
    io = fw_hw.PicoIO(link=link)
    writes = machine.history[fw_hw.PIN_SOLENOID]
    ok = writes[-1][1] == 0 and io.coil.value() == 0
    ok = ok and [b.value() for b in io.buttons] == [1, 1, 1, 1] and io.reset_cause == "power"
    report("hardware layer: the gate is driven low first, buttons pulled up", ok)

    io.running = lambda: link.loops > 0
    board = fw_app.run(io)
    ok = machine.wdt["timeout"] == fw_hw.WDT_TIMEOUT_MS and machine.wdt["feeds"] >= 50
    ok = ok and io.coil.value() == 0 and not board.session
    report("main loop: feeds the watchdog, ends with the outputs off", ok, machine.wdt)


# -- the fuzz --------------------------------------------------------------------------------


class Rng:
    """xorshift32: the same stream on every MicroPython port and run."""

    def __init__(self, seed):
        self.s = (seed & 0xFFFFFFFF) or 1

    def next(self):
        x = self.s
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.s = x
        return x

    def below(self, n):
        return self.next() % n

    def bytes(self, n):
        words = [self.next() for _ in range((n + 3) // 4)]
        return struct.pack("<" + str(len(words)) + "I", *words)[:n]


TYPES = (
    P.T_PING,
    P.T_ARM,
    P.T_DISARM,
    P.T_FIRE,
    P.T_MATRIX,
    P.T_STATUS,
    P.T_ROLL,
    P.T_GOODBYE,
    P.T_QUERY,
    P.T_MAINTENANCE,
    P.T_EVENT,
    P.T_FIRED,
    0x7E,
)
SIZES = (0, 2, 5, 6, 8, 10, 11, 32, 79)


def check_fuzz(frames, seed):
    """Frames of every type with random payloads, ARM + FIRE pairs, corrupted frames,
    garbage and new sessions, on a clock that crosses the tick wrap. Zero spurious pulses
    (a pulse for a token the fuzz did not ARM, press the red button for, and FIRE in valid
    frames) and zero
    over-cap pulses (on longer than 250 ms at the pin, or twice for one token)."""
    rng = Rng(seed)
    host = session(start=PERIOD - 20000, pulse=250, cooldown=1000)
    host.io.enter_maintenance = lambda: None
    pairs = {}
    sent = corrupted = garbage = hellos = 0
    fired_tokens = []
    pulses = 0
    while sent < frames:
        r = rng.below(100)
        if r < 6:
            token = rng.next() or 1
            host.send(P.T_ARM, struct.pack(F.ARM_FMT, token, rng.below(1500)))
            pairs[token] = rng.below(8) != 0  # mostly with a press of the red button between
            if pairs[token]:
                host.press_trigger()
            pulse = rng.below(400)
            host.send(P.T_FIRE, host.fire_payload(token, pulse, rng.below(1300)))
            sent += 2
        elif r < 60:
            ftype = TYPES[rng.below(len(TYPES))]
            size = SIZES[rng.below(len(SIZES))] if rng.below(4) else rng.below(P.MAX_PAYLOAD + 1)
            host.send(ftype, rng.bytes(size))
            sent += 1
        elif r < 82:
            ftype = TYPES[rng.below(len(TYPES))]
            wire = bytearray(host.wire(ftype, rng.bytes(SIZES[rng.below(len(SIZES))])))
            i = rng.below(len(wire))
            kind = rng.below(4)
            if kind == 0:
                wire[i] ^= 1 + rng.below(255)
            elif kind == 1:
                wire = wire[:i] + wire[i + 1 :]
            elif kind == 2:
                wire = wire[:i] + bytes((rng.below(256),)) + wire[i:]
            else:
                wire[i] = 0
            host.feed(bytes(wire))
            sent += 1
            corrupted += 1
        elif r < 87:
            host.feed(rng.bytes(1 + rng.below(200)))
            garbage += 1
        elif r < 88:
            host.hello(pulse=1 + rng.below(2000), cooldown=rng.below(5000))
            sent += 1
            hellos += 1
        host.advance(1 + rng.below(25), step=1 + rng.below(25))
        host.frames()
        host.feed(P.encode_frame(P.T_ACK, 0, (host.expected - 1) & 0xFF))
        solenoid = host.board.solenoid
        if solenoid.pulses != pulses:
            pulses = solenoid.pulses
            fired_tokens.append(solenoid.fired_token)
        if not host.board.session and rng.below(4) == 0:
            host.hello(pulse=250, cooldown=1000)
            hellos += 1
    host.advance(300, step=5)
    spurious = [t for t in fired_tokens if not pairs.get(t)]  # no ARM, press and FIRE
    twice = len(fired_tokens) - len(set(fired_tokens))
    periods = host.on_periods()
    over_cap = [p for p in periods if p[1] > F.PULSE_HARD_CAP_MS]
    ok = not spurious and not over_cap and not twice and host.io.coil.level == 0
    ok = ok and len(periods) == pulses and sent >= frames
    detail = (
        "%d frames (%d corrupted), %d garbage chunks, %d HELLOs, %d ARM+FIRE pairs, "  # noqa: UP031
        "%d pulses (longest %d ms), %d spurious, %d over the cap, %d twice for one token; "
        "board decode errors %s"
        % (
            sent,
            corrupted,
            garbage,
            hellos,
            len(pairs),
            pulses,
            max([p[1] for p in periods] or [0]),
            len(spurious),
            len(over_cap),
            twice,
            host.board.decoder.errors[1:],
        )
    )
    report("fuzz: " + str(frames) + " frames, zero spurious or over-cap pulses", ok, detail)


def main(fuzz_frames=20000, seed=20261122):
    with open("/fw/protocol_vectors.json") as fh:
        vectors = json.load(fh)
    for step, args in ((check_vectors, (vectors,)), (check_rules, ()), (check_hardware_layer, ())):
        try:
            step(*args)
        except Exception as exc:
            sys.print_exception(exc)
            report(step.__name__, False, type(exc).__name__ + ": " + str(exc))
    check_fuzz(fuzz_frames, seed)
    print(
        json.dumps(
            {
                "summary": sys.implementation.name,
                "version": list(sys.implementation.version[:3]),
                "failed": FAILED,
            }
        )
    )
