"""The virtual I/O board: the firmware's own logic behind a pseudo-terminal.

:class:`VirtualBoard` runs ``firmware/fw_app.run`` (the RP2040 main loop) on
CPython, with ``companion/hal/mpshims`` standing in for MicroPython's
``machine``, ``neopixel``, ``utime`` and ``micropython``. The pin wiring is the
firmware's own ``fw_hw.PicoIO``; only the USB link is replaced, by the master
side of a pseudo-terminal. The host opens the slave side (through a stable
symlink, :attr:`VirtualBoard.port`) with the real pyserial backend, so the
whole path is exercised: pyserial, the tty, framing, the firmware.

It simulates:

* the solenoid: every coil pulse, timed at the gate pin (:attr:`pulses`);
* the LED matrix and status strip: the images the host sent
  (:attr:`matrix_images`) and the pixel writes (:attr:`pixel_frames`), the recent
  :data:`~companion.hal.display.RECORD_LIMIT` of each;
* buttons, with contact bounce (:meth:`tap`, :meth:`bounce_press`) and
  stuck contacts (:meth:`stick`);
* faults: dropped, corrupted or delayed bytes in either direction
  (:attr:`faults`), unplug and replug (:meth:`unplug`, :meth:`replug`),
  board reset (:meth:`reset`).

::

    board, port = open_virtual_board()
    hw = open_hardware(HardwareConfig(profile="serial", serial_port=port))
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pty
import random
import select
import sys
import tempfile
import threading
import time
import tty
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from companion.hal.display import Recent

# The firmware ships inside the package (``firmware/`` in the source tree is installed as
# ``companion.firmware``); the shims are data files of this package. Both must be real
# directories on disk, since their modules are imported by name from ``sys.path``.
FIRMWARE_DIR = Path(str(resources.files("companion.firmware")))
SHIMS_DIR = Path(str(resources.files("companion.hal").joinpath("mpshims")))

__all__ = [
    "FIRMWARE_DIR",
    "SHIMS_DIR",
    "FaultWindow",
    "LinkFaults",
    "VirtualBoard",
    "VirtualBoardControls",
    "VirtualBoardProcess",
    "load_firmware",
    "open_virtual_board",
    "serve",
]


def load_firmware() -> dict[str, Any]:
    """Put the shims and ``firmware/`` on ``sys.path`` (at the end: they shadow nothing)
    and import the firmware modules."""
    for path in (str(SHIMS_DIR), str(FIRMWARE_DIR)):
        if path not in sys.path:
            sys.path.append(path)
    import machine

    if Path(machine.__file__).resolve().parent != SHIMS_DIR:
        raise ImportError(
            f"another module named machine ({machine.__file__}) hides the "
            f"MicroPython shims in {SHIMS_DIR}"
        )
    import fw_app
    import fw_hw
    import fw_logic
    import fw_proto

    return {
        "fw_app": fw_app,
        "fw_hw": fw_hw,
        "fw_logic": fw_logic,
        "fw_proto": fw_proto,
        "machine": machine,
    }


_fw = load_firmware()
fw_app = _fw["fw_app"]
fw_hw = _fw["fw_hw"]
fw_logic = _fw["fw_logic"]
fw_proto = _fw["fw_proto"]
machine = _fw["machine"]

BUTTON_PINS = {
    "trigger": fw_hw.PIN_TRIGGER,
    "roll": fw_hw.PIN_ROLL,
    "select": fw_hw.PIN_SELECT,
    "confirm": fw_hw.PIN_CONFIRM,
}


@dataclass(frozen=True)
class FaultWindow:
    """A stretch of time in which one direction of the link misbehaves: each byte is
    dropped with probability *drop* or corrupted with *corrupt*, and every chunk is held
    up *delay_s* (the order of the bytes is kept). The window opens *offset_s* after
    its *anchor* was marked (:meth:`LinkFaults.mark`; the virtual board marks
    ``"trigger"`` when the red button's contact first closes and ``"gate"`` when the
    solenoid gate first goes high) and stays open *length_s*."""

    direction: str  # "to_board" or "to_host"
    offset_s: float
    length_s: float
    drop: float = 0.0
    corrupt: float = 0.0
    delay_s: float = 0.0
    anchor: str = "start"


@dataclass
class LinkFaults:
    """Faults on the USB link, each a probability per byte (drop, corrupt) or per
    chunk written (delay), in both directions unless *directions* says otherwise;
    plus *windows*, scheduled stretches of faults (:class:`FaultWindow`)."""

    drop: float = 0.0
    corrupt: float = 0.0
    delay: float = 0.0
    delay_s: tuple[float, float] = (0.005, 0.03)
    directions: tuple[str, ...] = ("to_board", "to_host")
    windows: list[FaultWindow] = field(default_factory=list)
    anchors: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(("bytes", "dropped", "corrupted", "delayed"), 0)
    )

    @property
    def active(self) -> bool:
        return bool(self.drop or self.corrupt or self.delay or self.windows)

    def mark(self, anchor: str, t: float | None = None) -> None:
        """The moment *anchor* happened (now, by default); first mark wins."""
        self.anchors.setdefault(anchor, time.monotonic() if t is None else t)

    def blackout(self, direction: str, seconds: float, *, anchor: str = "start") -> None:
        """Drop every byte in *direction* for *seconds* from *anchor* (marked now if not yet)."""
        if anchor == "start":
            self.mark("start")
        self.windows.append(FaultWindow(direction, 0.0, seconds, drop=1.0, anchor=anchor))

    def _open_windows(self, direction: str, now: float) -> list[FaultWindow]:
        out = []
        for w in self.windows:
            at = self.anchors.get(w.anchor)
            since = None if at is None else now - at - w.offset_s
            if w.direction == direction and since is not None and 0 <= since < w.length_s:
                out.append(w)
        return out

    def apply(self, data: bytes, direction: str, rng: random.Random) -> tuple[bytes, float]:
        """The bytes that get through, and how long they are held up."""
        self.counts["bytes"] += len(data)
        if not self.active:
            return data, 0.0
        drop = corrupt = stall = 0.0
        if direction in self.directions:
            drop, corrupt = self.drop, self.corrupt
            if self.delay and rng.random() < self.delay:
                stall = rng.uniform(*self.delay_s)
        for w in self._open_windows(direction, time.monotonic()):
            drop, corrupt, stall = max(drop, w.drop), max(corrupt, w.corrupt), stall + w.delay_s
        if stall:
            self.counts["delayed"] += 1
        if not (drop or corrupt):
            return data, stall
        out = bytearray()
        for byte in data:
            r = rng.random()
            if r < drop:
                self.counts["dropped"] += 1
                continue
            if r < drop + corrupt:
                self.counts["corrupted"] += 1
                byte ^= rng.randrange(1, 256)
            out.append(byte)
        return bytes(out), stall


class _StampedLog(list):
    """The firmware's command log, each entry stamped with the monotonic time."""

    def __init__(self, sink: Callable[[float, int, bytes], None]) -> None:
        super().__init__()
        self._sink = sink

    def append(self, item: tuple[int, bytes]) -> None:
        self._sink(time.monotonic(), item[0], item[1])


class _VirtualUsb:
    """The firmware's link object (read / write / wait) on the pty master.

    The firmware's own loop reads and writes the pty, as the Pico's main loop polls its
    USB serial port: no thread of the virtual board stands between the host and the
    firmware. Link faults are applied on the way; bytes that a fault holds up wait, in
    order, until their time (later bytes queue behind them)."""

    def __init__(self, board: VirtualBoard) -> None:
        self.board = board
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._inbound: deque[tuple[float, bytes]] = deque()  # (release time, bytes)
        self._outbound: deque[tuple[float, bytes]] = deque()

    def close(self) -> None:
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def wake(self) -> None:
        """End the firmware's current wait (a button edge, a halt)."""
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"\x00")

    def read(self) -> bytes:
        self._pull()
        now = time.monotonic()
        chunks = []
        while self._inbound and self._inbound[0][0] <= now:
            chunks.append(self._inbound.popleft()[1])
        self._flush(now)
        if chunks:
            self.board.traffic.append((now, "to_board", sum(map(len, chunks))))
        return b"".join(chunks)

    def write(self, data: bytes | bytearray) -> None:
        board = self.board
        if not board.plugged:
            return
        data, stall = board.faults.apply(bytes(data), "to_host", board._rng)
        now = time.monotonic()
        release = now + stall
        if self._outbound:
            release = max(release, self._outbound[-1][0])
        if release > now:
            self._outbound.append((release, data))
        else:
            board._write_pty(data)

    def wait(self, ms: int) -> None:
        now = time.monotonic()
        timeout = ms / 1000
        for held in (self._inbound, self._outbound):
            if held:
                timeout = min(timeout, max(0.0, held[0][0] - now))
        fds = [self._wake_r]
        master = self.board._master
        if master is not None:
            fds.append(master)
        try:
            ready, _, _ = select.select(fds, [], [], timeout)
        except (OSError, ValueError):  # the pty went away meanwhile (unplugged)
            time.sleep(timeout)
            return
        if self._wake_r in ready:
            with contextlib.suppress(OSError):
                os.read(self._wake_r, 4096)

    def _pull(self) -> None:
        board = self.board
        data = board._read_pty()
        if not data:
            return
        data, stall = board.faults.apply(data, "to_board", board._rng)
        now = time.monotonic()
        release = now + stall
        if self._inbound:
            release = max(release, self._inbound[-1][0])
        if data:
            self._inbound.append((release, data))

    def _flush(self, now: float) -> None:
        while self._outbound and self._outbound[0][0] <= now:
            self.board._write_pty(self._outbound.popleft()[1])


class _VirtualIO(fw_hw.PicoIO):
    """fw_hw.PicoIO with the pty in place of USB and a way to stop."""

    def __init__(self, board: VirtualBoard, usb: _VirtualUsb, stop: threading.Event) -> None:
        super().__init__(link=usb)
        self._board = board
        self._stop = stop

    def running(self) -> bool:
        return not self._stop.is_set()

    def enter_maintenance(self) -> None:
        self._board.maintenance = True
        machine.reset()


class VirtualBoard:
    """
    A running virtual RP2040 I/O board. See the module docstring.

    :param min_cooldown_ms: the firmware's cool-down floor (1000 on a real board;
        lower only for benchmarks).
    :param silence_ms: host-silence timeout (1000 on a real board).
    :param protocol_version: what the firmware claims (to test a refused board).
    :param seed: seeds the fault injection.
    """

    def __init__(
        self,
        *,
        board_id: bytes = b"VIRTUAL1",
        min_cooldown_ms: int = fw_logic.MIN_COOLDOWN_MS,
        silence_ms: int = fw_logic.SILENCE_MS,
        protocol_version: int | None = None,
        firmware_version: tuple[int, int, int] | None = None,
        faults: LinkFaults | None = None,
        seed: int = 0,
        port_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        self.board_id = board_id
        self.min_cooldown_ms = min_cooldown_ms
        self.silence_ms = silence_ms
        self.protocol_version = protocol_version
        self.firmware_version = firmware_version
        self.faults = faults if faults is not None else LinkFaults()
        self._rng = random.Random(seed)
        self._own_dir = port_dir is None
        self._dir = (
            Path(tempfile.mkdtemp(prefix="virtual-board-")) if port_dir is None else Path(port_dir)
        )
        #: The stable path of the board's serial port (a symlink to the current pty).
        self.port = str(self._dir / "ttyVB0")
        self.chip = machine.Chip(unique_id=board_id, reset_cause=machine.PWRON_RESET)
        self.chip.on_change = self._pin_changed
        self.chip.on_neopixel = self._pixels_written
        self._lock = threading.RLock()
        self._coil_changed = threading.Condition()
        self._master: int | None = None
        self._slave: int | None = None
        self._pty_lock = threading.Lock()  # the firmware's loop reads and writes the pty
        self._fw_thread: threading.Thread | None = None
        self.firmware_priority: int | None = None  # see set_firmware_priority
        self._fw_stop = threading.Event()
        self._usb: _VirtualUsb | None = None
        self.board: Any = None  # the firmware's fw_logic.Board while running
        self.maintenance = False
        self.plugged = False
        self.powered = False
        self.boots = 0
        self.stuck: set[str] = set()
        # Recordings keep the last RECORD_LIMIT entries each: a board runs for a season.
        #: Commands the firmware executed: (monotonic s, type, payload).
        self.commands: list[tuple[float, int, bytes]] = Recent()
        #: Matrix images the host sent: (monotonic s, 25 (r, g, b) in row order, blink mask).
        self.matrix_images: list[tuple[float, tuple[tuple[int, int, int], ...], int]] = Recent()
        #: Status images: (monotonic s, LEDs (r, g, b), blink mask).
        self.status_images: list[tuple[float, tuple[tuple[int, int, int], ...], int]] = Recent()
        #: Pixel writes: (monotonic s, "matrix" or "status", pixels in logical order).
        self.pixel_frames: list[tuple[float, str, tuple[tuple[int, ...], ...]]] = Recent()
        self.edges: list[tuple[float, str, bool]] = Recent()  # (time, button, closed)
        #: The recent bytes over the pty: (monotonic s, "to_host" (written by the firmware's
        #: loop) or "to_board" (handed to the firmware), how many); for the benchmark's hops.
        self.traffic: deque[tuple[float, str, int]] = deque(maxlen=256)
        self.dropped_writes = 0
        self.errors: list[BaseException] = Recent()
        self._atexit = False

    # -- life cycle ---------------------------------------------------------------------

    def start(self) -> VirtualBoard:
        """Plug the board in (power and USB) and boot the firmware."""
        if not self._atexit:
            atexit.register(self._remove_port_files)  # even if close() is never called
            self._atexit = True
        with self._lock:
            if not self.plugged:
                self._plug()
            if not self.powered:
                self._boot(machine.PWRON_RESET)
        return self

    def close(self) -> None:
        """Unplug for good and remove the port's directory."""
        self.unplug()
        self._remove_port_files()

    def _remove_port_files(self) -> None:
        with contextlib.suppress(OSError):
            os.unlink(self.port)
        with contextlib.suppress(OSError):
            if self._own_dir:
                os.rmdir(self._dir)

    def __enter__(self) -> VirtualBoard:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def unplug(self, *, power_off: bool = True) -> None:
        """Pull the USB cable: the port disappears; with *power_off* (a USB-powered
        Pico) the firmware stops and every output falls off."""
        with self._lock:
            self._unplug_usb()
            if power_off:
                self._halt()

    def replug(self) -> None:
        """Plug the cable back in: a new tty behind the same :attr:`port`; the
        firmware boots again if it had lost power."""
        self.start()

    def reset(self, cause: str = "soft", *, keep_port: bool = True) -> None:
        """Reset the microcontroller (*cause*: ``"soft"`` or ``"watchdog"``).

        With *keep_port* the tty stays (the host finds a board with no session);
        otherwise the USB device re-enumerates as after a real reset.
        """
        codes = {"soft": machine.SOFT_RESET, "watchdog": machine.WDT_RESET}
        with self._lock:
            if not keep_port:
                self._unplug_usb()
            self._halt()
            if not keep_port:
                self._plug()
            self._boot(codes[cause])

    # -- pty ----------------------------------------------------------------------------

    def _plug(self) -> None:
        master, slave = pty.openpty()
        tty.setraw(slave)
        tty.setraw(master)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        target = os.ttyname(slave)
        tmp = self._dir / f".ttyVB0.{os.getpid()}.{threading.get_ident()}"
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        os.symlink(target, tmp)
        os.replace(tmp, self.port)
        self.plugged = True

    def _unplug_usb(self) -> None:
        if not self.plugged:
            return
        self.plugged = False
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.port)
        with self._pty_lock:
            for fd in (self._master, self._slave):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._master = self._slave = None

    def _read_pty(self) -> bytes:
        """What the host wrote (non-blocking; empty when unplugged)."""
        with self._pty_lock:
            if self._master is None:
                return b""
            try:
                return os.read(self._master, 4096)
            except OSError:  # nothing there (EAGAIN), or no host on the other side (EIO)
                return b""

    def _write_pty(self, data: bytes) -> None:
        """Bytes to the host (dropped if unplugged, or if the host does not read)."""
        with self._pty_lock:
            while data and self._master is not None and self.plugged:
                try:
                    written = os.write(self._master, data)
                except BlockingIOError:
                    self.dropped_writes += 1
                    return
                except OSError:
                    return
                self.traffic.append((time.monotonic(), "to_host", written))
                data = data[written:]

    # -- firmware -----------------------------------------------------------------------

    def _boot(self, cause: int) -> None:
        self.chip.reset_cause = cause
        self._fw_stop = threading.Event()
        while self._read_pty():  # bytes sent while the chip was down are lost
            pass
        usb = _VirtualUsb(self)
        with self.chip.selected():
            io = _VirtualIO(self, usb, self._fw_stop)
            board = fw_logic.Board(
                io, min_cooldown_ms=self.min_cooldown_ms, silence_ms=self.silence_ms
            )
        if self.protocol_version is not None:
            board.protocol_version = self.protocol_version
        if self.firmware_version is not None:
            board.firmware_version = self.firmware_version
        board.log = _StampedLog(self._command)
        self._usb = usb
        self.board = board
        self.maintenance = False
        self.boots += 1
        self.powered = True
        self._fw_thread = threading.Thread(
            target=self._fw_run, args=(io, board), name="virtual-board-firmware", daemon=True
        )
        self._fw_thread.start()

    def set_firmware_priority(self, priority: int | None) -> str:
        """Run the firmware's loop on ``SCHED_FIFO`` at *priority* where allowed (None: the
        normal policy again), now and after every restart; returns what it runs at.

        A real board's loop has a microcontroller to itself: the host's load never delays
        it. A benchmark of the host's path gives the virtual board's loop real-time priority
        so that this machine's other work does not stand in for a board the table does not
        have (the loop waits on the pty and wakes 1000 times a second at most)."""
        self.firmware_priority = priority
        thread = self._fw_thread
        if thread is None or thread.native_id is None or not thread.is_alive():
            return "not running"
        return _set_thread_priority(thread.native_id, priority)

    def _fw_run(self, io: Any, board: Any) -> None:
        self.chip.bind()  # the watchdog and coil timers the firmware makes are this chip's
        if self.firmware_priority is not None:
            _set_thread_priority(threading.get_native_id(), self.firmware_priority)
        try:
            fw_app.run(io, board)
        except machine.ResetRequested:
            board.all_off()
        except BaseException as exc:  # pragma: no cover - a firmware bug: keep it for the test
            self.errors.append(exc)
            with contextlib.suppress(Exception):
                board.all_off()

    def _halt(self) -> None:
        if not self.powered:
            return
        self._fw_stop.set()
        if self._usb is not None:
            self._usb.wake()
        if self._fw_thread is not None:
            self._fw_thread.join(2.0)
        self.chip.stop_timers()
        self.powered = False
        if self._usb is not None:
            self._usb.close()
        self._usb = None

    # -- records ------------------------------------------------------------------------

    def _command(self, t: float, ftype: int, payload: bytes) -> None:
        self.commands.append((t, ftype, payload))
        if ftype == fw_proto.T_MATRIX:
            cells = len(payload) - 4
            rgb = tuple(tuple(payload[i : i + 3]) for i in range(0, cells, 3))
            self.matrix_images.append((t, rgb, int.from_bytes(payload[cells:], "big")))
        elif ftype == fw_proto.T_STATUS:
            count = (len(payload) - 2) // 3
            rgb = tuple(tuple(payload[i : i + 3]) for i in range(0, count * 3, 3))
            self.status_images.append((t, rgb, int.from_bytes(payload[count * 3 :], "big")))

    def _pin_changed(self, pin: Any, level: int) -> None:
        if pin == fw_hw.PIN_SOLENOID:
            if level:
                self.faults.mark("gate")  # fault windows anchored at the coil going on
            with self._coil_changed:
                self._coil_changed.notify_all()

    def _pixels_written(self, pin: Any, pixels: tuple[tuple[int, ...], ...]) -> None:
        if pin == fw_hw.PIN_MATRIX:
            size = fw_logic.MATRIX_SIZE
            logical = []
            for cell in range(size * size):
                row, col = divmod(cell, size)
                if fw_hw.MATRIX_SERPENTINE and row % 2:
                    col = size - 1 - col
                logical.append(pixels[row * size + col])
            self.pixel_frames.append((time.monotonic(), "matrix", tuple(logical)))
        elif pin == fw_hw.PIN_STATUS:
            self.pixel_frames.append((time.monotonic(), "status", pixels))

    @property
    def coil_on(self) -> bool:
        """Whether the solenoid gate is high now."""
        return bool(self.chip.level(fw_hw.PIN_SOLENOID))

    @property
    def coil_history(self) -> list[tuple[float, int]]:
        """Every change of the solenoid gate: (monotonic s, level)."""
        return self.chip.history(fw_hw.PIN_SOLENOID)

    @property
    def pulses(self) -> list[tuple[float, float]]:
        """Every completed coil pulse: (start, length in s), measured at the gate pin."""
        out = []
        start = None
        for t, level in self.coil_history:
            if level and start is None:
                start = t
            elif not level and start is not None:
                out.append((start, t - start))
                start = None
        return out

    def wait_coil(self, on: bool, timeout: float) -> float | None:
        """Wait until the gate is *on* (or off); return the monotonic time, or None."""
        deadline = time.monotonic() + timeout
        with self._coil_changed:
            while self.coil_on != on:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._coil_changed.wait(remaining)
        return time.monotonic()

    def wait_rise(self, after: float, timeout: float) -> float | None:
        """Wait for the gate to go high at or after monotonic time *after*; return
        when it did (from the pin's history), or None after *timeout*."""
        deadline = time.monotonic() + timeout
        with self._coil_changed:
            while True:
                for t, level in reversed(self.coil_history):
                    if t < after:
                        break
                    if level:
                        rises = [t2 for t2, l2 in self.coil_history if l2 and t2 >= after]
                        return rises[0]
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._coil_changed.wait(remaining)

    def press_stamps(self, edge: float, rise: float | None) -> dict[str, Any]:
        """How the press whose contact closed at *edge* (and whose gate went high at *rise*,
        if it did) crossed the pty: the times the firmware's loop wrote bytes to the host
        (``to_host``: the EVENT, ACKs) and was handed bytes from it (``to_board``: the ARM +
        FIRE, ACKs) between the two, from :attr:`traffic`."""
        end = time.monotonic() if rise is None else rise
        traffic = [(t, way) for t, way, _ in list(self.traffic) if edge <= t <= end]
        return {
            "edge": edge,
            "rise": rise,
            "to_host": [t for t, way in traffic if way == "to_host"],
            "to_board": [t for t, way in traffic if way == "to_board"],
        }

    @property
    def armed(self) -> bool:
        """Whether the firmware holds an arming now."""
        board = self.board
        return bool(board is not None and self.powered and board.solenoid.armed)

    @property
    def session(self) -> bool:
        board = self.board
        return bool(board is not None and self.powered and board.session)

    @property
    def wdt_feeds(self) -> int:
        return self.chip.wdt_feeds

    def last_pixels(self, strip: str = "matrix") -> tuple[tuple[int, ...], ...] | None:
        for _, name, pixels in reversed(self.pixel_frames):
            if name == strip:
                return pixels
        return None

    # -- buttons ------------------------------------------------------------------------

    def _pin(self, name: str) -> int:
        try:
            return BUTTON_PINS[name]
        except KeyError:
            raise ValueError(
                f"no button {name!r}; the buttons are {', '.join(BUTTON_PINS)}"
            ) from None

    def edge(self, name: str, closed: bool) -> float:
        """One raw contact edge (closed = pressed); returns its monotonic time."""
        pin = self._pin(name)
        now = time.monotonic()
        if name in self.stuck:
            return now
        if closed and name == "trigger":
            self.faults.mark("trigger")  # fault windows anchored at the red button
        self.chip.drive(pin, 0 if closed else None)
        self.edges.append((now, name, closed))
        usb = self._usb
        if usb is not None:
            usb.wake()
        return now

    def press(self, name: str) -> float:
        return self.edge(name, True)

    def release(self, name: str) -> float:
        return self.edge(name, False)

    def tap(self, name: str, duration_s: float = 0.05) -> None:
        """Press, hold *duration_s*, release, then wait until the firmware's debounce
        would see a new press (:meth:`wait_debounced`)."""
        self.press(name)
        time.sleep(duration_s)
        self.release(name)
        self.wait_debounced(name)

    def wait_debounced(self, name: str, timeout_s: float = 2.0) -> None:
        """Wait until the firmware would take a new press of *name*: it has seen every
        edge so far, reported the release, and its bounce window since has passed. Read
        from the firmware's own button state, so a firmware loop that ran late (a busy
        machine) is waited for, instead of a press landing in its bounce window.

        Returns at once when no firmware runs that would report it (no board, no power, its
        loop ended: maintenance mode; a stuck contact). Raises :class:`TimeoutError`,
        naming the button and what the firmware had not done yet, when *timeout_s* passes
        first (its loop hangs, the button is held): the next press would not be taken as
        one."""
        index = list(BUTTON_PINS).index(name)
        deadline = time.monotonic() + timeout_s
        while True:
            board, loop = self.board, self._fw_thread
            if board is None or not self.powered or loop is None or not loop.is_alive():
                return  # no firmware running that would report it
            if name in self.stuck:
                return  # deaf to edges: nothing to report
            button = board.buttons[index]
            last = button.last
            if button.latched or button.state or button.raw or button.since is not None:
                waiting = "the firmware to see and report the release"
            elif self.chip.scripted(self._pin(name)):
                waiting = "the scripted edges (a bounce) to play out"
            elif last is not None and board.diff(board.io.ticks_ms(), last) < button.bounce_ms:
                waiting = f"the firmware's {button.bounce_ms} ms bounce window to pass"
            else:
                return
            if time.monotonic() >= deadline:
                raise TimeoutError(
                    f"virtual board: button {name!r} not ready for a new press after "
                    f"{timeout_s:g} s: still waiting for {waiting}"
                )
            time.sleep(0.001)

    def bounce_s(self, name: str) -> float:
        """The firmware's debounce time for button *name* (from the last HELLO)."""
        board = self.board
        if board is None:
            return fw_logic.DEFAULT_BOUNCE_MS / 1000
        return board.buttons[list(BUTTON_PINS).index(name)].bounce_ms / 1000

    def bounce_press(self, name: str, bounces: int = 3, spacing_s: float = 0.001) -> None:
        """A bouncy press: closes, then opens and closes *bounces* times, stays closed;
        returns when the last edge is due."""
        self._bounce(name, True, bounces, spacing_s)

    def bounce_release(self, name: str, bounces: int = 3, spacing_s: float = 0.001) -> None:
        """A bouncy release: opens, then closes and opens *bounces* times, stays open."""
        self._bounce(name, False, bounces, spacing_s)

    def _bounce(self, name: str, closed: bool, bounces: int, spacing_s: float) -> None:
        # a timed waveform (Chip.drive_at), not edges between sleeps: a sleep of this thread
        # that overruns on a busy machine would stretch the bounce into a second press
        pin = self._pin(name)
        if name in self.stuck:
            return
        if closed and name == "trigger":
            self.faults.mark("trigger")
        start = time.monotonic()
        levels = [closed] + [not closed, closed] * bounces
        times = [start + i * spacing_s for i in range(len(levels))]
        self.edges.extend((t, name, c) for t, c in zip(times, levels, strict=True))
        self.chip.drive_at(pin, [(t, 0 if c else None) for t, c in zip(times, levels, strict=True)])
        usb = self._usb
        if usb is not None:
            usb.wake()
        time.sleep(max(0.0, times[-1] - time.monotonic()))

    def stick(self, name: str) -> None:
        """The contact welds shut: pressed, deaf to further edges."""
        self.edge(name, True)
        self.stuck.add(name)

    def unstick(self, name: str) -> None:
        self.stuck.discard(name)
        self.edge(name, False)

    def is_pressed(self, name: str) -> bool:
        """The raw contact (closed = pressed)."""
        return self.chip.level(self._pin(name)) == 0

    def ignored_edges(self, name: str) -> int:
        board = self.board
        if board is None:
            return 0
        return board.buttons[list(BUTTON_PINS).index(name)].ignored


def _set_thread_priority(native_id: int, priority: int | None) -> str:
    """Thread *native_id* on ``SCHED_FIFO`` *priority* (None: ``SCHED_OTHER``); what it got."""
    try:
        if priority is None:
            os.sched_setscheduler(native_id, os.SCHED_OTHER, os.sched_param(0))
            return "SCHED_OTHER"
        os.sched_setscheduler(native_id, os.SCHED_FIFO, os.sched_param(priority))
    except (AttributeError, OSError) as exc:
        return f"SCHED_OTHER (real-time priority refused: {exc})"
    return f"SCHED_FIFO {priority}"


def open_virtual_board(**kwargs: Any) -> tuple[VirtualBoard, str]:
    """Start a :class:`VirtualBoard` (keyword arguments as its constructor);
    return it and the path of its serial port."""
    board = VirtualBoard(**kwargs).start()
    return board, board.port


class VirtualBoardControls:
    """
    ``hw.sim`` on the ``virtual-board`` profile: the simulator's controls
    (:class:`companion.hal.sim.SimControls`) as far as a board behind a serial
    link can offer them. Presses go to the board's pins (the firmware debounces
    them and sends events over the link); inspection reads the board's pins.
    Time is real: waits sleep. Inspection first waits (at most 1 s) until the board
    has acknowledged everything the host sent, so it reads what the host last showed.
    """

    def __init__(self, board: VirtualBoard, hw: Any) -> None:
        self.board = board
        self._hw = hw
        self.config = hw.config
        self.clock = time.monotonic

    # buttons
    def edge(self, name: str, closed: bool) -> None:
        self.board.edge(name, closed)

    def press(self, name: str) -> None:
        self._before_press(name)
        self.board.press(name)

    def release(self, name: str) -> None:
        self.board.release(name)

    def tap(self, name: str, duration_s: float = 0.1) -> None:
        self._before_press(name)
        self.board.tap(name, duration_s)

    def _before_press(self, name: str) -> None:
        """A simulated person presses the red button after the table asked, as a person
        does, not within the link's transit time: first the board has what the host sent
        (the ARM). The board fires only for a press it sampled after its ARM arrived."""
        if name == "trigger":
            self._settle()

    def hold(self, name: str, duration_s: float | None = None) -> None:
        self.board.press(name)
        time.sleep(self.config.hold_s + 0.05 if duration_s is None else duration_s)
        self.board.release(name)
        time.sleep(self.config.bounce_s + 0.005)

    def bounce_press(self, name: str, bounces: int = 3, spacing_s: float = 0.001) -> None:
        self.board.bounce_press(name, bounces, spacing_s)

    def bounce_release(self, name: str, bounces: int = 3, spacing_s: float = 0.001) -> None:
        self.board.bounce_release(name, bounces, spacing_s)

    def stick(self, name: str) -> None:
        self.board.stick(name)

    def unstick(self, name: str) -> None:
        self.board.unstick(name)

    def ignored_edges(self, name: str) -> int:
        return self.board.ignored_edges(name)

    def is_pressed(self, name: str) -> bool:
        return self.board.is_pressed(name)

    def wait(self, seconds: float) -> None:
        time.sleep(seconds)

    def tick(self, now: float | None = None) -> None:
        return None

    def sensed_position(self) -> None:
        return None

    # inspection
    def _settle(self) -> None:
        self._hw.link.flush(1.0)

    @property
    def pulses(self) -> list[Any]:
        from companion.hal.contracts import Pulse

        self._settle()
        return [Pulse(start, length) for start, length in self.board.pulses]

    @property
    def coil_on(self) -> bool:
        return self.board.coil_on

    @property
    def frames(self) -> list[tuple[float, Any]]:
        """Every arena image the board received, as (time, frame of cell states)."""
        from companion.hal.contracts import CellState
        from companion.hal.serial_board import CELL_COLOURS

        self._settle()
        by_colour = {rgb: state for state, rgb in CELL_COLOURS.items()}
        size = fw_logic.MATRIX_SIZE
        out = []
        for t, rgb, _blink in self.board.matrix_images:
            cells = [by_colour.get(tuple(p), CellState.OFF) for p in rgb]
            out.append((t, tuple(tuple(cells[r * size : (r + 1) * size]) for r in range(size))))
        return out

    @property
    def led_changes(self) -> list[tuple[float, str, bool]]:
        """Status LED changes the board received, as (time, name, on)."""
        from companion.hal.serial_board import TURN_SLOTS

        self._settle()
        leds = self._hw.status_leds
        slots = {i: c for i, c in enumerate(leds.colours)}
        slots.update({TURN_SLOTS + i: f for i, f in enumerate(leds.faces)})
        state = dict.fromkeys(slots.values(), False)
        changes = []
        for t, rgb, _blink in self.board.status_images:
            for i, name in slots.items():
                on = i < len(rgb) and any(rgb[i])
                if on != state[name]:
                    state[name] = on
                    changes.append((t, name, on))
        return changes


# -- a virtual board in a process of its own --------------------------------------------------


def serve(argv: list[str] | None = None) -> int:
    """``python -m companion.hal.virtual_board``: a virtual board in a process of its own,
    so its firmware does not share the host's interpreter (and lock), as a real board does not.

    Prints one JSON line ``{"port": PATH}``, then answers commands, one per line on standard
    input, each with one JSON line (times are ``time.monotonic()``, the same clock in every
    process on the machine):

    * ``press NAME`` / ``release NAME``: a contact edge: ``{"edge": t}``;
    * ``fire TIMEOUT``: closes the red button's contact and waits for the coil:
      ``{"edge": t, "rise": t or null, "to_host": [t, ...], "to_board": [t, ...]}``
      (:meth:`VirtualBoard.press_stamps`);
    * ``counts``: ``{"pulses": n, "firmware_pulses": n, "matrix_images": n}``;
    * ``priority N``: the firmware's loop on ``SCHED_FIFO`` N (0: the normal policy), see
      :meth:`VirtualBoard.set_firmware_priority`: ``{"scheduling": "SCHED_FIFO N"}``;
    * ``quit`` (or the end of input): unplugs the board and exits.
    """
    import argparse
    import json

    parser = argparse.ArgumentParser(prog="python -m companion.hal.virtual_board")
    parser.add_argument("--min-cooldown-ms", type=int, default=fw_logic.MIN_COOLDOWN_MS)
    parser.add_argument("--silence-ms", type=int, default=fw_logic.SILENCE_MS)
    args = parser.parse_args(argv)
    board = VirtualBoard(min_cooldown_ms=args.min_cooldown_ms, silence_ms=args.silence_ms)
    board.start()

    def say(reply: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()

    try:
        say({"port": board.port})
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            command = words[0]
            if command == "quit":
                break
            try:
                if command in ("press", "release"):
                    say({"edge": board.edge(words[1], command == "press")})
                elif command == "fire":
                    edge = board.press("trigger")
                    say(board.press_stamps(edge, board.wait_rise(edge, float(words[1]))))
                elif command == "priority":
                    priority = int(words[1]) or None
                    say({"scheduling": board.set_firmware_priority(priority)})
                elif command == "counts":
                    firmware = board.board.solenoid.pulses if board.board is not None else 0
                    say(
                        {
                            "pulses": len(board.pulses),
                            "firmware_pulses": firmware,
                            "matrix_images": len(board.matrix_images),
                        }
                    )
                else:
                    say({"error": f"unknown command {command!r}"})
            except (IndexError, ValueError) as exc:
                say({"error": str(exc)})
    finally:
        board.close()
    return 0


class VirtualBoardProcess:
    """A virtual board started with :func:`serve` in a child process; :attr:`port` is its
    serial port, for the host's ``serial`` profile in this process."""

    def __init__(self, *, min_cooldown_ms: int = fw_logic.MIN_COOLDOWN_MS) -> None:
        import json
        import subprocess

        self._json = json
        self._child = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "companion.hal.virtual_board",
                "--min-cooldown-ms",
                str(min_cooldown_ms),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.port: str = self._ask(None)["port"]

    def _ask(self, command: str | None) -> dict[str, Any]:
        assert self._child.stdin is not None and self._child.stdout is not None
        if command is not None:
            self._child.stdin.write(command + "\n")
            self._child.stdin.flush()
        line = self._child.stdout.readline()
        if not line:
            raise RuntimeError(f"the virtual board process ended ({self._child.poll()})")
        reply = self._json.loads(line)
        if "error" in reply:
            raise ValueError(reply["error"])
        return reply

    def press(self, name: str) -> float:
        return self._ask(f"press {name}")["edge"]

    def release(self, name: str) -> float:
        return self._ask(f"release {name}")["edge"]

    def fire(self, timeout: float = 2.0) -> tuple[float, float | None]:
        """Close the red button's contact; (edge, coil on) on the board's side, in monotonic s."""
        reply = self.fire_stamps(timeout)
        return reply["edge"], reply["rise"]

    def fire_stamps(self, timeout: float = 2.0) -> dict[str, Any]:
        """:meth:`fire` with where the press crossed the pty (:meth:`VirtualBoard.press_stamps`)."""
        return self._ask(f"fire {timeout}")

    def counts(self) -> dict[str, int]:
        """Coil pulses at the pin and in the firmware, arena images applied."""
        return self._ask("counts")

    def set_firmware_priority(self, priority: int | None) -> str:
        """:meth:`VirtualBoard.set_firmware_priority` in the board's process."""
        return self._ask(f"priority {priority or 0}")["scheduling"]

    def close(self) -> None:
        if self._child.poll() is None:
            stdin = self._child.stdin
            with contextlib.suppress(OSError, ValueError):
                if stdin is not None:
                    stdin.write("quit\n")
                    stdin.close()
            try:
                self._child.wait(5)
            except Exception:
                self._child.kill()
                self._child.wait(5)

    def __enter__(self) -> VirtualBoardProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


if __name__ == "__main__":
    raise SystemExit(serve())
