"""Why an action is not legal: a rule name and a sentence a player can act on.

Only asked after ``legal_actions()`` has said no, so these checks explain; they never
decide. :class:`SpartacusReasons` is a part of the game self (it reads the self's
attributes); the shared checks come first (:meth:`GameState.why_illegal
<companion.games.core.self.GameState.why_illegal>`). Rule names refer to
``docs/rules/spartacus.md``.
"""

from __future__ import annotations

from typing import Any

from companion.games.spartacus import actions as A
from companion.games.spartacus.combat import ATTRS, wound_choices
from companion.games.spartacus.hexmap import DIRECTIONS, distance, step

PHASE_TEXT = {
    "host_draw": "the opening roll decides the host",
    "deal": "the starting gladiators and slaves are dealt",
    "heal": "an injured card's healing roll",
    "upkeep_pay": "a house pays its upkeep or releases gladiators",
    "hand_limit": "a house over its hand limit sells cards at the end of the intrigue phase",
    "draw": "intrigue cards are drawn",
    "intrigue_turn": "a house's intrigue turn",
    "scheme_response": "the houses may thwart the scheme or pass",
    "guard_roll": "a guard's roll",
    "discard_choice": "the target of a scheme chooses the card to discard",
    "peek": "a random hand card is looked at",
    "market_turn": "a house's turn in the open market",
    "auction_reveal": "the next market card is revealed",
    "bid": "a house enters its secret bid",
    "rolloff": "a roll-off",
    "invite": "the host invites a house",
    "invitation": "the invited house accepts or declines",
    "bets": "a house places bets",
    "thumbs": "the host decides the loser's fate",
    "tournament_pick": "a house picks its tournament fighter",
    "game_over": "the game is over",
}
CONDITION_TEXT = {"no_gold": "a house without gold", "no_slaves": "a house without ready slaves"}
FIGHT_TEXT = {
    "net": "a fighter with a net declares whether to throw it",
    "initiative": "the initiative roll",
    "first": "the initiative winner names who acts first",
    "turn": "a fighter moves and attacks",
    "attack_roll": "the attack roll",
    "defence_roll": "the defence roll",
    "reroll_choice": "a fighter with a reroll chooses a die or keeps the roll",
    "reroll_roll": "the reroll",
    "wound": "the wounded fighter's owner removes dice",
}


class SpartacusReasons:
    """Why an action is not legal now (a part of :class:`SpartacusState`)."""

    PHASE_TEXT = PHASE_TEXT
    END_RULE = "R29 (end of game)"
    phase: str
    fight: Any
    config: Any
    houses: tuple[str, ...]

    def phase_text(self) -> str:
        if self.phase == "fight" and self.fight is not None:
            return FIGHT_TEXT.get(self.fight.phase, self.fight.phase)
        return PHASE_TEXT.get(self.phase, self.phase)

    def legal_kinds(self, corrections: bool = False) -> str:
        """The kinds legal now; corrections (legal at every decision) left out."""
        return super().legal_kinds(corrections)  # type: ignore[misc]

    def _why_chance(self, action: A.Action) -> tuple[str, str] | None:
        if action.is_correction:  # corrections are no chance matter: see _why
            return None
        return super()._why_chance(action)  # type: ignore[misc]

    def _why(self, action: A.Action) -> tuple[str, str] | None:
        if action.is_correction:
            return self._why_correction(action)
        return self._fight(action) if self.phase == "fight" else self._round(action)

    def _why_correction(self, a: A.Action) -> tuple[str, str]:
        if self.config.fight_only:
            return "corrections", "the combat assistant takes no corrections: undo instead"
        house = getattr(a, "house", getattr(a, "giver", ""))
        if house not in self.houses:
            return "corrections", f"{house!r} is not a house in this game: {', '.join(self.houses)}"
        if isinstance(a, A.GiveGold):
            seat = self.seat_of(a.giver)
            spare = self.gold[seat] - self._committed(seat)
            if a.receiver not in self.houses or a.receiver == a.giver:
                return "R32 (gold, corrections)", "gold goes to another house of this game"
            return "R32 (gold, corrections)", (
                f"{a.giver} can give 1..{spare} gold now (its gold, less gold bid at an "
                "auction or owed for the scheme being played)"
                if spare > 0
                else f"{a.giver} has no gold to give now"
            )
        if isinstance(a, A.AdjustGold | A.AdjustInfluence):
            return "corrections", (
                "corrections move one gold or one influence at a time and never "
                "below 0 (nor below gold bid at an auction)"
            )
        return "corrections", (
            "that card is not this house's, or it is in the arena or waiting for a roll"
        )

    def _fight(self, a: A.Action) -> tuple[str, str] | None:
        fight = self.fight
        assert fight is not None
        p = fight.phase
        side = fight.decider()
        if (
            isinstance(a, A.UseNet | A.ChooseFirst | A.Reroll | A.KeepRoll | A.Wound)
            and getattr(a, "side", None) not in A.SIDES
        ):
            return "action format", "side must be I or II"
        if isinstance(a, A.UseNet):
            if p != "net":
                return "C2 (net)", "a net is thrown only before the initiative roll"
            return "C2 (net)", f"fighter {side} declares now; fighter {a.side} has no net left"
        if isinstance(a, A.ChooseFirst) and p == "first":
            return "C2 (initiative)", "the initiative winner names who acts first"
        if isinstance(a, A.Step) and p == "turn":
            me, foe = fight.active, fight.fighters[fight.other(fight.active.side)]
            if a.direction not in DIRECTIONS:
                return "C3 (movement)", f"directions are {', '.join(DIRECTIONS)}"
            if fight.attacked and fight.moved_before_attack:
                return "C3 (movement)", (
                    "this fighter moved, then attacked: its movement is over "
                    "(move before or after the attack, not both)"
                )
            if fight.steps >= me.speed:
                return "C3 (movement)", (
                    f"a fighter moves at most as many hexes as it has speed "
                    f"dice ({me.speed}); it has moved {fight.steps}"
                )
            to = step(me.pos, a.direction)
            if to not in fight.arena.hexes:
                return "C3 (movement)", f"{a.direction} leaves the arena"
            if to == foe.pos:
                return "C3 (movement)", "the opponent stands there; fighters never share a hex"
        if isinstance(a, A.Attack | A.QuickAttack) and p == "turn":
            me, foe = fight.active, fight.fighters[fight.other(fight.active.side)]
            if fight.attacked:
                return "C3 (attack)", "a fighter attacks once per combat round"
            if isinstance(a, A.QuickAttack) and not me.effects("quick_attack"):
                return "C8 (equipment)", "a quick attack needs quick-attack equipment (a javelin)"
            d = distance(me.pos, foe.pos)
            over = ": over a free hex" if me.reach() > 1 else ""
            return "C3 (attack)", (
                f"the opponent is {d} hexes away; attacks need an adjacent hex "
                f"(reach {me.reach()}{over})"
            )
        if isinstance(a, A.Reroll | A.KeepRoll) and p == "reroll_choice":
            if a.side != side:
                return "C7 (rerolls)", f"fighter {side} chooses its reroll now"
            if isinstance(a, A.Reroll):
                return "C7 (rerolls)", (
                    f"there is no die showing {a.face} in the roll {fight.rolls.get(a.side)}"
                )
        if isinstance(a, A.Wound) and p == "wound":
            if a.side != side:
                return "C11 (wounds)", f"fighter {side} takes the wounds now"
            dice = fight.fighters[a.side].dice
            allowed = ", ".join(ATTRS[i] for i in wound_choices(dice))
            return "C12 (rule of one)", (
                f"with dice {'/'.join(map(str, dice))} no attribute may "
                f"fall below 1 while another is above 1: choose {allowed}"
            )
        if isinstance(a, A.Reroll | A.KeepRoll | A.Wound | A.Attack | A.Step | A.EndTurn):
            return "C1 (combat round)", f"now {self.phase_text()}; legal now: {self.legal_kinds()}"
        return None

    def _not_held(self, seat: int, card_id: str, kind: str) -> tuple[str, str] | None:
        """Why a card cannot come from this hand: not a card, not of the kind, not held."""
        card = self.data.intrigue.get(card_id)
        if card is None:
            return "R6 (cards)", (
                f"{card_id!r} is not an intrigue card of the data file (add your box's cards: "
                "companion spartacus cards check)"
            )
        if card.kind != kind:
            return "R6 (cards)", f"{card.title} is a {card.kind}, not a {kind}"
        if card_id not in self.playable(seat, kind):
            if self.assist:
                return "R6 (cards)", f"{self.name(seat)}'s hand is empty"
            return "R6 (cards)", f"{card.title} is not in {self.name(seat)}'s hand"
        return None

    def _why_anytime(self, a: A.Action) -> tuple[str, str] | None:
        """Cards played at any time (rules R11, R13a)."""
        by = getattr(a, "by", None)
        if by is not None and by not in self.houses:
            return "action format", f"{by!r} is not a house: {', '.join(self.houses)}"
        if self.config.fight_only:
            return "R11 (reactions)", "the combat assistant has no cards"
        seat = self.actor(a)
        assert seat is not None
        if by is not None and seat == self.current_player:
            return "R11 (reactions)", f"{by} is asked now: leave out the house"
        kind = "guard" if isinstance(a, A.PostGuard) else "reaction"
        found = self._not_held(seat, a.card, kind)
        if found is not None or isinstance(a, A.PostGuard):
            return found
        card = self.intrigue_card(a.card)
        if card.thwarts:
            return "R12 (thwart)", f"{card.title} thwarts a scheme: play it when one is answered"
        if self.influence[seat] < card.influence:
            return "R11 (reactions)", (
                f"{card.title} needs {card.influence} influence of {self.name(seat)}'s own "
                f"(reactions get no support); it has {self.influence[seat]}"
            )
        if a.target not in self.houses:
            return "R11 (reactions)", f"{a.target!r} is not a house: {', '.join(self.houses)}"
        hidden = " (nobody sees it while the gold is hidden)" if self.gold_is_hidden() else ""
        wants = CONDITION_TEXT.get(card.condition or "", str(card.condition))
        return "R11 (reactions)", f"{card.title} is played on {wants}; {a.target} is not{hidden}"

    def _round(self, a: A.Action) -> tuple[str, str] | None:
        p = self.phase
        seat = self.current_player
        if isinstance(a, A.React | A.PostGuard):
            return self._why_anytime(a)
        if isinstance(a, A.Reveal):
            if not self.assist:
                return "A1 (assist mode)", "cards are entered only in assist mode"
            if p == "deal":
                kind = self.deal_queue[0][1]
                return "A1 (the deal)", f"{a.card!r} is not a starting {kind} still to be dealt"
            if p == "auction_reveal":
                return "A5 (auctions)", f"{a.card!r} is not a market card that nobody owns"
            return None
        if isinstance(a, A.UseHouseRule) and p == "intrigue_turn":
            rules = {r.id: r for r in self.data.houses[self.name(seat)].special_rules}
            rule = rules.get(a.rule)
            if rule is None or rule.is_manual:
                usable = [r for r, x in rules.items() if not x.is_manual]
                return "R6a (house rules)", (
                    f"{self.name(seat)}'s house rules that are data: {', '.join(usable) or 'none'}"
                )
            if rule.id in self.rules_used:
                return "R6a (house rules)", f"{rule.title} is used once per intrigue turn"
            return "R6a (house rules)", (
                f"{rule.title}: target {rule.target}, costs {rule.pay} gold"
                + (f" and a ready {rule.exhaust} to exhaust" if rule.exhaust else "")
            )
        if isinstance(a, A.PayUpkeep) and p == "upkeep_pay":
            return "R4 (upkeep)", (
                f"{self.name(seat)} has {self.gold[seat]} gold for "
                f"{self._deficit(seat)} to pay: release gladiators instead"
            )
        if isinstance(a, A.Release) and p == "upkeep_pay":
            return "R4 (upkeep)", "only a ready gladiator of this house can be released"
        if isinstance(a, A.PlayScheme) and p == "intrigue_turn":
            held = self._not_held(seat, a.card, "scheme")
            if held is not None:
                return "R8 (schemes)", held[1]
            card = self.intrigue_card(a.card)
            if a.target not in self.houses or any(
                s not in self.houses or s == self.name(seat) for s in a.supporters
            ):
                return "R8 (schemes)", "name a house as target and other houses as supporters"
            total = self.influence[seat] + sum(
                self.influence[self.seat_of(s)] for s in a.supporters
            )
            if total < card.influence:
                return "R9 (support)", (
                    f"{card.title} needs {card.influence} influence; {total} with this support"
                )
            return "R10 (schemes)", (
                f"{card.title} costs {self._scheme_cost(card)} gold when it succeeds; "
                f"{self.name(seat)} has {self.gold[seat]}"
            )
        if isinstance(a, A.Done) and p == "intrigue_turn":
            return "R7 (hand limit)", (
                f"{self.name(seat)} holds {self.hand_size(seat)} cards, "
                f"the limit at {self.influence[seat]} influence is "
                f"{self.hand_limit(seat)}: sell cards first"
            )
        if isinstance(a, A.SellCard) and p in ("intrigue_turn", "hand_limit"):
            if a.card not in self.data.intrigue:
                return self._not_held(seat, a.card, "scheme")
            return "R6 (cards)", (
                f"{self.name(seat)}'s hand is empty"
                if self.assist
                else f"{a.card!r} is not in {self.name(seat)}'s hand"
            )
        if isinstance(a, A.ExhaustCard) and p == "intrigue_turn":
            return "R6 (intrigue turn)", (
                "only a ready card of this house with an intrigue ability, on a target it may have"
            )
        if isinstance(a, A.Thwart | A.UseGuard) and p == "scheme_response":
            if isinstance(a, A.UseGuard):
                return "R13 (guards)", "only the scheme's target uses guards, its own"
            if a.by is not None and a.by not in self.houses:
                return "action format", f"{a.by!r} is not a house: {', '.join(self.houses)}"
            return (
                "R12 (thwart)",
                "a thwarting reaction from the hand of a house that has not passed, with "
                "enough own influence (reactions get no support)",
            )
        if isinstance(a, A.Bid) and p == "bid":
            return "R17 (secret bids)", (
                f"bid 0..{self._bid_room(seat)} gold (the gold "
                f"{self.name(seat)} has, less gold already on the table)"
            )
        if isinstance(a, A.Trade | A.SellToBank) and p == "market_turn":
            return "R16 (open market)", (
                "only ready property (gladiators, slaves, equipment, guards "
                "on the table) of the house on turn or its partner, for "
                "gold the buyer has; intrigue cards are never traded"
            )
        if isinstance(a, A.Invite) and p == "invite":
            return "R21 (invitations)", (
                "invite a house not yet asked; the host invites itself "
                "only when it is the last house left"
            )
        if isinstance(a, A.Accept) and p in ("invitation", "tournament_pick"):
            return "C8 (equipment)", (
                "a ready gladiator or slave of this house, with at most one "
                "ready weapon, armour and special"
            )
        if isinstance(a, A.Bet) and p == "bets":
            if a.amount < 1 or a.amount > 3:
                return "R23 (bets)", "a bet is 1 to 3 gold"
            return "R23 (bets)", (
                "one bet per corner, gold in hand, and never against one's own fighter"
            )
        if isinstance(a, A.Thumbs) and p == "thumbs":
            return "R27 (life or death)", "a champion cannot be executed"
        return None
