"""Logging for the command line and the Pi service: levels the systemd journal shows.

:func:`configure_logging` sends the ``companion`` loggers to standard error. Run by
systemd with standard error connected to the journal (``$JOURNAL_STREAM`` names that
stream, see systemd.exec(5)), each line is ``<P>message``: the journal reads the
syslog priority *P* from the prefix (``SyslogLevelPrefix=``, on by default) and adds
its own time stamp, so ``journalctl -p warning -u companion`` shows warnings and
worse. Anywhere else a line is ``time LEVEL message``.

What people at the table look at (the live dashboard, prompts, results tables) stays
on the console; what an operator needs later (ready, resumed, journal files, games
over, stops, faults) goes through :mod:`logging`.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import TextIO

__all__ = ["LEVELS", "JournaldFormatter", "configure_logging", "stream_is_journal"]

#: What ``--log-level`` accepts, quietest last.
LEVELS: tuple[str, ...] = ("debug", "info", "warning", "error")
#: syslog priorities (sd-daemon(3)) from the logging levels, highest level first.
_PRIORITIES = ((logging.CRITICAL, 2), (logging.ERROR, 3), (logging.WARNING, 4), (logging.INFO, 6))
_PLAIN_FORMAT = "%(asctime)s %(levelname)s %(message)s"

_handler: logging.Handler | None = None


class _CurrentStandardError(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stderr`` is when a record comes: rich's live dashboard
    swaps it to print log lines above the display, and tests capture it."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property  # type: ignore[override]
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:  # StreamHandler.__init__ sets it; ignored
        pass


class JournaldFormatter(logging.Formatter):
    """``<priority>message``, one record per line, no time stamp (the journal adds it)."""

    def format(self, record: logging.LogRecord) -> str:
        priority = next((p for lvl, p in _PRIORITIES if record.levelno >= lvl), 7)  # 7: debug
        text = super().format(record)
        # a multi-line message (a traceback) keeps its priority on every line
        return "\n".join(f"<{priority}>{line}" for line in text.splitlines() or [""])


def stream_is_journal(stream: TextIO, environ: dict[str, str] | None = None) -> bool:
    """True if *stream* is the journal stream systemd named in ``$JOURNAL_STREAM``."""
    value = (os.environ if environ is None else environ).get("JOURNAL_STREAM", "")
    device, _, inode = value.partition(":")
    try:
        info = os.fstat(stream.fileno())
        return bool(inode) and (info.st_dev, info.st_ino) == (int(device), int(inode))
    except (AttributeError, OSError, ValueError):  # no real file (a test's capture), or junk
        return False


def configure_logging(level: str = "warning", stream: TextIO | None = None) -> logging.Handler:
    """
    Send the ``companion`` loggers at *level* (one of :data:`LEVELS`) and above to
    *stream* (default: standard error, whatever ``sys.stderr`` is at each record).
    Calling it again replaces the handler it added before, so a program (or a test)
    may call it per command.
    """
    global _handler
    logger = logging.getLogger("companion")
    if _handler is not None:
        logger.removeHandler(_handler)
    handler: logging.Handler
    if stream is None:
        handler = _CurrentStandardError()
        stream = sys.stderr
    else:
        handler = logging.StreamHandler(stream)
    if stream_is_journal(stream):
        handler.setFormatter(JournaldFormatter("%(message)s"))
    else:
        handler.setFormatter(logging.Formatter(_PLAIN_FORMAT, "%Y-%m-%d %H:%M:%S"))
    logger.addHandler(handler)
    logger.setLevel(level.upper())
    _handler = handler
    return handler
