"""Simulated hardware for tests and laptops.

The in-process simulator of the whole table (buttons with contact bounce and
stuck contacts, the guarded solenoid with driver faults, status LEDs, arena
display, all on an injectable clock) is the ``sim`` backend of the hardware
layer: :mod:`companion.hal.sim`, opened with ``open_hardware(HardwareConfig())``
or :func:`companion.hal.open_sim`. The ``gpio`` backend runs on gpiozero's own
``MockFactory`` (``GPIOZERO_PIN_FACTORY=mock``), so it needs no fake here.

This package is where the virtual RP2040 I/O board will live: the firmware's
own logic behind a pseudo-terminal, so that the serial backend can be
exercised end to end. It is not written yet.
"""
