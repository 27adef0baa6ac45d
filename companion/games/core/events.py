"""Events: what happened, for the table to map onto LEDs, the solenoid, sound and screens.

One :class:`Event` type for every engine, so the table, the views and the journal's
replay treat all games alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Event:
    """One thing that happened (a record: read it, never change it; not frozen because a
    frozen dataclass is four times slower to make, and events are made on every action).

    ``kind`` is stable for programs (``figure_pushed``, ``dice_rolled``, ``game_over`` ...);
    ``text`` is for people; ``data`` holds the details (fields by name, colours, seats).

    A *private* event shows something only one seat may see (a card drawn, a peeked
    card): ``private_to`` is that seat; every other screen shows ``public_text`` and the
    data without the ``secret`` keys (see :meth:`seen_by`).
    """

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    private_to: int | None = None
    public: str | None = None
    secret: tuple[str, ...] = ()

    @property
    def public_text(self) -> str:
        """What every seat may read."""
        return self.text if self.public is None else self.public

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "data": dict(self.data)}

    def seen_by(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it (``None``: the table's shared screen)."""
        if self.private_to is None or seat == self.private_to:
            return self.to_dict()
        data = {k: v for k, v in self.data.items() if k not in self.secret}
        return {"kind": self.kind, "text": self.public_text, "data": data}
