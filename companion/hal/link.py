"""The host side of the I/O board link: frame codec, messages and reliability.

The wire format is specified in ``firmware/PROTOCOL.md``. This module is the
host's own implementation of it, written separately from the firmware's
``firmware/fw_proto.py``; the byte-exact vectors in
``firmware/protocol_vectors.json`` are checked against both.

A frame on the wire is ``COBS(body) 0x00`` with
``body = LEN SEQ ACK TYPE PAYLOAD[LEN] CRC16_BE`` and the CRC-16/CCITT-FALSE
computed over ``LEN .. PAYLOAD``: :func:`binascii.crc_hqx` with the initial
value 0xFFFF, and COBS from the ``cobs`` package (the firmware has its own of
both, since MicroPython has neither).

Nothing here does I/O or reads a clock: :class:`ReliableLink` takes the time
as an argument, so it is tested deterministically. The serial backend
(:mod:`companion.hal.serial_board`) drives it from its link thread.
"""

from __future__ import annotations

import binascii
import math
import struct
from collections import deque
from collections.abc import Callable, Iterable
from enum import IntEnum

from cobs import cobs

from companion.records import Record

__all__ = [
    "HELLO",
    "IDENT",
    "MAX_ENCODED",
    "MAX_PAYLOAD",
    "PROTOCOL_VERSION",
    "BOARD_TICKS_PERIOD",
    "BoardClock",
    "BoardIdent",
    "BoardState",
    "DecodeError",
    "Frame",
    "FrameDecoder",
    "LinkBroken",
    "MsgType",
    "ReliableLink",
    "cobs_decode",
    "cobs_encode",
    "crc16_ccitt_false",
    "decode_body",
    "encode_frame",
]

PROTOCOL_VERSION = 2
MAX_PAYLOAD = 120
_HEADER = 4
_CRC = 2
MAX_BODY = _HEADER + MAX_PAYLOAD + _CRC
#: Longest COBS-encoded body (without the delimiter) a decoder accepts.
MAX_ENCODED = MAX_BODY + 1


class MsgType(IntEnum):
    """Message types (the TYPE byte); see the message table in PROTOCOL.md."""

    ACK = 0x00
    HELLO = 0x01
    IDENT = 0x02
    ERROR = 0x03
    PING = 0x10
    ARM = 0x11
    DISARM = 0x12
    FIRE = 0x13
    MATRIX = 0x14
    STATUS = 0x15
    ROLL = 0x16
    MAINTENANCE = 0x17
    GOODBYE = 0x18
    QUERY = 0x19
    EVENT = 0x20
    FIRED = 0x21
    COIL_OFF = 0x22
    REFUSED = 0x23
    STATE = 0x24

    @property
    def sequenced(self) -> bool:
        """Whether frames of this type are numbered, acknowledged and retransmitted."""
        return self not in _UNSEQUENCED


_UNSEQUENCED = frozenset({MsgType.ACK, MsgType.HELLO, MsgType.IDENT, MsgType.ERROR})


class DecodeError(IntEnum):
    """Why a chunk of bytes between delimiters is not a frame."""

    COBS = 1  #: not valid COBS
    SHORT = 2  #: fewer bytes than header + CRC
    LENGTH = 3  #: LEN does not match the body, or is over MAX_PAYLOAD
    CRC = 4  #: checksum mismatch
    OVERSIZE = 5  #: more than MAX_ENCODED bytes without a delimiter


# -- CRC-16/CCITT-FALSE and COBS ------------------------------------------------------------


def crc16_ccitt_false(data: bytes | bytearray | memoryview, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, MSB first, no final xor):
    :func:`binascii.crc_hqx` with 0xFFFF as the initial value.

    ``crc16_ccitt_false(b"123456789") == 0x29B1``.
    """
    return binascii.crc_hqx(data, crc)


def cobs_encode(data: bytes | bytearray) -> bytes:
    """COBS-encode *data*: the result has no zero byte (the delimiter is not added)."""
    return cobs.encode(data)


def cobs_decode(data: bytes | bytearray) -> bytes | None:
    """Decode COBS *data* (no delimiter); None if it is not valid COBS."""
    try:
        return cobs.decode(data)
    except cobs.DecodeError:
        return None


# -- frames ---------------------------------------------------------------------------------


class Frame(Record):
    """One frame: message *type*, sequence number, cumulative ack, payload."""

    type: int
    seq: int = 0
    ack: int = 0
    payload: bytes = b""

    @property
    def kind(self) -> MsgType | None:
        """The :class:`MsgType`, or None for a type this host does not know."""
        try:
            return MsgType(self.type)
        except ValueError:
            return None


def encode_frame(ftype: int, payload: bytes = b"", *, seq: int = 0, ack: int = 0) -> bytes:
    """The wire bytes of one frame, delimiter included."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes; at most {MAX_PAYLOAD}")
    if not all(0 <= v <= 255 for v in (ftype, seq, ack)):
        raise ValueError("type, seq and ack are single bytes")
    head = bytes((len(payload), seq, ack, ftype)) + bytes(payload)
    return cobs_encode(head + crc16_ccitt_false(head).to_bytes(2, "big")) + b"\x00"


def decode_body(body: bytes) -> Frame | DecodeError:
    """A COBS-decoded body -> :class:`Frame`, or why it is not one."""
    if len(body) < _HEADER + _CRC:
        return DecodeError.SHORT
    length, seq, ack, ftype = body[:_HEADER]
    if length > MAX_PAYLOAD or len(body) != _HEADER + length + _CRC:
        return DecodeError.LENGTH
    if crc16_ccitt_false(body[:-_CRC]) != int.from_bytes(body[-_CRC:], "big"):
        return DecodeError.CRC
    return Frame(ftype, seq, ack, bytes(body[_HEADER:-_CRC]))


class FrameDecoder:
    """Turns a byte stream into frames and decode errors. Never raises.

    Bytes are collected up to each zero byte (the delimiter). Empty chunks
    are ignored. A chunk longer than :data:`MAX_ENCODED` is reported once
    as :attr:`DecodeError.OVERSIZE` and dropped up to the next delimiter.
    """

    def __init__(self) -> None:
        self._chunk = bytearray()
        self._discarding = False
        self.frames = 0
        self.errors: dict[DecodeError, int] = dict.fromkeys(DecodeError, 0)

    def reset(self) -> None:
        """Forget a partial frame (after reconnecting)."""
        self._chunk.clear()
        self._discarding = False

    def feed(self, data: bytes | bytearray) -> list[Frame | DecodeError]:
        """Consume *data*; return the frames and errors it completes, in order."""
        results: list[Frame | DecodeError] = []
        data = bytes(data)
        start, size = 0, len(data)
        while start < size:
            zero = data.find(0, start)
            end = size if zero < 0 else zero
            if end > start and not self._discarding:
                if len(self._chunk) + end - start > MAX_ENCODED:
                    self._chunk.clear()
                    self._discarding = True
                    self._count(DecodeError.OVERSIZE, results)
                else:
                    self._chunk += data[start:end]
            if zero < 0:
                break
            start = zero + 1
            if self._discarding:
                self._discarding = False
                continue
            if not self._chunk:
                continue
            body = cobs_decode(self._chunk)
            self._chunk.clear()
            result = DecodeError.COBS if body is None else decode_body(body)
            if isinstance(result, DecodeError):
                self._count(result, results)
            else:
                self.frames += 1
                results.append(result)
        return results

    def _count(self, error: DecodeError, results: list[Frame | DecodeError]) -> None:
        self.errors[error] += 1
        results.append(error)


# -- message payloads -----------------------------------------------------------------------

HELLO = struct.Struct(">BHHIBH")  # version, nonce, pulse_ms, cooldown_ms, bounce_ms, hold_ms
IDENT = struct.Struct(">BHBBB8sHBBBHHIBHBI")
ARM = struct.Struct(">IH")  # token, window_ms
FIRE = struct.Struct(">IHI")  # token, pulse_ms, deadline (board ms)
QUERY = struct.Struct(">H")  # query id
ROLL = struct.Struct(">BBBBHBBB")  # first, count, final, steps, step_ms, r, g, b
EVENT = struct.Struct(">BBI")  # button, kind, board ms
FIRED = struct.Struct(">IHI")  # token, pulse_ms, board ms
COIL_OFF = struct.Struct(">IHIB")  # token, on_ms, board ms, reason
REFUSED = struct.Struct(">IBI")  # token, reason, retry_ms
STATE = struct.Struct(">HBBIIHI")  # query id, coil, armed, last token, pulses, on ms, board ms
ERROR = struct.Struct(">BBB")  # code, type, seq

#: Capability bits in IDENT.
CAP_SOLENOID, CAP_MATRIX, CAP_STATUS, CAP_BUTTONS = 0x01, 0x02, 0x04, 0x08
CAP_ROLL, CAP_BLINK, CAP_MAINTENANCE, CAP_GOODBYE = 0x10, 0x20, 0x40, 0x80
REQUIRED_CAPS = CAP_SOLENOID | CAP_MATRIX | CAP_STATUS | CAP_BUTTONS
CAP_NAMES = {
    CAP_SOLENOID: "solenoid",
    CAP_MATRIX: "matrix",
    CAP_STATUS: "status-leds",
    CAP_BUTTONS: "buttons",
    CAP_ROLL: "roll-animation",
    CAP_BLINK: "blink",
    CAP_MAINTENANCE: "maintenance",
    CAP_GOODBYE: "goodbye",
}
#: IDENT flag bits.
FLAG_HOST_SILENCE, FLAG_WATCHDOG_RESET, FLAG_FIRST_SESSION = 0x01, 0x02, 0x04
FLAG_LINK_LOST, FLAG_EVENTS_LOST = 0x08, 0x10
#: Buttons by the board's numbering (EVENT button byte, IDENT buttons_down bits).
BOARD_BUTTONS = ("trigger", "roll", "select", "confirm")
#: EVENT kinds.
EVENT_KINDS = {1: "press", 2: "release", 3: "long_press"}
#: REFUSED reasons.
REFUSALS = {
    1: "not armed",
    2: "wrong token",
    3: "arm expired",
    4: "cooling down",
    5: "board fault",
    6: "bad pulse length",
    7: "too late (its deadline had passed)",
    8: "deadline too far ahead",
    9: "token already fired",
    10: "no press of the red button on the board since it was armed (or none in the last 1000 ms)",
}
REFUSE_COOLING_DOWN = 4
REFUSE_LATE = 7
REFUSE_NO_PRESS = 10
#: ERROR codes.
ERRORS = {1: "unknown type", 2: "bad payload", 3: "no session", 4: "bad version"}
ERR_NO_SESSION = 3
MAINTENANCE_MAGIC = b"MAINT"


class BoardIdent(Record):
    """What a board says about itself in IDENT."""

    protocol: int
    nonce: int
    firmware: tuple[int, int, int]
    board_id: bytes
    caps: int
    matrix_size: int
    status_leds: int
    buttons: int
    pulse_cap_ms: int
    pulse_ms: int
    cooldown_ms: int
    flags: int
    faults: int
    buttons_down: int
    board_ms: int

    @property
    def firmware_version(self) -> str:
        return ".".join(map(str, self.firmware))

    @property
    def board_id_hex(self) -> str:
        return self.board_id.hex()

    @property
    def cap_names(self) -> list[str]:
        return [name for bit, name in CAP_NAMES.items() if self.caps & bit]

    @classmethod
    def parse(cls, payload: bytes) -> BoardIdent:
        """Parse an IDENT payload; raises ValueError if it is not one of this protocol."""
        if len(payload) != IDENT.size:
            raise ValueError(f"IDENT of {len(payload)} bytes, expected {IDENT.size}")
        f = IDENT.unpack(payload)
        return cls(f[0], f[1], (f[2], f[3], f[4]), f[5], *f[6:])

    def pack(self) -> bytes:
        return IDENT.pack(
            self.protocol,
            self.nonce,
            *self.firmware,
            self.board_id,
            self.caps,
            self.matrix_size,
            self.status_leds,
            self.buttons,
            self.pulse_cap_ms,
            self.pulse_ms,
            self.cooldown_ms,
            self.flags,
            self.faults,
            self.buttons_down,
            self.board_ms,
        )


class BoardState(Record):
    """The board's own account of its coil: STATE, the answer to QUERY."""

    query_id: int
    coil_on: bool
    armed: bool
    last_token: int  #: the token of the last FIRE that switched the coil on (0: none)
    pulses: int  #: pulses since the board booted
    on_ms: int  #: how long the current (or last) pulse has been on
    board_ms: int

    @classmethod
    def parse(cls, payload: bytes) -> BoardState:
        """Parse a STATE payload; raises :exc:`struct.error` if it is not one."""
        f = STATE.unpack(payload)
        return cls(f[0], bool(f[1]), bool(f[2]), f[3], f[4], f[5], f[6])


# -- the board's clock ----------------------------------------------------------------------

#: The board's millisecond stamps are MicroPython ``ticks_ms`` values: they wrap here.
BOARD_TICKS_PERIOD = 1 << 30


class BoardClock:
    """
    What the host knows of the board's millisecond clock: a lower bound on it.

    A message the board stamped with its clock (IDENT, EVENT, FIRED, COIL_OFF,
    STATE) was stamped no later than the host received it, so ``board_ms -
    host_ms`` at receipt is a lower bound on the offset between the two clocks.
    The tightest bound is kept and loosened by *drift* (1000 ppm covers a
    crystal's error and the host clock's NTP slew) per second since it was
    taken. From it the host writes FIRE deadlines on the board's clock, which
    the board checks itself (PROTOCOL.md, "FIRE deadline"): a FIRE the host
    has given up on can never switch the coil on, however late it arrives.
    Only a lower bound matters for that: a loose bound shortens the time a
    FIRE may take, never lengthens it.
    """

    def __init__(self, drift: float = 1e-3, period: int = BOARD_TICKS_PERIOD) -> None:
        if not 0 <= drift < 0.1:
            raise ValueError("drift must be a small fraction (1e-3 is 1000 ppm)")
        self.drift = drift
        self.period = period
        self._low: float | None = None  # ms, unwrapped
        self._at = 0.0  # host seconds when _low was taken

    @property
    def synced(self) -> bool:
        """Whether the board has stamped a message yet."""
        return self._low is not None

    def _bound(self, now: float) -> float:
        assert self._low is not None
        return self._low - self.drift * max(0.0, now - self._at) * 1000

    def sample(self, board_ms: int, received: float) -> None:
        """A message stamped *board_ms* by the board arrived at host time *received* (s)."""
        candidate = board_ms - received * 1000
        if self._low is None:
            self._low, self._at = candidate, received
            return
        current = self._bound(received)
        half = self.period // 2
        # the representative (modulo the tick period) nearest the current bound
        candidate = current + (candidate - current + half) % self.period - half
        if candidate > current:
            self._low, self._at = candidate, received

    def board_ms(self, now: float) -> int:
        """A board tick the board's clock has certainly reached at host time *now*."""
        if self._low is None:
            raise RuntimeError("no board time yet (before the handshake)")
        return math.floor(now * 1000 + self._bound(now)) % self.period

    def deadline(self, sent: float, ttl_ms: int) -> int:
        """The FIRE deadline (a board tick) for a FIRE sent at host time *sent*: the
        board refuses it once its clock has passed this tick."""
        return (self.board_ms(sent) + ttl_ms) % self.period

    def expired_after(self, sent: float, ttl_ms: int) -> float:
        """The host time after which the board's clock has certainly passed
        :meth:`deadline` (*sent*, *ttl_ms*): from then on that FIRE cannot fire."""
        return sent + (ttl_ms + 2) / (1000 * (1 - self.drift))


# -- reliability ----------------------------------------------------------------------------


class LinkBroken(Exception):
    """The peer did not acknowledge a frame after the allowed retransmissions."""


class ReliableLink:
    """
    Go-back-N for sequenced frames (PROTOCOL.md, "Acknowledgement and retransmission").

    :param write: puts wire bytes out (the serial port's ``write``).
    :param window: frames in flight before new ones wait in the queue.
    :param rto_s: retransmission timeout, restarted by every acknowledgement.
    :param max_retries: timeouts of the oldest frame before :exc:`LinkBroken`.
    :param coalesce: types of which at most one may wait in the queue (later ones
        replace it: whole LED images, where only the newest matters).
    :param urgent: types that wait in a lane of their own, sent before anything else
        that waits (in their own order): the solenoid's commands do not queue behind
        LED images.
    :param ack_later: acknowledge received frames only when :meth:`flush_ack` is called
        (once per batch of frames read), or with the next sequenced frame sent before
        then, which carries the same cumulative ACK: the answer to a frame (ARM + FIRE to
        the red button's EVENT) leaves in one write without an ACK frame ahead of it, and
        the peer is woken once, not twice. Without it every frame is acknowledged at once.

    Methods take the current time *now* in seconds; nothing here sleeps.
    """

    def __init__(
        self,
        write: Callable[[bytes], object],
        *,
        window: int = 8,
        rto_s: float = 0.06,
        max_retries: int = 20,
        queue_max: int = 512,
        coalesce: Iterable[int] = (MsgType.MATRIX, MsgType.STATUS, MsgType.PING),
        urgent: Iterable[int] = (MsgType.ARM, MsgType.DISARM, MsgType.FIRE, MsgType.QUERY),
        ack_later: bool = False,
    ) -> None:
        if not 1 <= window <= 64:
            raise ValueError("window must be 1..64")
        self._write = write
        self.window = window
        self.rto_s = rto_s
        self.max_retries = max_retries
        self.queue_max = queue_max
        self.coalesce = frozenset(int(t) for t in coalesce)
        self.urgent = frozenset(int(t) for t in urgent)
        self.ack_later = ack_later
        self.retransmits = 0
        self.duplicates = 0
        self.out_of_order = 0
        self.reset(0.0)

    def reset(self, now: float) -> None:
        """Start a new session: numbering from 0, nothing in flight or queued."""
        self._next = 0
        self._expected = 0
        self._in_flight: deque[tuple[int, int, bytes]] = deque()
        self._queue: deque[tuple[int, bytes]] = deque()
        self._urgent: deque[tuple[int, bytes]] = deque()
        self._timer = now
        self._retries = 0
        self._ack_owed = False
        self.last_send = now

    @property
    def ack(self) -> int:
        """The cumulative acknowledgement this side sends: the last in-order seq received."""
        return (self._expected - 1) & 0xFF

    @property
    def in_flight(self) -> int:
        return len(self._in_flight)

    @property
    def queued(self) -> int:
        return len(self._queue) + len(self._urgent)

    @property
    def idle(self) -> bool:
        """Nothing in flight and nothing queued."""
        return not self._in_flight and not self._queue and not self._urgent

    def send(self, ftype: int, payload: bytes, now: float) -> None:
        """Send a sequenced message now, or queue it until the window has room."""
        if len(self._in_flight) < self.window and not self._queue and not self._urgent:
            self._transmit(ftype, payload, now)
            return
        if len(self._queue) + len(self._urgent) >= self.queue_max:
            raise LinkBroken(f"{self.queued} messages waiting: the board is not keeping up")
        if ftype in self.urgent:
            self._urgent.append((ftype, payload))
            return
        if ftype in self.coalesce:
            for i, (queued_type, _) in enumerate(self._queue):
                if queued_type == ftype:
                    del self._queue[i]
                    break
        self._queue.append((ftype, payload))

    def _transmit(self, ftype: int, payload: bytes, now: float) -> None:
        seq = self._next
        self._next = (seq + 1) & 0xFF
        if not self._in_flight:
            self._timer = now
            self._retries = 0
        self._in_flight.append((seq, ftype, payload))
        self.last_send = now
        self._ack_owed = False  # this frame carries the acknowledgement
        self._write(encode_frame(ftype, payload, seq=seq, ack=self.ack))

    def _acknowledge(self) -> None:
        if self.ack_later:
            self._ack_owed = True
        else:
            self._write(encode_frame(MsgType.ACK, ack=self.ack))

    @property
    def ack_owed(self) -> bool:
        """Whether a received frame waits for its acknowledgement (*ack_later*)."""
        return self._ack_owed

    def flush_ack(self) -> None:
        """Send the acknowledgement still owed (*ack_later*), if any."""
        if self._ack_owed:
            self._ack_owed = False
            self._write(encode_frame(MsgType.ACK, ack=self.ack))

    def receive(self, frame: Frame, now: float) -> Frame | None:
        """Handle an ACK or sequenced frame; return it if it is new and in order."""
        self._acknowledged(frame.ack, now)
        if frame.type == MsgType.ACK:
            return None
        if frame.seq == self._expected:
            self._expected = (self._expected + 1) & 0xFF
            self._acknowledge()
            return frame
        if (self._expected - 1 - frame.seq) & 0xFF < 128:
            self.duplicates += 1  # our acknowledgement was lost: say it again
        else:
            self.out_of_order += 1  # a frame before it was lost: tell where we are
        self._acknowledge()
        return None

    def _acknowledged(self, ack: int, now: float) -> None:
        if not self._in_flight:
            return
        covered = ((ack - self._in_flight[0][0]) & 0xFF) + 1
        if covered > len(self._in_flight):
            return  # an old or foreign acknowledgement
        for _ in range(covered):
            self._in_flight.popleft()
        self._timer = now
        self._retries = 0
        while (self._urgent or self._queue) and len(self._in_flight) < self.window:
            ftype, payload = (self._urgent or self._queue).popleft()
            self._transmit(ftype, payload, now)

    def cancel(self, stale: Callable[[int, bytes], bool]) -> int:
        """Withdraw messages that must no longer reach the peer (``stale(type, payload)``).

        Queued ones are dropped. Ones in flight keep their SEQ but become a PING
        (go-back-N cannot skip a number): if the peer executed the original it
        ignores the copy as a duplicate, otherwise it executes a no-op. Returns
        how many were withdrawn."""
        withdrawn = 0
        for lane in (self._urgent, self._queue):
            kept = [(ftype, payload) for ftype, payload in lane if not stale(ftype, payload)]
            withdrawn += len(lane) - len(kept)
            lane.clear()
            lane.extend(kept)
        for i, (seq, ftype, payload) in enumerate(self._in_flight):
            if stale(ftype, payload):
                self._in_flight[i] = (seq, MsgType.PING, b"")
                withdrawn += 1
        return withdrawn

    def poll(self, now: float) -> None:
        """Retransmit everything in flight after a timeout; raise :exc:`LinkBroken`
        when the oldest frame has timed out more than *max_retries* times."""
        if not self._in_flight or now - self._timer < self.rto_s:
            return
        self._retries += 1
        if self._retries > self.max_retries:
            raise LinkBroken(
                f"no acknowledgement for frame {self._in_flight[0][0]} after "
                f"{self.max_retries} retransmissions"
            )
        self._timer = now
        for seq, ftype, payload in self._in_flight:
            self.retransmits += 1
            self._ack_owed = False
            self._write(encode_frame(ftype, payload, seq=seq, ack=self.ack))
        self.last_send = now
