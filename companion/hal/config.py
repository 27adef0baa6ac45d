"""Hardware configuration: the ``[hardware]`` table of the companion's TOML file.

:func:`load_hardware_config` validates a mapping (as :mod:`tomllib` returns
it) and builds a frozen :class:`HardwareConfig`. Every error names the full
key (``hardware.pins.trigger``), the bad value and what is allowed; unknown
keys and pins used twice are errors too, and all problems are reported at
once. The defaults match the pin table in ``hardware/wiring.md``.

Example::

    [hardware]
    profile = "gpio"        # "sim" (default), "gpio", "serial" or "virtual-board"
    pulse_ms = 60           # 1..250; 250 ms is a hard cap
    cooldown_s = 3.0        # 1..600
    bounce_ms = 20          # 0..200: a press counts once; released this long before the next
    glitch_ms = 1           # 0..5, gpio: a press counts at its first edge if still down 1 ms on
    hold_s = 1.0            # 0.2..10, for long presses
    # serial only (the RP2040 I/O board):
    serial_port = "/dev/ttyACM0"   # default: found by the USB ids below
    usb_vid = 0x2E8A        # Raspberry Pi
    usb_pid = 0x0005        # MicroPython on a Pico
    usb_serial = "E66038B7135A2B2F"  # the board's USB serial number (needed with two Picos)
    baud = 115200

    [hardware.pins]         # BCM numbers; keys left out keep their default
    trigger = 17
    solenoid = 24

    [hardware.pins.turn]    # if given, replaces the colour list (in table order)
    purple = 5
    grey = 6

    [hardware.pins.die]     # the four Doom-die faces
    explosion = 26
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import field, fields
from os import PathLike
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.hal.contracts import DIE_FACES
from companion.hal.safety import DEFAULT_COOLDOWN_S, DEFAULT_PULSE_MS, PULSE_HARD_CAP_MS
from companion.records import Record

__all__ = [
    "BAUD_RATES",
    "BCM_PIN_RANGE",
    "DEFAULT_DIE_PINS",
    "DEFAULT_GLITCH_MS",
    "DEFAULT_PINS",
    "DEFAULT_TURN_PINS",
    "MAX_GLITCH_MS",
    "MIN_COOLDOWN_S",
    "PROFILES",
    "ConfigProblem",
    "HardwareConfig",
    "HardwareConfigError",
    "PinMap",
    "load_hardware_config",
    "load_hardware_config_file",
]

#: Backends :func:`companion.hal.open_hardware` can open.
PROFILES: tuple[str, ...] = ("sim", "gpio", "serial", "virtual-board")
#: Baud rates the serial profile accepts (USB serial ignores it; a UART does not).
BAUD_RATES: tuple[int, ...] = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)
#: USB ids of a Raspberry Pi Pico running MicroPython.
DEFAULT_USB_VID = 0x2E8A
DEFAULT_USB_PID = 0x0005
#: Usable BCM GPIO numbers (0 and 1 are reserved for HAT EEPROMs).
BCM_PIN_RANGE = range(2, 28)
#: Configuration may not make the cool-down shorter than this.
MIN_COOLDOWN_S = 1.0
MAX_COOLDOWN_S = 600.0
MAX_BOUNCE_MS = 200
#: Default and largest glitch filter of the gpio buttons (see docs/hardware.md).
DEFAULT_GLITCH_MS = 1
MAX_GLITCH_MS = 5
MIN_HOLD_S = 0.2
MAX_HOLD_S = 10.0
MAX_TURN_COLOURS = 6

#: Default BCM pins of the buttons and the solenoid gate (see hardware/wiring.md).
DEFAULT_PINS: Mapping[str, int] = MappingProxyType(
    {"trigger": 17, "roll": 27, "select": 22, "confirm": 23, "solenoid": 24}
)
#: Default BCM pins of the turn LEDs, in table order.
DEFAULT_TURN_PINS: Mapping[str, int] = MappingProxyType(
    {"purple": 5, "grey": 6, "turquoise": 12, "red": 13}
)
#: Default BCM pins of the Doom-die LEDs.
DEFAULT_DIE_PINS: Mapping[str, int] = MappingProxyType(
    {"battle_royale": 19, "move_eliminator": 16, "explosion": 26, "free_choice": 20}
)

_TOP_KEYS = (
    "profile",
    "pulse_ms",
    "cooldown_s",
    "bounce_ms",
    "glitch_ms",
    "hold_s",
    "serial_port",
    "usb_vid",
    "usb_pid",
    "usb_serial",
    "baud",
    "pins",
)
_PIN_KEYS = (*DEFAULT_PINS, "turn", "die")
_COLOUR_NAME = re.compile(r"[a-z][a-z0-9_]{0,15}")
_USB_SERIAL = re.compile(r"[A-Za-z0-9_-]{1,64}")
_PIN_ALLOWED = f"an integer BCM GPIO number from {BCM_PIN_RANGE.start} to {BCM_PIN_RANGE.stop - 1}"


class ConfigProblem(Record):
    """One thing wrong with a configuration: *key* = *value*, what is wrong, what is *allowed*."""

    key: str
    value: Any
    allowed: str
    problem: str = "is not allowed"

    def __str__(self) -> str:
        return f"{self.key} = {_show(self.value)} {self.problem}; allowed: {self.allowed}"


class HardwareConfigError(ValueError):
    """
    The hardware configuration is invalid. *problems* lists every problem;
    *key*, *value* and *allowed* are those of the first one.
    """

    def __init__(self, problems: list[ConfigProblem], source: str | None = None) -> None:
        self.problems = list(problems)
        self.source = source
        first = self.problems[0]
        self.key, self.value, self.allowed = first.key, first.value, first.allowed
        where = f" in {source}" if source else ""
        if len(self.problems) == 1:
            text = f"invalid hardware configuration{where}: {first}"
        else:
            text = f"invalid hardware configuration{where}:\n" + "\n".join(
                f"  - {p}" for p in self.problems
            )
        super().__init__(text)


class PinMap(Record):
    """BCM pin numbers of every input and output (defaults: hardware/wiring.md)."""

    trigger: int = DEFAULT_PINS["trigger"]
    roll: int = DEFAULT_PINS["roll"]
    select: int = DEFAULT_PINS["select"]
    confirm: int = DEFAULT_PINS["confirm"]
    solenoid: int = DEFAULT_PINS["solenoid"]
    #: Turn LEDs by player colour, in table order.
    turn: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_TURN_PINS))
    #: Doom-die LEDs by face.
    die: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_DIE_PINS))

    def __post_init__(self) -> None:
        object.__setattr__(self, "turn", MappingProxyType(dict(self.turn)))
        object.__setattr__(self, "die", MappingProxyType(dict(self.die)))

    @property
    def buttons(self) -> dict[str, int]:
        """Pins of the roll / select / confirm buttons by name."""
        return {"roll": self.roll, "select": self.select, "confirm": self.confirm}

    def by_key(self) -> dict[str, int]:
        """Every pin by its configuration key, e.g. ``"pins.turn.red"``."""
        keys = {f"pins.{name}": getattr(self, name) for name in DEFAULT_PINS}
        keys.update({f"pins.turn.{colour}": pin for colour, pin in self.turn.items()})
        keys.update({f"pins.die.{face}": pin for face, pin in self.die.items()})
        return keys


class HardwareConfig(Record):
    """
    Validated hardware settings. Building one directly validates it too, so a
    pulse above :data:`~companion.hal.safety.PULSE_HARD_CAP_MS` is impossible.

    :param profile: ``"sim"`` (simulated, the default), ``"gpio"`` (Pi pins),
        ``"serial"`` (the RP2040 I/O board) or ``"virtual-board"`` (the firmware
        on a pseudo-terminal, for trying the serial path without a board).
    :param pulse_ms: solenoid pulse in ms, 1 to 250.
    :param cooldown_s: seconds between pulses, at least :data:`MIN_COOLDOWN_S`.
    :param bounce_ms: button debounce time in ms, 0 to 200: a press counts once, and
        the button must read released this long before its next press counts.
    :param glitch_ms: ``gpio`` only: the glitch filter, 0 to :data:`MAX_GLITCH_MS` ms. A
        press counts at its first edge if the pin still reads pressed this much later
        (shorter spikes are ignored); the press is never delayed by ``bounce_ms``.
    :param hold_s: seconds a button is held before a long press.
    :param serial_port: ``serial`` only: the board's port; None finds it by USB ids.
    :param usb_vid: ``serial`` only: USB vendor id to look for (0-0xFFFF).
    :param usb_pid: ``serial`` only: USB product id to look for (0-0xFFFF).
    :param usb_serial: ``serial`` only: the board's USB serial number (what ``mpremote
        connect list`` shows; MicroPython uses the RP2040's unique id, which the board
        also reports as its board id). Every MicroPython Pico has the USB ids
        2e8a:0005, so with two plugged in only this says which one is the I/O board.
    :param baud: ``serial`` only: baud rate (see :data:`BAUD_RATES`).
    :param pins: the :class:`PinMap`.
    """

    profile: str = "sim"
    pulse_ms: int = DEFAULT_PULSE_MS
    cooldown_s: float = DEFAULT_COOLDOWN_S
    bounce_ms: int = 20
    glitch_ms: float = DEFAULT_GLITCH_MS
    hold_s: float = 1.0
    serial_port: str | None = None
    usb_vid: int = DEFAULT_USB_VID
    usb_pid: int = DEFAULT_USB_PID
    usb_serial: str | None = None
    baud: int = 115200
    pins: PinMap = field(default_factory=PinMap)

    def __post_init__(self) -> None:
        if not isinstance(self.pins, PinMap):
            raise HardwareConfigError([ConfigProblem("hardware.pins", self.pins, "a PinMap")])
        problems = _check_values(self._flat())
        if problems:
            raise HardwareConfigError(problems)

    @property
    def bounce_s(self) -> float:
        """:attr:`bounce_ms` in seconds."""
        return self.bounce_ms / 1000

    @property
    def glitch_s(self) -> float:
        """:attr:`glitch_ms` in seconds."""
        return self.glitch_ms / 1000

    def _flat(self) -> dict[str, Any]:
        flat: dict[str, Any] = {key: getattr(self, key) for key in _TOP_KEYS if key != "pins"}
        flat.update(self.pins.by_key())
        if not self.pins.turn:
            flat["pins.turn"] = {}
        return flat

    def to_mapping(self) -> dict[str, Any]:
        """The configuration as a ``[hardware]`` table (loadable again)."""
        pins: dict[str, Any] = {name: getattr(self.pins, name) for name in DEFAULT_PINS}
        pins["turn"] = dict(self.pins.turn)
        pins["die"] = dict(self.pins.die)
        mapping: dict[str, Any] = {
            "profile": self.profile,
            "pulse_ms": self.pulse_ms,
            "cooldown_s": self.cooldown_s,
            "bounce_ms": self.bounce_ms,
            "glitch_ms": self.glitch_ms,
            "hold_s": self.hold_s,
        }
        if self.serial_port is not None:  # TOML has no null: left out means "find it"
            mapping["serial_port"] = self.serial_port
        if self.usb_serial is not None:
            mapping["usb_serial"] = self.usb_serial
        mapping.update(usb_vid=self.usb_vid, usb_pid=self.usb_pid, baud=self.baud, pins=pins)
        return mapping


def load_hardware_config(
    mapping: Mapping[str, Any] | None = None, *, source: str | None = None
) -> HardwareConfig:
    """
    Validate the ``[hardware]`` table *mapping* and return a :class:`HardwareConfig`.

    Keys left out keep their defaults (``None`` or ``{}`` gives the default
    configuration). A ``[hardware.pins.turn]`` table replaces the default
    colour list. Raises :exc:`HardwareConfigError` listing every problem;
    *source* (e.g. a file name) is named in the message.
    """
    mapping = {} if mapping is None else mapping
    problems: list[ConfigProblem] = []
    if not isinstance(mapping, Mapping):
        raise HardwareConfigError(
            [ConfigProblem("hardware", mapping, "a table of hardware settings")], source
        )
    flat: dict[str, Any] = {f.name: f.default for f in fields(HardwareConfig) if f.name != "pins"}
    flat.update(PinMap().by_key())
    for key, value in mapping.items():
        if key not in _TOP_KEYS:
            problems.append(_unknown("hardware", key, value, _TOP_KEYS))
        elif key != "pins":
            flat[key] = value
    pins = mapping.get("pins", {})
    if not isinstance(pins, Mapping):
        problems.append(ConfigProblem("hardware.pins", pins, "a table of pin numbers"))
        pins = {}
    for key, value in pins.items():
        if key not in _PIN_KEYS:
            problems.append(_unknown("hardware.pins", key, value, _PIN_KEYS))
        elif key not in ("turn", "die"):
            flat[f"pins.{key}"] = value
    turn = pins.get("turn")
    if turn is not None:
        if not isinstance(turn, Mapping):
            problems.append(
                ConfigProblem("hardware.pins.turn", turn, "a table of colour = pin number")
            )
        else:
            flat = {k: v for k, v in flat.items() if not k.startswith("pins.turn.")}
            flat.update({f"pins.turn.{colour}": pin for colour, pin in turn.items()})
            if not turn:
                flat["pins.turn"] = {}
    die = pins.get("die", {})
    if not isinstance(die, Mapping):
        problems.append(ConfigProblem("hardware.pins.die", die, "a table of face = pin number"))
        die = {}
    for face, pin in die.items():
        if face not in DIE_FACES:
            problems.append(_unknown("hardware.pins.die", face, pin, DIE_FACES))
        else:
            flat[f"pins.die.{face}"] = pin
    # canonical order (buttons, solenoid, turn, die), so the later of two equal pins is blamed
    rank = {"pins.turn": 1, "pins.die": 2}
    flat = dict(sorted(flat.items(), key=lambda kv: rank.get(kv[0].rpartition(".")[0], 0)))
    problems.extend(_check_values(flat))
    if problems:
        raise HardwareConfigError(problems, source)
    pin_map = PinMap(
        **{name: flat[f"pins.{name}"] for name in DEFAULT_PINS},
        turn={k[len("pins.turn.") :]: v for k, v in flat.items() if k.startswith("pins.turn.")},
        die={face: flat[f"pins.die.{face}"] for face in DIE_FACES},
    )
    try:
        return HardwareConfig(
            **{key: flat[key] for key in _TOP_KEYS[:-1]},
            pins=pin_map,
        )
    except HardwareConfigError as exc:  # pragma: no cover - _check_values already ran
        raise HardwareConfigError(exc.problems, source) from None


def load_hardware_config_file(path: str | PathLike[str]) -> HardwareConfig:
    """
    Read the ``[hardware]`` table of the TOML file *path* (defaults if absent).

    TOML syntax errors are reported as :exc:`HardwareConfigError` too.
    """
    path = Path(path)
    try:
        with path.open("rb") as fh:
            document = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise HardwareConfigError(
            [ConfigProblem(str(path), "(unreadable)", f"valid TOML ({exc})")], str(path)
        ) from None
    return load_hardware_config(document.get("hardware"), source=str(path))


# -- checks ------------------------------------------------------------------


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def _unknown(table: str, key: str, value: Any, allowed: tuple[str, ...]) -> ConfigProblem:
    return ConfigProblem(
        f"{table}.{key}",
        value,
        f"the keys of [{table}]: " + ", ".join(allowed),
        "is an unknown key",
    )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _check_values(flat: Mapping[str, Any]) -> list[ConfigProblem]:
    """Check every value of a flattened configuration ("pins.turn.red" style keys)."""
    problems: list[ConfigProblem] = []

    def add(key: str, allowed: str) -> None:
        problems.append(ConfigProblem(f"hardware.{key}", flat[key], allowed))

    if flat["profile"] not in PROFILES:
        add("profile", "one of " + ", ".join(f'"{p}"' for p in PROFILES))
    pulse = flat["pulse_ms"]
    if not (_is_int(pulse) and 1 <= pulse <= PULSE_HARD_CAP_MS):
        add(
            "pulse_ms",
            f"an integer number of milliseconds from 1 to {PULSE_HARD_CAP_MS} "
            f"(the max: {PULSE_HARD_CAP_MS} ms is the hard cap for the solenoid pulse)",
        )
    cooldown = flat["cooldown_s"]
    if not (_is_number(cooldown) and MIN_COOLDOWN_S <= cooldown <= MAX_COOLDOWN_S):
        add("cooldown_s", f"a number of seconds from {MIN_COOLDOWN_S:g} to {MAX_COOLDOWN_S:g}")
    bounce = flat["bounce_ms"]
    if not (_is_int(bounce) and 0 <= bounce <= MAX_BOUNCE_MS):
        add("bounce_ms", f"an integer number of milliseconds from 0 to {MAX_BOUNCE_MS}")
    glitch = flat["glitch_ms"]
    if not (_is_number(glitch) and 0 <= glitch <= MAX_GLITCH_MS):
        add("glitch_ms", f"a number of milliseconds from 0 to {MAX_GLITCH_MS} (default 1)")
    hold = flat["hold_s"]
    if not (_is_number(hold) and MIN_HOLD_S <= hold <= MAX_HOLD_S):
        add("hold_s", f"a number of seconds from {MIN_HOLD_S:g} to {MAX_HOLD_S:g}")
    port = flat["serial_port"]
    if port is not None and not (isinstance(port, str) and port.strip() and "\0" not in port):
        add(
            "serial_port",
            'a device path such as "/dev/ttyACM0" (leave it out to find the board by its USB ids)',
        )
    for key in ("usb_vid", "usb_pid"):
        value = flat[key]
        if not (_is_int(value) and 0 <= value <= 0xFFFF):
            add(key, "a USB id: an integer from 0 to 0xFFFF (e.g. 0x2E8A)")
    serial_number = flat["usb_serial"]
    if serial_number is not None and not (
        isinstance(serial_number, str) and _USB_SERIAL.fullmatch(serial_number)
    ):
        add(
            "usb_serial",
            'the board\'s USB serial number, 1 to 64 letters and digits (e.g. "E66038B7135A2B2F"; '
            "mpremote connect list shows it)",
        )
    if not (_is_int(flat["baud"]) and flat["baud"] in BAUD_RATES):
        add("baud", "one of " + ", ".join(map(str, BAUD_RATES)))

    colours = [k.removeprefix("pins.turn.") for k in flat if k.startswith("pins.turn.")]
    if "pins.turn" in flat or not colours:
        problems.append(ConfigProblem("hardware.pins.turn", {}, "at least one colour = pin number"))
    if len(colours) > MAX_TURN_COLOURS:
        problems.append(
            ConfigProblem(
                "hardware.pins.turn",
                colours,
                f"at most {MAX_TURN_COLOURS} player colours",
            )
        )
    for colour in colours:
        if not _COLOUR_NAME.fullmatch(colour) or colour in DIE_FACES:
            problems.append(
                ConfigProblem(
                    f"hardware.pins.turn.{colour}",
                    flat[f"pins.turn.{colour}"],
                    "colour names of lower-case letters, digits and _ (up to 16, starting "
                    "with a letter) that are not die faces",
                )
            )

    used: dict[int, str] = {}
    for key, pin in flat.items():
        if not key.startswith("pins.") or key == "pins.turn":
            continue
        if not (_is_int(pin) and pin in BCM_PIN_RANGE):
            add(key, _PIN_ALLOWED)
        elif pin in used:
            problems.append(
                ConfigProblem(
                    f"hardware.{key}",
                    pin,
                    "a pin not used by any other key",
                    f"is already used by hardware.{used[pin]}",
                )
            )
        else:
            used[pin] = key
    return problems
