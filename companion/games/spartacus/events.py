"""Events: what happened, for the table loop and the screen.

``kind`` is stable for programs (``dice_rolled``, ``attack_resolved``,
``wounded``, ``fight_over``, ``gold``, ``influence`` ...); ``text`` is for
people; ``data`` holds the details. An event with ``data["private"] = seat``
shows something only that seat may see (a card drawn, a peeked card); a
shared screen shows its ``public`` text instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def private_to(self) -> int | None:
        return self.data.get("private")

    @property
    def public_text(self) -> str:
        return str(self.data.get("public", self.text))

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "data": dict(self.data)}


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
