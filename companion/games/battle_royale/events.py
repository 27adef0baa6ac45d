"""The events of Battle Royale: what the table loop maps onto LEDs, the solenoid and screens.

Every engine uses the one :class:`~companion.games.core.events.Event` (``kind``, ``text``,
``data``); this module lists the kinds Battle Royale emits.
"""

from __future__ import annotations

from companion.games.core.events import Event

EVENT_KINDS = (
    "setup",  # start player, cards revealed, hands dealt
    "turn_started",
    "card_played",
    "figure_stepped",
    "figure_moved",  # a figure's whole move: from, to, steps
    "figure_pushed",  # data: colour, from, to (None: out of the arena), fate
    "card_drawn",
    "pile_reshuffled",
    "doom_rolled",
    "doom_action",  # the action that runs: battle_royale, move_eliminator, explosion
    "nothing_happens",
    "captured",
    "figure_lost",  # two players: neutral majority takes a figure to the box
    "eliminator_moved",
    "explosion_armed",  # the physical table fires the Eliminator now
    "field_exploded",
    "fields_collapsed",
    "special_used",
    "ability_picked",
    "correction",
    "player_out",
    "turn_cut_short",  # ruling 11a: the active player is out, the rest of the turn is skipped
    "game_over",
)

__all__ = ["EVENT_KINDS", "Event"]
