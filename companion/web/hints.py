"""Hints on a seat's phone: the search bot's best action for that seat, off the table's path.

A phone's hint button reaches the seat's :class:`~companion.web.agent.WebAgent` on the
table's thread; the agent calls :meth:`Hints.ask` with the live state, which is copied
there (``companion.games.search.clone``, about a millisecond). A helper thread hands the
copy to the worker process (:func:`companion.table.hints.search_hint`, as the terminal's
``hint`` does), so neither the table loop, the red button's thread nor the web server's
event loop waits for the search. The answer comes back to the table's thread
(:meth:`Hints.deliver`, called while the seat's agent waits), which journals it as shown
(a ``hint`` record, :func:`companion.table.hints.record_hint`) and only then shows it on
that seat's phone; an answer to a question that was answered meanwhile is neither shown
nor journalled. The search sees only what the seat may see (its determinizations come
from ``game.view(state, seat)``).
"""

from __future__ import annotations

import logging
import queue
import random
import threading
from typing import Any

from companion.table.hints import HINT_LEVEL, blind_spot, hint_text, record_hint, search_hint
from companion.web.hub import WebHub

log = logging.getLogger(__name__)

THINKING = "thinking…"
FAILED = "no hint this time (the search failed; see the log)"


class Hints:
    """Hints for the phones of one table (``game``: the registry's name; ``level``: the
    search level, ``docs/bots.md``). One search per seat at a time. ``session``: the
    table's session, whose journal records every hint shown (set when the web view is
    plugged into a table; ``None``: shown, not journalled)."""

    def __init__(self, hub: WebHub, game: str, level: str = HINT_LEVEL) -> None:
        self.hub = hub
        self.game = game
        self.level = level
        self.session: Any = None
        self._busy: set[int] = set()
        self._lock = threading.Lock()
        self._answers: queue.SimpleQueue[tuple[int, int, dict[str, Any] | None]] = (
            queue.SimpleQueue()
        )
        self.threads: list[threading.Thread] = []  # the last searches (tests join them)

    def ask(self, state: Any, seat: int, offer_id: int) -> bool:
        """Start a search for ``seat`` on a copy of ``state`` (call on the table's thread);
        ``False`` while that seat's last search still runs."""
        from companion.games.search.clone import clone

        why = blind_spot(self.game, state)
        if why is not None:  # no search: it would name the first action (the terminal's line)
            self.hub.hint(seat, offer_id, f"no hint: {why}")
            return True
        with self._lock:
            if seat in self._busy:
                return False
            self._busy.add(seat)
        copy = clone(state)
        self.hub.hint(seat, offer_id, THINKING)
        thread = threading.Thread(
            target=self._search, args=(copy, seat, offer_id), name=f"hint-{seat}", daemon=True
        )
        self.threads = [t for t in self.threads if t.is_alive()] + [thread]
        thread.start()
        return True

    def _search(self, state: Any, seat: int, offer_id: int) -> None:
        shown: dict[str, Any] | None = None
        try:
            shown = search_hint(self.game, state, seat, random.Random(), self.level)
        except Exception:  # a hint must never stop the table: say so on the phone
            log.exception("hint for seat %s failed", seat)
        finally:
            with self._lock:
                self._busy.discard(seat)
        self._answers.put((seat, offer_id, shown))

    def deliver(self) -> int:
        """On the table's thread: journal and show the hints whose search has ended, each
        only if its question is still open; returns how many were shown."""
        shown_now = 0
        while True:
            try:
                seat, offer_id, shown = self._answers.get_nowait()
            except queue.Empty:
                return shown_now
            offer = self.hub.current_offer(seat)
            if offer is None or offer.id != offer_id:
                continue  # answered meanwhile: dropped, not journalled
            if shown is None:
                self.hub.hint(seat, offer_id, FAILED)
                continue
            if self.session is not None:
                record_hint(self.session, seat, shown, self.level)
            self.hub.hint(seat, offer_id, hint_text(shown))
            shown_now += 1
