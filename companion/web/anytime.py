"""Plays out of turn from the phones while the table waits for another seat.

Spartacus lets a house act when it is not asked: lay a guard on the table, give gold,
play a reaction or thwart while another house decides (rules R11, R13a; at the terminal
typed with the house's name). :class:`PhonePlays` is the table loop's ``anytime``
source (:class:`companion.table.loop.OutOfTurnSource`): while a decision waits, every
phone seat but the one asked gets its own plays for that state as its **anytime** offer
(the table adapter's ``out_of_turn_actions``: the engine's ``legal_actions_for(seat)``,
never worked out in JavaScript), shown on its own phone only. A tap queues the play; the
table's wait (the asked phone's, the terminal's) takes it with
:meth:`PhonePlays.take` and the loop commits it like any action, then asks again.

A play is taken only for the state it was offered for: the offers are withdrawn before
the table commits anything, a tap for a withdrawn offer is refused at once (the phone
re-reads its page), and one that was queued when they were withdrawn is dropped with a
note to its seat, never applied to another state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from companion.web.hub import Offer, WebHub

#: ``plays(state, seat)``: what ``seat`` may play out of turn now (the table adapter's)
Plays = Callable[[Any, int], Sequence[Any]]

LATE = "your play came as the table moved on: not played - the page shows what you may do now"


class PhonePlays:
    """The phone seats' plays out of turn (``seats``; ``plays`` from the adapter)."""

    def __init__(self, hub: WebHub, seats: Iterable[int], plays: Plays) -> None:
        self.hub = hub
        self.seats = sorted(seats)
        self.plays = plays
        self._open: dict[int, dict[str, Any]] = {}  # offer id -> the plays by notation
        self._at = -1  # the length of the history the open offers are for

    def open(self, state: Any, seat: int) -> None:
        """The table waits for ``seat``: every other phone seat with a play gets its own."""
        offers: dict[int, Offer] = {}
        self._open = {}
        self._at = len(state.history)
        for other in self.seats:
            if other == seat:
                continue
            plays = {a.notation: a for a in self.plays(state, other)}
            if not plays:
                continue
            asked = state.seat_name(seat) if seat >= 0 else "the table"
            offer = Offer(
                id=self.hub.new_offer_id(),
                prompt=f"out of turn, while {asked} is asked",
                actions=tuple(plays),
            )
            offers[other] = offer
            self._open[offer.id] = plays
        self._refuse(self.hub.anytime(offers))

    def take(self, state: Any) -> Any | None:
        """A play submitted for the open offers and still for ``state``, or ``None``."""
        submission = self.hub.take_anytime()
        if submission is None:
            return None
        plays = self._open.get(submission.offer)
        if plays is None or len(state.history) != self._at:
            self._refuse([submission])
            return None
        action = plays.get(submission.text)
        if action is None:
            self.hub.note(submission.seat, f"{submission.text!r} is not one of your plays now")
        return action

    def close(self) -> None:
        """The decision is over: every offer withdrawn, any play still queued refused."""
        self._open = {}
        self._refuse(self.hub.anytime({}))

    def _refuse(self, late: Sequence[Any]) -> None:
        for submission in late:
            self.hub.note(submission.seat, LATE)
