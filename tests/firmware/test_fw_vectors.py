"""The firmware's codec (firmware/fw_proto.py) against the shared byte-exact vectors."""

from __future__ import annotations

import struct

import pytest
from fw_helpers import VECTORS, fw_logic, fw_proto

ERROR_NAMES = {
    "cobs": fw_proto.E_COBS,
    "short": fw_proto.E_SHORT,
    "length": fw_proto.E_LENGTH,
    "crc": fw_proto.E_CRC,
    "oversize": fw_proto.E_OVERSIZE,
}


def test_limits_match_the_vectors() -> None:
    assert VECTORS["protocol_version"] == fw_proto.PROTOCOL_VERSION
    assert VECTORS["max_payload"] == fw_proto.MAX_PAYLOAD
    assert VECTORS["max_encoded"] == fw_proto.MAX_ENCODED


@pytest.mark.parametrize("case", VECTORS["crc16"], ids=lambda c: c["data"][:16] or "empty")
def test_crc16(case: dict) -> None:
    assert fw_proto.crc16(bytes.fromhex(case["data"])) == int(case["crc"], 16)


@pytest.mark.parametrize("case", VECTORS["cobs"], ids=lambda c: c["decoded"][:12] or "empty")
def test_cobs(case: dict) -> None:
    decoded, encoded = bytes.fromhex(case["decoded"]), bytes.fromhex(case["encoded"])
    assert bytes(fw_proto.cobs_encode(decoded)) == encoded
    assert bytes(fw_proto.cobs_decode(encoded)) == decoded


@pytest.mark.parametrize("case", VECTORS["frames"], ids=lambda c: c["name"])
def test_frames_encode_and_decode(case: dict) -> None:
    payload = bytes.fromhex(case["payload"])
    wire = bytes.fromhex(case["wire"])
    assert bytes(fw_proto.encode_frame(case["type"], case["seq"], case["ack"], payload)) == wire
    [frame] = fw_proto.Decoder().feed(wire)
    assert (frame.type, frame.seq, frame.ack, bytes(frame.payload)) == (
        case["type"],
        case["seq"],
        case["ack"],
        payload,
    )


@pytest.mark.parametrize("case", VECTORS["streams"], ids=lambda c: c["name"])
@pytest.mark.parametrize("chunk", [0, 1, 7])
def test_streams(case: dict, chunk: int) -> None:
    """Noise, broken frames, several frames: the same results however the bytes arrive."""
    wire = bytes.fromhex(case["wire"])
    decoder = fw_proto.Decoder()
    results = []
    pieces = [wire] if chunk == 0 else [wire[i : i + chunk] for i in range(0, len(wire), chunk)]
    for piece in pieces:
        results += decoder.feed(piece)
    expected = []
    for r in case["results"]:
        if "error" in r:
            expected.append(ERROR_NAMES[r["error"]])
        else:
            expected.append((r["type"], r["seq"], r["ack"], bytes.fromhex(r["payload"])))
    got = [r if isinstance(r, int) else (r.type, r.seq, r.ack, bytes(r.payload)) for r in results]
    assert got == expected


FORMATS = {
    "HELLO": fw_logic.HELLO_FMT,
    "IDENT": fw_logic.IDENT_FMT,
    "ARM": fw_logic.ARM_FMT,
    "FIRE": fw_logic.FIRE_FMT,
    "QUERY": fw_logic.QUERY_FMT,
    "STATE": fw_logic.STATE_FMT,
    "ROLL": fw_logic.ROLL_FMT,
    "EVENT": fw_logic.EVENT_FMT,
    "FIRED": fw_logic.FIRED_FMT,
    "COIL_OFF": fw_logic.COIL_OFF_FMT,
    "REFUSED": fw_logic.REFUSED_FMT,
    "ERROR": fw_logic.ERROR_FMT,
}


@pytest.mark.parametrize("case", VECTORS["messages"], ids=lambda c: c["name"])
def test_message_payloads(case: dict) -> None:
    fmt = FORMATS[case["type"]]
    assert fmt == case["format"]
    values = [bytes.fromhex(v) if isinstance(v, str) else v for v in case["values"]]
    assert struct.pack(fmt, *values) == bytes.fromhex(case["payload"])


def test_board_ident_matches_the_vector_layout() -> None:
    """The IDENT the board builds is the vector's layout: same size, fields in place."""
    from fw_helpers import FwHost

    host = FwHost()
    ident = host.hello()
    assert ident.protocol == fw_proto.PROTOCOL_VERSION and ident.firmware == fw_logic.FW_VERSION
    assert ident.board_id == b"TESTBRD1"


def test_the_host_names_every_refusal_of_the_firmware() -> None:
    """Every REFUSED reason the firmware sends has its name on the host, under the same
    number (a reason the host does not know is reported as a driver fault)."""
    from companion.hal import link as L

    codes = {v for k, v in vars(fw_logic).items() if k.startswith("REFUSE_")}
    assert codes == set(L.REFUSALS)
    assert L.REFUSE_NO_PRESS == fw_logic.REFUSE_NO_PRESS
    assert L.REFUSE_COOLING_DOWN == fw_logic.REFUSE_COOLING_DOWN
    assert L.REFUSE_LATE == fw_logic.REFUSE_LATE
