"""The host's codec (companion/hal/link.py) against the shared vectors, and its go-back-N."""

from __future__ import annotations

import struct

import pytest
from serial_helpers import VECTORS

from companion.hal import link as L

T = L.MsgType


def test_limits_match_the_vectors() -> None:
    assert VECTORS["protocol_version"] == L.PROTOCOL_VERSION
    assert VECTORS["max_payload"] == L.MAX_PAYLOAD
    assert VECTORS["max_encoded"] == L.MAX_ENCODED


@pytest.mark.parametrize("case", VECTORS["crc16"], ids=lambda c: c["data"][:16] or "empty")
def test_crc16(case: dict) -> None:
    assert L.crc16_ccitt_false(bytes.fromhex(case["data"])) == int(case["crc"], 16)


@pytest.mark.parametrize("case", VECTORS["cobs"], ids=lambda c: c["decoded"][:12] or "empty")
def test_cobs(case: dict) -> None:
    decoded, encoded = bytes.fromhex(case["decoded"]), bytes.fromhex(case["encoded"])
    assert L.cobs_encode(decoded) == encoded
    assert L.cobs_decode(encoded) == decoded


@pytest.mark.parametrize("case", VECTORS["frames"], ids=lambda c: c["name"])
def test_frames(case: dict) -> None:
    payload = bytes.fromhex(case["payload"])
    wire = bytes.fromhex(case["wire"])
    assert L.encode_frame(case["type"], payload, seq=case["seq"], ack=case["ack"]) == wire
    assert L.FrameDecoder().feed(wire) == [L.Frame(case["type"], case["seq"], case["ack"], payload)]


@pytest.mark.parametrize("case", VECTORS["streams"], ids=lambda c: c["name"])
@pytest.mark.parametrize("chunk", [0, 1, 5])
def test_streams(case: dict, chunk: int) -> None:
    wire = bytes.fromhex(case["wire"])
    decoder = L.FrameDecoder()
    pieces = [wire] if chunk == 0 else [wire[i : i + chunk] for i in range(0, len(wire), chunk)]
    got = [r for piece in pieces for r in decoder.feed(piece)]
    expected = [
        L.DecodeError[r["error"].upper()]
        if "error" in r
        else L.Frame(r["type"], r["seq"], r["ack"], bytes.fromhex(r["payload"]))
        for r in case["results"]
    ]
    assert got == expected


STRUCTS = {
    "HELLO": L.HELLO,
    "IDENT": L.IDENT,
    "ARM": L.ARM,
    "FIRE": L.FIRE,
    "QUERY": L.QUERY,
    "STATE": L.STATE,
    "ROLL": L.ROLL,
    "EVENT": L.EVENT,
    "FIRED": L.FIRED,
    "COIL_OFF": L.COIL_OFF,
    "REFUSED": L.REFUSED,
    "ERROR": L.ERROR,
}


@pytest.mark.parametrize("case", VECTORS["messages"], ids=lambda c: c["name"])
def test_message_payloads(case: dict) -> None:
    packer = STRUCTS[case["type"]]
    assert packer.format == case["format"]
    values = [bytes.fromhex(v) if isinstance(v, str) else v for v in case["values"]]
    assert packer.pack(*values) == bytes.fromhex(case["payload"])
    if case["type"] == "IDENT":
        ident = L.BoardIdent.parse(bytes.fromhex(case["payload"]))
        assert ident.firmware_version == "2.0.0" and ident.pack().hex() == case["payload"]
        assert ident.cap_names[:4] == ["solenoid", "matrix", "status-leds", "buttons"]


def test_encode_rejects_what_the_protocol_cannot_carry() -> None:
    with pytest.raises(ValueError):
        L.encode_frame(T.MATRIX, bytes(121))
    with pytest.raises(ValueError):
        L.encode_frame(256, b"")
    with pytest.raises(struct.error):
        L.ARM.pack(2**32, 1)


# -- go-back-N ------------------------------------------------------------------------------


class Wire:
    def __init__(self) -> None:
        self.frames: list[L.Frame] = []
        self.decoder = L.FrameDecoder()

    def __call__(self, data: bytes) -> None:
        self.frames += self.decoder.feed(data)

    def take(self) -> list[L.Frame]:
        out, self.frames = self.frames, []
        return out


def test_an_acknowledgement_owed_rides_on_the_next_frame_or_goes_once() -> None:
    """ack_later (the host's link): a received frame is acknowledged by the next sequenced
    frame sent, which carries the same cumulative ACK (no ACK frame ahead of it), or by one
    ACK frame for everything read when flush_ack() is called."""
    wire = Wire()
    link = L.ReliableLink(wire, ack_later=True)
    event = L.Frame(T.EVENT, 0, 255, L.EVENT.pack(0, 1, 5))
    assert link.receive(event, 0.0) == event
    assert wire.take() == [] and link.ack_owed
    link.send(T.ARM, bytes(6), 0.0)
    link.send(T.FIRE, bytes(10), 0.0)
    sent = wire.take()
    assert [(f.type, f.ack) for f in sent] == [(T.ARM, 0), (T.FIRE, 0)] and not link.ack_owed
    link.flush_ack()
    assert wire.take() == []  # already carried
    for seq in (1, 2):
        link.receive(L.Frame(T.EVENT, seq, 255, L.EVENT.pack(0, 2, 6)), 0.0)
    link.receive(L.Frame(T.EVENT, 1, 255, L.EVENT.pack(0, 2, 6)), 0.0)  # a duplicate
    assert wire.take() == []
    link.flush_ack()
    assert [(f.type, f.ack) for f in wire.take()] == [(T.ACK, 2)]  # one for all three
    link.flush_ack()
    assert wire.take() == [] and link.duplicates == 1


def test_window_queue_and_cumulative_ack() -> None:
    wire = Wire()
    link = L.ReliableLink(wire, window=3)
    for i in range(5):
        link.send(T.PING if i % 2 else T.ARM, bytes([i]) * (0 if i % 2 else 6), 0.0)
    sent = wire.take()
    assert [f.seq for f in sent] == [0, 1, 2] and link.in_flight == 3 and link.queued == 2
    link.receive(L.Frame(T.ACK, 0, 1), 0.01)  # acknowledges 0 and 1
    assert [f.seq for f in wire.take()] == [3, 4] and link.in_flight == 3
    link.receive(L.Frame(T.ACK, 0, 4), 0.02)
    assert link.idle


def test_images_waiting_in_the_queue_are_replaced_by_newer_ones() -> None:
    wire = Wire()
    link = L.ReliableLink(wire, window=1)
    link.send(T.ARM, L.ARM.pack(1, 1), 0.0)
    for i in range(5):
        link.send(T.MATRIX, bytes([i]) * 79, 0.0)
    link.send(T.FIRE, L.FIRE.pack(1, 60, 0), 0.0)
    assert link.queued == 2  # one MATRIX (the newest) and the FIRE
    wire.take()
    link.receive(L.Frame(T.ACK, 0, 0), 0.0)
    [fire] = wire.take()  # the solenoid's commands do not wait behind LED images
    assert fire.type == T.FIRE
    link.receive(L.Frame(T.ACK, 0, 1), 0.0)
    [matrix] = wire.take()
    assert matrix.payload == bytes([4]) * 79


def test_solenoid_commands_keep_their_order_in_their_own_lane() -> None:
    wire = Wire()
    link = L.ReliableLink(wire, window=1)
    link.send(T.STATUS, b"\x00\x00", 0.0)  # in flight
    link.send(T.MATRIX, bytes(79), 0.0)
    link.send(T.DISARM, b"", 0.0)
    link.send(T.ARM, L.ARM.pack(2, 1000), 0.0)
    link.send(T.FIRE, L.FIRE.pack(2, 60, 0), 0.0)
    link.send(T.QUERY, L.QUERY.pack(1), 0.0)
    wire.take()
    order = []
    for seq in range(5):
        link.receive(L.Frame(T.ACK, 0, seq), 0.0)
        order += [f.type for f in wire.take()]
    assert order == [T.DISARM, T.ARM, T.FIRE, T.QUERY, T.MATRIX]


def test_stale_frames_are_withdrawn_from_the_queue_and_neutralised_in_flight() -> None:
    wire = Wire()
    link = L.ReliableLink(wire, window=2, rto_s=0.05)
    link.send(T.ARM, L.ARM.pack(7, 1000), 0.0)
    link.send(T.FIRE, L.FIRE.pack(7, 60, 0), 0.0)
    link.send(T.ARM, L.ARM.pack(7, 1000), 0.0)  # waiting
    link.send(T.MATRIX, bytes(79), 0.0)
    wire.take()
    stale = L.ARM.pack(7, 0)[:4]
    withdrawn = link.cancel(lambda t, p: t in (T.ARM, T.FIRE) and p[:4] == stale)
    assert withdrawn == 3 and link.in_flight == 2 and link.queued == 1
    link.poll(0.06)  # the retransmission keeps the numbers, not the commands
    assert [(f.type, f.seq) for f in wire.take()] == [(T.PING, 0), (T.PING, 1)]
    link.receive(L.Frame(T.ACK, 0, 1), 0.07)
    assert [f.type for f in wire.take()] == [T.MATRIX]


def test_retransmits_everything_in_flight_then_gives_up() -> None:
    wire = Wire()
    link = L.ReliableLink(wire, window=4, rto_s=0.05, max_retries=3)
    link.send(T.ARM, L.ARM.pack(1, 1), 0.0)
    link.send(T.FIRE, L.FIRE.pack(1, 60, 0), 0.0)
    wire.take()
    link.poll(0.04)
    assert wire.take() == []
    for attempt in range(3):
        link.poll(0.05 * (attempt + 1) + 0.001)
        assert [f.seq for f in wire.take()] == [0, 1]
    with pytest.raises(L.LinkBroken):
        link.poll(0.5)


def test_receiver_delivers_in_order_once_and_acknowledges_everything() -> None:
    wire = Wire()
    link = L.ReliableLink(wire)
    f0 = L.Frame(T.EVENT, 0, 255, L.EVENT.pack(0, 1, 5))
    f1 = L.Frame(T.EVENT, 1, 255, L.EVENT.pack(0, 2, 6))
    assert link.receive(f1, 0.0) is None  # ahead: not delivered
    assert link.receive(f0, 0.0) == f0
    assert link.receive(f0, 0.0) is None  # duplicate
    assert link.receive(f1, 0.0) == f1
    assert [f.ack for f in wire.take()] == [255, 0, 0, 1]
    assert (link.out_of_order, link.duplicates) == (1, 1)


def test_sequence_numbers_wrap() -> None:
    wire = Wire()
    link = L.ReliableLink(wire, window=8)
    for i in range(300):
        link.send(T.PING, b"", float(i))
        [frame] = wire.take()
        assert frame.seq == i % 256
        link.receive(L.Frame(T.ACK, 0, frame.seq), float(i))
    assert link.idle


def test_stale_acknowledgements_are_ignored() -> None:
    wire = Wire()
    link = L.ReliableLink(wire)
    link.send(T.PING, b"", 0.0)
    link.receive(L.Frame(T.ACK, 0, 255), 0.0)  # "nothing yet"
    link.receive(L.Frame(T.ACK, 0, 100), 0.0)  # not in flight
    assert link.in_flight == 1
