"""Helpers for the firmware tests (a unique module name, not conftest).

The firmware modules are imported from ``firmware/`` as the board imports them
(top-level ``fw_proto``, ``fw_logic``, ...), with ``companion/hal/mpshims`` on
the path for ``machine``, ``neopixel`` and ``utime``. Board logic tests use a
hand-made :class:`FakeIO` on a manual millisecond clock, and the host's codec
(:mod:`companion.hal.link`) to speak to the board.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.append(str(REPO))

from companion.hal import link as L  # noqa: E402
from companion.hal.virtual_board import load_firmware  # noqa: E402

FW = load_firmware()
fw_proto = FW["fw_proto"]
fw_logic = FW["fw_logic"]
fw_hw = FW["fw_hw"]
fw_app = FW["fw_app"]
FIRMWARE_DIR = REPO / "firmware"
VECTORS = json.loads((FIRMWARE_DIR / "protocol_vectors.json").read_text(encoding="utf-8"))

PERIOD = 1 << 30  # MicroPython ticks wrap here


class FakePin:
    """A pin with a level; records (ms, level) on every write."""

    def __init__(self, clock: ManualTicks, level: int = 1) -> None:
        self.clock = clock
        self.level = level
        self.history: list[tuple[int, int]] = []

    def value(self, v: Any = None) -> int | None:
        if v is None:
            return self.level
        self.level = 1 if v else 0
        self.history.append((self.clock.now, self.level))
        return None


class FakeStrip:
    """A NeoPixel strip: pixels, and a snapshot on every write()."""

    def __init__(self, n: int) -> None:
        self.pixels = [(0, 0, 0)] * n
        self.writes: list[tuple[tuple[int, int, int], ...]] = []

    def __setitem__(self, i: int, v: tuple[int, int, int]) -> None:
        self.pixels[i] = tuple(v)

    def __getitem__(self, i: int) -> tuple[int, int, int]:
        return self.pixels[i]

    def write(self) -> None:
        self.writes.append(tuple(self.pixels))


class ManualTicks:
    """A wrapping millisecond clock that only moves when told."""

    def __init__(self, start: int = 1000) -> None:
        self.now = start % PERIOD

    def ticks_ms(self) -> int:
        return self.now

    @staticmethod
    def ticks_diff(a: int, b: int) -> int:
        return ((a - b + PERIOD // 2) % PERIOD) - PERIOD // 2

    def advance(self, ms: int) -> int:
        self.now = (self.now + ms) % PERIOD
        return self.now


class FakeIO:
    """What fw_logic.Board needs of fw_hw.PicoIO."""

    def __init__(self, *, start_ms: int = 1000, reset_cause: str = "power") -> None:
        self.clock = ManualTicks(start_ms)
        self.ticks_ms = self.clock.ticks_ms
        self.ticks_diff = self.clock.ticks_diff
        self.coil = FakePin(self.clock, 1)  # deliberately high: the board must drive it low
        self.buttons = [FakePin(self.clock, 1) for _ in range(4)]
        self.matrix = FakeStrip(25)
        self.status = FakeStrip(12)
        self.serpentine = True
        self.unique_id = b"TESTBRD1"
        self.reset_cause = reset_cause
        self.out = bytearray()
        self.maintenance = 0

    def write(self, data: bytes) -> None:
        self.out += data

    def enter_maintenance(self) -> None:
        self.maintenance += 1


class FwHost:
    """A scripted host for one fw_logic.Board: sends frames, reads its answers."""

    def __init__(self, **board_kwargs: Any) -> None:
        self.io = FakeIO(
            **{k: board_kwargs.pop(k) for k in ("start_ms", "reset_cause") if k in board_kwargs}
        )
        self.board = fw_logic.Board(self.io, **board_kwargs)
        self.board.log = []
        self.decoder = L.FrameDecoder()
        self.seq = 0
        self.expected = 0
        self.received: list[L.Frame] = []
        self.delivered: list[L.Frame] = []  # sequenced messages, each once, in order

    @property
    def now(self) -> int:
        return self.io.clock.now

    def advance(self, ms: int, step: int = 1, *, keepalive: bool = False) -> None:
        """Let *ms* pass, ticking the board every *step* ms (and with *keepalive*,
        sending a PING every 250 ms as the host does)."""
        last = self.now
        for _ in range(0, ms, step):
            self.io.clock.advance(step)
            if keepalive and self.io.ticks_diff(self.now, last) >= 250:
                last = self.now
                self.send(L.MsgType.PING)
                self.messages()  # acknowledge what the board sent, as a host does
            self.board.tick(self.now)

    def feed(self, wire: bytes) -> None:
        self.board.feed(wire, self.now)

    def hello(
        self,
        version: int = L.PROTOCOL_VERSION,
        nonce: int = 0x1234,
        pulse_ms: int = 60,
        cooldown_ms: int = 3000,
        bounce_ms: int = 20,
        hold_ms: int = 1000,
    ) -> L.BoardIdent:
        payload = L.HELLO.pack(version, nonce, pulse_ms, cooldown_ms, bounce_ms, hold_ms)
        self.feed(L.encode_frame(L.MsgType.HELLO, payload, ack=0xFF))
        self.seq = 0
        self.expected = 0
        idents = [f for f in self.frames() if f.type == L.MsgType.IDENT]
        assert idents, "no IDENT"
        return L.BoardIdent.parse(idents[-1].payload)

    def send(self, ftype: int, payload: bytes = b"", *, seq: int | None = None) -> None:
        if seq is None:
            seq = self.seq
            self.seq = (self.seq + 1) & 0xFF
        self.feed(L.encode_frame(ftype, payload, seq=seq, ack=(self.expected - 1) & 0xFF))

    def frames(self) -> list[L.Frame]:
        """Frames the board wrote since the last call (decoded by the host codec)."""
        data = bytes(self.io.out)
        self.io.out.clear()
        out = [f for f in self.decoder.feed(data) if isinstance(f, L.Frame)]
        self.received += out
        return out

    def messages(self, ftype: int | None = None, *, ack: bool = True) -> list[L.Frame]:
        """Sequenced messages from the board (acknowledged, like a host would)."""
        out = []
        for f in self.frames():
            if f.type in (L.MsgType.ACK, L.MsgType.IDENT, L.MsgType.ERROR):
                continue
            if f.seq == self.expected:
                self.expected = (self.expected + 1) & 0xFF
                out.append(f)
                self.delivered.append(f)
        if ack and out:
            self.feed(L.encode_frame(L.MsgType.ACK, ack=(self.expected - 1) & 0xFF))
        return [f for f in out if ftype is None or f.type == ftype]

    def executed(self, ftype: int) -> list[bytes]:
        return [p for t, p in self.board.log if t == ftype]

    def fire_payload(self, token: int, pulse_ms: int = 60, ttl_ms: int = 500) -> bytes:
        """A FIRE payload whose deadline is *ttl_ms* ahead of the board's clock now."""
        return L.FIRE.pack(token, pulse_ms, (self.now + ttl_ms) % PERIOD)

    def press_trigger(self, limit_ms: int = 100) -> int:
        """Press the red button and let go once the board has sampled the press, as a
        finger does (a press lasts >= 10 ms; the board takes it within a few): returns the
        board ms of the press. A press still held, or not yet released on the board, is
        released first."""
        button, pin = self.board.buttons[0], self.io.buttons[0]
        pin.level = 1
        for _ in range(limit_ms):
            if not button.state:
                break
            self.advance(1)
        pin.level = 0
        for _ in range(limit_ms):
            if button.state:
                break
            self.advance(1)
        assert button.state, "the board did not take the press"
        pin.level = 1
        return button.pressed_at

    def arm_fire(
        self,
        token: int = 0xC0FFEE,
        pulse_ms: int = 60,
        window_ms: int = 1000,
        ttl_ms: int = 500,
        *,
        press: bool = True,
    ) -> None:
        """ARM, a press of the red button (unless not *press*), FIRE: as the host does,
        which sends the FIRE (with the ARM again) when the press's EVENT arrives."""
        self.send(L.MsgType.ARM, L.ARM.pack(token, window_ms))
        if press:
            self.press_trigger()
        self.send(L.MsgType.FIRE, self.fire_payload(token, pulse_ms, ttl_ms))

    def query(self, query_id: int = 1) -> L.BoardState:
        """QUERY the board and return its STATE (acknowledged, like a host would)."""
        self.send(L.MsgType.QUERY, L.QUERY.pack(query_id))
        states = [L.BoardState.parse(f.payload) for f in self.messages(L.MsgType.STATE)]
        assert states and states[-1].query_id == query_id, states
        return states[-1]
