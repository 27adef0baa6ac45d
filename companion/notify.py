"""Telling systemd how the service is: ready, status, watchdog, stopping (sd_notify).

The unit is ``Type=notify`` with ``WatchdogSec=``: systemd counts the service as
started only when it sends ``READY=1`` (the hardware is open and the game resumed),
and kills and restarts it when ``WATCHDOG=1`` stops arriving (a hung table loop).

The protocol is the one sd_notify(3) documents as stable for reimplementation:
newline-separated ``KEY=VALUE`` assignments in one datagram to the ``AF_UNIX``
socket named by ``$NOTIFY_SOCKET`` (a leading ``@`` means the abstract namespace);
``$WATCHDOG_USEC`` is the watchdog timeout and ``$WATCHDOG_PID``, if set, the only
process it is meant for. These few lines are written here rather than taken from a
package: ``systemd-python`` builds against libsystemd's C headers (no wheels, a
compiler on a Pi Zero) and ``sdnotify`` is unmaintained and is these same lines.

Outside systemd (no ``$NOTIFY_SOCKET``) every method does nothing.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

__all__ = ["Notifier"]

log = logging.getLogger(__name__)

#: Longest a message may wait for room in systemd's queue (it reads at once; this only
#: keeps a stalled manager from stalling the table loop).
SEND_TIMEOUT_S = 1.0
#: Feed the watchdog this often, as a fraction of its timeout (sd_watchdog_enabled(3)
#: asks for at least every half; a quarter leaves room for a slow poll).
HEARTBEAT_FRACTION = 0.25


class Notifier:
    """
    sd_notify for one process. Build it with :meth:`from_environ`.

    :param address: the socket address (``$NOTIFY_SOCKET``), or None: do nothing.
    :param watchdog_s: the watchdog timeout in seconds, or None: no watchdog.
    :param clock: monotonic seconds, for spacing the heartbeats.
    """

    def __init__(
        self,
        address: str | None,
        watchdog_s: float | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if address and address.startswith("@"):  # the abstract namespace
            address = "\0" + address[1:]
        self.address = address or None
        self.watchdog_s = watchdog_s if self.address else None
        self._clock = clock
        self._last_beat: float | None = None
        self._warned = False

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> Notifier:
        """The notifier systemd's environment describes (a no-op one outside systemd)."""
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET") or None
        watchdog_s: float | None = None
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        if usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid())):
            watchdog_s = int(usec) / 1_000_000
        return cls(address, watchdog_s)

    @property
    def enabled(self) -> bool:
        """True when running under systemd with a notification socket."""
        return self.address is not None

    def send(self, **fields: str) -> bool:
        """Send ``KEY=value`` lines (``ready="1"`` becomes ``READY=1``); True if sent."""
        if self.address is None:
            return False
        message = "\n".join(f"{key.upper()}={value}" for key, value in fields.items())
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.settimeout(SEND_TIMEOUT_S)
                sock.sendto(message.encode("utf-8"), self.address)
        except OSError as exc:
            if not self._warned:  # once: a broken socket would repeat this every beat
                log.warning("cannot notify systemd at %r: %s", self.address, exc)
                self._warned = True
            return False
        return True

    def ready(self, status: str = "") -> None:
        """Start-up is complete: the hardware is open and the game is resumed."""
        fields = {"ready": "1"}
        if status:
            fields["status"] = status
        self.send(**fields)
        self._last_beat = self._clock()

    def status(self, text: str) -> None:
        """A one-line status that ``systemctl status companion`` shows."""
        self.send(status=text)

    def stopping(self) -> None:
        """The service is shutting down (switching outputs off)."""
        self.send(stopping="1")

    def heartbeat(self) -> None:
        """Feed the watchdog; cheap to call often (sent at most every quarter timeout)."""
        if self.watchdog_s is None:
            return
        now = self._clock()
        if self._last_beat is not None and now - self._last_beat < (
            self.watchdog_s * HEARTBEAT_FRACTION
        ):
            return
        self._last_beat = now
        self.send(watchdog="1")
