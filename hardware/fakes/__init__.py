"""Simulated hardware: where each fake lives.

* The in-process simulator of the whole table (buttons with contact bounce and
  stuck contacts, the guarded solenoid with driver faults, status LEDs, arena
  display, all on an injectable clock) is the ``sim`` backend of the hardware
  layer: :mod:`companion.hal.sim`. The ``gpio`` backend runs on gpiozero's own
  ``MockFactory`` (``GPIOZERO_PIN_FACTORY=mock``), so it needs no fake here.
* The virtual RP2040 I/O board (the firmware's own logic behind a
  pseudo-terminal, with fault injection) is :mod:`companion.hal.virtual_board`,
  with its MicroPython shims in ``companion/hal/mpshims/``: it ships inside the
  package because ``--hardware virtual-board`` is a run-time profile that an
  installed companion offers.
* ``make_protocol_vectors.py`` (a development tool) regenerates
  ``firmware/protocol_vectors.json``.

Importing this package imports nothing else.
"""
