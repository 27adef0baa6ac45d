"""The events of the arena skirmish: what the table maps onto the screen, LEDs and display.

Every engine uses the one :class:`~companion.games.core.events.Event` (``kind``, ``text``,
``data``); this module lists the kinds this game emits (gladiators by ID, cells by name).
"""

from __future__ import annotations

from companion.games.core.events import Event

EVENT_KINDS = (
    "gladiator_picked",  # team choice
    "team_ready",
    "setup",  # the teams are complete: the roll-off for the entrance follows
    "rolled_off",  # the entrance roll-off's winner
    "entrance_chosen",  # data: seat, entrance, cell; also the entrances assigned to the others
    "tie_broken",  # a roll-off between gladiators of equal initiative
    "gladiator_placed",
    "round_started",
    "turn_started",  # a gladiator's activation: data turn, round, seat, gladiator, points
    "stepped",
    "turned",
    "attack_declared",  # data: attacker, target, kind, dice, breakdown (lines)
    "hit_die",  # one die: face and location
    "hits_resolved",  # data: faces, counts, life/movement/attack/affinity lost, removed
    "gladiator_removed",
    "activation_ended",
    "round_ended",
    "combo_window",
    "correction",
    "game_over",
)

__all__ = ["EVENT_KINDS", "Event"]
