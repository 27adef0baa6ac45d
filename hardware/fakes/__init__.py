"""Simulated hardware for tests and laptops.

* The in-process simulator of the whole table (buttons with contact bounce and
  stuck contacts, the guarded solenoid with driver faults, status LEDs, arena
  display, all on an injectable clock) is the ``sim`` backend of the hardware
  layer: :mod:`companion.hal.sim`. The ``gpio`` backend runs on gpiozero's own
  ``MockFactory`` (``GPIOZERO_PIN_FACTORY=mock``), so it needs no fake here.
* :mod:`hardware.fakes.virtual_board` is the virtual RP2040 I/O board: the
  firmware's own logic (``firmware/``) on CPython, behind a pseudo-terminal,
  so the real ``serial`` backend is exercised end to end; with fault injection
  (dropped, corrupted or delayed bytes, unplug, reset, stuck buttons).
  ``open_hardware(HardwareConfig(profile="virtual-board"))`` starts one.
* ``hardware/fakes/mpshims/`` (a directory, not a package) holds the CPython
  stand-ins for MicroPython's ``machine``, ``neopixel``, ``utime`` and
  ``micropython``; only the virtual board and the firmware tests put it on
  ``sys.path``.
* ``make_protocol_vectors.py`` regenerates ``firmware/protocol_vectors.json``.

Importing this package imports nothing else.
"""
