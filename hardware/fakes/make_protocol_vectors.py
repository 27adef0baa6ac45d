"""Regenerate ``firmware/protocol_vectors.json`` (run from the repository root).

    PYTHONPATH=. python hardware/fakes/make_protocol_vectors.py

The CRC and COBS anchors are the published check values (CRC-16/CCITT-FALSE of
"123456789" is 0x29B1; the COBS examples are the standard ones) and are
written here by hand: the script refuses to write a file if the host codec
disagrees with them. Frames and message payloads are then produced by the host
codec (``companion/hal/link.py``); the firmware tests check that the firmware's
separate codec (``firmware/fw_proto.py``) produces the same bytes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from companion.hal import link as L

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "firmware" / "protocol_vectors.json"

CRC_ANCHORS = [
    ("", 0xFFFF),
    ("123456789", 0x29B1),
    ("A", 0xB915),
]

SEQ = bytes(range(1, 255))  # 01..FE
COBS_ANCHORS = [
    ("", "01"),
    ("00", "0101"),
    ("0000", "010101"),
    ("001100", "01021101"),
    ("11220033", "0311220233"),
    ("11223344", "0511223344"),
    ("11000000", "0211010101"),
    (SEQ.hex(), "ff" + SEQ.hex()),
    ("00" + SEQ.hex(), "01ff" + SEQ.hex()),
    (bytes(range(1, 256)).hex(), "ff" + SEQ.hex() + "02ff"),
    (bytes(range(2, 256)).hex() + "00", "ff" + bytes(range(2, 256)).hex() + "0101"),
    (bytes(range(3, 256)).hex() + "0001", "fe" + bytes(range(3, 256)).hex() + "0201"),
]


def _with_crc(head: bytes) -> bytes:
    return head + L.crc16_ccitt_false(head).to_bytes(2, "big")


def frame_entry(name, ftype, seq, ack, payload):
    wire = L.encode_frame(ftype, payload, seq=seq, ack=ack)
    return {
        "name": name,
        "type": ftype,
        "seq": seq,
        "ack": ack,
        "payload": payload.hex(),
        "wire": wire.hex(),
    }


def result(item):
    if isinstance(item, L.DecodeError):
        return {"error": item.name.lower()}
    return {"type": item.type, "seq": item.seq, "ack": item.ack, "payload": item.payload.hex()}


def main() -> int:
    for text, crc in CRC_ANCHORS:
        assert L.crc16_ccitt_false(text.encode()) == crc, text
    for decoded, encoded in COBS_ANCHORS:
        assert L.cobs_encode(bytes.fromhex(decoded)).hex() == encoded, decoded
        assert L.cobs_decode(bytes.fromhex(encoded)).hex() == decoded, encoded

    T = L.MsgType
    matrix = bytes((i * 7) % 256 for i in range(75)) + (0x01000010).to_bytes(4, "big")
    status = bytes([60, 0, 60] + [0] * 21 + [60, 40, 0] + [0] * 3) + (0x0000).to_bytes(2, "big")
    ident = L.BoardIdent(
        L.PROTOCOL_VERSION,
        0x1234,
        (2, 0, 0),
        bytes.fromhex("e66038b7135a2b2f"),
        0xFF,
        5,
        12,
        4,
        250,
        60,
        3000,
        0x05,
        2,
        0x01,
        123456,
    )
    messages = [
        ("hello", "HELLO", ">BHHIBH", [L.PROTOCOL_VERSION, 0x1234, 60, 3000, 20, 1000]),
        ("ident", "IDENT", ">BHBBB8sHBBBHHIBHBI", None),
        ("arm", "ARM", ">IH", [0xDEADBEEF, 1000]),
        ("fire", "FIRE", ">IHI", [0xDEADBEEF, 60, 5500]),
        ("fire deadline across the tick wrap", "FIRE", ">IHI", [0xDEADBEEF, 250, 120]),
        ("query", "QUERY", ">H", [0x0102]),
        ("roll", "ROLL", ">BBBBHBBB", [6, 4, 2, 12, 50, 255, 255, 255]),
        ("event press trigger", "EVENT", ">BBI", [0, 1, 1000]),
        ("event long confirm", "EVENT", ">BBI", [3, 3, 4294967295]),
        ("fired", "FIRED", ">IHI", [0xDEADBEEF, 60, 5000]),
        ("coil off", "COIL_OFF", ">IHIB", [0xDEADBEEF, 60, 5060, 0]),
        ("refused cooling", "REFUSED", ">IBI", [0xDEADBEEF, 4, 2500]),
        ("refused late", "REFUSED", ">IBI", [0xDEADBEEF, 7, 0]),
        ("refused spent", "REFUSED", ">IBI", [0xDEADBEEF, 9, 0]),
        ("refused no press", "REFUSED", ">IBI", [0xDEADBEEF, 10, 0]),
        ("state after a pulse", "STATE", ">HBBIIHI", [0x0102, 0, 0, 0xDEADBEEF, 3, 60, 5061]),
        ("state coil on", "STATE", ">HBBIIHI", [7, 1, 0, 0xDEADBEEF, 1, 12, 1073741823]),
        ("error no session", "ERROR", ">BBB", [3, 0x11, 7]),
    ]
    msg_entries = []
    for name, tname, fmt, values in messages:
        if values is None:
            payload = ident.pack()
            values = [
                L.PROTOCOL_VERSION,
                0x1234,
                2,
                0,
                0,
                ident.board_id.hex(),
                0xFF,
                5,
                12,
                4,
                250,
                60,
                3000,
                5,
                2,
                1,
                123456,
            ]
        else:
            import struct

            payload = struct.pack(fmt, *values)
        msg_entries.append(
            {"name": name, "type": tname, "format": fmt, "values": values, "payload": payload.hex()}
        )
    payloads = {m["name"]: bytes.fromhex(m["payload"]) for m in msg_entries}

    frames = [
        frame_entry("ack", T.ACK, 0, 5, b""),
        frame_entry("ack of nothing", T.ACK, 0, 255, b""),
        frame_entry("hello", T.HELLO, 0, 255, payloads["hello"]),
        frame_entry("ident", T.IDENT, 0, 255, payloads["ident"]),
        frame_entry("ping", T.PING, 0, 255, b""),
        frame_entry("arm", T.ARM, 1, 255, payloads["arm"]),
        frame_entry("fire", T.FIRE, 2, 0, payloads["fire"]),
        frame_entry("disarm", T.DISARM, 3, 4, b""),
        frame_entry("matrix", T.MATRIX, 4, 9, matrix),
        frame_entry("status", T.STATUS, 5, 9, status),
        frame_entry("roll", T.ROLL, 6, 9, payloads["roll"]),
        frame_entry("goodbye", T.GOODBYE, 7, 9, b""),
        frame_entry("maintenance", T.MAINTENANCE, 8, 9, L.MAINTENANCE_MAGIC),
        frame_entry("query", T.QUERY, 9, 9, payloads["query"]),
        frame_entry("event", T.EVENT, 0, 255, payloads["event press trigger"]),
        frame_entry("fired", T.FIRED, 1, 2, payloads["fired"]),
        frame_entry("coil off", T.COIL_OFF, 2, 2, payloads["coil off"]),
        frame_entry("refused", T.REFUSED, 3, 2, payloads["refused cooling"]),
        frame_entry("state", T.STATE, 4, 9, payloads["state after a pulse"]),
        frame_entry("error", T.ERROR, 0, 0, payloads["error no session"]),
        frame_entry("zeros", 0x14, 0, 0, bytes(79)),
        frame_entry("seq wraps", T.PING, 255, 254, b""),
        frame_entry("largest payload", 0x7F, 17, 200, bytes(range(120))),
        frame_entry("unknown type", 0x7F, 9, 9, b"\x01\x02"),
    ]

    good = bytes.fromhex(frames[5]["wire"])  # arm
    ping = bytes.fromhex(frames[4]["wire"])
    body = L.cobs_decode(good[:-1])
    flipped = bytearray(good)
    flipped[3] ^= 0x40  # inside the payload
    wrong_len = bytearray(body)
    wrong_len[0] = 5
    bad = [
        ("bad crc", bytes(flipped)),
        ("length mismatch", L.cobs_encode(bytes(wrong_len)) + b"\x00"),
        ("length over max", L.cobs_encode(_with_crc(bytes([200, 0, 0, 0x10, 1, 2]))) + b"\x00"),
        ("short body", L.cobs_encode(b"\x00\x01\x02") + b"\x00"),
        ("cobs code past end", bytes.fromhex("0511223300")),
        ("oversize then a frame", bytes([0x55] * 200) + b"\x00" + ping),
        ("empty frames", b"\x00\x00\x00"),
        ("garbage then a frame", b"\x13\x37" + b"\x00" + ping),
        ("frame without delimiter then frame", good[:-1] + ping),
        ("two frames", good + ping),
        ("dropped byte", good[:4] + good[5:]),
    ]
    streams = []
    for name, wire in bad:
        decoder = L.FrameDecoder()
        streams.append(
            {"name": name, "wire": wire.hex(), "results": [result(r) for r in decoder.feed(wire)]}
        )

    vectors = {
        "about": "Byte-exact test vectors of firmware/PROTOCOL.md, read by the host codec tests "
        "(tests/serial) and the firmware codec tests (tests/firmware). Regenerate with "
        "hardware/fakes/make_protocol_vectors.py.",
        "protocol_version": L.PROTOCOL_VERSION,
        "max_payload": L.MAX_PAYLOAD,
        "max_encoded": L.MAX_ENCODED,
        "crc16": [{"data": t.encode().hex(), "crc": f"{c:04x}"} for t, c in CRC_ANCHORS],
        "cobs": [{"decoded": d, "encoded": e} for d, e in COBS_ANCHORS],
        "messages": msg_entries,
        "frames": frames,
        "streams": streams,
    }
    OUT.write_text(json.dumps(vectors, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(frames)} frames, {len(streams)} streams")
    return 0


if __name__ == "__main__":
    sys.exit(main())
