"""The events of Kampf der Gladiatoren: what the table maps onto the screen, dice display
and LEDs.

Every engine uses the one :class:`~companion.games.core.events.Event` (``kind``, ``text``,
``data``); this module lists the kinds this game emits.
"""

from __future__ import annotations

from companion.games.core.events import Event

EVENT_KINDS = (
    "setup",  # a start position was loaded
    "carrier_placed",  # entry: data seat, field, gladiator
    "gladiator_added",  # entry: data seat, field, gladiator
    "entry_passed",  # entry: a seat with every carrier full
    "entry_over",  # data returned (gladiators back to the box, by kind)
    "animal_drawn",  # data animal, seat
    "animal_placed",  # data animal, field, seat
    "animals_beside",  # data animals (the rest, face up beside the arena)
    "turn_started",  # data turn, seat (and setup="entry" for an entry turn, turn 0)
    "turn_passed",  # data seat: nothing can challenge
    "moved",  # data piece ("team"/"animal"), from, to
    "challenged",  # data seat, attacker, target (descriptions), fields
    "first_roller",  # data side (0 challenger, 1 defender), reason
    "neutralised",  # data side (whose net), gladiator (opponent's kind), forced
    "strike",  # data side, dice: a side is about to roll
    "dice_rolled",  # data side, roll [doubles, singles, blanks], reroll (bool)
    "reroll_offered",  # data side
    "rerolled",  # data side
    "kept",  # data side
    "shields",  # data side (the shielded side), cancelled
    "hit_stars",  # data field, added, stars (now on the field)
    "gladiator_lost",  # data seat (loser), gladiator, inactive, to ("stable"/"box"), taker
    "team_wiped",  # data seat, field
    "animal_defeated",  # data animal, field, to seat or None (box)
    "victor_moved",  # data from, to
    "combat_ended",  # data lost [challenger, defender], out [bool, bool]
    "stalemate",  # a full round in which nobody could challenge
    "game_over",  # data winners, scores, reason
)

__all__ = ["EVENT_KINDS", "Event"]
