"""Public and private: what of a game each screen may show.

Each engine declares, in one :class:`Privacy`, which parts of its ``snapshot()`` are not
public (OpenSpiel's observer, for table games):

- per-seat secrets: one entry per seat (a list by seat, or a dict by seat number), that
  only this seat may see (a hand of cards, a secret bid); every screen sees a public
  summary (how many cards);
- hidden parts: nobody may see them (a face-down deck); every screen sees a summary;
- phase secrets: parts that are secret only for a while (Spartacus: gold is hidden while
  the auctions run), declared by a function of the state;
- *knowledge*: what a seat has seen that is not in the snapshot at all (a card it peeked
  at), a function of the state and the seat;
- a *view snapshot*: where a secret sits inside a public part (Spartacus: a net declared
  in the fight, until every net is declared), the snapshot the views start from moves it
  to a part of its own, which a phase secret then keeps private (the state's own
  ``snapshot()``, which the journal's checkpoints digest, is unchanged).

:func:`view` builds what one seat (or the table's shared screen, ``seat=None``) may see:
``{"game", "seat", "phase", "current_player", "public", "private"}``, JSON-serialisable.
``public`` is the same for every seat; ``private`` holds only that seat's own entries. The
terminal, ``companion replay`` and the web view read games through it; events go through
:meth:`Event.seen_by <companion.games.core.events.Event.seen_by>`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any

from companion.records import Record

Summary = Callable[[Any], Any]


def count(entry: Any) -> int:
    """How many cards: the sum of a card id -> count dict, or the length of a list."""
    if isinstance(entry, dict):
        return sum(entry.values())
    return len(entry)


class Secret(Record):
    """A part of the snapshot that is not public.

    ``per_seat``: the part holds one entry per seat, each private to that seat; otherwise
    nobody sees it. Its public summary (of each entry, or of the whole) goes under
    ``public_key`` (``None``: nothing of it is public).
    """

    public_key: str | None = None
    summary: Summary = count
    per_seat: bool = True


def hidden(public_key: str | None = None, summary: Summary = count) -> Secret:
    """A part nobody may see (a face-down deck), with its public summary."""
    return Secret(public_key, summary, per_seat=False)


class Privacy(Record):
    """What of an engine's state is not public. The default: everything is public.

    - ``secrets``: snapshot key -> :class:`Secret`, always;
    - ``phase_secrets(state)``: more secrets while they are secret (a bid until revealed);
    - ``knowledge(state, seat)``: what the seat knows beyond the snapshot (a peeked card);
    - ``view_snapshot(state)``: the snapshot the views start from (default
      ``state.snapshot()``), for a secret nested in a public part;
    - ``summary``: one sentence for the docs.
    """

    secrets: Mapping[str, Secret] = field(default_factory=dict)
    phase_secrets: Callable[[Any], Mapping[str, Secret]] | None = None
    knowledge: Callable[[Any, int], dict[str, Any]] | None = None
    summary: str = "everything is public"
    view_snapshot: Callable[[Any], dict[str, Any]] | None = None

    def secrets_now(self, state: Any) -> dict[str, Secret]:
        """Every secret part of the snapshot in the state's present phase."""
        secrets = dict(self.secrets)
        if self.phase_secrets is not None:
            secrets.update(self.phase_secrets(state))
        return secrets


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


def public_part(secrets: Mapping[str, Secret], snapshot: dict[str, Any]) -> dict[str, Any]:
    """The snapshot as every seat may see it: secrets replaced by their summaries."""
    public: dict[str, Any] = {}
    for key, value in snapshot.items():
        secret = secrets.get(key)
        if secret is None:
            public[key] = value
        elif secret.public_key is None:
            continue
        elif secret.per_seat:
            public[secret.public_key] = {
                str(s): secret.summary(entry) for s, entry in seat_entries(value)
            }
        else:
            public[secret.public_key] = secret.summary(value)
    return public


def private_part(
    secrets: Mapping[str, Secret], snapshot: dict[str, Any], seat: int
) -> dict[str, Any]:
    """What only ``seat`` may see of the snapshot: its entries of the per-seat secrets."""
    return {
        key: seat_entry(snapshot[key], seat)
        for key, secret in secrets.items()
        if secret.per_seat and key in snapshot
    }


def view(game: str, state: Any, privacy: Privacy, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see of ``state`` (``None``: the table's shared screen)."""
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"seat {seat!r} is not a seat of this game (0..{state.players - 1})")
    snapshot = state.snapshot() if privacy.view_snapshot is None else privacy.view_snapshot(state)
    secrets = privacy.secrets_now(state)
    private: dict[str, Any] = {}
    if seat is not None:
        private = private_part(secrets, snapshot, seat)
        if privacy.knowledge is not None:
            private.update(privacy.knowledge(state, seat))
    return {
        "game": game,
        "seat": seat,
        "phase": state.phase,
        "current_player": state.current_player,
        "public": public_part(secrets, snapshot),
        "private": private,
    }
