"""Who may act now in a Spartacus game: the seat asked, and the seats that may play out of
turn (a part, or mixin, of :class:`~companion.games.spartacus.state.SpartacusState`).

The rulebook lets more than the seat asked act: "Anders als Machenschaften können Reaktionen
nicht nur während des eigenen Zuges gespielt werden", "Wachen können jederzeit von der Hand
auf den Tisch gelegt werden", "Gold kann jederzeit zwischen zwei Spielern wechseln", and any
house may thwart a scheme. ``legal_actions()`` lists every seat's actions; these methods
say whose each one is and which seats a table should ask:

- :meth:`SpartacusSeats.actor`, :meth:`SpartacusSeats.legal_actions_for`,
  :meth:`SpartacusSeats.decisions` (the phase's choices of the seat asked), and
  :meth:`SpartacusSeats.menu` (a seat's actions, kind first: :mod:`.choices`);
- :meth:`SpartacusSeats.seats_that_may_act` and :meth:`SpartacusSeats.reaction_windows`,
  from public information only, and the ``reaction_window`` event when a reaction's
  moment comes;
- :meth:`SpartacusSeats.manual_steps`: what the players do by hand now (house rules).
"""

from __future__ import annotations

from typing import Any

from companion.games.spartacus import actions as A
from companion.games.spartacus.choices import Menu

#: Cards any seat may play at any decision (rules R11, R13a), in a fight too.
ANYTIME = (A.React, A.PostGuard)


class SpartacusSeats:
    """Who acts (a part of :class:`SpartacusState`; reads the state's attributes)."""

    config: Any
    data: Any
    houses: tuple[str, ...]
    players: int
    phase: str
    scheme: dict[str, Any] | None
    influence: list[int]
    active: int
    windows: set[tuple[str, int]]
    _decided: list[A.Action]

    def decisions(self) -> list[A.Action]:
        """What the seat asked now decides in this phase: no card played at any time, no
        out-of-turn answer, no correction (a part of :meth:`legal_actions`)."""
        self.legal_actions()
        if self.is_terminal or self.is_chance_node:
            return []
        if self.phase != "scheme_response":  # the only phase with others' answers in it
            return list(self._decided)
        seat = self.current_player
        return [a for a in self._decided if self.actor(a) == seat]

    def actor(self, action: A.Action) -> int | None:
        """The seat whose action this is (``None``: a chance outcome, which the table
        enters). A card played out of turn names its house (``by``); a guard is always the
        scheme's target's; a gold transfer the giver's; a correction the house it names."""
        if action.is_chance:
            return None
        if action.is_correction:
            house = getattr(action, "house", None)
            if isinstance(action, A.GiveGold):
                house = action.giver
            return self.houses.index(house) if house in self.houses else None
        by = getattr(action, "by", None)
        if by is not None:
            return self.houses.index(by) if by in self.houses else None
        if isinstance(action, A.UseGuard) and self.scheme is not None:
            return self.scheme["target"]
        seat = self.current_player
        return seat if seat >= 0 else None

    def legal_actions_for(self, seat: int) -> list[A.Action]:
        """Every legal action of one seat now (its own and nobody else's: what a screen may
        offer that seat without showing another seat's hand)."""
        return [a for a in self.legal_actions() if self.actor(a) == seat]

    def menu(self, seat: int) -> Menu:
        """The seat's legal actions as a person chooses them: the kind first, then each
        parameter (:mod:`.choices`)."""
        return Menu(self.legal_actions_for(seat))

    def seats_that_may_act(self) -> list[int]:
        """The seats a table should ask now: the seat asked (``current_player``) first,
        then every seat that may answer a scheme or play a reaction out of turn.

        Decided by public information only (hand sizes, influence, the conditions of the
        data's reactions), never by what a hand holds, so asking a seat gives nothing
        away; the seat may pass. Laying a guard on the table and giving gold are possible
        for every seat at any decision and never open a window of their own.
        """
        if self.is_terminal or self.is_chance_node:
            return []
        seats = [self.current_player]
        if self.config.fight_only:
            return seats
        if self.phase == "scheme_response":
            assert self.scheme is not None
            for s in self.scheme["responders"]:
                if s not in seats and (self.hand_size(s) or s == self.scheme["target"]):
                    seats.append(s)
        for _, eligible in self.reaction_windows().items():
            seats += [s for s in eligible if s not in seats]
        return seats

    def reaction_windows(self) -> dict[tuple[str, int], list[int]]:
        """(reaction card, target seat) -> the other seats that may play it now, by public
        information: a hand that is not empty and the card's influence; the target meets
        the card's condition as everyone can see it (no gold is not seen while the gold is
        hidden for the auctions). Empty in a fight-only game. (A house may still play a
        reaction on itself: it is legal, only never asked for.)"""
        if self.config.fight_only or self.is_terminal:
            return {}
        out: dict[tuple[str, int], list[int]] = {}
        holding = [s for s in range(self.players) if self.hand_size(s)]
        if not holding:
            return out
        meets: dict[str | None, list[int]] = {}
        for card in self.data.reactions:
            eligible = [s for s in holding if self.influence[s] >= card.influence]
            if not eligible:
                continue
            if card.condition not in meets:
                meets[card.condition] = [
                    t for t in range(self.players) if self._meets(t, card.condition)
                ]
            for t in meets[card.condition]:
                others = [s for s in eligible if s != t]  # the target gains nothing by it
                if others:
                    out[(card.id, t)] = others
        return out

    def _note_windows(self) -> None:
        """A reaction's moment has come (a house has just lost its last gold or slave):
        say so once, for the table to ask the seats that may react."""
        windows = self.reaction_windows()
        for cid, target in sorted(windows.keys() - self.windows):
            card = self.intrigue_card(cid)
            seats = windows[(cid, target)]
            self._emit(
                "reaction_window",
                f"{card.title} may be played on {self.name(target)} now: "
                f"{', '.join(self.name(s) for s in seats)} may react",
                card=cid,
                target=target,
                seats=seats,
            )
        self.windows = set(windows)

    def manual_steps(self) -> list[dict[str, Any]]:
        """What the players do by hand now, for the table to prompt for: the house rules
        that are manual steps (or not transcribed) in the house's own intrigue turn."""
        if self.phase != "intrigue_turn":
            return []
        seat = self.active
        return [
            {
                "id": f"{self.houses[seat]}:{rule.id}",
                "seat": seat,
                "title": rule.title,
                "text": rule.manual,
            }
            for rule in self.data.houses[self.houses[seat]].special_rules
            if rule.is_manual
        ]

    def _anytime(self) -> list[A.Action]:
        """Cards any seat may play at any decision of a full game (rules R11, R13a):
        reactions with an effect on a target that meets their condition, with the
        player's own influence; a guard from the hand laid on the table. The seat asked
        now plays them without ``by``."""
        if self.config.fight_only:
            return []
        asked = self.current_player
        acts: list[A.Action] = []
        for s in range(self.players):
            by = None if s == asked else self.houses[s]
            for cid in self.playable(s, "reaction", thwarts=False):
                if self.influence[s] < self.intrigue_card(cid).influence:
                    continue
                condition = self.intrigue_card(cid).condition
                acts += [
                    A.React(cid, self.houses[t], by)
                    for t in range(self.players)
                    if self._meets(t, condition)
                ]
            acts += [A.PostGuard(cid, by) for cid in self.playable(s, "guard")]
        return acts
