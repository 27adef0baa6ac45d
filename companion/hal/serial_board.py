"""The ``serial`` backend: the RP2040 I/O board over USB serial (pyserial).

The board (``firmware/``, MicroPython on a Raspberry Pi Pico) drives the
solenoid, the 5x5 LED arena matrix, the status LEDs and the buttons; this
module talks to it with the framed, checksummed, sequenced protocol of
``firmware/PROTOCOL.md`` (codec: :mod:`companion.hal.link`) and offers the
same roles as every backend:

* ``hw.eliminator`` is a :class:`~companion.hal.safety.SolenoidGuard` (a
  :class:`BoardSolenoidGuard`): the host-side rules stay in force. Its output
  (:class:`BoardSolenoid`), when switched on, sends the board ARM + FIRE with
  a fresh random token and a deadline on the board's clock; the board pulses
  the coil itself, with its own cap and cool-down, switches it off itself,
  and never fires a FIRE that arrives after its deadline. ``off()`` sends
  DISARM.
* a FIRE with no answer by its deadline is *outcome unknown*
  (:data:`~companion.hal.Refusal.OUTCOME_UNKNOWN`), never a driver fault: the
  host withdraws the stale ARM/FIRE frames, asks the board for its STATE
  (coil, last fired token, pulse count) as soon as the link allows, and
  :meth:`BoardSolenoidGuard.resolve_outcome` says what happened. A token whose
  FIRE may have fired is never armed again.
* buttons arrive as the board's debounced press / release / long-press
  events, emitted on the hardware's single input queue; a trigger press goes
  through :meth:`BoardSolenoidGuard.trigger_edge` on the link thread that read
  it, so while an explosion is armed ARM + FIRE leave from that thread at once
  (the edge path, as the gpio backend's button thread fires) and the table
  loop's ``fire`` collects the result;
* status LEDs and the arena display send whole images (STATUS, MATRIX); the
  board animates blinking cells and the rolling die itself.

A link thread finds the Pico by its USB ids (or uses the configured port),
handshakes (protocol version, firmware version, capabilities; a board it does
not understand is refused with a message saying what to flash), keeps the
link alive, retransmits, and reconnects with back-off after an unplug. While
the board is away :attr:`SerialHardware.connected` is False, the guard
refuses to fire, and the table should pause (``hw.wait_connected``). Every
wait is bounded; the thread is a daemon and stops on close. It is the red
button's thread on this backend, so it asks for real-time scheduling
(``SCHED_FIFO``, :data:`~companion.hal.realtime.BUTTON_THREAD_PRIORITY`, as the
gpio backend's button thread; :attr:`BoardLink.scheduling` says what it got),
and while the backend is open the interpreter's switch interval is at most
:data:`~companion.hal.realtime.SWITCH_INTERVAL_S`.
"""

from __future__ import annotations

import contextlib
import enum
import logging
import random
import struct
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

import serial

from companion.hal import link as L
from companion.hal.config import HardwareConfig
from companion.hal.contracts import DIE_FACES, CellState, FireResult, Frame, Pulse, Refusal
from companion.hal.display import MemoryArenaDisplay, Recent
from companion.hal.events import BUTTON_NAMES, InputEvent, InputHub
from companion.hal.hardware import Hardware
from companion.hal.leds import StatusLedsBase
from companion.hal.realtime import (
    BUTTON_THREAD_PRIORITY,
    SWITCH_INTERVAL_S,
    make_this_thread_realtime,
)
from companion.hal.safety import SolenoidDriverError, SolenoidGuard, SpentToken
from companion.records import Record

__all__ = [
    "CELL_COLOURS",
    "FireOutcome",
    "FireOutcomeUnknown",
    "PICO_USB_PID",
    "PICO_USB_VID",
    "BoardLink",
    "BoardNotFound",
    "BoardRefused",
    "BoardSolenoid",
    "BoardSolenoidGuard",
    "LinkSettings",
    "SerialHardware",
    "SpentToken",
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
    "flash this companion's firmware onto the Pico: `companion firmware flash` (needs "
    "mpremote: pip install 'arena-table-companion[board]')"
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
#: The board refuses a FIRE whose deadline lies further ahead (fw_logic.FIRE_DEADLINE_MAX_MS).
FIRE_TTL_MAX_MS = 1000


class BoardNotFound(RuntimeError):
    """No I/O board answered (none plugged in, wrong port, or no firmware)."""


class BoardRefused(RuntimeError):
    """A board answered, but this host does not understand it; the message says
    what to flash."""


class FireOutcomeUnknown(SolenoidDriverError):
    """The board did not answer a FIRE before its deadline (or the link dropped):
    it may have fired. Not a driver fault: the board's STATE will tell."""


class FireOutcome(enum.StrEnum):
    """What the board's account says about a FIRE whose answer was lost."""

    FIRED = "fired"  #: the board fired it (its STATE names the token)
    NOT_FIRED = "not_fired"  #: the board did not fire it, and now never will (deadline passed)
    #: the board restarted before it said: it may have fired (the coil is off now)
    UNKNOWABLE = "unknowable"


def find_pico_port(
    vid: int = PICO_USB_VID,
    pid: int = PICO_USB_PID,
    serial_number: str | None = None,
    *,
    comports: Callable[[], Iterable[Any]] | None = None,
) -> str | None:
    """The device path of the serial port with USB ids *vid*:*pid* (and USB serial
    number *serial_number*, if given), or None if there is none.

    Every Pico running MicroPython has the ids 2e8a:0005, so with two of them
    plugged in the ids do not say which one drives the table: then, unless
    *serial_number* picks one, this raises :exc:`BoardNotFound` naming them all.
    """
    from serial.tools import list_ports  # only here: to find the board by its USB ids

    ports = sorted(
        (p for p in (comports or list_ports.comports)() if p.vid == vid and p.pid == pid),
        key=lambda p: p.device,
    )
    if serial_number is not None:
        wanted = serial_number.strip().lower()
        found = [p for p in ports if (getattr(p, "serial_number", None) or "").lower() == wanted]
        return found[0].device if found else None
    if len(ports) > 1:
        listed = ", ".join(
            f"{p.device} (serial number {getattr(p, 'serial_number', None) or 'unknown'})"
            for p in ports
        )
        raise BoardNotFound(
            f"{len(ports)} boards with USB id {vid:04x}:{pid:04x}: {listed}. Every MicroPython "
            "Pico has this id, so it does not say which one drives the table: set "
            "hardware.usb_serial to the serial number of the I/O board (or hardware.serial_port)"
        )
    return ports[0].device if ports else None


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


class LinkSettings(Record):
    """How to find, open and configure the board, and the link's timing."""

    port: str | None = None
    vid: int = PICO_USB_VID
    pid: int = PICO_USB_PID
    usb_serial: str | None = None
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
    #: how long a FIRE stays valid on the board (its deadline; the board allows <= 1000)
    fire_ttl_ms: int = 500
    #: after the deadline, how long to wait for an answer still on its way
    fire_reply_margin_s: float = 0.05
    close_flush_s: float = 0.3
    #: the link thread's ``SCHED_FIFO`` priority where allowed (None: the normal policy):
    #: it reads the red button's EVENT and fires an armed press itself
    realtime_priority: int | None = BUTTON_THREAD_PRIORITY


class _HandshakeFailed(Exception):
    pass


class _Reconnect(Exception):
    pass


class _FireWait(Record, frozen=False):
    token: int
    event: threading.Event
    reply: tuple[Any, ...] | None = None


class PendingFire(Record, frozen=False):
    """A FIRE the board has not answered: it may have fired (see :class:`FireOutcome`)."""

    token: int  #: the board token of the ARM + FIRE
    sent: float  #: host time the FIRE was sent
    expired: float  #: host time from which the board refuses it (its deadline has passed)
    why: str  #: why its answer is missing
    outcome: FireOutcome | None = None
    detail: str = ""


class BoardLink:
    """
    The connection to one I/O board: a daemon thread that finds the port,
    handshakes, pumps frames, keeps the link alive and reconnects with back-off.

    It also keeps the host's account of the board's coil (PROTOCOL.md, "The
    host's account of the coil"): the board's clock (for FIRE deadlines), its
    pulse count since boot, whether the coil is confirmed off, and the FIRE
    whose outcome is unknown, if any.

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
        finder: Callable[..., str | None] | None = None,
    ) -> None:
        if not 1 <= settings.fire_ttl_ms <= FIRE_TTL_MAX_MS:
            raise ValueError(f"fire_ttl_ms must be 1..{FIRE_TTL_MAX_MS} (the board's limit)")
        self.settings = settings
        self.on_event = on_event
        self.on_connect = on_connect
        self.on_disconnect = on_disconnect
        self._clock = clock
        self._opener = opener or serial.Serial
        self._finder = finder or find_pico_port
        self._wlock = threading.RLock()
        self._changed = threading.Condition(self._wlock)
        self._ser: Any = None
        self._port: str | None = None
        self._link = L.ReliableLink(
            self._write,
            window=settings.window,
            rto_s=settings.rto_s,
            max_retries=settings.max_retries,
            ack_later=True,  # acknowledged once per read, or by the answer sent meanwhile
        )
        self._decoder = L.FrameDecoder()
        # frames read but not handled yet: handled in order, also by a fire() on this thread
        self._received: deque[L.Frame | L.DecodeError] = deque()
        self._connected = threading.Event()
        self._closing = threading.Event()
        self._thread: threading.Thread | None = None
        self._broken: str | None = None
        self._last_rx = 0.0
        self._arm_token: int | None = None
        self._arm_sent = 0.0
        self._fire_waits: list[_FireWait] = []
        self._rng = random.SystemRandom()
        self._board_clock = L.BoardClock()
        self._queries: dict[int, float] = {}  # query id -> host time sent
        self._query_id = 0
        self._pending: PendingFire | None = None
        self._unanswered: PendingFire | None = None  # the last one, settled or not
        self._outcomes: dict[int, tuple[FireOutcome, str]] = {}
        self._coil_unconfirmed: tuple[int, float] | None = None  # token, FIRE sent
        self._batch: list[bytes] | None = None  # frames written together (under _wlock)
        self.ident: L.BoardIdent | None = None
        self.failure: Exception | None = None
        self.status = "not connected yet"
        #: The link thread's scheduling once it runs (``"SCHED_FIFO 10"``, or
        #: ``"SCHED_OTHER (...)"`` with why real-time priority was not granted).
        self.scheduling: str | None = None
        self.connects = 0
        self.disconnects = 0
        #: IDENTs that said button events were lost (queue full, or left unacknowledged when
        #: a session ended): presses the table may never have seen.
        self.events_lost = 0
        # Recordings keep their last RECORD_LIMIT entries (hal.display.Recent): a table's
        # link runs for a season of games, and a flaky cable must not grow the service.
        self.errors_from_board: list[tuple[str, int, int]] = Recent()
        self.coil_reports: list[tuple[int, int, int, int]] = Recent()  # token, on_ms, ms, reason
        self.notices: list[str] = Recent()
        #: The host's account of the board's pulses since it booted (None before its STATE).
        self.board_pulses: int | None = None
        #: The (recent) STATEs whose pulse count or token disagreed with the host's account.
        self.mismatches: list[str] = Recent()
        #: The board's last STATE.
        self.board_state: L.BoardState | None = None
        # query id -> the STATE that answered it (answers to queries nobody waits for are
        # trimmed); kept by id because two answers may arrive before a waiter wakes up
        self._answers: dict[int, L.BoardState] = {}

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
            "events_lost": self.events_lost,
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

    def _new_token(self) -> int:
        while True:
            token = self._rng.getrandbits(32)
            if token:  # 0 means "none" in STATE
                return token

    def board_mark(self) -> tuple[int, int] | None:
        """``(session, board ms)``: a tick of this session's board clock that the board has
        certainly reached now (the lower bound of PROTOCOL.md section 6a); None without a
        session. :meth:`stamped_before` compares a board stamp with it."""
        with self._wlock:
            if not self._connected.is_set() or not self._board_clock.synced:
                return None
            return self.connects, self._board_clock.board_ms(self._clock())

    def stamped_before(self, mark: tuple[int, int] | None, board_ms: int) -> bool:
        """Whether the board stamp *board_ms*, of a message of the current session, lies
        before *mark* (:meth:`board_mark`): then it was certainly stamped before the mark
        was taken. False without a mark or for a mark of an earlier session (every stamp of
        a later session comes after it: a session's events are never sent in another)."""
        if mark is None:
            return False
        with self._wlock:
            if mark[0] != self.connects:
                return False
        half = L.BOARD_TICKS_PERIOD // 2
        return (board_ms - mark[1] + half) % L.BOARD_TICKS_PERIOD - half < 0

    def arm(self) -> None:
        """The guard armed: arm the board with a fresh token, and keep it armed."""
        with self._wlock:
            self._arm_token = self._new_token()
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

    @property
    def pending_fire(self) -> PendingFire | None:
        """The FIRE whose outcome is not known yet, if any."""
        return self._pending

    def fire(self, pulse_ms: int) -> tuple[Any, ...]:
        """ARM + FIRE with the current token and a deadline; wait for FIRED or REFUSED.

        Returns ``("fired", pulse_ms, board_ms)``, ``("refused", reason, retry_ms,
        code)``, ``("not sent", why)`` (nothing reached the board: it did not fire) or
        ``("unknown", why)``: no answer by the FIRE's deadline, or the link dropped
        after it was sent. Then the FIRE is :attr:`pending_fire`: its stale frames are
        withdrawn, the board is asked for its STATE, and :meth:`resolve` tells the
        outcome. While a FIRE is pending no other FIRE is sent.

        Only an arming (:meth:`arm`) can fire: without one nothing is sent (``"not
        sent"``); the board also wants a red-button press it sampled itself after that
        ARM (REFUSED 10 otherwise).
        """
        s = self.settings
        with self._wlock:
            if self._pending is not None:
                return ("unknown", "the outcome of the last FIRE is not known yet")
            token = self._arm_token
            if token is None:
                return ("not sent", "nothing is armed on the I/O board: no FIRE without an ARM")
            self._arm_token = None  # one arming, one fire
            if not self.connected or self._broken or not self._board_clock.synced:
                return ("not sent", f"the I/O board is not connected ({self.status})")
            sent = self._clock()
            deadline = self._board_clock.deadline(sent, s.fire_ttl_ms)
            expired = self._board_clock.expired_after(sent, s.fire_ttl_ms)
            wait = _FireWait(token, threading.Event())
            self._fire_waits.append(wait)
            # ARM and FIRE leave in one write: one system call and one wait for the
            # interpreter lock on the way to the coil, not two of each
            self._batch = []
            try:
                armed = self.send(L.MsgType.ARM, L.ARM.pack(token, ARM_WINDOW_MS))
                fired = armed and self.send(L.MsgType.FIRE, L.FIRE.pack(token, pulse_ms, deadline))
                if fired:  # the EVENT's ACK, if ARM + FIRE wait for room (it rides on them)
                    self._link.flush_ack()
            finally:
                batch, self._batch = self._batch, None
            if batch and not self._write_now(b"".join(batch)):
                fired = False
            if not fired:
                self._fire_waits.remove(wait)
                return ("not sent", f"the I/O board is not connected ({self.status})")
        timeout = max(0.0, expired - self._clock()) + s.fire_reply_margin_s
        if threading.current_thread() is self._thread:
            self._read_until(wait.event, timeout)  # the edge path: nobody else reads
        else:
            wait.event.wait(timeout)
        with self._wlock:
            self._fire_waits.remove(wait)
            if wait.reply is not None and wait.reply[0] != "lost":
                return wait.reply
            why = (
                wait.reply[1]
                if wait.reply is not None
                else f"no answer from the I/O board to FIRE by its deadline ({s.fire_ttl_ms} ms)"
            )
            self._pending = self._unanswered = PendingFire(token, sent, expired, why)
            self._coil_unconfirmed = (token, sent)
            stale = token.to_bytes(4, "big")
            withdrawn = self._link.cancel(
                lambda ftype, payload: (
                    ftype in (L.MsgType.ARM, L.MsgType.FIRE) and payload[:4] == stale
                )
            )
            log.warning("FIRE outcome unknown (%s); %d stale frame(s) withdrawn", why, withdrawn)
        self._query()
        return ("unknown", why)

    def resolve(self, timeout: float) -> tuple[FireOutcome, str] | None:
        """Wait (at most *timeout* s) for the board's account of the last FIRE that went
        unanswered; ``(outcome, detail)`` once known (also if it already was), or None."""
        with self._changed:
            pending = self._unanswered
            if pending is None:
                return None
            self._changed.wait_for(lambda: pending.outcome is not None, timeout)
            if pending.outcome is None:
                return None
            return pending.outcome, pending.detail

    def confirm_coil_off(self, timeout: float) -> bool:
        """Wait (at most *timeout* s) until the board has confirmed the coil is off: its
        COIL_OFF for the last pulse, a STATE asked for after that FIRE, or a new session
        (HELLO switches the coil off)."""
        with self._changed:
            return self._changed.wait_for(lambda: self._coil_unconfirmed is None, timeout)

    @property
    def coil_confirmed_off(self) -> bool:
        return self._coil_unconfirmed is None

    def query(self, timeout: float = 1.0) -> L.BoardState | None:
        """Ask the board for its STATE and wait (at most *timeout* s) for the answer,
        which comes after everything sent before it has been executed; None if none came."""
        query_id = self._query()
        if query_id is None:
            return None
        with self._changed:
            self._changed.wait_for(lambda: query_id in self._answers, timeout)
            return self._answers.pop(query_id, None)

    @property
    def outcomes(self) -> dict[int, tuple[FireOutcome, str]]:
        """How every FIRE that went unanswered turned out, by board token."""
        with self._wlock:
            return dict(self._outcomes)

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

    # -- the host's account of the coil -----------------------------------------------------

    def _query(self) -> int | None:
        with self._wlock:
            self._query_id = (self._query_id + 1) & 0xFFFF
            query_id = self._query_id
            self._queries[query_id] = self._clock()
            self._answers.pop(query_id, None)  # an id used 65,536 queries ago
            while len(self._queries) > 64:  # answers lost with a session
                del self._queries[next(iter(self._queries))]
            return query_id if self.send(L.MsgType.QUERY, L.QUERY.pack(query_id)) else None

    def _settle(self, outcome: FireOutcome, detail: str) -> None:
        """The pending FIRE's outcome is known (call with the lock held)."""
        pending = self._pending
        assert pending is not None
        pending.outcome, pending.detail = outcome, detail
        self._outcomes[pending.token] = (outcome, detail)
        self._pending = None
        log.warning("outcome of the unanswered FIRE: %s (%s)", outcome, detail)
        self._changed.notify_all()

    def _fired(self, token: int, pulse_ms: int, board_ms: int, now: float) -> None:
        with self._changed:
            self._board_clock.sample(board_ms, now)
            if self.board_pulses is not None:
                self.board_pulses += 1
            sent = self._pending.sent if self._pending is not None else now
            self._coil_unconfirmed = (token, sent)
            if self._pending is not None and self._pending.token == token:
                self._settle(FireOutcome.FIRED, f"the board's FIRED arrived late ({pulse_ms} ms)")
            self._changed.notify_all()
        self._fire_reply(token, ("fired", pulse_ms, board_ms))

    def _refused(self, token: int, code: int, retry_ms: int) -> None:
        reason = L.REFUSALS.get(code, str(code))
        with self._changed:
            if self._pending is not None and self._pending.token == token:
                self._settle(FireOutcome.NOT_FIRED, f"the board's REFUSED arrived late: {reason}")
        self._fire_reply(token, ("refused", reason, retry_ms, code))

    def _coil_off(self, report: tuple[int, int, int, int], now: float) -> None:
        token, _, board_ms, _ = report
        with self._changed:
            self._board_clock.sample(board_ms, now)
            self.coil_reports.append(report)
            if self._coil_unconfirmed is not None and self._coil_unconfirmed[0] == token:
                self._coil_unconfirmed = None
                self._changed.notify_all()

    def _state(self, state: L.BoardState, now: float) -> None:
        with self._changed:
            asked = self._queries.pop(state.query_id, None)
            if asked is None:
                log.warning("I/O board: STATE for a query not asked (%d)", state.query_id)
                return
            self._board_clock.sample(state.board_ms, now)
            self.board_state = state
            self._answers[state.query_id] = state
            while len(self._answers) > 64:  # answers to queries nobody waited for
                del self._answers[next(iter(self._answers))]
            expected = self.board_pulses
            pending = self._pending
            if pending is not None and asked >= pending.sent:
                # asked after the FIRE: the board executed (or refused) it before answering
                fired = state.last_token == pending.token
                if expected is not None and fired:
                    expected += 1
                self._settle(
                    FireOutcome.FIRED if fired else FireOutcome.NOT_FIRED,
                    f"the board's STATE: {state.pulses} pulse(s) since boot, last token "
                    f"{state.last_token:08x}, coil {'on' if state.coil_on else 'off'}",
                )
            if expected is not None and state.pulses != expected:
                note = (
                    f"the board counts {state.pulses} pulse(s) since boot, the host knew of "
                    f"{expected}"
                )
                log.error("I/O board: %s", note)
                self.mismatches.append(note)
            self.board_pulses = state.pulses
            unconfirmed = self._coil_unconfirmed
            if unconfirmed is not None and asked >= unconfirmed[1] and not state.coil_on:
                self._coil_unconfirmed = None
            self._changed.notify_all()

    def _new_session(self, ident: L.BoardIdent, received: float) -> None:
        """A handshake succeeded: HELLO switched the coil off; a restarted board forgot."""
        with self._changed:
            self._board_clock = L.BoardClock()
            self._board_clock.sample(ident.board_ms, received)
            self._queries.clear()
            self._coil_unconfirmed = None
            restarted = self.connects > 0 and bool(ident.flags & L.FLAG_FIRST_SESSION)
            if restarted:
                self.board_pulses = 0
                if self._pending is not None:
                    self._settle(
                        FireOutcome.UNKNOWABLE,
                        "the I/O board restarted before it said whether it fired",
                    )
            self._changed.notify_all()

    # -- the thread ---------------------------------------------------------------------

    def _run(self) -> None:
        priority = self.settings.realtime_priority
        if priority is None:
            self.scheduling = "SCHED_OTHER (real-time priority not asked for)"
        else:
            self.scheduling = make_this_thread_realtime(priority)
        if self.scheduling.startswith("SCHED_OTHER") and priority is not None:
            log.info(
                "I/O board link thread: %s; the red button is slower under load "
                "(allow real-time priority: LimitRTPRIO=%d, docs/pi-service.md)",
                self.scheduling,
                priority,
            )
        else:
            log.info("I/O board link thread: %s", self.scheduling)
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

    def _open(self, port: str) -> Any:
        s = self.settings
        try:
            return self._opener(
                port=port,
                baudrate=s.baud,
                timeout=s.read_timeout_s,
                write_timeout=s.write_timeout_s,
                exclusive=True,  # a second program on the board's port would garble the link
            )
        except serial.SerialException as exc:
            if "lock" in str(exc).lower():
                raise serial.SerialException(
                    f"{port} is in use by another program (another companion, mpremote, a "
                    "serial terminal?); close it first"
                ) from exc
            raise

    def _connect(self) -> None:
        s = self.settings
        port = s.port or self._finder(s.vid, s.pid, s.usb_serial)
        if port is None:
            which = f" with USB serial number {s.usb_serial}" if s.usb_serial else ""
            raise BoardNotFound(
                f"no Raspberry Pi Pico with USB id {s.vid:04x}:{s.pid:04x}{which} found; plug "
                "the I/O board in, or set hardware.serial_port"
            )
        ser = self._open(port)
        try:
            with contextlib.suppress(Exception):
                ser.reset_input_buffer()
            ident, received = self._handshake(ser, port)
            check_board(ident, port)
            if s.usb_serial and ident.board_id_hex.lower() != s.usb_serial.strip().lower():
                raise BoardRefused(
                    f"the I/O board on {port} is board {ident.board_id_hex}, not the configured "
                    f"hardware.usb_serial = {s.usb_serial}; plug in that board or correct the "
                    "configuration"
                )
        except BaseException:
            with contextlib.suppress(Exception):
                ser.close()
            raise
        # what the board says of the last session is recorded before the connection counts:
        # whoever sees ``connects`` go up sees its notices too
        self._notice_flags(ident)
        now = self._clock()
        with self._wlock:
            self._ser = ser
            self._port = port
            self._broken = None
            self._link.reset(now)
            self._last_rx = now
            self._new_session(ident, received)
            self.ident = ident
            self.failure = None
            self.connects += 1
            self._connected.set()
        self.status = (
            f"I/O board connected on {port} (firmware {ident.firmware_version}, "
            f"board {ident.board_id_hex})"
        )
        log.info("%s", self.status)
        self._query()  # the board's account first: pulse count, coil, an unanswered FIRE
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
            self.events_lost += 1
            notes.append(
                "the board dropped button events (queue full, or not acknowledged when the "
                "last session ended)"
            )
        for note in notes:
            log.warning("I/O board: %s", note)
            self.notices.append(note)

    def _handshake(self, ser: Any, port: str) -> tuple[L.BoardIdent, float]:
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
                received = self._clock()
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
                        return ident, received
        raise _HandshakeFailed(
            f"the device on {port} did not answer as a companion I/O board "
            f"({s.handshake_tries} HELLOs, no IDENT); is the firmware flashed? {FLASH_HINT}"
        )

    def _read(self) -> float:
        """Read what the board sent (waiting read_timeout_s at most for a byte) and handle
        its frames in order; returns the time they were read."""
        ser = self._ser
        data = ser.read(max(1, ser.in_waiting))
        if data:
            waiting = ser.in_waiting  # the rest of the frame: this round, not the next
            if waiting:
                data += ser.read(waiting)
        now = self._clock()
        if data:
            self._received.extend(self._decoder.feed(data))
        while self._received:  # a fire() on this thread, called from a frame, reads on
            item = self._received.popleft()
            if isinstance(item, L.Frame):
                self._last_rx = now
                self._frame(item, now)
        if self._link.ack_owed:  # not carried by an answer: one ACK for what was read
            with self._wlock:
                self._link.flush_ack()
        return now

    def _read_until(self, done: threading.Event, timeout: float) -> None:
        """:meth:`fire` on the link thread (the red button's EVENT fires on the thread that
        read it, as the gpio backend's button thread does): no other thread reads the
        board's answer, so this one reads and handles frames until *done* or *timeout*. A
        link that fails meanwhile is marked broken (the thread's loop reconnects)."""
        deadline = self._clock() + timeout
        while not done.is_set() and self._clock() < deadline and not self._broken:
            try:
                self._read()
            except (serial.SerialException, OSError, L.LinkBroken, _Reconnect) as exc:
                self._broken = str(exc) or type(exc).__name__
                return

    def _pump(self) -> None:
        now = self._read()
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
            self._message(message, now)

    def _message(self, frame: L.Frame, now: float) -> None:
        ftype = frame.type
        p = frame.payload
        try:
            if ftype == L.MsgType.EVENT:
                button, code, board_ms = L.EVENT.unpack(p)
                with self._wlock:
                    self._board_clock.sample(board_ms, now)
                if button < len(L.BOARD_BUTTONS) and code in L.EVENT_KINDS and self.on_event:
                    self.on_event(L.BOARD_BUTTONS[button], L.EVENT_KINDS[code], board_ms)
            elif ftype == L.MsgType.FIRED:
                self._fired(*L.FIRED.unpack(p), now)
            elif ftype == L.MsgType.REFUSED:
                self._refused(*L.REFUSED.unpack(p))
            elif ftype == L.MsgType.COIL_OFF:
                self._coil_off(L.COIL_OFF.unpack(p), now)
            elif ftype == L.MsgType.STATE:
                self._state(L.BoardState.parse(p), now)
            else:
                log.warning("I/O board sent an unexpected message type 0x%02x", ftype)
        except (struct.error, ValueError) as exc:  # a malformed message
            log.warning("I/O board sent a malformed 0x%02x message: %s", ftype, exc)

    def _fire_reply(self, token: int, reply: tuple[Any, ...]) -> None:
        with self._wlock:
            for wait in self._fire_waits:
                if wait.token == token and wait.reply is None:
                    wait.reply = reply
                    wait.event.set()

    def _write(self, data: bytes) -> None:
        if self._batch is not None:  # fire(): written together at the end
            self._batch.append(data)
            return
        ser = self._ser
        if ser is None:
            raise serial.SerialException("port closed")
        ser.write(data)

    def _write_now(self, data: bytes) -> bool:
        """Write *data* (under _wlock); False, with the link marked broken, if it fails."""
        try:
            self._write(data)
        except (serial.SerialException, OSError) as exc:
            self._broken = str(exc)
            return False
        return True

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
            self._received.clear()
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


#: The board's refusals that are no fault of the driver, and the guard's refusal each
#: becomes: nothing fired, and the guard answers as if it had refused the press itself.
BOARD_REFUSALS: dict[int, Refusal] = {
    L.REFUSE_NO_PRESS: Refusal.PRESS_BEFORE_ARMING,
    # the board's own cool-down (a pulse from before this host started, or a board
    # cool-down longer than the host's): as the guard's, with the board's retry time
    L.REFUSE_COOLING_DOWN: Refusal.COOLING_DOWN,
}


class BoardRefusedFire(SolenoidDriverError):
    """The board refused a FIRE for a reason that is no driver fault (:data:`BOARD_REFUSALS`):
    nothing fired."""


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

    @property
    def outcome_unknown(self) -> bool:
        """Whether the last :meth:`on` got no answer (see :meth:`BoardLink.fire`)."""
        return self.last_reply is not None and self.last_reply[0] == "unknown"

    @property
    def board_refusal(self) -> tuple[Refusal, str, int] | None:
        """``(refusal, reason, retry_ms)`` if the board refused the last :meth:`on` for a
        reason that is no driver fault (:data:`BOARD_REFUSALS`), else None."""
        reply = self.last_reply
        if reply is None or reply[0] != "refused" or reply[3] not in BOARD_REFUSALS:
            return None
        return BOARD_REFUSALS[reply[3]], reply[1], reply[2]

    def on(self) -> None:
        self.last_reply = None
        reply = self._link.fire(self._pulse_ms)
        self.last_reply = reply
        kind = reply[0]
        if kind == "fired":
            self._on = True
            return
        if kind == "unknown":
            raise FireOutcomeUnknown(f"{LINK_FAULT_MARK} {reply[1]}: it may have fired")
        if kind == "not sent":
            raise SolenoidDriverError(f"{LINK_FAULT_MARK} {reply[1]}; nothing fired")
        if reply[3] in BOARD_REFUSALS:
            raise BoardRefusedFire(f"the I/O board refused to fire: {reply[1]}; nothing fired")
        if reply[3] == L.REFUSE_LATE:
            raise SolenoidDriverError(
                f"{LINK_FAULT_MARK} the FIRE reached the I/O board after its deadline (link "
                "trouble): the board refused it, nothing fired"
            )
        raise SolenoidDriverError(
            f"the I/O board refused to fire: {reply[1]} (retry after {reply[2]} ms)"
        )

    def off(self) -> None:
        self._on = False
        self._link.send(L.MsgType.DISARM)


class BoardSolenoidGuard(SolenoidGuard):
    """The :class:`SolenoidGuard` with the board kept in step: arming arms the
    board too, nothing fires while the board is away, a FIRE the board did not
    answer is *outcome unknown* until the board's account settles it, and an
    explosion whose FIRE may have fired is never armed again."""

    def __init__(self, output: BoardSolenoid, *, link: BoardLink, **kwargs: Any) -> None:
        self._link = link
        self._unknown: Any = None  # the explosion token of the pending FIRE
        self._armings = 0  # arm() and disarm() calls: an arming given back must be the same
        self._armed_mark: tuple[int, int] | None = None  # the board's clock at arm()
        self._edge_board_ms: int | None = None  # the board stamp of the edge path's press
        self._early: set[int] = set()  # presses the board stamped before the arming
        # no cool-down counted from this process's start: the board keeps its own across
        # host restarts and refuses (COOLING_DOWN, with its retry time) until it has passed
        super().__init__(output, cool_from_start=False, **kwargs)

    def arm(self, token: Any) -> None:
        with self._lock:  # the board's ARM with the guard's: no press falls between them
            super().arm(token)  # SpentToken for an explosion whose FIRE fired or may have
            self._armings += 1
            self._armed_mark = self._link.board_mark()
            self._early.clear()  # presses issued before: refused as before arming anyway
            self._link.arm()

    def disarm(self) -> None:
        with self._lock:
            super().disarm()
            self._armings += 1
            self._link.disarm()

    def new_game(self) -> None:
        """Forget the explosions of earlier games: their tokens (turn and field) recur in
        later games, which must be able to arm them; the set stays as small as one game.
        An explosion whose FIRE is still unsettled stays spent."""
        with self._lock:
            super().new_game()
            if self._unknown is not None:
                self._spent.add(self._unknown)

    def fire(self, press: InputEvent) -> FireResult:
        with self._lock:
            on_edge = press.seq in self._edge_results and self._inputs.issued(press)
        if on_edge:  # judged on the link thread: its result, as it turned out
            return super().fire(press)
        refusal = self._link_refusal(press)
        if refusal is not None:
            return refusal
        return super().fire(press)

    def _link_refusal(self, press: InputEvent) -> FireResult | None:
        """The refusal while a FIRE's outcome is unknown or the board is away, else None
        (and a fault latched only because the link dropped is forgotten: it is back)."""
        if self._link.pending_fire is not None:
            return self._refuse(
                press,
                Refusal.OUTCOME_UNKNOWN,
                "the outcome of the last FIRE is not known yet; nothing fires until the "
                "I/O board has said what it did",
            )
        if not self._link.connected:
            return self._refuse(
                press,
                Refusal.DRIVER_FAULT,
                f"{LINK_FAULT_MARK} the I/O board is not connected ({self._link.status}); "
                "nothing fires until it is back",
            )
        self.clear_link_fault()
        return None

    def _edge_refusal(self, press: InputEvent) -> FireResult | None:
        return self._link_refusal(press) or super()._edge_refusal(press)

    def trigger_edge(self, board_ms: int | None = None) -> InputEvent:
        """The edge path on the link thread: the board's trigger press fires as soon as it
        is read (:meth:`SolenoidGuard.trigger_edge`), not after a hand-over to the table
        loop's thread. A press while a FIRE's outcome is unknown or the board is away is
        refused there and then, like every press the edge path refuses: the table loop's
        :meth:`fire` returns that refusal, even once the board has answered or is back (a
        press made while the board could not fire never fires later).

        *board_ms* is the board's stamp of the press (its EVENT's). An EVENT arrives when
        the link delivers it, which may be long after the press (retransmitted after a
        loss): a press the board stamped before the arming (before the board's clock as
        the host knew it at :meth:`arm`) is refused as :data:`Refusal.PRESS_BEFORE_ARMING`,
        however late its EVENT came."""
        self._edge_board_ms = board_ms  # only the link thread calls this
        try:
            return super().trigger_edge()
        finally:
            self._edge_board_ms = None

    def _emit_trigger_press(self) -> InputEvent:
        press = super()._emit_trigger_press()
        board_ms = self._edge_board_ms
        if board_ms is not None and self._link.stamped_before(self._armed_mark, board_ms):
            self._early.add(press.seq)
        return press

    def _refusal(self, press: InputEvent, now: float) -> FireResult | None:
        refusal = super()._refusal(press, now)
        if refusal is None and press.seq in self._early:
            return FireResult(
                False,
                Refusal.PRESS_BEFORE_ARMING,
                f"trigger press #{press.seq} was made before the explosion was armed (by the "
                "I/O board's clock; its EVENT arrived late)",
                self._token,
            )
        return refusal

    def _fire(self, press: InputEvent) -> FireResult:
        output: BoardSolenoid = self._output  # type: ignore[assignment]
        output.last_reply = None
        with self._lock:
            token = self.armed_token
            armings, last_end = self._armings, self._last_end
        result = super()._fire(press)
        reply = output.last_reply
        if not result.fired and (reply is None or reply[0] in ("not sent", "refused")):
            with self._lock:  # no FIRE went, or the board said it fired nothing
                self._spent.discard(token)
        refused = output.board_refusal if not result.fired else None
        if refused is not None:
            return self._board_refused(token, armings, last_end, *refused)
        if result.fired:
            if result.pulse is not None and reply is not None and reply[0] == "fired":
                # the board's account of the pulse, not the host's round trip around it
                pulse = Pulse(result.pulse.start, reply[1] / 1000, token)
                return replace(result, pulse=pulse)
        elif output.outcome_unknown:  # stays spent (the guard spent it as the FIRE went)
            self._unknown = token
            self.clear_link_fault()
            return FireResult(False, Refusal.OUTCOME_UNKNOWN, result.message, token)
        return result

    def _board_refused(
        self,
        token: Any,
        armings: int,
        last_end: float,
        refusal: Refusal,
        why: str,
        retry_ms: int,
    ) -> FireResult:
        """The board refused the FIRE for a reason that is no driver fault: nothing fired.
        Answer as the guard does for its own refusal of that kind: the arming is given back
        (as a new arming: only presses from now on fire it, on the board too, which gets a
        fresh token) unless the table armed or disarmed meanwhile; the press stays used.
        The board's cool-down becomes the guard's: it refuses presses until the board's
        retry time has passed, and says so as for its own cool-down."""
        retry_s = retry_ms / 1000
        with self._lock:
            if refusal is Refusal.COOLING_DOWN:  # the guard's cool-down ends with the board's
                self._last_end = self._clock() + retry_s - self._cooldown_s
            else:  # no pulse: the cool-down still runs from the last one
                self._last_end = last_end
            rearm = self._armings == armings and not self._closed and self._fault is None
        if rearm:
            self.arm(token)
        if refusal is Refusal.COOLING_DOWN:
            message = (
                f"cooling down: the solenoid may fire again in {retry_s:.1f} s (the I/O "
                "board's cool-down)"
            )
            return FireResult(False, refusal, message, token, retry_after_s=retry_s)
        message = f"the I/O board refused to fire: {why}; nothing fired: press the red button again"
        return FireResult(False, refusal, message, token)

    def _refuse(self, press: InputEvent, reason: Refusal, message: str) -> FireResult:
        """The guard's own refusal if it has one, else *reason*: without latching a fault
        and without using up the arming."""
        refusal = self.check(press)
        if refusal is not None:
            return refusal
        return FireResult(False, reason, message, self.armed_token)

    def _latch(self, fault: str) -> None:
        output: BoardSolenoid = self._output  # type: ignore[assignment]
        if output.outcome_unknown:
            log.warning("solenoid: %s", fault)  # not a driver fault: the board will tell
            return
        if output.board_refusal is not None:
            log.warning("solenoid: %s", fault)  # not a driver fault: nothing fired
            return
        super()._latch(fault)

    def resolve_outcome(self, timeout: float) -> FireOutcome | None:
        """Wait (at most *timeout* s) for the board's account of the FIRE that returned
        :data:`Refusal.OUTCOME_UNKNOWN`; None while it is still unknown.

        :data:`FireOutcome.NOT_FIRED` makes the explosion armable again (the board
        refuses that FIRE from its deadline on); the other outcomes never do."""
        settled = self._link.resolve(timeout)
        if settled is None:
            return None
        outcome = settled[0]
        if outcome is FireOutcome.NOT_FIRED:
            self._spent.discard(self._unknown)
        self._unknown = None
        return outcome

    def confirm_coil_off(self, timeout: float) -> bool:
        """Wait (at most *timeout* s) until the board confirms the coil is off."""
        return self._link.confirm_coil_off(timeout)

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
        #: (host monotonic s, board ms, button, kind) of the recent events from the board (the
        #: last RECORD_LIMIT: a season of presses would otherwise grow the service).
        self.board_events: list[tuple[float, int, str, str]] = Recent()
        super().__init__(**kwargs)

    @property
    def connected(self) -> bool:
        """True while a session with the board is up; the table pauses when False."""
        return self.link.connected and not self.closed

    def wait_connected(self, timeout: float | None) -> bool:
        """Wait (at most *timeout* s; None means 10 s) until the board is back."""
        return self.link.wait_connected(timeout)

    @property
    def input_gaps(self) -> int:
        """How often button presses may have been lost: sessions that ended (presses while
        the board was away, or still unacknowledged) plus IDENTs saying events were dropped.
        It only grows; a table that sees it change since it asked for a press asks again,
        even when the board left and came back between two of its polls."""
        return self.link.disconnects + self.link.events_lost

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
        guard = self.eliminator
        if button == "trigger" and kind == "press" and isinstance(guard, BoardSolenoidGuard):
            guard.trigger_edge(board_ms)  # fires here, on the link thread, if armed (and
            # the board stamped the press after the arming)
        else:
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
    finder: Callable[..., str | None] | None = None,
) -> SerialHardware:
    """
    Open the table on the RP2040 I/O board and return its :class:`SerialHardware`.

    :param port: the serial port; default ``config.serial_port``, else found by
        the USB ids ``config.usb_vid``:``config.usb_pid`` and, if configured, the
        USB serial number ``config.usb_serial`` (which the board's IDENT must then
        also carry as its board id).
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
        usb_serial=config.usb_serial,
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
    # a thread of the service busy with short bursts of CPU work holds the link thread (the
    # red button's EVENT, the ARM + FIRE) up for one switch interval at most while open
    switch_interval = sys.getswitchinterval()

    def restore_switch_interval() -> None:
        sys.setswitchinterval(switch_interval)

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
            closers=[link.close, restore_switch_interval, *closers],
        )
    except BaseException:
        link.close()
        raise
    sys.setswitchinterval(min(switch_interval, SWITCH_INTERVAL_S))
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
