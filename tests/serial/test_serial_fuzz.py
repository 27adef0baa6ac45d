"""Hypothesis fuzzing of the host's frame parser: it never raises, returns only frames
whose checks passed, agrees with the firmware's parser, and never delivers a frame
from a corrupted stream that was not sent."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serial_helpers import REPO  # noqa: F401 - puts the repository on sys.path

from companion.hal import link as L
from companion.hal.virtual_board import fw_proto

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.lists(st.binary(max_size=300), max_size=8))
def test_never_raises_and_agrees_with_the_firmware_parser(chunks: list[bytes]) -> None:
    host, board = L.FrameDecoder(), fw_proto.Decoder()
    got_host, got_board = [], []
    for chunk in chunks:
        got_host += host.feed(chunk)
        got_board += board.feed(chunk)
    normal = [
        int(r) if isinstance(r, L.DecodeError) else (r.type, r.seq, r.ack, r.payload)
        for r in got_host
    ]
    fw = [r if isinstance(r, int) else (r.type, r.seq, r.ack, bytes(r.payload)) for r in got_board]
    assert normal == fw
    for r in got_host:
        if isinstance(r, L.Frame):
            assert L.FrameDecoder().feed(
                L.encode_frame(r.type, r.payload, seq=r.seq, ack=r.ack)
            ) == [r]


frame = st.builds(
    lambda t, s, a, p: L.Frame(t, s, a, p),
    st.sampled_from(list(L.MsgType)),
    st.integers(0, 255),
    st.integers(0, 255),
    st.binary(max_size=L.MAX_PAYLOAD),
)
mutation = st.tuples(
    st.sampled_from(["flip", "drop", "insert"]), st.integers(0, 10**6), st.integers(1, 255)
)


@FUZZ
@given(st.lists(frame, min_size=1, max_size=6), st.lists(mutation, max_size=5))
def test_corrupted_streams_yield_only_frames_that_were_sent(frames, mutations) -> None:
    wire = bytearray(
        b"".join(L.encode_frame(f.type, f.payload, seq=f.seq, ack=f.ack) for f in frames)
    )
    for kind, where, value in mutations:
        i = where % len(wire)
        if kind == "flip":
            wire[i] ^= value
        elif kind == "drop":
            del wire[i]
        else:
            wire.insert(i, value)
    got = [r for r in L.FrameDecoder().feed(bytes(wire)) if isinstance(r, L.Frame)]
    for r in got:
        assert r in frames
    if not mutations:
        assert got == frames


@FUZZ
@given(st.binary(max_size=2000))
def test_oversize_input_is_bounded(data: bytes) -> None:
    decoder = L.FrameDecoder()
    decoder.feed(data.replace(b"\x00", b"\x01"))
    assert len(decoder._chunk) <= L.MAX_ENCODED
