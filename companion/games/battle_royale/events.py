"""Events: what happened, for the table loop to map onto LEDs, the solenoid, sound and screen."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened.

    ``kind`` is stable for programs (``figure_pushed``, ``field_exploded``,
    ``fields_collapsed``, ``explosion_armed`` ...); ``text`` is for people;
    ``data`` holds the details (fields by name, colours, seats).
    """

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "data": dict(self.data)}


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
    "game_over",
)
