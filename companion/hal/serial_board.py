"""The ``serial`` backend: the RP2040 I/O board over USB serial (pyserial).

The board (``firmware/``, MicroPython on a Raspberry Pi Pico) drives the
solenoid, the 5x5 LED arena matrix, the status LEDs and the buttons; this
module talks to it with the framed, checksummed, sequenced protocol of
``firmware/PROTOCOL.md`` (codec: :mod:`companion.hal.link`) and offers the
same roles as every backend:

* ``hw.eliminator`` is a :class:`~companion.hal.safety.SolenoidGuard` (a
  :class:`BoardSolenoidGuard`): the host-side rules stay in force. Its output
  (:class:`BoardSolenoid`), when switched on, sends the board ARM + FIRE with
  a fresh random token; the board pulses the coil itself, with its own cap
  and cool-down, and switches it off itself. ``off()`` sends DISARM.
* buttons arrive as the board's debounced press / release / long-press
  events, emitted on the hardware's single input queue;
* status LEDs and the arena display send whole images (STATUS, MATRIX); the
  board animates blinking cells and the rolling die itself.

A link thread finds the Pico by its USB ids (or uses the configured port),
handshakes (protocol version, firmware version, capabilities; a board it does
not understand is refused with a message saying what to flash), keeps the
link alive, retransmits, and reconnects with back-off after an unplug. While
the board is away :attr:`SerialHardware.connected` is False, the guard
refuses to fire, and the table should pause (``hw.wait_connected``). Every
wait is bounded; the thread is a daemon and stops on close.
"""

from __future__ import annotations

import contextlib
import logging
import random
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import serial
from serial.tools import list_ports

from companion.hal import link as L
from companion.hal.config import HardwareConfig
from companion.hal.contracts import DIE_FACES, CellState, FireResult, Frame, Refusal
from companion.hal.display import MemoryArenaDisplay
from companion.hal.events import BUTTON_NAMES, InputEvent, InputHub
from companion.hal.hardware import Hardware
from companion.hal.leds import StatusLedsBase
from companion.hal.safety import SolenoidDriverError, SolenoidGuard

__all__ = [
    "CELL_COLOURS",
    "PICO_USB_PID",
    "PICO_USB_VID",
    "BoardLink",
    "BoardNotFound",
    "BoardRefused",
    "BoardSolenoid",
    "BoardSolenoidGuard",
    "LinkSettings",
    "SerialHardware",
    "check_board",
    "find_pico_port",
    "open_serial",
    "open_virtual_board_hardware",
]

log = logging.getLogger(__name__)

#: USB ids of a Raspberry Pi Pico running MicroPython.
PICO_USB_VID = 0x2E8A
PICO_USB_PID = 0x0005

FLASH_HINT = (
    "flash this companion's firmware onto the Pico: see firmware/README.md "
    "(mpremote connect PORT cp firmware/*.py : + reset)"
)
LINK_FAULT_MARK = "[I/O board link]"

#: Arena cell colours sent to the LED matrix (blink cells blink on the board).
CELL_COLOURS: dict[CellState, tuple[int, int, int]] = {
    CellState.OFF: (0, 0, 0),
    CellState.FIELD: (24, 18, 10),
    CellState.HOLE: (4, 0, 0),
    CellState.CENTRE: (40, 30, 0),
    CellState.ELIMINATOR: (0, 0, 64),
    CellState.HIGHLIGHT: (64, 64, 64),
    CellState.BLINK: (96, 0, 0),
}
#: Turn LED colours by player colour (others light white).
TURN_COLOURS: dict[str, tuple[int, int, int]] = {
    "purple": (48, 0, 64),
    "grey": (24, 24, 24),
    "turquoise": (0, 48, 40),
    "red": (64, 0, 0),
}
DIE_COLOURS: dict[str, tuple[int, int, int]] = {
    "battle_royale": (64, 40, 0),
    "move_eliminator": (0, 24, 64),
    "explosion": (96, 16, 0),
    "free_choice": (0, 56, 8),
}
TURN_SLOTS = 6  # status LEDs 0-5: turn colours; 6-9: die faces
HOST_STATUS_LEDS = 10
ARM_WINDOW_MS = 1000
ARM_REFRESH_S = 0.3


class BoardNotFound(RuntimeError):
    """No I/O board answered (none plugged in, wrong port, or no firmware)."""


class BoardRefused(RuntimeError):
    """A board answered, but this host does not understand it; the message says
    what to flash."""


def find_pico_port(
    vid: int = PICO_USB_VID,
    pid: int = PICO_USB_PID,
    *,
    comports: Callable[[], Iterable[Any]] | None = None,
) -> str | None:
    """The device path of the first serial port with USB ids *vid*:*pid*, or None."""
    ports = (comports or list_ports.comports)()
    found = sorted(p.device for p in ports if p.vid == vid and p.pid == pid)
    if len(found) > 1:
        log.warning("several I/O boards found (%s); using %s", ", ".join(found), found[0])
    return found[0] if found else None


def check_board(ident: L.BoardIdent, port: str) -> None:
    """Raise :exc:`BoardRefused` unless this host can work with the board *ident*."""
    problems = []
    if ident.protocol != L.PROTOCOL_VERSION:
        problems.append(
            f"it speaks protocol {ident.protocol}, this companion speaks {L.PROTOCOL_VERSION}"
        )
    missing = [
        name for bit, name in L.CAP_NAMES.items() if bit & L.REQUIRED_CAPS and not ident.caps & bit
    ]
    if missing:
        problems.append("it lacks " + ", ".join(missing))
    if ident.matrix_size != 5:
        problems.append(f"its LED matrix is {ident.matrix_size}x{ident.matrix_size}, not 5x5")
    if ident.status_leds < HOST_STATUS_LEDS:
        problems.append(f"it has {ident.status_leds} status LEDs, not {HOST_STATUS_LEDS}+")
    if ident.buttons < len(L.BOARD_BUTTONS):
        problems.append(f"it has {ident.buttons} buttons, not {len(L.BOARD_BUTTONS)}")
    if problems:
        raise BoardRefused(
            f"the I/O board on {port} (firmware {ident.firmware_version}, board "
            f"{ident.board_id_hex}) cannot be used: " + "; ".join(problems) + f". {FLASH_HINT}"
        )


@dataclass(frozen=True)
class LinkSettings:
    """How to find, open and configure the board, and the link's timing."""

    port: str | None = None
    vid: int = PICO_USB_VID
    pid: int = PICO_USB_PID
    baud: int = 115200
    pulse_ms: int = 60
    cooldown_ms: int = 3000
    bounce_ms: int = 20
    hold_ms: int = 1000
    read_timeout_s: float = 0.005
    write_timeout_s: float = 0.5
    handshake_timeout_s: float = 0.3
    handshake_tries: int = 3
    keepalive_s: float = 0.25
    silence_s: float = 1.0
    rto_s: float = 0.06
    max_retries: int = 20
    window: int = 8
    backoff_s: tuple[float, float] = (0.05, 1.0)
    fire_reply_s: float = 1.5
    close_flush_s: float = 0.3


class _HandshakeFailed(Exception):
    pass


class _Reconnect(Exception):
    pass


@dataclass
class _FireWait:
    token: int
    event: threading.Event
    reply: tuple[Any, ...] | None = None


class BoardLink:
    """
    The connection to one I/O board: a daemon thread that finds the port,
    handshakes, pumps frames, keeps the link alive and reconnects with back-off.

    Callbacks run on the link thread: *on_event(button, kind, board_ms)*,
    *on_connect(ident)* after every handshake, *on_disconnect(reason)*.
    """

    def __init__(
        self,
        settings: LinkSettings,
        *,
        on_event: Callable[[str, str, int], None] | None = None,
        on_connect: Callable[[L.BoardIdent], None] | None = None,
        on_disconnect: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        opener: Callable[..., Any] | None = None,
        finder: Callable[[int, int], str | None] | None = None,
    ) -> None:
        self.settings = settings
        self.on_event = on_event
        self.on_connect = on_connect
        self.on_disconnect = on_disconnect
        self._clock = clock
        self._opener = opener or serial.Serial
        self._finder = finder or (lambda vid, pid: find_pico_port(vid, pid))
        self._wlock = threading.RLock()
        self._ser: Any = None
        self._port: str | None = None
        self._link = L.ReliableLink(
            self._write,
            window=settings.window,
            rto_s=settings.rto_s,
            max_retries=settings.max_retries,
        )
        self._decoder = L.FrameDecoder()
        self._connected = threading.Event()
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None
        self._broken: str | None = None
        self._last_rx = 0.0
        self._arm_token: int | None = None
        self._arm_sent = 0.0
        self._fire_waits: list[_FireWait] = []
        self._rng = random.SystemRandom()
        self.ident: L.BoardIdent | None = None
        self.failure: Exception | None = None
        self.status = "not connected yet"
        self.connects = 0
        self.disconnects = 0
        self.errors_from_board: list[tuple[str, int, int]] = []
        self.coil_reports: list[tuple[int, int, int, int]] = []  # token, on_ms, board ms, reason
        self.notices: list[str] = []

    # -- public -------------------------------------------------------------------------

    @property
    def port(self) -> str | None:
        """The port of the current (or last) connection."""
        return self._port

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def wait_connected(self, timeout: float | None) -> bool:
        """Wait up to *timeout* seconds (bounded: None means 10 s) for a session."""
        return self._connected.wait(10.0 if timeout is None else timeout)

    @property
    def stats(self) -> dict[str, Any]:
        return {
            "connects": self.connects,
            "disconnects": self.disconnects,
            "retransmits": self._link.retransmits,
            "duplicates": self._link.duplicates,
            "out_of_order": self._link.out_of_order,
            "frames": self._decoder.frames,
            "decode_errors": {e.name.lower(): n for e, n in self._decoder.errors.items()},
            "board_errors": len(self.errors_from_board),
        }

    def start(self) -> BoardLink:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="io-board-link", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Say goodbye (the board darkens without a fault), stop the thread, close the port."""
        if self._closing.is_set():
            return
        if self.connected:
            self.send(L.MsgType.GOODBYE, b"")
            deadline = self._clock() + self.settings.close_flush_s
            while self.connected and not self._link.idle and self._clock() < deadline:
                time.sleep(0.005)
        self._closing.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(2.0)
        self._drop("closed", notify=False)

    def send(self, ftype: int, payload: bytes = b"") -> bool:
        """Send a sequenced message; False if there is no session (it is dropped)."""
        with self._wlock:
            if self._ser is None or not self._connected.is_set() or self._broken:
                return False
            try:
                self._link.send(ftype, payload, self._clock())
            except (serial.SerialException, OSError, L.LinkBroken) as exc:
                self._broken = str(exc)
                return False
        return True

    def arm(self) -> None:
        """The guard armed: arm the board with a fresh token, and keep it armed."""
        with self._wlock:
            self._arm_token = self._rng.getrandbits(32)
            self._arm_sent = self._clock()
            token = self._arm_token
        self.send(L.MsgType.ARM, L.ARM.pack(token, ARM_WINDOW_MS))

    def disarm(self) -> None:
        with self._wlock:
            self._arm_token = None
        self.send(L.MsgType.DISARM)

    @property
    def armed(self) -> bool:
        return self._arm_token is not None

    def fire(self, pulse_ms: int) -> tuple[Any, ...]:
        """ARM + FIRE with the current token; wait (bounded) for FIRED or REFUSED.

        Returns ``("fired", pulse_ms, board_ms)`` or ``("refused", reason, retry_ms)``;
        raises :exc:`SolenoidDriverError` if the board is away or does not answer.
        """
        with self._wlock:
            token = self._arm_token if self._arm_token is not None else self._rng.getrandbits(32)
            self._arm_token = None  # one arming, one fire
            wait = _FireWait(token, threading.Event())
            self._fire_waits.append(wait)
        try:
            sent = self.send(L.MsgType.ARM, L.ARM.pack(token, ARM_WINDOW_MS)) and self.send(
                L.MsgType.FIRE, L.FIRE.pack(token, pulse_ms)
            )
            if not sent:
                raise SolenoidDriverError(
                    f"{LINK_FAULT_MARK} the I/O board is not connected ({self.status})"
                )
            if not wait.event.wait(self.settings.fire_reply_s):
                raise SolenoidDriverError(
                    f"no answer from the I/O board to FIRE within {self.settings.fire_reply_s} s"
                )
            assert wait.reply is not None
            if wait.reply[0] == "lost":
                raise SolenoidDriverError(f"{LINK_FAULT_MARK} {wait.reply[1]}")
            return wait.reply
        finally:
            with self._wlock:
                if wait in self._fire_waits:
                    self._fire_waits.remove(wait)

    def flush(self, timeout: float = 1.0) -> bool:
        """Wait (at most *timeout* s) until the board has acknowledged everything sent."""
        deadline = self._clock() + timeout
        while self.connected and not self._link.idle:
            if self._clock() >= deadline:
                return False
            time.sleep(0.001)
        return self.connected

    def request_maintenance(self) -> bool:
        """Ask the board to restart into maintenance mode (REPL free for mpremote)."""
        return self.send(L.MsgType.MAINTENANCE, L.MAINTENANCE_MAGIC)

    # -- the thread ---------------------------------------------------------------------

    def _run(self) -> None:
        low, high = self.settings.backoff_s
        delay = low
        attempts = 0
        while not self._closing.is_set():
            if self._ser is None:
                attempts += 1
                try:
                    self._connect()
                except BoardRefused as exc:
                    self.failure = exc
                    self.status = str(exc)
                    log.error("%s", exc)
                    self._closing.wait(high)
                except (BoardNotFound, _HandshakeFailed, serial.SerialException, OSError) as exc:
                    self.failure = (
                        exc if isinstance(exc, BoardNotFound) else BoardNotFound(str(exc))
                    )
                    if self.connects:
                        self.status = (
                            f"I/O board disconnected, reconnecting (attempt {attempts}): {exc}"
                        )
                    else:
                        self.status = f"I/O board not connected: {exc}"
                    self._closing.wait(delay)
                    delay = min(delay * 2, high)
                else:
                    delay = low
                    attempts = 0
                continue
            try:
                self._pump()
            except (serial.SerialException, OSError, L.LinkBroken, _Reconnect) as exc:
                self._drop(str(exc) or type(exc).__name__)
            except Exception as exc:  # pragma: no cover - never let the link thread die
                log.exception("I/O board link error")
                self._drop(f"internal error: {exc}")

    def _connect(self) -> None:
        s = self.settings
        port = s.port or self._finder(s.vid, s.pid)
        if port is None:
            raise BoardNotFound(
                f"no Raspberry Pi Pico with USB id {s.vid:04x}:{s.pid:04x} found; plug the I/O "
                "board in, or set hardware.serial_port"
            )
        ser = self._opener(
            port=port, baudrate=s.baud, timeout=s.read_timeout_s, write_timeout=s.write_timeout_s
        )
        try:
            with contextlib.suppress(Exception):
                ser.reset_input_buffer()
            ident = self._handshake(ser, port)
            check_board(ident, port)
        except BaseException:
            with contextlib.suppress(Exception):
                ser.close()
            raise
        now = self._clock()
        with self._wlock:
            self._ser = ser
            self._port = port
            self._broken = None
            self._link.reset(now)
            self._last_rx = now
            self.ident = ident
            self.failure = None
            self.connects += 1
            self._connected.set()
        self.status = (
            f"I/O board connected on {port} (firmware {ident.firmware_version}, "
            f"board {ident.board_id_hex})"
        )
        self._notice_flags(ident)
        log.info("%s", self.status)
        if self.on_connect is not None:
            self.on_connect(ident)
        with self._wlock:
            token = self._arm_token
        if token is not None:
            self.send(L.MsgType.ARM, L.ARM.pack(token, ARM_WINDOW_MS))

    def _notice_flags(self, ident: L.BoardIdent) -> None:
        notes = []
        if ident.flags & L.FLAG_HOST_SILENCE:
            notes.append(
                "the board lost the host (no frame for 1 s): it switched the coil off "
                "and cleared the arming"
            )
        if ident.flags & L.FLAG_LINK_LOST:
            notes.append("the board gave up on unacknowledged frames and dropped the session")
        if ident.flags & L.FLAG_WATCHDOG_RESET:
            notes.append("the board was reset by its watchdog")
        if ident.flags & L.FLAG_EVENTS_LOST:
            notes.append("the board dropped button events (queue full)")
        for note in notes:
            log.warning("I/O board: %s", note)
            self.notices.append(note)

    def _handshake(self, ser: Any, port: str) -> L.BoardIdent:
        s = self.settings
        decoder = L.FrameDecoder()
        for _ in range(s.handshake_tries):
            nonce = self._rng.getrandbits(16)
            hello = L.HELLO.pack(
                L.PROTOCOL_VERSION, nonce, s.pulse_ms, s.cooldown_ms, s.bounce_ms, s.hold_ms
            )
            ser.write(b"\x00" + L.encode_frame(L.MsgType.HELLO, hello, ack=0xFF))
            deadline = self._clock() + s.handshake_timeout_s
            while self._clock() < deadline and not self._closing.is_set():
                data = ser.read(max(1, ser.in_waiting))
                for item in decoder.feed(data):
                    if isinstance(item, L.DecodeError) or item.type != L.MsgType.IDENT:
                        continue
                    payload = item.payload
                    if len(payload) >= 6 and payload[0] != L.PROTOCOL_VERSION:
                        version = ".".join(str(b) for b in payload[3:6])
                        raise BoardRefused(
                            f"the I/O board on {port} runs firmware {version} speaking protocol "
                            f"{payload[0]}; this companion speaks protocol "
                            f"{L.PROTOCOL_VERSION}. {FLASH_HINT}"
                        )
                    try:
                        ident = L.BoardIdent.parse(payload)
                    except ValueError as exc:
                        raise BoardRefused(
                            f"the I/O board on {port} sent an IDENT this "
                            f"companion cannot read ({exc}). {FLASH_HINT}"
                        ) from None
                    if ident.nonce == nonce:
                        return ident
        raise _HandshakeFailed(
            f"the device on {port} did not answer as a companion I/O board "
            f"({s.handshake_tries} HELLOs, no IDENT); is the firmware flashed? {FLASH_HINT}"
        )

    def _pump(self) -> None:
        ser = self._ser
        data = ser.read(max(1, ser.in_waiting))
        now = self._clock()
        if data:
            for item in self._decoder.feed(data):
                if isinstance(item, L.Frame):
                    self._last_rx = now
                    self._frame(item, now)
        if self._broken:
            raise _Reconnect(self._broken)
        s = self.settings
        with self._wlock:
            self._link.poll(now)
            token = self._arm_token
            refresh = token is not None and now - self._arm_sent >= ARM_REFRESH_S
            if refresh:
                self._arm_sent = now
            idle = now - self._link.last_send >= s.keepalive_s
        if refresh:
            self.send(L.MsgType.ARM, L.ARM.pack(token, ARM_WINDOW_MS))
        elif idle:
            self.send(L.MsgType.PING)
        if now - self._last_rx > s.silence_s:
            raise _Reconnect(f"no frame from the I/O board for {s.silence_s:g} s")

    def _frame(self, frame: L.Frame, now: float) -> None:
        ftype = frame.type
        if ftype == L.MsgType.IDENT or ftype == L.MsgType.HELLO:
            return  # a late answer to a repeated HELLO
        if ftype == L.MsgType.ERROR:
            code, bad_type, seq = (tuple(frame.payload) + (0, 0, 0))[:3]
            self.errors_from_board.append((L.ERRORS.get(code, f"code {code}"), bad_type, seq))
            if code == L.ERR_NO_SESSION:
                raise _Reconnect("the I/O board has no session (it was reset)")
            log.warning(
                "I/O board error: %s (type 0x%02x, seq %d)", L.ERRORS.get(code, code), bad_type, seq
            )
            return
        with self._wlock:
            message = self._link.receive(frame, now)
        if message is not None:
            self._message(message)

    def _message(self, frame: L.Frame) -> None:
        kind = frame.kind
        p = frame.payload
        try:
            if kind is L.MsgType.EVENT:
                button, code, board_ms = L.EVENT.unpack(p)
                if button < len(L.BOARD_BUTTONS) and code in L.EVENT_KINDS and self.on_event:
                    self.on_event(L.BOARD_BUTTONS[button], L.EVENT_KINDS[code], board_ms)
            elif kind is L.MsgType.FIRED:
                token, pulse_ms, board_ms = L.FIRED.unpack(p)
                self._fire_reply(token, ("fired", pulse_ms, board_ms))
            elif kind is L.MsgType.REFUSED:
                token, reason, retry_ms = L.REFUSED.unpack(p)
                self._fire_reply(token, ("refused", L.REFUSALS.get(reason, str(reason)), retry_ms))
            elif kind is L.MsgType.COIL_OFF:
                self.coil_reports.append(L.COIL_OFF.unpack(p))
            else:
                log.warning("I/O board sent an unexpected message type 0x%02x", frame.type)
        except Exception as exc:  # struct.error and friends: a malformed message
            log.warning("I/O board sent a malformed 0x%02x message: %s", frame.type, exc)

    def _fire_reply(self, token: int, reply: tuple[Any, ...]) -> None:
        with self._wlock:
            for wait in self._fire_waits:
                if wait.token == token and wait.reply is None:
                    wait.reply = reply
                    wait.event.set()

    def _write(self, data: bytes) -> None:
        ser = self._ser
        if ser is None:
            raise serial.SerialException("port closed")
        ser.write(data)

    def _drop(self, reason: str, *, notify: bool = True) -> None:
        with self._wlock:
            ser, self._ser = self._ser, None
            was_connected = self._connected.is_set()
            # the status first: whoever sees connected go False reads why
            if self._closing.is_set():
                self.status = "I/O board link closed"
            elif was_connected:
                self.status = f"I/O board disconnected ({reason}); reconnecting"
                self.disconnects += 1
            self._connected.clear()
            self._broken = None
            for wait in self._fire_waits:
                if wait.reply is None:
                    wait.reply = ("lost", f"the I/O board link dropped: {reason}")
                    wait.event.set()
        if ser is not None:
            with contextlib.suppress(Exception):
                ser.close()
        self._decoder.reset()
        if was_connected and not self._closing.is_set():
            log.warning("%s", self.status)
            if notify and self.on_disconnect is not None:
                self.on_disconnect(reason)


class BoardSolenoid:
    """The coil output the guard switches: on = ARM + FIRE on the board."""

    def __init__(self, link: BoardLink, pulse_ms: int) -> None:
        self._link = link
        self._pulse_ms = pulse_ms
        self._on = False
        self.last_reply: tuple[Any, ...] | None = None

    @property
    def value(self) -> bool:
        """True from the board's FIRED until :meth:`off`."""
        return self._on

    fault = None

    def on(self) -> None:
        reply = self._link.fire(self._pulse_ms)
        self.last_reply = reply
        if reply[0] != "fired":
            raise SolenoidDriverError(
                f"the I/O board refused to fire: {reply[1]} (retry after {reply[2]} ms)"
            )
        self._on = True

    def off(self) -> None:
        self._on = False
        self._link.send(L.MsgType.DISARM)


class BoardSolenoidGuard(SolenoidGuard):
    """The :class:`SolenoidGuard` with the board kept in step: arming arms the
    board too, and nothing fires while the board is away."""

    def __init__(self, output: BoardSolenoid, *, link: BoardLink, **kwargs: Any) -> None:
        self._link = link
        super().__init__(output, **kwargs)

    def arm(self, token: Any) -> None:
        super().arm(token)
        self._link.arm()

    def disarm(self) -> None:
        super().disarm()
        self._link.disarm()

    def fire(self, press: InputEvent) -> FireResult:
        if not self._link.connected:
            refusal = self.check(press)
            if refusal is not None:
                return refusal
            return FireResult(
                False,
                Refusal.DRIVER_FAULT,
                f"{LINK_FAULT_MARK} the I/O board is not connected ({self._link.status}); "
                "nothing fires until it is back",
                self.armed_token,
            )
        self.clear_link_fault()  # latched only because the link dropped: it is back now
        return super().fire(press)

    def clear_link_fault(self) -> bool:
        """Forget a fault latched only because the link dropped mid-fire."""
        if self.fault is not None and LINK_FAULT_MARK in self.fault:
            self.clear_fault()
            return True
        return False


class SerialStatusLeds(StatusLedsBase):
    """Status LEDs on the board's strip: turn colours on 0-5, die faces on 6-9."""

    def __init__(self, colours: Sequence[str], faces: Sequence[str], link: BoardLink) -> None:
        super().__init__(colours, faces)
        if len(self.colours) > TURN_SLOTS:
            raise ValueError(f"the I/O board has {TURN_SLOTS} turn LEDs")
        self._link = link
        self._on = dict.fromkeys(self.names, False)
        self._sent: bytes | None = None

    def _set(self, name: str, on: bool) -> None:
        self._on[name] = on

    def _get(self, name: str) -> bool:
        return self._on[name]

    def _show_one(self, name: str | None, group: tuple[str, ...], what: str) -> None:
        super()._show_one(name, group, what)
        self.flush()

    def off(self) -> None:
        super().off()
        self.flush()

    def image(self) -> bytes:
        """The STATUS payload for the current state."""
        rgb = [(0, 0, 0)] * HOST_STATUS_LEDS
        for i, colour in enumerate(self.colours):
            if self._on[colour]:
                rgb[i] = TURN_COLOURS.get(colour, (40, 40, 40))
        for i, face in enumerate(self.faces):
            if self._on[face]:
                rgb[TURN_SLOTS + i] = DIE_COLOURS.get(face, (40, 40, 40))
        return bytes(v for pixel in rgb for v in pixel) + b"\x00\x00"

    def flush(self, *, force: bool = False) -> None:
        """Send the image to the board (unless it already shows it)."""
        image = self.image()
        if force or image != self._sent:
            self._sent = image if self._link.send(L.MsgType.STATUS, image) else None

    def roll_die(self, face: str | None, steps: int = 6, step_s: float = 0.05) -> None:
        """Let the board animate a rolling die over the die LEDs, then show *face*."""
        if face is not None and face not in self.faces:
            raise ValueError(f"{face!r} is not a die face with an LED")
        self._link.send(
            L.MsgType.ROLL,
            L.ROLL.pack(TURN_SLOTS, len(self.faces), 0xFF, steps, int(step_s * 1000), 48, 48, 48),
        )
        self.show_die(face)


class SerialArenaDisplay(MemoryArenaDisplay):
    """The arena shown on the board's 5x5 matrix: every frame goes as a whole image."""

    def __init__(self, link: BoardLink, **kwargs: Any) -> None:
        self._link = link
        self._sent: bytes | None = None
        super().__init__(**kwargs)

    @staticmethod
    def image(frame: Frame) -> bytes:
        """The MATRIX payload of *frame*: RGB per cell, row by row, then the blink mask."""
        pixels = bytearray()
        blink = 0
        for r, row in enumerate(frame):
            for c, state in enumerate(row):
                pixels += bytes(CELL_COLOURS[state])
                if state is CellState.BLINK:
                    blink |= 1 << (r * len(row) + c)
        return bytes(pixels) + blink.to_bytes(4, "big")

    def _put_locked(self, frame: Frame) -> None:
        super()._put_locked(frame)
        self._send(frame, force=False)

    def _send(self, frame: Frame, *, force: bool) -> None:
        image = self.image(frame)
        if force or image != self._sent:  # the table repaints the same frame often
            self._sent = image if self._link.send(L.MsgType.MATRIX, image) else None

    def resend(self) -> None:
        """Send the current frame again (after a reconnect the board starts dark)."""
        with self._lock:
            self._send(self.frame, force=True)


class _BoardButtons:
    """Debounced button states as the board reports them."""

    def __init__(self) -> None:
        self.down = dict.fromkeys(BUTTON_NAMES, False)


class SerialTrigger:
    def __init__(self, state: _BoardButtons) -> None:
        self._state = state

    @property
    def is_pressed(self) -> bool:
        return self._state.down["trigger"]


class SerialButtons:
    def __init__(self, state: _BoardButtons) -> None:
        self._state = state

    @property
    def names(self) -> tuple[str, ...]:
        return ("roll", "select", "confirm")

    def is_pressed(self, name: str) -> bool:
        if name not in self.names:
            raise KeyError(name)
        return self._state.down[name]


class SerialHardware(Hardware):
    """:class:`~companion.hal.Hardware` on the I/O board, with the link's state.

    .. attribute:: link
        The :class:`BoardLink`.
    .. attribute:: virtual_board
        The :class:`companion.hal.virtual_board.VirtualBoard` behind the port,
        on the ``virtual-board`` profile; else None.
    """

    def __init__(self, *, link: BoardLink, buttons_state: _BoardButtons, **kwargs: Any) -> None:
        self.link = link
        self._buttons_state = buttons_state
        self.virtual_board: Any = None
        #: (host monotonic s, board ms, button, kind) of every event from the board.
        self.board_events: list[tuple[float, int, str, str]] = []
        super().__init__(**kwargs)

    @property
    def connected(self) -> bool:
        """True while a session with the board is up; the table pauses when False."""
        return self.link.connected and not self.closed

    def wait_connected(self, timeout: float | None) -> bool:
        """Wait (at most *timeout* s; None means 10 s) until the board is back."""
        return self.link.wait_connected(timeout)

    @property
    def link_status(self) -> str:
        """One line for the screen: connected where, or why not."""
        return self.link.status

    @property
    def board(self) -> L.BoardIdent | None:
        """What the board said in its last IDENT."""
        return self.link.ident

    def _board_event(self, button: str, kind: str, board_ms: int) -> None:
        if kind == "press":
            self._buttons_state.down[button] = True
        elif kind == "release":
            self._buttons_state.down[button] = False
        self.board_events.append((time.monotonic(), board_ms, button, kind))
        self.inputs.emit(kind, button)  # type: ignore[arg-type]

    def _reconnected(self, ident: L.BoardIdent) -> None:
        for i, name in enumerate(L.BOARD_BUTTONS):
            self._buttons_state.down[name] = bool(ident.buttons_down & (1 << i))
        guard = self.eliminator
        if isinstance(guard, BoardSolenoidGuard):
            guard.clear_link_fault()
        if isinstance(self.status_leds, SerialStatusLeds):
            self.status_leds.flush(force=True)
        if isinstance(self.display, SerialArenaDisplay):
            self.display.resend()


def open_serial(
    config: HardwareConfig | None = None,
    *,
    port: str | None = None,
    connect_timeout_s: float = 5.0,
    unsafe_cooldown_override_s: float | None = None,
    settings: LinkSettings | None = None,
    closers: Iterable[Callable[[], Any]] = (),
    opener: Callable[..., Any] | None = None,
    finder: Callable[[int, int], str | None] | None = None,
) -> SerialHardware:
    """
    Open the table on the RP2040 I/O board and return its :class:`SerialHardware`.

    :param port: the serial port; default ``config.serial_port``, else found by
        the USB ids ``config.usb_vid``:``config.usb_pid``.
    :param connect_timeout_s: how long to wait for the first session. Raises
        :exc:`BoardRefused` for a board this host does not understand and
        :exc:`BoardNotFound` when none answers in time.
    :param unsafe_cooldown_override_s: benchmarks only (see ``open_hardware``).
    """
    config = HardwareConfig() if config is None else config
    cooldown = (
        config.cooldown_s if unsafe_cooldown_override_s is None else (unsafe_cooldown_override_s)
    )
    base = settings or LinkSettings()
    settings = replace(
        base,
        port=port or config.serial_port,
        vid=config.usb_vid,
        pid=config.usb_pid,
        baud=config.baud,
        pulse_ms=config.pulse_ms,
        cooldown_ms=int(round(cooldown * 1000)),
        bounce_ms=config.bounce_ms,
        hold_ms=int(round(config.hold_s * 1000)),
    )
    clock = time.monotonic
    inputs = InputHub(clock)
    link = BoardLink(settings, clock=clock, opener=opener, finder=finder)
    link.start()
    deadline = time.monotonic() + connect_timeout_s
    while not link.wait_connected(min(0.05, max(0.0, deadline - time.monotonic()))):
        if isinstance(link.failure, BoardRefused) or time.monotonic() >= deadline:
            break  # a refused board does not change its mind: say so at once
    if not link.connected:
        failure, status = link.failure, link.status
        link.close()
        if isinstance(failure, BoardRefused):
            raise failure
        raise BoardNotFound(f"{status} (waited {connect_timeout_s:g} s)")
    ident = link.ident
    assert ident is not None
    # never ask faster than the board allows: its refusal would latch a fault
    cooldown = max(cooldown, ident.cooldown_ms / 1000)
    state = _BoardButtons()
    coil = BoardSolenoid(link, config.pulse_ms)
    guard = BoardSolenoidGuard(
        coil,
        link=link,
        inputs=inputs,
        pulse_ms=config.pulse_ms,
        cooldown_s=cooldown,
        clock=clock,
        sleep=time.sleep,
    )
    try:
        hw = SerialHardware(
            link=link,
            buttons_state=state,
            profile=config.profile,
            config=config,
            inputs=inputs,
            trigger=SerialTrigger(state),
            buttons=SerialButtons(state),
            eliminator=guard,
            status_leds=SerialStatusLeds(tuple(config.pins.turn), DIE_FACES, link),
            display=SerialArenaDisplay(link, clock=clock, record=True),
            closers=[link.close, *closers],
        )
    except BaseException:
        link.close()
        raise
    link.on_event = hw._board_event
    link.on_connect = hw._reconnected
    hw._reconnected(ident)
    return hw


def open_virtual_board_hardware(
    config: HardwareConfig | None = None,
    *,
    unsafe_cooldown_override_s: float | None = None,
    connect_timeout_s: float = 5.0,
    settings: LinkSettings | None = None,
    **board_options: Any,
) -> SerialHardware:
    """
    Start a virtual I/O board (the firmware's own logic behind a pseudo-terminal)
    and open the real serial backend on its port.

    ``hw.sim`` is a :class:`~companion.hal.virtual_board.VirtualBoardControls`
    (press buttons, read pulses and frames, as on the ``sim`` profile);
    ``hw.virtual_board`` is the board itself (fault injection, unplug, reset).
    Closing the hardware stops the board. *board_options* go to the
    ``VirtualBoard`` constructor.
    """
    config = HardwareConfig() if config is None else config
    from companion.hal import virtual_board as vb

    if unsafe_cooldown_override_s is not None:
        board_options.setdefault("min_cooldown_ms", int(unsafe_cooldown_override_s * 1000))
    board, port = vb.open_virtual_board(**board_options)
    try:
        hw = open_serial(
            config,
            port=port,
            connect_timeout_s=connect_timeout_s,
            unsafe_cooldown_override_s=unsafe_cooldown_override_s,
            settings=settings,
            closers=[board.close],
        )
    except BaseException:
        board.close()
        raise
    hw.virtual_board = board
    hw.sim = vb.VirtualBoardControls(board, hw)
    return hw
