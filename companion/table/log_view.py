"""The table's view when nobody watches a screen: the service's log.

Under systemd (a Pi with no screen) standard output is the journal. A dashboard drawn
there would put the whole arena into the log on every turn: a season of games on one SD
card, and ``journalctl -u companion`` buried under boards nobody reads. :class:`LogView`
takes the dashboard's place then: what the table says to people (an I/O board that may
have missed a press, an undo, a journal's warning) is logged at ``info``; the game's
events (their public texts only: a log is read by anyone) and each prompt at ``debug``.
It needs no terminal library.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

__all__ = ["LogView"]

log = logging.getLogger("companion.table")


class LogView:
    """A :class:`~companion.table.loop.TableView` that writes to the ``companion`` log."""

    def update(self, state: Any, events: Sequence[Any]) -> None:
        for event in events:
            log.debug("%s", event.public_text)

    def message(self, text: str) -> None:
        log.info("%s", text)

    def prompt(self, text: str, options: Sequence[str] = (), seat: int | None = None) -> None:
        log.debug("waiting: %s", text)

    def __enter__(self) -> LogView:
        return self

    def __exit__(self, *exc: object) -> None:
        return None
