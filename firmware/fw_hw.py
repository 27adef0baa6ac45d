# Hardware access layer of the I/O board: the only firmware module that
# touches machine, neopixel and time. fw_logic gets everything through the
# PicoIO object built here.
#
# On the RP2040 these are MicroPython's own modules; under CPython (virtual
# board, tests) companion/hal/mpshims provides machine, neopixel, utime and
# micropython.

import time

import machine
import neopixel

if not hasattr(time, "ticks_ms"):  # CPython: the shim has the MicroPython clock
    import utime as time

# Raspberry Pi Pico GPIO numbers (see firmware/README.md for the wiring)
PIN_TRIGGER = 2
PIN_ROLL = 3
PIN_SELECT = 4
PIN_CONFIRM = 5
PIN_SOLENOID = 15
PIN_MATRIX = 16
PIN_STATUS = 17

MATRIX_LEDS = 25
STATUS_LEDS = 12
MATRIX_SERPENTINE = True
WDT_TIMEOUT_MS = 2000
MAINTENANCE_FLAG = "maintenance.flag"


def coil_off_now():
    """Drive the solenoid gate low; the first thing main() does."""
    return machine.Pin(PIN_SOLENOID, machine.Pin.OUT, value=0)


def maintenance_requested():
    """True if the CONFIRM button is held at power-up, or the host asked for
    maintenance (a flag file left by MAINTENANCE before the reset)."""
    confirm = machine.Pin(PIN_CONFIRM, machine.Pin.IN, machine.Pin.PULL_UP)
    if confirm.value() == 0:
        return True
    try:
        import os

        os.remove(MAINTENANCE_FLAG)
        return True
    except OSError:
        return False


class UsbLink:
    """Bytes to and from the host over the USB serial port (MicroPython's stdio)."""

    def __init__(self):
        import select
        import sys

        import micropython

        micropython.kbd_intr(-1)  # 0x03 is data, not Ctrl-C
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)

    def read(self):
        data = bytearray()
        while len(data) < 256 and self.poller.poll(0):
            data.extend(self.stdin.read(1))
        return data

    def write(self, data):
        self.stdout.write(data)

    def wait(self, ms):
        self.poller.poll(ms)


def _reset_cause():
    cause = machine.reset_cause()
    if cause == machine.WDT_RESET:
        return "watchdog"
    if cause == machine.PWRON_RESET:
        return "power"
    return "soft"


class PicoIO:
    """The pins, LED strips, clock, watchdog and host link of the Pico."""

    def __init__(self, link=None):
        # the solenoid gate first, driven low before anything else happens
        self.coil = machine.Pin(PIN_SOLENOID, machine.Pin.OUT, value=0)
        pull_up = machine.Pin.PULL_UP
        self.buttons = [
            machine.Pin(pin, machine.Pin.IN, pull_up)
            for pin in (PIN_TRIGGER, PIN_ROLL, PIN_SELECT, PIN_CONFIRM)
        ]
        self.matrix = neopixel.NeoPixel(machine.Pin(PIN_MATRIX, machine.Pin.OUT), MATRIX_LEDS)
        self.status = neopixel.NeoPixel(machine.Pin(PIN_STATUS, machine.Pin.OUT), STATUS_LEDS)
        self.serpentine = MATRIX_SERPENTINE
        self.unique_id = bytes(machine.unique_id())
        self.reset_cause = _reset_cause()
        self.link = UsbLink() if link is None else link
        self.ticks_ms = time.ticks_ms
        self.ticks_diff = time.ticks_diff
        self.wdt = None

    def read(self):
        return self.link.read()

    def write(self, data):
        self.link.write(data)

    def wait(self, ms):
        self.link.wait(ms)

    def running(self):
        return True

    def start_watchdog(self):
        self.wdt = machine.WDT(timeout=WDT_TIMEOUT_MS)

    def feed_watchdog(self):
        if self.wdt is not None:
            self.wdt.feed()

    def watch_press(self, pin, callback):
        """Stamp the press and release edges between samples (pulled up: a press is a
        falling edge); the callback reads the pin to tell which."""
        pin.irq(handler=callback, trigger=machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING)

    def coil_timer(self, ms, callback):
        timer = machine.Timer()
        timer.init(mode=machine.Timer.ONE_SHOT, period=ms, callback=callback)
        return timer

    def enter_maintenance(self):
        """Restart with main.py standing aside, so mpremote reaches the REPL."""
        self.coil.value(0)
        with open(MAINTENANCE_FLAG, "w") as fh:
            fh.write("1")
        machine.reset()
