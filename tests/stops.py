"""A stop signal whose raise CPython drops, for the tests of where the table raises it
again (:class:`companion.hal.safety.StopHandlers`)."""

from __future__ import annotations

import signal


class StopDropped:
    """Raises ``signum`` in ``__del__``: CPython runs the handler there (the coil off, the
    stop remembered) and prints and drops what it raises, as it may in a weak-reference or
    garbage-collection callback. Make one and let it go: ``StopDropped(signal.SIGTERM)``."""

    def __init__(self, signum: int) -> None:
        self.signum = signum

    def __del__(self) -> None:
        signal.raise_signal(self.signum)
