"""Public and private: what of a game each screen may show.

Each engine declares, in one :class:`Privacy`, which parts of its ``snapshot()`` are not
public (OpenSpiel's observer, for table games):

- *seat* parts: one entry per seat (a list by seat, or a dict by seat number), that only
  this seat may see (a hand of cards, a secret bid); every screen sees a public summary
  (how many cards);
- *hidden* parts: nobody may see them (a face-down deck); every screen sees a summary;
- *phase* secrets: parts that are secret only for a while (Spartacus: gold is hidden while
  the auctions run), declared by a function of the state;
- *knowledge*: what a seat has seen that is not in the snapshot at all (a card it peeked
  at), a function of the state and the seat.

:func:`view` builds what one seat (or the table's shared screen, ``seat=None``) may see:
``{"game", "seat", "phase", "current_player", "public", "private"}``, JSON-serialisable.
``public`` is the same for every seat; ``private`` holds only that seat's own entries. The
terminal, ``companion replay`` and the web view read games through it; events go through
:meth:`Event.seen_by <companion.games.core.events.Event.seen_by>`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

Summary = Callable[[Any], Any]


def count(entry: Any) -> int:
    """How many cards: the sum of a card id -> count dict, or the length of a list."""
    if isinstance(entry, dict):
        return sum(entry.values())
    return len(entry)


@dataclass(frozen=True)
class Secret:
    """A part of the snapshot that is not public: its public summary goes under
    ``public_key`` (``None``: nothing of it is public)."""

    public_key: str | None = None
    summary: Summary = count


@dataclass(frozen=True)
class Privacy:
    """What of an engine's state is not public. The default: everything is public."""

    seat: Mapping[str, Secret] = field(default_factory=dict)
    hidden: Mapping[str, Secret] = field(default_factory=dict)
    #: state -> more seat parts (and their summaries) while they are secret
    phase_secrets: Callable[[Any], Mapping[str, Secret]] | None = None
    #: (state, seat) -> what the seat knows beyond the snapshot
    knowledge: Callable[[Any, int], dict[str, Any]] | None = None
    #: one sentence for the docs: what is private in this game, and why
    summary: str = "everything is public"

    def seat_parts(self, state: Any) -> dict[str, Secret]:
        """The snapshot parts private to each seat now."""
        parts = dict(self.seat)
        if self.phase_secrets is not None:
            parts.update(self.phase_secrets(state))
        return parts


def seat_entry(value: Any, seat: int) -> Any:
    """One seat's entry of a per-seat part: a list by seat, or a dict by seat number
    (``None`` if that seat has no entry)."""
    if isinstance(value, dict):
        return value.get(str(seat))
    return value[seat]


def seat_entries(value: Any) -> list[tuple[int, Any]]:
    """Every ``(seat, entry)`` of a per-seat part."""
    if isinstance(value, dict):
        return sorted((int(k), v) for k, v in value.items())
    return list(enumerate(value))


def public_part(state: Any, privacy: Privacy, snapshot: dict[str, Any]) -> dict[str, Any]:
    """The snapshot as every seat may see it: secrets replaced by their summaries."""
    seat_parts = privacy.seat_parts(state)
    public: dict[str, Any] = {}
    for key, value in snapshot.items():
        secret = seat_parts.get(key) or privacy.hidden.get(key)
        if secret is None:
            public[key] = value
        elif secret.public_key is not None:
            if key in seat_parts:
                public[secret.public_key] = {
                    str(s): secret.summary(entry) for s, entry in seat_entries(value)
                }
            else:
                public[secret.public_key] = secret.summary(value)
    return public


def private_part(
    state: Any, privacy: Privacy, snapshot: dict[str, Any], seat: int
) -> dict[str, Any]:
    """What only ``seat`` may see: its entries of the seat parts, and its knowledge."""
    private = {
        key: seat_entry(snapshot[key], seat) for key in privacy.seat_parts(state) if key in snapshot
    }
    if privacy.knowledge is not None:
        private.update(privacy.knowledge(state, seat))
    return private


def view(game: str, state: Any, privacy: Privacy, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see of ``state`` (``None``: the table's shared screen)."""
    snapshot = state.snapshot()
    return {
        "game": game,
        "seat": seat,
        "phase": state.phase,
        "current_player": state.current_player,
        "public": public_part(state, privacy, snapshot),
        "private": {} if seat is None else private_part(state, privacy, snapshot, seat),
    }
