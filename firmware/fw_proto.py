# Frame codec and reliable link of the I/O board firmware (see PROTOCOL.md).
#
# Runs on MicroPython (RP2040) and on CPython (the virtual board and the
# firmware tests). Keep to the subset mpy-cross compiles: no f-strings, no
# annotations, no dataclasses, no match. This module imports nothing: time
# comes in as plain integers (milliseconds) with a ticks_diff function.
#
# The host has its own, separately written codec (companion/hal/link.py); the
# byte-exact vectors in protocol_vectors.json prove the two agree.

PROTOCOL_VERSION = 2

HEADER_LEN = 4  # LEN SEQ ACK TYPE
CRC_LEN = 2
MAX_PAYLOAD = 120
MAX_BODY = HEADER_LEN + MAX_PAYLOAD + CRC_LEN
# COBS adds one byte per started block of 254; a body is shorter than that.
MAX_ENCODED = MAX_BODY + 1

# message types -------------------------------------------------------------
# unsequenced
T_ACK = 0x00
T_HELLO = 0x01
T_IDENT = 0x02
T_ERROR = 0x03
# sequenced, host -> board
T_PING = 0x10
T_ARM = 0x11
T_DISARM = 0x12
T_FIRE = 0x13
T_MATRIX = 0x14
T_STATUS = 0x15
T_ROLL = 0x16
T_MAINTENANCE = 0x17
T_GOODBYE = 0x18
T_QUERY = 0x19
# sequenced, board -> host
T_EVENT = 0x20
T_FIRED = 0x21
T_COIL_OFF = 0x22
T_REFUSED = 0x23
T_STATE = 0x24

UNSEQUENCED = (T_ACK, T_HELLO, T_IDENT, T_ERROR)

# decode errors (index into Decoder.errors)
E_COBS = 1
E_SHORT = 2
E_LENGTH = 3
E_CRC = 4
E_OVERSIZE = 5
ERROR_NAMES = ("ok", "cobs", "short", "length", "crc", "oversize")


def _crc_table():
    table = []
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) & 0xFFFF if c & 0x8000 else (c << 1) & 0xFFFF
        table.append(c)
    return table


_CRC_TABLE = _crc_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor."""
    table = _CRC_TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ b) & 0xFF]
    return crc


def cobs_encode(data):
    """Consistent overhead byte stuffing: the result holds no zero byte."""
    out = bytearray(1)
    code_at = 0
    code = 1
    n = len(data)
    i = 0
    while i < n:
        b = data[i]
        i += 1
        if b == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(b)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code = 1
                if i < n:
                    code_at = len(out)
                    out.append(0)
                else:
                    code_at = -1
    if code_at >= 0:
        out[code_at] = code
    return out


def cobs_decode(data):
    """Undo cobs_encode; None if *data* is not valid COBS."""
    out = bytearray()
    n = len(data)
    i = 0
    while i < n:
        code = data[i]
        if code == 0:
            return None
        i += 1
        end = i + code - 1
        if end > n:
            return None
        while i < end:
            b = data[i]
            if b == 0:
                return None
            out.append(b)
            i += 1
        if code != 0xFF and i < n:
            out.append(0)
    return out


def encode_frame(ftype, seq, ack, payload=b""):
    """One frame as it goes on the wire, delimiter included."""
    n = len(payload)
    if n > MAX_PAYLOAD:
        raise ValueError("payload too long")
    body = bytearray((n, seq & 0xFF, ack & 0xFF, ftype & 0xFF))
    body.extend(payload)
    c = crc16(body)
    body.append(c >> 8)
    body.append(c & 0xFF)
    out = cobs_encode(body)
    out.append(0)
    return out


class Frame:
    """A decoded frame: type, seq, ack, payload (bytes)."""

    def __init__(self, ftype, seq, ack, payload):
        self.type = ftype
        self.seq = seq
        self.ack = ack
        self.payload = payload

    def __repr__(self):
        # MicroPython subset: % formatting, no f-strings
        return "Frame(type=0x%02x, seq=%d, ack=%d, payload=%d bytes)" % (  # noqa: UP031
            self.type,
            self.seq,
            self.ack,
            len(self.payload),
        )


def parse_body(body):
    """A decoded frame body -> Frame, or an error number."""
    n = len(body)
    if n < HEADER_LEN + CRC_LEN:
        return E_SHORT
    length = body[0]
    if length > MAX_PAYLOAD or length != n - HEADER_LEN - CRC_LEN:
        return E_LENGTH
    end = n - CRC_LEN
    if crc16(body[:end]) != (body[end] << 8) | body[end + 1]:
        return E_CRC
    return Frame(body[3], body[1], body[2], bytes(body[HEADER_LEN:end]))


class Decoder:
    """Splits a byte stream at zero bytes into frames; never raises.

    feed(data) returns a list of Frame objects and error numbers (E_*), in
    stream order. Empty frames (two zeros in a row) are ignored. More than
    MAX_ENCODED bytes without a delimiter is E_OVERSIZE, and the bytes up to
    the next delimiter are dropped.
    """

    def __init__(self):
        self.buf = bytearray()
        self.hunting = False
        self.errors = [0, 0, 0, 0, 0, 0]
        self.frames = 0

    def reset(self):
        self.buf = bytearray()
        self.hunting = False

    def feed(self, data):
        out = []
        data = bytes(data)
        n = len(data)
        start = 0
        while start < n:
            z = data.find(b"\x00", start)
            end = n if z < 0 else z
            if not self.hunting and end > start:
                if len(self.buf) + end - start > MAX_ENCODED:
                    self.hunting = True
                    self.buf = bytearray()
                    self.errors[E_OVERSIZE] += 1
                    out.append(E_OVERSIZE)
                else:
                    self.buf.extend(data[start:end])
            if z < 0:
                break
            if self.hunting:
                self.hunting = False
            elif len(self.buf):
                body = cobs_decode(self.buf)
                result = E_COBS if body is None else parse_body(body)
                if isinstance(result, int):
                    self.errors[result] += 1
                else:
                    self.frames += 1
                out.append(result)
            self.buf = bytearray()
            start = z + 1
        return out


def seq_in_window(ack, first, count):
    """How many of *count* frames from seq *first* the cumulative *ack* covers."""
    k = ((ack - first) & 0xFF) + 1
    if k <= count:
        return k
    return 0


class Link:
    """Go-back-N reliability for sequenced frames (see PROTOCOL.md).

    *write(data)* puts bytes on the wire; *diff(a, b)* is ticks_diff.
    Sequenced messages are queued with send(); on_frame() handles every
    valid frame that belongs to the session and returns the frames to act
    on (in order, each once); poll(now) retransmits and returns False when
    the retries are exhausted (the link is broken).
    """

    def __init__(self, write, diff, window=8, rto_ms=60, max_retries=20, queue_max=48):
        self.write = write
        self.diff = diff
        self.window = window
        self.rto_ms = rto_ms
        self.max_retries = max_retries
        self.queue_max = queue_max
        self.reset(0)

    def reset(self, now):
        self.tx_next = 0
        self.rx_expected = 0
        self.unacked = []  # [seq, type, payload]
        self.pending = []  # [type, payload] waiting for room in the window
        self.timer = now
        self.retries = 0
        self.dropped = 0
        self.retransmits = 0
        self.duplicates = 0
        self.out_of_order = 0

    def ack_value(self):
        return (self.rx_expected - 1) & 0xFF

    def send(self, ftype, payload, now):
        """Queue a sequenced message; False if the queue is full (message dropped)."""
        if len(self.unacked) < self.window:
            self._transmit(ftype, payload, now)
            return True
        if len(self.pending) >= self.queue_max:
            self.dropped += 1
            return False
        self.pending.append((ftype, payload))
        return True

    def send_ack(self):
        self.write(encode_frame(T_ACK, 0, self.ack_value()))

    def _transmit(self, ftype, payload, now):
        seq = self.tx_next
        self.tx_next = (seq + 1) & 0xFF
        if not self.unacked:
            self.timer = now
            self.retries = 0
        self.unacked.append((seq, ftype, payload))
        self.write(encode_frame(ftype, seq, self.ack_value(), payload))

    def on_frame(self, frame, now):
        """Handle an ACK or sequenced frame of this session; return frames to execute."""
        self._acked(frame.ack, now)
        if frame.type == T_ACK:
            return []
        if frame.seq == self.rx_expected:
            self.rx_expected = (self.rx_expected + 1) & 0xFF
            self.send_ack()
            return [frame]
        if ((self.rx_expected - 1 - frame.seq) & 0xFF) < 128:
            self.duplicates += 1
        else:
            self.out_of_order += 1
        self.send_ack()
        return []

    def _acked(self, ack, now):
        if not self.unacked:
            return
        k = seq_in_window(ack, self.unacked[0][0], len(self.unacked))
        if k == 0:
            return
        self.unacked = self.unacked[k:]
        self.timer = now
        self.retries = 0
        while self.pending and len(self.unacked) < self.window:
            ftype, payload = self.pending.pop(0)
            self._transmit(ftype, payload, now)

    def poll(self, now):
        """Retransmit after a timeout; False once max_retries are used up."""
        if not self.unacked or self.diff(now, self.timer) < self.rto_ms:
            return True
        self.retries += 1
        if self.retries > self.max_retries:
            return False
        self.timer = now
        ack = self.ack_value()
        for seq, ftype, payload in self.unacked:
            self.retransmits += 1
            self.write(encode_frame(ftype, seq, ack, payload))
        return True

    def idle(self):
        return not self.unacked and not self.pending
