"""Hints on a seat's phone: the search bot's best action for that seat, off the table's path.

A phone's hint button reaches the seat's :class:`~companion.web.agent.WebAgent` on the
table's thread; the agent calls :meth:`Hints.ask` with the live state, which is copied
there (``companion.games.search.clone``, about a millisecond) and searched on a worker
thread (:func:`companion.games.search.bot.hint`, ``docs/bots.md``), so neither the table
loop nor the web server's event loop waits for it. The answer goes to the hub as that
seat's hint to that offer: shown on that seat's phone only, and dropped if the question
was answered meanwhile. The search sees only what the seat may see (its determinizations
come from ``game.view(state, seat)``).

Hints are not journalled here: the table's ``record_hint`` (``docs/bots.md``, "Proposed
journal record") is not on main yet.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from typing import Any

from companion.web.hub import WebHub

log = logging.getLogger(__name__)

THINKING = "thinking…"


def hint_text(found: Any) -> str:
    """What the phone shows for a :class:`~companion.games.search.bot.Hint`."""
    text = f"hint: {found.action.notation}"
    if found.win_chance is None:
        return text + " - every choice comes to the same here"
    chance = f"{found.win_chance * 100:.0f}%"
    if found.exact:
        return text + f" - your chance to win after it: {chance} (exact odds)"
    return text + f" - estimated chance to win: {chance} ({found.iterations} searched games)"


class Hints:
    """Hints for the phones of one table (``game``: the registry's name; ``level``: the
    search level, ``docs/bots.md``). One search per seat at a time."""

    def __init__(self, hub: WebHub, game: str, level: str = "normal") -> None:
        self.hub = hub
        self.game = game
        self.level = level
        self._busy: set[int] = set()
        self._lock = threading.Lock()
        self.threads: list[threading.Thread] = []  # the last searches (tests join them)

    def ask(self, state: Any, seat: int, offer_id: int) -> bool:
        """Start a search for ``seat`` on a copy of ``state`` (call on the table's thread);
        ``False`` while that seat's last search still runs."""
        from companion.games.search.clone import clone

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
        from companion.games.search.bot import hint

        try:
            found = hint(self.game, state, seat, random.Random(), self.level, time.perf_counter)
            text = hint_text(found)
        except Exception:  # a hint must never stop the table: say so on the phone
            log.exception("hint for seat %s failed", seat)
            text = "no hint this time (the search failed; see the log)"
        finally:
            with self._lock:
                self._busy.discard(seat)
        self.hub.hint(seat, offer_id, text)
