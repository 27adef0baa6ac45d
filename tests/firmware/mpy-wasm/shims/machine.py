# MicroPython stand-in for the RP2040's machine module, for running the firmware's hardware
# layer (fw_hw) under the WebAssembly port of MicroPython, which has no machine.Pin. Pins keep
# their level and a history of output writes; inputs can be driven from outside (drive()).
# (The CPython shims of the virtual board are companion/hal/mpshims; this one must be
# MicroPython itself.)

import time

PWRON_RESET = 1
WDT_RESET = 3

pins = {}  # pin id -> the last Pin made for it
driven = {}  # pin id -> level driven from outside (inputs)
history = {}  # pin id -> [(ticks_ms, level)] of output writes
wdt = {"timeout": None, "feeds": 0}
_reset_cause = [PWRON_RESET]


def drive(pin_id, level):
    driven[pin_id] = level
    pin = pins.get(pin_id)
    if pin is not None and pin.handler is not None and level == 0:
        pin.handler(pin)


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, pin_id, mode=-1, pull=-1, value=None):
        self.id = pin_id
        self.mode = mode
        self.pull = pull
        self.out = 0
        self.handler = None
        pins[pin_id] = self
        if value is not None:
            self.value(value)

    def value(self, level=None):
        if level is None:
            if self.mode == Pin.OUT:
                return self.out
            if self.id in driven:
                return driven[self.id]
            return 1 if self.pull == Pin.PULL_UP else 0
        self.out = 1 if level else 0
        if self.mode == Pin.OUT or self.mode == -1:
            history.setdefault(self.id, []).append((time.ticks_ms(), self.out))
        return None

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING):
        self.handler = handler


class WDT:
    def __init__(self, id=0, timeout=5000):
        wdt["timeout"] = timeout
        self.feed()

    def feed(self):
        wdt["feeds"] += 1


class Timer:
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id=-1):
        self.callback = None
        self.period = None

    def init(self, mode=PERIODIC, period=-1, callback=None):
        self.mode = mode
        self.period = period
        self.callback = callback

    def deinit(self):
        self.callback = None


def unique_id():
    return b"\xe6\x60\x38\xb7\x13\x5a\x2b\x2f"


def reset_cause():
    return _reset_cause[0]


def reset():
    raise SystemExit("machine.reset()")
