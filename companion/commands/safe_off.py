"""``companion safe-off``: switch the solenoid off, whatever the service left behind.

systemd runs it as ``ExecStopPost=`` of ``companion.service``, so every end of
the service - ``systemctl stop``, a crash, SIGKILL after the stop timeout, the
out-of-memory killer - is followed by an explicit off. It reads only the
``[hardware]`` table of the configuration (``--config``, else the file the usual
search finds: ``companion config path``) and touches nothing but the coil:

* ``gpio``: opens the solenoid pin alone as a gpiozero ``DigitalOutputDevice``
  with ``initial_value=False`` (driven low), reads it back, and closes it; gpiozero
  then hands the pin back as an input, where the gate's pull-down holds it low.
  What matters is the moment in between: a process that died with the pin driven
  high may leave it driven high (that depends on the pin library, not on us);
  safe-off replaces that with a driven low.
* ``serial``: nothing on the Pi drives the coil. The I/O board switches it off by
  itself (its firmware ends every pulse, at most 250 ms, drops the arming when
  the host has been silent for 1 s, and its watchdog resets a hung firmware), so
  safe-off says so and does not open the port (the restarting service may want it).
* ``sim`` and ``virtual-board``: there is no real coil.

Exit status 0 when the coil is off (or not on this computer); 2 with one message
for an unreadable or invalid configuration or a pin that cannot be opened.
"""

from __future__ import annotations

import argparse
import warnings

from companion.commands.errors import CommandError
from companion.hal import HardwareConfig
from companion.table.config import TableConfigError, find_table_config, load_hardware_from_table

BOARD_OFF = (
    "{profile} profile: the coil is on the I/O board, which switches it off by itself "
    "(every pulse ends on the board, at most 250 ms; no host for 1 s drops the arming; "
    "its watchdog resets a hung firmware); nothing to drive from here"
)


def load_config(path: str | None) -> tuple[HardwareConfig, str]:
    """The ``[hardware]`` settings of the table.toml that ``--config`` or the usual search
    finds (``companion config path``); built-in defaults if there is none."""
    choice = find_table_config(path)
    if choice.path is None:
        return HardwareConfig(), choice.describe()
    try:
        return load_hardware_from_table(choice.path), str(choice.path)
    except TableConfigError as exc:
        raise CommandError(f"safe-off: {exc}") from None


def gate_off(pin: int) -> None:
    """Open GPIO *pin* alone, drive it low, check it reads low, release it."""
    from gpiozero import DigitalOutputDevice
    from gpiozero.exc import PinFactoryFallback

    with warnings.catch_warnings():  # one message below, not gpiozero's fallback chatter
        warnings.simplefilter("ignore", PinFactoryFallback)
        try:
            gate = DigitalOutputDevice(pin, active_high=True, initial_value=False)
        except Exception as exc:  # BadPinFactory, GPIOPinInUse, lgpio.error, ...
            raise CommandError(
                f"safe-off: cannot open the solenoid pin GPIO{pin} ({type(exc).__name__}: "
                f"{exc}); is this a Raspberry Pi with the [pi] extra installed, and is "
                "nothing else holding the pin?"
            ) from None
    try:
        gate.off()
        if gate.value:
            raise CommandError(f"safe-off: GPIO{pin} still reads on after driving it low")
    finally:
        gate.close()


def run(args: argparse.Namespace) -> int:
    config, source = load_config(args.config)
    profile = config.profile
    if profile == "gpio":
        pin = config.pins.solenoid
        gate_off(pin)
        print(
            f"companion safe-off: solenoid gate GPIO{pin} driven low and read back low, "
            f"then released to the gate pull-down ({source})"
        )
    elif profile == "serial":
        print(f"companion safe-off: {BOARD_OFF.format(profile=profile)} ({source})")
    else:
        print(f"companion safe-off: {profile} profile, no real coil to switch ({source})")
    return 0
