"""The events of Spartacus: what the table loop and the screens show.

Every engine uses the one :class:`~companion.games.core.events.Event` (``kind``, ``text``,
``data``): ``dice_rolled``, ``attack_resolved``, ``wounded``, ``fight_over``, ``gold``,
``influence`` ... A *private* event (a card drawn, a peeked card) shows its text and
secret data only to its seat (``private_to``); every other screen shows its
``public_text`` (see :meth:`Event.seen_by <companion.games.core.events.Event.seen_by>`).
"""

from __future__ import annotations

from companion.games.core.events import Event

# Every reason an influence change may have (rule R-numbers in docs/rules/spartacus.md).
INFLUENCE_REASONS = (
    "host",  # R20 the host of the games: +1
    "decline",  # R21 declining an invitation: -1
    "victory",  # R25 the winner's house: +1
    "champion",  # R26 a house gains a champion: +1
    "champion_lost",  # R26 a house loses a champion: -1
    "thumbs_down",  # R27 the host executes a fighter with favour: -1 per token
    "scheme",  # R10 a scheme's influence effect
    "reaction",  # R12 a reaction's influence effect
    "correction",  # a card applied by hand
)

__all__ = ["INFLUENCE_REASONS", "Event"]
