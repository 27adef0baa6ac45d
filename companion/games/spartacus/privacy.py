"""What of a Spartacus game each seat may see (see :mod:`companion.games.core.views`).

- Private to their seat: the hand of intrigue cards and what each of them does (``cards``;
  every screen sees how many; guards on
  the table are public: "offen auf dem Tisch"); a secret bid while the bids are entered
  ("nimmt jeder Spieler seinen Einsatz verdeckt in die Hand ... öffnen alle ihre Hände"),
  every screen sees who has bid; gold while the auctions run: "nimmt jeder Spieler sein Gold
  und verbirgt es ... Dies ist der einzige Moment im Spiel, in dem die Spieler ihren
  Goldvorrat verbergen dürfen" until the host is decided ("Hat ein Dominus die Ehre
  errungen ... platzieren die Spieler ihr Gold"), and the bank's balance with it (it would
  give away the sum of the hidden gold); the cards a seat has peeked at; in a fight, a net
  declared (to throw or to keep) while the other fighter's owner still declares (ruling C2a:
  nothing is revealed until every net is declared), every screen sees which fighters have
  declared.
- Hidden from everyone: what is in the face-down intrigue and market decks (their sizes are
  public).
- Public: everything else: property, influence, favours, the scheme played face up, bids
  once revealed and the gold put on the table in a tie, the fight.

Assist mode (the box's cards): the companion never knows a hand, only how many cards it
holds (``hand_sizes``, public) and each card once it is played, sold or revealed (the
discard, public); nobody's view holds a hand's cards, and a look at another hand is made
at the table, so the companion records none. The secret bids and the hidden gold are as
in tracked mode.

What a seat may *do* is private too: ``state.legal_actions_for(seat)`` and
``state.menu(seat)`` list only that seat's own actions (its hand, its gold), and
``state.seats_that_may_act()`` is decided by public information only.
"""

from __future__ import annotations

from typing import Any

from companion.games.core.views import Privacy, Secret, hidden


def gold_hidden(state: Any) -> bool:
    """From the first auction until the host is decided the houses hide their gold."""
    return bool(state.gold_is_hidden())


#: Tracked mode: the companion deals, so it knows every hand and the deck's order.
TRACKED_SECRETS = {
    "hands": Secret("hand_sizes"),
    "intrigue_deck": hidden("intrigue_deck_size"),
}


def _phase_secrets(state: Any) -> dict[str, Secret]:
    secrets: dict[str, Secret] = {}
    if not state.assist:
        secrets.update(TRACKED_SECRETS)
    if state.phase == "bid":
        secrets["bids"] = Secret("bids_entered", lambda bid: bid is not None)
    if gold_hidden(state):
        secrets["gold"] = Secret()
        secrets["bank"] = hidden()
    if state.fight is not None and state.fight.phase == "net":
        # every screen sees which fighters have declared, not what (ruling C2a)
        secrets["net_declarations"] = Secret("nets_declared", lambda sides: sorted(sides))
    return secrets


def _net_declarations(state: Any) -> dict[str, Any] | None:
    """While nets are declared: per seat, the declarations of the fighters it decides for
    (``{"0": {"I": true}, "1": {}}``); None at any other time."""
    fight = state.fight
    if fight is None or fight.phase != "net":
        return None
    out: dict[str, dict[str, bool]] = {str(seat): {} for seat in range(state.players)}
    for side, use in fight.nets.items():
        out.setdefault(str(fight.fighters[side].owner), {})[side] = use
    return out


def _view_snapshot(state: Any) -> dict[str, Any]:
    """The snapshot the views start from: while nets are declared, the declarations leave
    the public fight for ``net_declarations`` (a phase secret, per seat). At a roll of dice,
    ``rolling`` is the seat that rolls them (public: the table's ROLL prompt names it; it
    is not always ``active``: a guard's roll, a roll-off, a fighter's dice)."""
    snapshot = state.snapshot()
    roll = state.pending_roll() if state.is_chance_node else None
    snapshot["rolling"] = None if roll is None else roll["seat"]
    declarations = _net_declarations(state)
    if declarations is not None:
        snapshot["fight"] = {k: v for k, v in snapshot["fight"].items() if k != "nets"}
        snapshot["net_declarations"] = declarations
    return snapshot


def _knowledge(state: Any, seat: int) -> dict[str, Any]:
    """The cards this seat has seen in other hands (peeked), with the round; and what each
    card of its own hand does (``cards``: id -> its printed name and effect, from the
    data: :meth:`IntrigueCard.effect_line`; tracked mode, where the hand is known)."""
    known = {
        "peeked": [
            {"house": state.houses[target], "card": card, "round": round_}
            for who, target, card, round_ in state.peeks
            if who == seat
        ]
    }
    if not state.assist:
        known["cards"] = {c: state.intrigue_card(c).effect_line() for c in state.hand(seat)}
    return known


PRIVACY = Privacy(
    secrets={"market_deck": hidden("market_deck_size")},
    phase_secrets=_phase_secrets,
    knowledge=_knowledge,
    view_snapshot=_view_snapshot,
    summary="hands, secret bids, gold while the auctions run, peeked cards and a net declared "
    "before the other fighter's are private to their seat; the face-down decks are hidden "
    "(sizes public); assist mode: hands are counts, public",
)

__all__ = ["PRIVACY", "gold_hidden"]
