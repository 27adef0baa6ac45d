"""Events: what happened, for the table loop to map onto the screen, LEDs and the display."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened.

    ``kind`` is stable for programs (``stepped``, ``attack_declared``, ``hits_resolved``,
    ``gladiator_removed`` ...); ``text`` is for people; ``data`` holds the details
    (gladiators by ID, cells by name, seats).
    """

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "data": dict(self.data)}


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
