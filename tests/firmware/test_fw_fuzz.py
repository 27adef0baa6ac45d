"""Hypothesis fuzzing of the firmware's frame parser and command dispatch: it never
raises, and never executes a command from a corrupt frame."""

from __future__ import annotations

from fw_helpers import PERIOD, FwHost, fw_proto
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.hal import link as L

T = L.MsgType
START_MS = 1000  # FwHost's clock starts here
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.lists(st.binary(max_size=300), max_size=8))
def test_decoder_never_raises_and_only_returns_checked_frames(chunks: list[bytes]) -> None:
    decoder = fw_proto.Decoder()
    for chunk in chunks:
        for item in decoder.feed(chunk):
            if isinstance(item, int):
                assert 1 <= item <= 5
                continue
            wire = bytes(fw_proto.encode_frame(item.type, item.seq, item.ack, item.payload))
            assert fw_proto.parse_body(fw_proto.cobs_decode(wire[:-1])).payload == item.payload
    assert decoder.frames + sum(decoder.errors) >= 0


@FUZZ
@given(st.binary(max_size=600))
def test_board_survives_noise_and_never_fires(noise: bytes) -> None:
    host = FwHost()
    host.hello(pulse_ms=250, cooldown_ms=1000)
    host.feed(noise)
    host.advance(5)
    assert host.board.solenoid.pulses == 0 and host.io.coil.level == 0


def session_stream(token: int) -> tuple[list[bytes], list[tuple[int, bytes]]]:
    """A HELLO and a session's frames, ARM + FIRE among them."""
    commands = [
        (T.MATRIX, bytes(range(75)) + b"\x00\x00\x00\x01"),
        (T.STATUS, bytes(30) + b"\x00\x00"),
        (T.ARM, L.ARM.pack(token, 1000)),
        (T.PING, b""),
        (T.FIRE, L.FIRE.pack(token, 60, (START_MS + 200) % PERIOD)),
        (T.DISARM, b""),
    ]
    hello = L.encode_frame(
        T.HELLO, L.HELLO.pack(L.PROTOCOL_VERSION, 7, 60, 1000, 20, 1000), ack=0xFF
    )
    frames = [hello] + [L.encode_frame(t, p, seq=i, ack=0xFF) for i, (t, p) in enumerate(commands)]
    return frames, commands


mutation = st.tuples(
    st.sampled_from(["flip", "drop", "insert", "zero"]),
    st.integers(min_value=0, max_value=10_000),
    st.integers(1, 255),
)


@FUZZ
@given(st.integers(0, 2**32 - 1), st.lists(mutation, min_size=1, max_size=6))
def test_corrupted_session_never_executes_a_command_it_was_not_sent(token, mutations) -> None:
    frames, commands = session_stream(token)
    wire = bytearray(b"".join(frames))
    for kind, where, value in mutations:
        i = where % len(wire)
        if kind == "flip":
            wire[i] ^= value
        elif kind == "drop":
            del wire[i]
        elif kind == "insert":
            wire.insert(i, value)
        else:
            wire[i] = 0
    host = FwHost()
    for i in range(0, len(wire), 13):  # in USB-sized pieces
        host.feed(bytes(wire[i : i + 13]))
        host.advance(1)
    sent = set(commands)
    for executed in host.board.log:
        assert executed in sent, f"executed {executed!r}, which was never sent"
    if host.board.solenoid.pulses:
        # only possible if both ARM and FIRE frames arrived whole
        intact = bytes(wire)
        assert bytes(frames[3]) in intact and bytes(frames[5]) in intact
    assert host.board.solenoid.pulses <= 1


@FUZZ
@given(st.binary(min_size=1, max_size=200))
def test_garbage_inside_a_session_never_raises(garbage: bytes) -> None:
    frames, _ = session_stream(1)
    host = FwHost()
    host.feed(frames[0])
    host.feed(garbage + b"\x00" + garbage)
    host.advance(2)
    host.feed(b"".join(frames[1:3]))
    assert host.io.coil.level == 0
