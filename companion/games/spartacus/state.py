"""The Spartacus game state: the rules as a state machine of small actions.

The machinery (legality, ``apply`` with typed rejection, chance nodes, history, replay,
events) is the core's :class:`~companion.games.core.state.GameState`; this module holds
the rules. Every die and card draw is a chance node with exact probabilities.

A full game runs rounds of upkeep, intrigue, market and arena; a fight-only
config (the combat assistant) is one arena fight. Rule numbers in messages
refer to ``docs/rules/spartacus.md``.

In *assist mode* (``config.mode == "assist"``) the players deal the box's cards: the
intrigue hands are counts, a card becomes known when it is played, sold or revealed
(entered by name), and the starting cards dealt and the auction cards are entered
(``reveal <card>``) instead of drawn. Dice stay chance nodes in both modes, so any die
a player rolls can be entered.

Besides the seat asked now (``current_player``), other seats may act out of turn where
the rulebook lets them: reactions at any time, thwarts while a scheme waits for
answers, guards laid on the table, gold given. :meth:`SpartacusState.actor` says whose
an action is, :meth:`SpartacusState.legal_actions_for` what one seat may do now, and
:meth:`SpartacusState.seats_that_may_act` which seats a table should ask.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import cache
from itertools import combinations
from typing import Any

from companion.games.core.errors import IllegalActionError
from companion.games.core.plain import plain
from companion.games.core.state import CHANCE, TERMINAL, GameState
from companion.games.spartacus import actions as A
from companion.games.spartacus.combat import DIE_OF
from companion.games.spartacus.config import FighterSpec, SpartacusConfig
from companion.games.spartacus.data import IntrigueCard, MarketCard
from companion.games.spartacus.fight import Fight, Fighter, roll_outcomes
from companion.games.spartacus.reasons import SpartacusReasons
from companion.games.spartacus.seats import ANYTIME, SpartacusSeats

__all__ = [
    "CHANCE",
    "TERMINAL",
    "IllegalActionError",
    "SpartacusState",
    "new_game",
    "replay",
]

WIN_INFLUENCE = 12
INTRIGUE_DRAW = 3
HEAL_OK, HEAL_DIES = 4, 1  # heal roll: 4-6 healed, 2-3 stays injured, 1 dies
GUARD_OK = 4  # a guard thwarts on 4-6
TRIBUTE_FAVOUR, TRIBUTE_CHAMPION = 2, 6
BET_MIN, BET_MAX = 1, 3
CHAMPION_FAVOURS = 3

LEVEL_WORDS = {"yield": "yields", "injury": "is injured", "decapitation": "is decapitated"}
CHANCE_PHASES = frozenset(
    {
        "host_draw",
        "deal",
        "heal",
        "draw",
        "guard_roll",
        "peek",
        "auction_reveal",
        "rolloff",
    }
)


def _cards(d: dict[str, int]) -> list[str]:
    return [c for c, n in d.items() for _ in range(n)]


@cache
def _gifts(giver: str, receivers: tuple[str, ...], most: int) -> tuple[A.GiveGold, ...]:
    """Every gold transfer from ``giver`` of 1..``most`` gold (made once: every decision
    lists them)."""
    return tuple(A.GiveGold(giver, r, n) for r in receivers for n in range(1, most + 1))


#: Phases that are chance nodes in tracked mode but entries (``reveal``) in assist mode.
ENTERED_IN_ASSIST = frozenset({"deal", "auction_reveal"})


class SpartacusState(SpartacusReasons, SpartacusSeats, GameState):
    """One game of Spartacus (or one fight). Public attributes are read-only views.

    - ``houses[seat]``: house ids; ``gold``, ``influence``: per seat; ``bank``:
      gold paid to the bank minus gold paid out (the bank never runs out);
    - ``property[seat]``: market cards owned (gladiators, slaves, equipment);
      ``exhausted``, ``injured``: card ids; ``favours``, ``champions``;
    - ``hands[seat]``: intrigue card id -> count; ``guards[seat]``: guard cards
      on the table; decks and discards as card id -> count;
    - ``fight``: the :class:`Fight` under way, or None;
    - ``phase``, ``round``, ``host``, ``active``: where the game is.
    """

    CHANCE_PHASES = CHANCE_PHASES
    ACTION = A.Action
    NAME = "a Spartacus"

    def __init__(self, config: SpartacusConfig | None = None) -> None:
        super().__init__(config or SpartacusConfig())

    def _setup(self) -> None:
        config = self.config
        self.data = config.data
        self.arena = config.arena_map
        self.players = config.players
        self.houses: tuple[str, ...] = config.houses
        self.round = 0
        self.fight: Fight | None = None
        self.fight_context: str | None = None  # arena, tournament, assistant
        self.gold = [0] * self.players
        self.influence = [0] * self.players
        self.bank = 0
        self.host: int | None = config.host
        self.active = 0
        self.property: list[list[str]] = [[] for _ in range(self.players)]
        self.owner: dict[str, int] = {}
        self.exhausted: set[str] = set()
        self.injured: set[str] = set()
        self.favours: dict[str, int] = {}
        self.champions: set[str] = set()
        self.hands: list[dict[str, int]] = [{} for _ in range(self.players)]
        self.assist = config.assist  # physical cards: hands are counts (hand_counts)
        self.hand_counts = [0] * self.players
        self.guards: list[list[str]] = [[] for _ in range(self.players)]
        self.intrigue_deck: dict[str, int] = {}
        self.intrigue_discard: dict[str, int] = {}
        self.market_deck: dict[str, int] = {}
        self.market_discard: dict[str, int] = {}
        self.starter_pool: dict[str, dict[str, int]] = {"gladiator": {}, "slave": {}}
        self.deal_queue: list[list[Any]] = []  # [seat, deck, count]
        # upkeep
        self.heal_queue: list[tuple[int, str]] = []
        self.pay_queue: list[int] = []
        self.accounts_round = 0
        # draws (intrigue) and what follows them
        self.draw_queue: list[list[int]] = []  # [seat, count]
        self.after_draw = ""
        # intrigue
        self.turns_left: list[int] = []
        self.limit_queue: list[int] = []
        self.scheme: dict[str, Any] | None = None
        self.effects: list[tuple[str, Any]] = []
        self.peek_pending: tuple[int, int] | None = None
        self.rules_used: set[str] = set()  # house rules used in this intrigue turn
        self._decided: list[A.Action] = []  # the phase's decisions among the legal actions
        # reaction windows open now: (reaction card, target seat); derived, not in the snapshot
        self.windows: set[tuple[str, int]] = set()
        # what each seat has seen of another's hand: (seat, target, card, round); knowledge
        # for the seat's view (privacy.py), not rules state, so not in the snapshot
        self.peeks: list[tuple[int, int, str, int]] = []
        # market
        self.auction_left = 0
        self.auction_card: str | None = None  # None during the host auction
        self.bidders: list[int] = []
        self.bids: dict[int, int] = {}  # this bidding round's secret bids
        self.bid_totals: dict[int, int] = {}
        self.rolloff_seats: list[int] = []
        self.rolloff_rolls: dict[int, int] = {}
        self.rolloff_purpose = ""
        # arena
        self.asked: list[int] = []
        self.invitee: int | None = None
        self.entrants: list[tuple[int, str, tuple[str, ...]]] = []  # seat, fighter, equipment
        self.bettors: list[int] = []
        self.bets: list[tuple[int, str, int]] = []  # seat, kind, stake
        self.fight_result: dict[str, Any] | None = None
        # tie tournament
        self.tournament: dict[str, Any] | None = None
        if config.fight_only:
            self._start_assistant_fight()
        else:
            self._setup_game()
            self.windows = set(self.reaction_windows())

    # ------------------------------------------------------------------ queries

    @property
    def is_chance_node(self) -> bool:
        if self.phase == "fight":
            assert self.fight is not None
            return self.fight.is_chance
        if self.assist and self.phase in ENTERED_IN_ASSIST:
            return False
        return self.phase in CHANCE_PHASES

    @property
    def turn(self) -> int:
        """The game round (a fight: its combat round)."""
        if self.config.fight_only and self.fight is not None:
            return self.fight.round
        return self.round

    def _chooser(self) -> int:
        p = self.phase
        if p == "fight":
            assert self.fight is not None
            side = self.fight.decider()
            assert side is not None
            return self.fight.fighters[side].owner
        if p == "upkeep_pay":
            return self.pay_queue[0]
        if p == "hand_limit":
            return self.limit_queue[0]
        if p == "scheme_response":
            assert self.scheme is not None
            return self.scheme["responders"][0]
        if p == "discard_choice":
            assert self.scheme is not None
            return self.scheme["target"]
        if p == "bid":
            return self.bidders[len(self.bids)]
        if p in ("invite", "thumbs"):
            assert self.host is not None
            return self.host
        if p == "invitation":
            assert self.invitee is not None
            return self.invitee
        if p == "bets":
            return self.bettors[0]
        if p == "tournament_pick":
            assert self.tournament is not None
            return self.tournament["pickers"][0]
        if p == "deal":  # assist mode: the house dealt to says which card it got
            return self.deal_queue[0][0]
        if p == "auction_reveal":  # assist mode: the host turns the auction card
            return self._host()
        return self.active

    def pending_roll(self) -> dict[str, Any] | None:
        """At a chance node that rolls dice: what a table asks the players to roll (or the
        companion rolls): ``who`` (a house, or a fighter I / II), ``seat`` (who rolls it),
        ``purpose``, ``dice`` (how many) and ``die`` (red attack, black defence, blue speed,
        or ``None`` for a plain d6). Any faces entered are an outcome: ``roll <who>
        <purpose> <faces>``. ``None`` elsewhere (a decision, a card drawn, the end)."""
        outcomes = self.chance_outcomes()
        first = outcomes[0][0] if outcomes else None
        if not isinstance(first, A.DiceRoll):
            return None
        die = None
        if self.phase == "fight":
            assert self.fight is not None
            attr = {"initiative": "speed", "defence": "defence", "attack": "attack"}.get(
                first.purpose, "defence" if first.who != self.fight.attacker else "attack"
            )
            if attr == "attack" and self.fight.quick:
                attr = "speed"
            die = DIE_OF[attr]
        seat = (
            self.fight.fighters[first.who].owner
            if self.fight is not None and first.who in A.SIDES
            else self.seat_of(first.who)
        )
        return {
            "who": first.who,
            "seat": seat,
            "purpose": first.purpose,
            "dice": len(first.faces),
            "die": die,
        }

    def seat_name(self, seat: int) -> str:
        return self.houses[seat]

    def seat_of(self, house: str) -> int:
        return self.houses.index(house)

    def hand(self, seat: int) -> list[str]:
        """The cards in a hand (assist mode: unknown, so none)."""
        return _cards(self.hands[seat])

    def hand_size(self, seat: int) -> int:
        if self.assist:
            return self.hand_counts[seat]
        return sum(self.hands[seat].values())

    def hand_limit(self, seat: int) -> int:
        return self.data.hand_limit(self.influence[seat], self.houses[seat])

    def playable(self, seat: int, kind: str, thwarts: bool | None = None) -> list[str]:
        """Intrigue cards of ``kind`` the seat may play from its hand (``thwarts``: only
        thwarting reactions, or only the others): the cards it holds, or in assist mode
        every such card of the data while its hand is not empty."""
        if self.assist:
            if not self.hand_counts[seat]:
                return []
            ids: Iterable[str] = self.data.intrigue
        else:
            ids = [c for c, n in self.hands[seat].items() if n]
        out = []
        for cid in ids:
            card = self.data.intrigue[cid]
            if card.kind == kind and (thwarts is None or card.thwarts == thwarts):
                out.append(cid)
        return out

    def sellable(self, seat: int) -> list[str]:
        """Intrigue cards the seat may sell from its hand."""
        if self.assist:
            return list(self.data.intrigue) if self.hand_counts[seat] else []
        return [c for c, n in self.hands[seat].items() if n]

    def card(self, card_id: str) -> MarketCard:
        return self.data.market[card_id]

    def intrigue_card(self, card_id: str) -> IntrigueCard:
        return self.data.intrigue[card_id]

    def ready(self, seat: int, kind: str | None = None) -> list[str]:
        """Ready (not exhausted) property of ``seat``, optionally of one kind."""
        return [
            c
            for c in self.property[seat]
            if c not in self.exhausted and (kind is None or self.card(c).kind == kind)
        ]

    def ready_fighters(self, seat: int) -> list[str]:
        return [c for c in self.ready(seat) if self.card(c).is_fighter]

    def gold_value(self, seat: int) -> int:
        """Tie tournament: gold value of a house's gladiators and equipment (rule R30)."""
        return sum(
            self.card(c).value
            for c in self.property[seat]
            if self.card(c).kind in ("gladiator", "equipment")
        )

    def total_gold(self) -> int:
        """Gold of the houses + the bank balance + bets on the board: never changes."""
        return sum(self.gold) + self.bank + sum(stake for _, _, stake in self.bets)

    # ------------------------------------------------------------------ legality

    def _chance_outcomes(self) -> list[tuple[A.Action, Fraction]]:
        """At a chance node: each outcome with its exact probability (they sum to 1)."""
        p = self.phase
        if p == "fight":
            assert self.fight is not None
            return self.fight.chance_outcomes()
        if p == "host_draw":
            return [(A.StartHost(h), Fraction(1, self.players)) for h in self.houses]
        if p == "deal":
            seat, deck, _ = self.deal_queue[0]
            pool = self.starter_pool[deck]
            return self._draw_outcomes(self.houses[seat], deck, pool)
        if p == "draw":
            seat = self.draw_queue[0][0]
            return self._draw_outcomes(self.houses[seat], "intrigue", self.intrigue_deck)
        if p == "auction_reveal":
            return self._draw_outcomes("auction", "market", self.market_deck)
        if p == "heal":
            return roll_outcomes(self.houses[self.heal_queue[0][0]], "heal", 1)
        if p == "guard_roll":
            assert self.scheme is not None
            return roll_outcomes(self.houses[self.scheme["target"]], "guard", 1)
        if p == "rolloff":
            seat = next(s for s in self.rolloff_seats if s not in self.rolloff_rolls)
            return roll_outcomes(self.houses[seat], self.rolloff_purpose, 1)
        if p == "peek":
            assert self.peek_pending is not None
            who, target = self.peek_pending
            hand = self.hands[target]
            total = sum(hand.values())
            return [
                (A.Peek(self.houses[who], self.houses[target], c), Fraction(n, total))
                for c, n in hand.items()
                if n
            ]
        return []

    @staticmethod
    def _draw_outcomes(
        who: str, deck: str, pile: dict[str, int]
    ) -> list[tuple[A.Action, Fraction]]:
        total = sum(pile.values())
        return [(A.DrawCard(who, deck, c), Fraction(n, total)) for c, n in pile.items() if n]

    def _choices(self) -> list[A.Action]:
        self._decided = self._decisions()
        return self._decided + self._anytime() + self._corrections()

    def _decisions(self) -> list[A.Action]:
        p = self.phase
        seat = self.current_player
        if p == "fight":
            assert self.fight is not None
            return self.fight.legal()
        if p == "upkeep_pay":
            acts: list[A.Action] = []
            if self.gold[seat] >= self._deficit(seat):
                acts.append(A.PayUpkeep())
            return acts + [A.Release(c) for c in self.ready(seat, "gladiator")]
        if p == "intrigue_turn":
            return self._intrigue_actions(seat)
        if p == "hand_limit":
            return [A.SellCard(c) for c in self.sellable(seat)]
        if p == "scheme_response":
            return self._response_actions(seat)
        if p == "discard_choice":
            assert self.scheme is not None
            return [A.DiscardCard(c) for c in self.ready(seat, self.scheme["discard"])]
        if p == "market_turn":
            return self._market_actions(seat)
        if p == "bid":
            return [A.Bid(n) for n in range(self._bid_room(seat) + 1)]
        if p == "invite":
            return [A.Invite(self.houses[s]) for s in self._invitable()]
        if p == "invitation":
            return [*self._accept_actions(seat), A.Decline()]
        if p == "bets":
            return self._bet_actions(seat)
        if p == "thumbs":
            assert self.fight_result is not None
            acts = [A.Thumbs(True)]
            if self.fight_result["loser_card"] not in self.champions:
                acts.append(A.Thumbs(False))
            return acts
        if p == "tournament_pick":
            return self._accept_actions(seat)
        if p == "deal":  # assist mode
            kind = self.deal_queue[0][1]
            return [A.Reveal(c) for c, n in self.starter_pool[kind].items() if n]
        if p == "auction_reveal":  # assist mode
            return [A.Reveal(c) for c in self._revealable()]
        return []  # pragma: no cover

    def _revealable(self) -> list[str]:
        """Assist mode: market cards that may turn up at an auction: any card nobody owns
        (in the deck or the discard: the table's reshuffle is not the companion's)."""
        return [c for c in self.data.market if c not in self.owner and c != self.auction_card]

    def _corrections(self) -> list[A.Action]:
        """Corrections are accepted at every decision of a full game (never in a fight
        assistant): small fixed steps, so the list stays short."""
        if self.config.fight_only:
            return []
        acts: list[A.Action] = []
        busy = self._busy_cards()
        for s, h in enumerate(self.houses):
            spare = self.gold[s] - self._committed(s)
            acts += [A.AdjustGold(h, d) for d in (1, -1) if spare + d >= 0]
            acts += [A.AdjustInfluence(h, d) for d in (1, -1) if self.influence[s] + d >= 0]
            if spare > 0:  # any amount to any other house (rule R32)
                acts += _gifts(h, tuple(o for o in self.houses if o != h), spare)
            for c in self.property[s]:
                if c in busy:
                    continue
                acts.append(A.LoseCard(h, c))
                acts.append(
                    A.ReadyProperty(h, c) if c in self.exhausted else A.ExhaustProperty(h, c)
                )
        return acts

    def _committed(self, seat: int) -> int:
        """Gold a correction may not take away: bids (secret or on the table) and the
        cost of the scheme being played."""
        held = self.bid_totals.get(seat, 0) + self.bids.get(seat, 0)
        scheme = self.scheme
        if scheme is not None and scheme["player"] == seat and scheme["card"] is not None:
            held += self._scheme_cost(self.intrigue_card(scheme["card"]))
        return held

    def _scheme_cost(self, card: IntrigueCard) -> int:
        """Gold a scheme costs its player when it succeeds: payable when it is played."""
        return (card.effect("pay_each") or 0) * (self.players - 1) + card.cost

    def _busy_cards(self) -> set[str]:
        """Cards a correction may not touch now: in the arena, awaiting a heal roll or fate."""
        busy = {f for _, f, _ in self.entrants} | {c for _, c in self.heal_queue}
        if self.fight is not None:
            busy |= {f.card for f in self.fight.fighters.values() if f.card}
        if self.fight_result is not None:
            busy.add(self.fight_result["loser_card"])
        return busy

    # -- intrigue legality ---------------------------------------------------------------

    def _intrigue_actions(self, seat: int) -> list[A.Action]:
        acts: list[A.Action] = [A.SellCard(c) for c in self.sellable(seat)]
        for cid in self.playable(seat, "scheme"):
            acts += self._scheme_actions(seat, self.intrigue_card(cid))
        acts += self._house_rule_actions(seat)
        for cid in self.ready(seat):
            card = self.card(cid)
            for effect, _ in card.exhaust:
                if effect == "gain_gold":
                    acts.append(A.ExhaustCard(cid, self.houses[seat]))
                elif effect == "peek":
                    acts += [
                        A.ExhaustCard(cid, self.houses[t])
                        for t in range(self.players)
                        if t != seat and self.hand_size(t)
                    ]
        if self.hand_size(seat) <= self.hand_limit(seat):
            acts.append(A.Done())
        return acts

    def _house_rule_actions(self, seat: int) -> list[A.Action]:
        """House rules that are data, once per intrigue turn, when their costs can be paid."""
        acts: list[A.Action] = []
        me = self.houses[seat]
        for rule in self.data.houses[me].special_rules:
            if rule.is_manual or rule.id in self.rules_used or self.gold[seat] < rule.pay:
                continue
            cards: list[str | None] = [None]
            if rule.exhaust is not None:
                cards = list(self.ready(seat, rule.exhaust))
            targets = {
                "self": [seat],
                "other": [t for t in range(self.players) if t != seat],
                "any": list(range(self.players)),
            }[rule.target]
            acts += [A.UseHouseRule(rule.id, self.houses[t], c) for t in targets for c in cards]
        return acts

    def _scheme_actions(self, seat: int, card: IntrigueCard) -> list[A.Action]:
        if self.gold[seat] < self._scheme_cost(card):
            return []
        others = [s for s in range(self.players) if s != seat]
        support_sets: list[tuple[int, ...]] = []
        for k in range(len(others) + 1):
            for combo in combinations(others, k):
                if self.influence[seat] + sum(self.influence[s] for s in combo) >= card.influence:
                    support_sets.append(combo)
        return [
            A.PlayScheme(card.id, self.houses[t], tuple(self.houses[s] for s in combo))
            for t in range(self.players)
            for combo in support_sets
        ]

    def gold_is_hidden(self) -> bool:
        """From the first auction until the host is decided the houses hide their gold:
        "nimmt jeder Spieler sein Gold und verbirgt es" (rule R16)."""
        return self.phase in ("auction_reveal", "bid") or (
            self.phase == "rolloff" and self.rolloff_purpose == "host"
        )

    def _meets(self, seat: int, condition: str | None) -> bool:
        """Whether a house meets a reaction's condition as everyone can see it (ruling
        R11b: nobody can see that a house has no gold while the gold is hidden)."""
        if condition == "no_gold":
            return self.gold[seat] == 0 and not self.gold_is_hidden()
        if condition == "no_slaves":
            return not self.ready(seat, "slave")
        return True

    def _response_actions(self, seat: int) -> list[A.Action]:
        """The answers to a scheme (rules R12, R13): the house asked passes; any house not
        yet passed may thwart it, with its own influence; its target may send guards."""
        assert self.scheme is not None
        acts: list[A.Action] = [A.Pass()]
        for s in self.scheme["responders"]:
            by = None if s == seat else self.houses[s]
            acts += [
                A.Thwart(cid, by)
                for cid in self.playable(s, "reaction", thwarts=True)
                if self.influence[s] >= self.intrigue_card(cid).influence
            ]
        target = self.scheme["target"]
        if target in self.scheme["responders"]:
            acts += [A.UseGuard(c, "hand") for c in self.playable(target, "guard")]
            acts += [A.UseGuard(c, "table") for c in dict.fromkeys(self.guards[target])]
        return acts

    # -- market legality -----------------------------------------------------------------

    def tradeable(self, seat: int) -> list[str]:
        """Ready property and guards on the table: what the open market can move."""
        return self.ready(seat) + list(dict.fromkeys(self.guards[seat]))

    def _market_actions(self, seat: int) -> list[A.Action]:
        acts: list[A.Action] = [A.SellToBank(c) for c in self.tradeable(seat)]
        me = self.houses[seat]
        for other in range(self.players):
            if other == seat:
                continue
            them = self.houses[other]
            for c in self.tradeable(seat):
                acts += [A.Trade(me, them, c, g) for g in range(self.gold[other] + 1)]
            for c in self.tradeable(other):
                acts += [A.Trade(them, me, c, g) for g in range(self.gold[seat] + 1)]
        acts.append(A.Done())
        return acts

    def _bid_room(self, seat: int) -> int:
        return self.gold[seat] - self.bid_totals.get(seat, 0)

    # -- arena legality ------------------------------------------------------------------

    def _invitable(self) -> list[int]:
        assert self.host is not None
        asked = set(self.asked)
        others = [s for s in self._seats_from(self.host) if s != self.host and s not in asked]
        candidates = others + ([self.host] if self.host not in asked else [])
        return candidates

    def _accept_actions(self, seat: int) -> list[A.Action]:
        fighters = self.ready_fighters(seat)
        if not fighters:
            return []
        by_type: dict[str, list[str | None]] = {
            "weapon": [None],
            "armour": [None],
            "special": [None],
        }
        for c in self.ready(seat, "equipment"):
            etype = self.card(c).equipment_type
            assert etype is not None
            by_type[etype].append(c)
        acts: list[A.Action] = []
        for f in fighters:
            for w in by_type["weapon"]:
                for a in by_type["armour"]:
                    for s in by_type["special"]:
                        acts.append(A.Accept(f, tuple(x for x in (w, a, s) if x)))
        return acts

    def _bet_actions(self, seat: int) -> list[A.Action]:
        placed = {k for s, k, _ in self.bets if s == seat}
        own_side = next(
            (("I", "II")[i] for i, (s, _, _) in enumerate(self.entrants) if s == seat), None
        )
        acts: list[A.Action] = []
        for kind in A.BET_KINDS:
            if kind in placed:
                continue
            if own_side is not None and kind.startswith("winner-") and kind != f"winner-{own_side}":
                continue  # never against one's own fighter (rule R23)
            acts += [A.Bet(kind, n) for n in range(BET_MIN, min(BET_MAX, self.gold[seat]) + 1)]
        acts.append(A.Done())
        return acts

    # ------------------------------------------------------------------ apply

    def _dispatch(self, action: A.Action) -> None:
        """Corrections, then what they leave behind; a fight's actions go to the fight."""
        if action.is_correction:
            super()._dispatch(action)
            self._after_correction()
        elif self.phase == "fight" and not isinstance(action, ANYTIME):
            assert self.fight is not None
            self.fight.apply(action)
            if self.fight.over:
                self._fight_over()
        else:
            super()._dispatch(action)
        if not self.config.fight_only:
            self._note_windows()

    def _seats_from(self, first: int) -> list[int]:
        return [(first + i) % self.players for i in range(self.players)]

    def name(self, seat: int) -> str:
        return self.houses[seat]

    # -- gold and influence: the only places they change ---------------------------------

    def _gold(self, seat: int, delta: int, reason: str) -> None:
        """Gold between a house and the bank."""
        self.gold[seat] += delta
        self.bank -= delta
        self._emit(
            "gold",
            f"{self.name(seat)} {'+' if delta >= 0 else ''}{delta} gold ({reason})",
            seat=seat,
            delta=delta,
            reason=reason,
        )

    def _transfer(self, giver: int, receiver: int, amount: int, reason: str) -> None:
        self.gold[giver] -= amount
        self.gold[receiver] += amount
        self._emit(
            "gold_transfer",
            f"{self.name(giver)} pays {amount} gold to {self.name(receiver)} ({reason})",
            giver=giver,
            receiver=receiver,
            amount=amount,
            reason=reason,
        )

    def _influence(self, seat: int, delta: int, reason: str) -> None:
        new = max(0, self.influence[seat] + delta)
        if new == self.influence[seat]:
            return
        change = new - self.influence[seat]
        self.influence[seat] = new
        self._emit(
            "influence",
            f"{self.name(seat)} {'+' if change > 0 else ''}{change} influence ({reason}): {new}",
            seat=seat,
            delta=change,
            reason=reason,
        )

    # -- property ------------------------------------------------------------------------

    def _gain_card(self, seat: int, card: str, reason: str) -> None:
        self.property[seat].append(card)
        self.owner[card] = seat
        if card in self.champions:
            self._influence(seat, +1, "champion")
        self._emit(
            "card_gained",
            f"{self.name(seat)} gains {self.card(card).title} ({reason})",
            seat=seat,
            card=card,
            reason=reason,
        )

    def _lose_card(self, card: str, reason: str, keep_status: bool = False) -> None:
        """A property card leaves its house; to the market discard unless traded."""
        seat = self.owner.pop(card)
        self.property[seat].remove(card)
        if card in self.champions:
            self._influence(seat, -1, "champion_lost")
        if not keep_status:
            self.champions.discard(card)
            self.favours.pop(card, None)
            self.exhausted.discard(card)
            self.injured.discard(card)
            self.market_discard[card] = self.market_discard.get(card, 0) + 1
        self._emit(
            "card_lost",
            f"{self.name(seat)} loses {self.card(card).title} ({reason})",
            seat=seat,
            card=card,
            reason=reason,
        )

    # -- setup ---------------------------------------------------------------------------

    def _setup_game(self) -> None:
        data, cfg = self.data, self.config
        start = cfg.start_influence()
        deck = dict.fromkeys(data.intrigue, 0)
        for cid in data.intrigue_deck():
            deck[cid] += 1
        guard_ids = [c.id for c in data.intrigue.values() if c.kind == "guard"]
        for seat, hid in enumerate(self.houses):
            house = data.houses[hid]
            self.gold[seat] = house.gold
            self.bank -= house.gold
            self.influence[seat] = start
            for _ in range(house.guards):
                gid = next((g for g in guard_ids if deck[g] or self.assist), None)
                if gid is None:
                    break
                deck[gid] -= 1
                self.guards[seat].append(gid)
        # assist mode: the deck is on the table, shuffled by the players; not modelled
        self.intrigue_deck = {} if self.assist else deck
        self.intrigue_discard = dict.fromkeys(data.intrigue, 0)
        for kind in ("gladiator", "slave"):
            self.starter_pool[kind] = dict.fromkeys(data.starters(kind), 1)
        self.market_deck = dict.fromkeys(data.market_deck(), 1)
        for seat, hid in enumerate(self.houses):
            house = data.houses[hid]
            for kind, n in (("gladiator", house.gladiators), ("slave", house.slaves)):
                if n:
                    self.deal_queue.append([seat, kind, n])
        self._emit(
            "setup",
            f"{self.players} houses: {', '.join(self.houses)}; "
            f"{cfg.length} game, {start} influence each",
            houses=list(self.houses),
        )
        self._advance_setup()

    def _advance_setup(self) -> None:
        if self.host is None and self.config.opening == "dice":
            self._start_rolloff(list(range(self.players)), "opening")
        elif self.host is None:
            self.phase = "host_draw"
        elif self.deal_queue:
            self.phase = "deal"
        else:
            for kind in ("gladiator", "slave"):  # unused starters join the market deck
                for c, n in self.starter_pool[kind].items():
                    if n:
                        self.market_deck[c] = 1
                self.starter_pool[kind] = {}
            self._start_round()

    def _do_StartHost(self, a: A.StartHost) -> None:
        self.host = self.seat_of(a.house)
        self._emit("host", f"{a.house} wins the opening roll: host marker", seat=self.host)
        self._advance_setup()

    def _deal(self, card: str) -> None:
        """A starting gladiator or slave dealt to the house whose turn of the deal it is."""
        seat, kind, _ = self.deal_queue[0]
        self.starter_pool[kind][card] -= 1
        self._gain_card(seat, card, "starting " + kind)
        self.deal_queue[0][2] -= 1
        if self.deal_queue[0][2] == 0:
            self.deal_queue.pop(0)
        self._advance_setup()

    def _do_DrawCard(self, a: A.DrawCard) -> None:
        if self.phase == "deal":
            self._deal(a.card)
        elif self.phase == "draw":
            seat = self.draw_queue[0][0]
            self.intrigue_deck[a.card] -= 1
            self.hands[seat][a.card] = self.hands[seat].get(a.card, 0) + 1
            self._emit_private(
                seat,
                "card_drawn",
                f"{self.name(seat)} draws {self.intrigue_card(a.card).title}",
                f"{self.name(seat)} draws an intrigue card",
                ("card",),
                seat=seat,
                card=a.card,
            )
            self.draw_queue[0][1] -= 1
            self._continue_draws()
        else:  # auction_reveal
            self.market_deck[a.card] -= 1
            self._reveal_auction(a.card)

    def _do_Reveal(self, a: A.Reveal) -> None:
        """Assist mode: a starting card dealt, or the auction card turned up."""
        if self.phase == "deal":
            self._deal(a.card)
            return
        for pile in (self.market_deck, self.market_discard):
            if pile.get(a.card):
                pile[a.card] -= 1
                break
        self._reveal_auction(a.card)

    def _reveal_auction(self, card_id: str) -> None:
        self.auction_card = card_id
        c = self.card(card_id)
        self._emit("auction_card", f"auction: {c.title} ({c.kind}, value {c.value})", card=card_id)
        self._start_bidding(list(self._seats_from(self._host())))

    def _host(self) -> int:
        assert self.host is not None
        return self.host

    # -- rounds and upkeep (rules R1-R4) -------------------------------------------------

    def _start_round(self) -> None:
        self.round += 1
        self._emit("turn_started", f"round {self.round}", round=self.round)  # checkpoints
        self._emit("round_started", f"round {self.round}: upkeep", round=self.round)
        readied = [c for c in sorted(self.exhausted) if c not in self.injured]
        for c in readied:
            self.exhausted.discard(c)
        if readied:
            self._emit("readied", f"ready again: {', '.join(readied)}", cards=readied)
        self.heal_queue = [
            (s, c)
            for s in self._seats_from(self._host())
            for c in self.property[s]
            if c in self.injured
        ]
        self._continue_upkeep()

    def _continue_upkeep(self) -> None:
        if self.heal_queue:
            self.phase = "heal"
            return
        if self.accounts_round != self.round:
            self.accounts_round = self.round
            self.pay_queue = []
            for s in self._seats_from(self._host()):
                net = len(self.ready(s, "slave")) - len(self.ready(s, "gladiator"))
                if net >= 0:
                    if net:
                        self._gold(s, net, "upkeep: ready slaves earn, ready gladiators cost")
                    else:
                        self._emit("upkeep", f"{self.name(s)}: upkeep even", seat=s)
                else:
                    self.pay_queue.append(s)
        if self.pay_queue:
            self.phase = "upkeep_pay"
            return
        self._start_intrigue()

    def _deficit(self, seat: int) -> int:
        return len(self.ready(seat, "gladiator")) - len(self.ready(seat, "slave"))

    def _do_PayUpkeep(self, a: A.PayUpkeep) -> None:
        seat = self.pay_queue.pop(0)
        self._gold(seat, -self._deficit(seat), "upkeep: gladiators cost more than slaves earn")
        self._continue_upkeep()

    def _do_Release(self, a: A.Release) -> None:
        seat = self.pay_queue[0]
        self._lose_card(a.card, "released instead of paying its upkeep")
        if self._deficit(seat) <= 0:
            self.pay_queue.pop(0)
            net = -self._deficit(seat)
            if net:
                self._gold(seat, net, "upkeep: ready slaves earn, ready gladiators cost")
        self._continue_upkeep()

    # heal rolls share DiceRoll with the other table dice ---------------------------------

    def _do_DiceRoll(self, a: A.DiceRoll) -> None:
        face = a.faces[0]
        if self.phase == "heal":
            seat, card = self.heal_queue.pop(0)
            title = self.card(card).title
            if face >= HEAL_OK:
                self.injured.discard(card)
                self.exhausted.discard(card)
                self._emit(
                    "healed",
                    f"{self.name(seat)}: {title} heals (rolled {face})",
                    seat=seat,
                    card=card,
                    face=face,
                )
            elif face <= HEAL_DIES:
                self._emit(
                    "died",
                    f"{self.name(seat)}: {title} dies of the wounds (rolled 1)",
                    seat=seat,
                    card=card,
                    face=face,
                )
                self._lose_card(card, "died of the injury")
            else:
                self._emit(
                    "still_injured",
                    f"{self.name(seat)}: {title} stays injured (rolled {face})",
                    seat=seat,
                    card=card,
                    face=face,
                )
            self._continue_upkeep()
        elif self.phase == "guard_roll":
            assert self.scheme is not None
            ok = face >= GUARD_OK
            self._emit(
                "guard_rolled",
                f"{self.name(self.scheme['target'])}'s guard rolls {face}: "
                f"{'the scheme is thwarted' if ok else 'the guard fails'}",
                face=face,
                success=ok,
            )
            if ok:
                self._thwarted("a guard")
            else:
                self.phase = "scheme_response"
        else:  # rolloff
            seat = next(s for s in self.rolloff_seats if s not in self.rolloff_rolls)
            self.rolloff_rolls[seat] = face
            self._emit(
                "rolloff",
                f"{self.name(seat)} rolls {face} ({self.rolloff_purpose})",
                seat=seat,
                face=face,
                purpose=self.rolloff_purpose,
            )
            if len(self.rolloff_rolls) == len(self.rolloff_seats):
                self._rolloff_done()

    # -- intrigue (rules R5-R14) ---------------------------------------------------------

    def _start_intrigue(self) -> None:
        self.phase = "intrigue"
        self._emit("phase", f"round {self.round}: intrigue", phase="intrigue")
        self.draw_queue = [[s, INTRIGUE_DRAW] for s in self._seats_from(self._host())]
        self.after_draw = "intrigue_turns"
        self._continue_draws()

    def _draw_at_table(self, seat: int, n: int) -> None:
        """Assist mode: the house draws from the table's deck; its hand is a count."""
        self.hand_counts[seat] += n
        self._emit(
            "cards_drawn",
            f"{self.name(seat)} draws {n} intrigue card{'s' if n > 1 else ''} "
            f"(holds {self.hand_counts[seat]})",
            seat=seat,
            count=n,
        )

    def _continue_draws(self) -> None:
        if self.assist:
            for seat, n in self.draw_queue:
                self._draw_at_table(seat, n)
            self.draw_queue = []
        while self.draw_queue:
            if self.draw_queue[0][1] <= 0:
                self.draw_queue.pop(0)
                continue
            if not any(self.intrigue_deck.values()):
                if not any(self.intrigue_discard.values()):
                    self._emit("deck_empty", "the intrigue deck and discard are empty: no draw")
                    self.draw_queue = []
                    break
                self.intrigue_deck, self.intrigue_discard = (
                    self.intrigue_discard,
                    dict.fromkeys(self.intrigue_discard, 0),
                )
                self._emit("reshuffled", "the intrigue discard is shuffled into a new deck")
            self.phase = "draw"
            return
        after, self.after_draw = self.after_draw, ""
        if after == "intrigue_turns":
            self.turns_left = self._seats_from(self._host())
            self._next_intrigue_turn()
        else:  # "effects"
            self._run_effects()

    def _next_intrigue_turn(self) -> None:
        if not self.turns_left:
            # R7: at the end of the phase every hand is within its limit (cards drawn or
            # influence lost after a house's own turn): the houses over it sell down
            self.limit_queue = [
                s for s in self._seats_from(self._host()) if self.hand_size(s) > self.hand_limit(s)
            ]
            self._continue_hand_limit()
            return
        self.active = self.turns_left.pop(0)
        self.phase = "intrigue_turn"
        self.rules_used = set()
        self._emit("intrigue_turn", f"{self.name(self.active)}'s intrigue turn", seat=self.active)
        for step in self.manual_steps():
            self._emit(
                "manual_step",
                f"{self.name(self.active)}, {step['title']}: {step['text']}",
                **step,
            )

    def _continue_hand_limit(self) -> None:
        while self.limit_queue and self.hand_size(self.limit_queue[0]) <= self.hand_limit(
            self.limit_queue[0]
        ):
            self.limit_queue.pop(0)
        if self.limit_queue:
            self.phase = "hand_limit"
            return
        if self._victory_check("intrigue"):
            return
        self._start_market()

    def _discard_intrigue(self, card: str) -> None:
        self.intrigue_discard[card] = self.intrigue_discard.get(card, 0) + 1

    def _from_hand(self, seat: int, card: str) -> None:
        """A card leaves the hand (in assist mode: one card fewer, now known)."""
        if self.assist:
            self.hand_counts[seat] -= 1
        else:
            self.hands[seat][card] -= 1

    def _take_from_hand(self, seat: int, card: str) -> None:
        self._from_hand(seat, card)
        self._discard_intrigue(card)

    def _do_SellCard(self, a: A.SellCard) -> None:
        seat = self.current_player
        self._take_from_hand(seat, a.card)
        card = self.intrigue_card(a.card)
        self._emit("card_sold", f"{self.name(seat)} sells {card.title}", seat=seat, card=a.card)
        if card.value:
            self._gold(seat, card.value, f"sold {card.title}")
        if self.phase == "hand_limit":
            self._continue_hand_limit()

    def _do_PostGuard(self, a: A.PostGuard) -> None:
        seat = self.actor(a)
        assert seat is not None
        self._from_hand(seat, a.card)
        self.guards[seat].append(a.card)
        self._emit("guard_posted", f"{self.name(seat)} posts a guard on the table", seat=seat)

    def _do_Done(self, a: A.Done) -> None:
        if self.phase == "intrigue_turn":
            # public, as a pass is at the table (it left no event: nobody saw it)
            seat = self.active
            self._emit(
                "intrigue_done", f"{self.name(seat)} passes: its intrigue turn is over", seat=seat
            )
            self._next_intrigue_turn()
        elif self.phase == "market_turn":
            seat = self.active  # public too: the next house's market turn begins
            self._emit("market_done", f"{self.name(seat)} is done at the market", seat=seat)
            self._next_market_turn()
        else:  # bets
            self.bettors.pop(0)
            self._continue_bets()

    def _do_PlayScheme(self, a: A.PlayScheme) -> None:
        seat = self.active
        card = self.intrigue_card(a.card)
        self._from_hand(seat, a.card)
        target = self.seat_of(a.target)
        supporters = [self.seat_of(s) for s in a.supporters]
        self.scheme = {
            "card": a.card,
            "player": seat,
            "target": target,
            "supporters": supporters,
            "responders": [s for s in self._seats_from(seat) if s != seat],
            "discard": None,
        }
        support = f" with the support of {', '.join(a.supporters)}" if a.supporters else ""
        self._emit(
            "scheme_played",
            f"{self.name(seat)} plays {card.title} on {a.target}"
            f"{support} (needs {card.influence} influence)",
            seat=seat,
            card=a.card,
            target=target,
            supporters=supporters,
        )
        self.phase = "scheme_response"

    def _do_Pass(self, a: A.Pass) -> None:
        assert self.scheme is not None
        seat = self.scheme["responders"].pop(0)
        # public, as at the table (it left no event: the others could not see who passed);
        # it says nothing of the house's hand
        title = self.intrigue_card(self.scheme["card"]).title
        self._emit("passed", f"{self.name(seat)} passes on {title}", seat=seat)
        if not self.scheme["responders"]:
            self._scheme_succeeds()

    def _do_Thwart(self, a: A.Thwart) -> None:
        seat = self.actor(a)
        assert seat is not None
        self._take_from_hand(seat, a.card)
        self._thwarted(f"{self.name(seat)}'s {self.intrigue_card(a.card).title}")

    def _do_UseGuard(self, a: A.UseGuard) -> None:
        assert self.scheme is not None
        seat = self.scheme["target"]
        if a.source == "hand":
            self._take_from_hand(seat, a.card)
        else:
            self.guards[seat].remove(a.card)
            self._discard_intrigue(a.card)
        self._emit(
            "guard_used",
            f"{self.name(seat)} sends a guard ({a.source}), discarded",
            seat=seat,
            source=a.source,
        )
        self.phase = "guard_roll"

    def _thwarted(self, by: str) -> None:
        assert self.scheme is not None
        card = self.intrigue_card(self.scheme["card"])
        self._discard_intrigue(card.id)
        self._emit(
            "scheme_thwarted", f"{card.title} is thwarted by {by}: no effect, no cost", card=card.id
        )
        self.scheme = None
        self.phase = "intrigue_turn"

    def _scheme_succeeds(self) -> None:
        assert self.scheme is not None
        card = self.intrigue_card(self.scheme["card"])
        self._emit("scheme_succeeds", f"{card.title} succeeds", card=card.id)
        if card.cost:
            self._gold(self.scheme["player"], -card.cost, f"the cost of {card.title}")
        self.effects = list(card.effects)
        if card.manual:
            self._emit("manual_effect", f"{card.title}: {card.manual}", card=card.id)
        self._run_effects()

    def _run_effects(self) -> None:
        """Apply the scheme's effects in order; draws, discards and peeks pause it."""
        assert self.scheme is not None
        player, target = self.scheme["player"], self.scheme["target"]
        while self.effects:
            effect, value = self.effects.pop(0)
            if effect == "pay_each":
                for s in range(self.players):
                    if s != player:
                        self._transfer(player, s, value, "scheme")
            elif effect == "gain_gold":
                self._gold(target, value, "scheme")
            elif effect == "gold_per_ready_slave":
                n = len(self.ready(target, "slave"))
                if n:
                    self._gold(target, value * n, f"scheme: {n} ready slave(s)")
            elif effect == "influence":
                self._influence(target, value, "scheme")
            elif effect == "draw" and self.assist:
                self._draw_at_table(target, value)
            elif effect == "draw":
                self.draw_queue = [[target, value]]
                self.after_draw = "effects"
                self._continue_draws()
                return
            elif effect == "discard":
                choices = self.ready(target, value)
                if len(choices) == 1:
                    self._lose_card(choices[0], "scheme: discarded")
                elif choices:
                    self.scheme["discard"] = value
                    self.phase = "discard_choice"
                    return
            elif effect == "peek" and self.hand_size(target):
                if self.assist:
                    self._peek_at_table(player, target)
                    continue
                self.peek_pending = (player, target)
                self.phase = "peek"
                return
        if self.scheme["card"] is not None:  # None: a house rule
            self._discard_intrigue(self.scheme["card"])
        self.scheme = None
        self.phase = "intrigue_turn"

    def _peek_at_table(self, who: int, target: int) -> None:
        """Assist mode: the player looks at a random card of the target's real hand."""
        self._emit(
            "peek_at_table",
            f"{self.name(who)} looks at a random card of {self.name(target)}'s hand",
            seat=who,
            target=target,
        )

    def _do_DiscardCard(self, a: A.DiscardCard) -> None:
        self._lose_card(a.card, "scheme: discarded")
        self._run_effects()

    def _do_Peek(self, a: A.Peek) -> None:
        assert self.peek_pending is not None
        who, target = self.peek_pending
        self.peek_pending = None
        self.peeks.append((who, target, a.card, self.round))
        self._emit_private(
            who,
            "peeked",
            f"{self.name(who)} sees {self.intrigue_card(a.card).title} in "
            f"{self.name(target)}'s hand",
            f"{self.name(who)} looks at a card of {self.name(target)}",
            ("card",),
            seat=who,
            target=target,
            card=a.card,
        )
        if self.scheme is not None:
            self._run_effects()
        else:
            self.phase = "intrigue_turn"

    def _do_ExhaustCard(self, a: A.ExhaustCard) -> None:
        seat = self.active
        card = self.card(a.card)
        self.exhausted.add(a.card)
        self._emit("exhausted", f"{self.name(seat)} exhausts {card.title}", seat=seat, card=a.card)
        for effect, value in card.exhaust:
            if effect == "gain_gold":
                self._gold(seat, value, f"{card.title}'s ability")
            elif effect == "peek" and self.assist:
                self._peek_at_table(seat, self.seat_of(a.target))
            elif effect == "peek":
                self.peek_pending = (seat, self.seat_of(a.target))
                self.phase = "peek"

    def _do_UseHouseRule(self, a: A.UseHouseRule) -> None:
        seat = self.active
        house = self.data.houses[self.houses[seat]]
        rule = next(r for r in house.special_rules if r.id == a.rule)
        self.rules_used.add(rule.id)
        self._emit(
            "house_rule",
            f"{self.name(seat)} uses the house rule {rule.title} on {a.target}",
            seat=seat,
            rule=rule.id,
            target=self.seat_of(a.target),
        )
        if a.card is not None:
            self.exhausted.add(a.card)
            self._emit(
                "exhausted", f"{self.name(seat)} exhausts {self.card(a.card).title}", card=a.card
            )
        if rule.pay:
            self._gold(seat, -rule.pay, f"house rule {rule.title}")
        self.scheme = {
            "card": None,
            "player": seat,
            "target": self.seat_of(a.target),
            "supporters": [],
            "responders": [],
            "discard": None,
            "rule": rule.id,
        }
        self.effects = list(rule.effects)
        self._run_effects()

    def _do_React(self, a: A.React) -> None:
        seat = self.actor(a)
        assert seat is not None
        card = self.intrigue_card(a.card)
        self._take_from_hand(seat, a.card)
        target = self.seat_of(a.target)
        self._emit(
            "reaction_played",
            f"{self.name(seat)} plays {card.title} on {a.target}",
            seat=seat,
            card=a.card,
            target=target,
        )
        for effect, value in card.effects:
            if effect == "influence":
                self._influence(target, value, "reaction")
            elif effect == "gain_gold":
                self._gold(target, value, "reaction")

    # -- market (rules R15-R19) ----------------------------------------------------------

    def _start_market(self) -> None:
        self._emit("phase", f"round {self.round}: market", phase="market")
        self.turns_left = self._seats_from(self._host())
        self._next_market_turn()

    def _next_market_turn(self) -> None:
        if self.turns_left:
            self.active = self.turns_left.pop(0)
            self.phase = "market_turn"
            return
        self.auction_left = self.players
        self._next_auction()

    def _do_SellToBank(self, a: A.SellToBank) -> None:
        seat = self.active
        if a.card in self.data.intrigue:  # a guard on the table
            self.guards[seat].remove(a.card)
            self._discard_intrigue(a.card)
            card_value, title = self.intrigue_card(a.card).value, "a guard"
        else:
            card = self.card(a.card)
            self._lose_card(a.card, "sold to the bank")
            card_value, title = card.value, card.title
        self._gold(seat, card_value, f"sold {title} to the bank")

    def _do_Trade(self, a: A.Trade) -> None:
        seller, buyer = self.seat_of(a.seller), self.seat_of(a.buyer)
        if a.card in self.data.intrigue:
            self.guards[seller].remove(a.card)
            self.guards[buyer].append(a.card)
            self._emit(
                "traded",
                f"{a.seller} hands a guard to {a.buyer}",
                seller=seller,
                buyer=buyer,
                card=a.card,
            )
        else:
            self._lose_card(a.card, f"traded to {a.buyer}", keep_status=True)
            self._gain_card(buyer, a.card, f"bought from {a.seller}")
        if a.gold:
            self._transfer(buyer, seller, a.gold, "trade")

    def _next_auction(self) -> None:
        if self.auction_left > 0:
            self.auction_left -= 1
            if not any(self.market_deck.values()) and any(self.market_discard.values()):
                self.market_deck, self.market_discard = self.market_discard, {}
                self._emit("reshuffled", "the market discard is shuffled into a new deck")
            if any(self.market_deck.values()):
                self.phase = "auction_reveal"
                return
            self._emit("deck_empty", "the market deck is empty: no more auctions")
            self.auction_left = 0
        self.auction_card = None
        self._emit("host_auction", "bidding for the honour of hosting the games")
        self._start_bidding(self._seats_from(self._host()))

    def _start_bidding(self, bidders: list[int]) -> None:
        self.bidders = list(bidders)
        self.bids = {}
        self.bid_totals = {}
        self.phase = "bid"

    def _do_Bid(self, a: A.Bid) -> None:
        seat = self.current_player
        self.bids[seat] = a.amount
        self._emit("bid_entered", f"{self.name(seat)} has bid (hidden)", seat=seat)
        if len(self.bids) < len(self.bidders):
            return
        bids = dict(self.bids)
        self._emit(
            "bids_revealed",
            "bids: " + ", ".join(f"{self.name(s)} {bids[s]}" for s in self.bidders),
            bids={str(s): bids[s] for s in self.bidders},
        )
        for s, n in bids.items():
            self.bid_totals[s] = self.bid_totals.get(s, 0) + n
        if sum(bids.values()) == 0:
            self._auction_failed()
            return
        top = max(self.bid_totals[s] for s in self.bidders)
        tied = [s for s in self.bidders if self.bid_totals[s] == top]
        if len(tied) == 1:
            self._auction_won(tied[0], top)
            return
        self._emit(
            "bid_tie",
            f"tie at {top}: {', '.join(self.name(s) for s in tied)} put their "
            "gold on the table and bid more",
            seats=tied,
            total=top,
        )
        self.bidders = tied
        self.bids = {}

    def _auction_won(self, seat: int, amount: int) -> None:
        card = self.auction_card
        if card is None:
            self._gold(seat, -amount, "won the bidding to host the games")
            self._set_host(seat)
            return
        self._gold(seat, -amount, f"won {self.card(card).title} at auction")
        self._gain_card(seat, card, "auction")
        self.auction_card = None
        self._next_auction()

    def _auction_failed(self) -> None:
        card = self.auction_card
        if card is None:  # the host auction: the remaining bidders roll (rule R19)
            self._emit(
                "auction_failed",
                "nobody adds gold: the remaining bidders roll for the "
                "host marker; the bids go back",
            )
            self._start_rolloff(self.bidders, "host")
            return
        self._emit(
            "auction_failed",
            f"nobody adds gold: {self.card(card).title} is discarded and the bids go back",
            card=card,
        )
        self.market_discard[card] = self.market_discard.get(card, 0) + 1
        self.auction_card = None
        self._next_auction()

    def _set_host(self, seat: int) -> None:
        self.host = seat
        self._emit("host", f"{self.name(seat)} hosts the games", seat=seat)
        self.bidders, self.bids, self.bid_totals = [], {}, {}
        if self._victory_check("market"):
            return
        self._start_arena()

    def _start_rolloff(self, seats: list[int], purpose: str) -> None:
        self.rolloff_seats = list(seats)
        self.rolloff_rolls = {}
        self.rolloff_purpose = purpose
        self.phase = "rolloff"

    def _rolloff_done(self) -> None:
        rolls = self.rolloff_rolls
        top = max(rolls.values())
        best = [s for s in self.rolloff_seats if rolls[s] == top]
        if self.rolloff_purpose == "tiebreak":
            self._tiebreak_done()
            return
        if len(best) > 1:
            self._emit("rolloff_tie", "a tie at the top: those roll again", seats=best)
            self._start_rolloff(best, self.rolloff_purpose)
            return
        if self.rolloff_purpose == "opening":
            self.rolloff_seats, self.rolloff_rolls, self.rolloff_purpose = [], {}, ""
            self._do_StartHost(A.StartHost(self.houses[best[0]]))
        elif self.rolloff_purpose == "host":
            self._set_host(best[0])
        else:  # tournament: a fight neither house can fight
            self._tournament_fight_won(best[0])

    # -- arena (rules R20-R28) -----------------------------------------------------------

    def _start_arena(self) -> None:
        host = self._host()
        self._emit(
            "phase", f"round {self.round}: arena, hosted by {self.name(host)}", phase="arena"
        )
        self._influence(host, +1, "host")
        self.asked, self.entrants, self.bets = [], [], []
        self.fight_result = None
        self._next_invitation()

    def _next_invitation(self) -> None:
        if len(self.entrants) == 2:
            self._tribute()
            return
        if not self._invitable():
            self._emit("no_fight", "only one house (or none) accepted: no fight this round")
            self._end_arena()
            return
        self.phase = "invite"

    def _do_Invite(self, a: A.Invite) -> None:
        seat = self.seat_of(a.house)
        self.asked.append(seat)
        self.invitee = seat
        self._emit("invited", f"{self.name(self._host())} invites {a.house}", seat=seat)
        self.phase = "invitation"

    def _do_Decline(self, a: A.Decline) -> None:
        seat = self.invitee
        assert seat is not None
        self._emit("declined", f"{self.name(seat)} declines (boo!)", seat=seat)
        self._influence(seat, -1, "decline")
        self.invitee = None
        self._next_invitation()

    def _do_Accept(self, a: A.Accept) -> None:
        if self.phase == "tournament_pick":
            self._tournament_pick(a)
            return
        seat = self.invitee
        assert seat is not None
        side = ("I", "II")[len(self.entrants)]
        self.entrants.append((seat, a.fighter, a.equipment))
        gear = f" with {', '.join(self.card(e).title for e in a.equipment)}" if a.equipment else ""
        self._emit(
            "accepted",
            f"{self.name(seat)} sends {self.card(a.fighter).title}{gear} to hex {side}",
            seat=seat,
            side=side,
            fighter=a.fighter,
            equipment=list(a.equipment),
        )
        self.invitee = None
        self._next_invitation()

    def _tribute(self) -> None:
        for seat, fighter, _ in self.entrants:
            if fighter in self.champions:
                self._gold(seat, TRIBUTE_CHAMPION, "tribute for a champion")
            elif self.favours.get(fighter):
                self._gold(seat, TRIBUTE_FAVOUR * self.favours[fighter], "tribute for favour")
        self.bettors = [s for s in self._seats_from(self._host())]
        self._continue_bets()

    def _continue_bets(self) -> None:
        while self.bettors and self.gold[self.bettors[0]] < BET_MIN:
            self.bettors.pop(0)
        if self.bettors:
            self.phase = "bets"
            return
        self._start_arena_fight()

    def _do_Bet(self, a: A.Bet) -> None:
        seat = self.bettors[0]
        self.gold[seat] -= a.amount
        self.bets.append((seat, a.bet, a.amount))
        self._emit(
            "bet",
            f"{self.name(seat)} bets {a.amount} gold on {a.bet}",
            seat=seat,
            bet=a.bet,
            amount=a.amount,
        )
        if self.gold[seat] < BET_MIN:
            self.bettors.pop(0)
            self._continue_bets()

    def _fighter(self, side: str, seat: int, card_id: str, equipment: tuple[str, ...]) -> Fighter:
        card = self.card(card_id)
        abilities = (self.data.abilities[card.ability],) if card.ability else ()
        return Fighter(
            side,
            card.title,
            (card.attack, card.defence, card.speed),
            owner=seat,
            card=card_id,
            equipment=tuple(self.card(e) for e in equipment),
            abilities=abilities,
            favours=self.favours.get(card_id, 0),
            champion=card_id in self.champions,
        )

    def _start_fight(self, fighters: tuple[Fighter, Fighter], context: str) -> None:
        self.fight_context = context
        self.phase = "fight"
        self.fight = Fight(self.arena, fighters, self._emit, checkpoints=context == "assistant")

    def _start_arena_fight(self) -> None:
        (s1, f1, e1), (s2, f2, e2) = self.entrants
        self._emit(
            "fight_started",
            f"{self.card(f1).title} ({self.name(s1)}) against "
            f"{self.card(f2).title} ({self.name(s2)})",
        )
        self._start_fight(
            (self._fighter("I", s1, f1, e1), self._fighter("II", s2, f2, e2)), "arena"
        )

    def _fight_over(self) -> None:
        fight = self.fight
        assert fight is not None and fight.winner and fight.loser and fight.level
        context = self.fight_context
        hurt = fight.winner_level()  # ruling C10b: counter wounds after the deciding attack
        if context == "assistant":
            self.fight = fight  # kept for the screen
            self._finish(
                [fight.fighters[fight.winner].owner],
                f"{fight.fighters[fight.winner].name} beats "
                f"{fight.fighters[fight.loser].name}, who {LEVEL_WORDS[fight.level]}"
                + (f"; the counter wounds: the winner {LEVEL_WORDS[hurt]}" if hurt else ""),
            )
            return
        win, lose = fight.fighters[fight.winner], fight.fighters[fight.loser]
        for f in (win, lose):  # nets and once-per-fight equipment used are exhausted
            for cid in f.used:
                if cid in self.owner:
                    self.exhausted.add(cid)
        self.fight = None
        if context == "tournament":
            self._tournament_fight_won(win.owner)
            return
        assert win.card is not None and lose.card is not None
        self.fight_result = {
            "winner": fight.winner,
            "loser": fight.loser,
            "level": fight.level,
            "winner_card": win.card,
            "loser_card": lose.card,
            "winner_seat": win.owner,
            "loser_seat": lose.owner,
        }
        # rule R25: influence and favour for the winner
        self._influence(win.owner, +1, "victory")
        if win.card in self.champions:  # the champion marker replaces the favour tokens
            self._emit("favour", f"{win.name}, champion, wins again", card=win.card)
        else:
            self.favours[win.card] = self.favours.get(win.card, 0) + 1
            if self.favours[win.card] >= CHAMPION_FAVOURS:
                self.favours.pop(win.card)
                self.champions.add(win.card)
                self._emit(
                    "champion", f"{win.name} becomes champion", card=win.card, seat=win.owner
                )
                self._influence(win.owner, +1, "champion")
            else:
                self._emit(
                    "favour",
                    f"{win.name} gains a favour token ({self.favours[win.card]})",
                    card=win.card,
                )
        # rule R24: bets
        for seat, kind, stake in self.bets:
            won = kind == f"winner-{fight.winner}" or kind == fight.level
            self._emit(
                "bet_settled",
                f"{self.name(seat)}'s bet on {kind}: {'won' if won else 'lost'}",
                seat=seat,
                bet=kind,
                stake=stake,
                won=won,
            )
            self.bank += stake
            if won:
                payout = stake * (2 if kind.startswith("winner-") else 3)
                self._gold(seat, payout, f"bet on {kind} won")
        self.bets = []
        # ruling C10b: counter wounds taken after the deciding attack can injure the winner
        if hurt == "injury":
            self.exhausted.add(win.card)
            self.injured.add(win.card)
            self._emit("injured", f"{win.name} is injured (exhausted)", card=win.card)
        elif hurt == "decapitation":
            self._lose_card(win.card, "decapitated by counter wounds; the equipment stays")
        # rule R13/R28: the loser's fate
        if fight.level == "injury":
            self.exhausted.add(lose.card)
            self.injured.add(lose.card)
            self._emit("injured", f"{lose.name} is injured (exhausted)", card=lose.card)
        if fight.level == "decapitation":
            self._lose_card(lose.card, "decapitated; the equipment stays with the house")
            self._end_arena()
            return
        self.phase = "thumbs"

    def _do_Thumbs(self, a: A.Thumbs) -> None:
        result = self.fight_result
        assert result is not None
        card = result["loser_card"]
        host = self._host()
        if a.up:
            self._emit("thumbs", f"thumbs up: {self.card(card).title} lives", up=True)
        else:
            self._emit("thumbs", f"thumbs down: {self.card(card).title} is executed", up=False)
            tokens = self.favours.get(card, 0)
            if tokens:
                self._influence(host, -tokens, "thumbs_down")
            self._lose_card(card, "executed; the equipment stays with the house")
        self._end_arena()

    def _end_arena(self) -> None:
        self.fight_result = None
        self.entrants = []
        if self._victory_check("arena"):
            return
        self._start_round()

    # -- victory and the tie tournament (rules R29-R31) ----------------------------------

    def _victory_check(self, phase: str) -> bool:
        high = [s for s in range(self.players) if self.influence[s] >= WIN_INFLUENCE]
        if not high:
            return False
        if len(high) == 1:
            self._finish(
                high,
                f"{self.name(high[0])} ends the {phase} phase as the only house "
                f"with {WIN_INFLUENCE}+ influence",
            )
            return True
        self._emit(
            "tournament",
            f"{', '.join(self.name(s) for s in high)} end the {phase} "
            f"phase with {WIN_INFLUENCE}+ influence: a tournament decides",
            seats=high,
        )
        self.tournament = {
            "houses": high,
            "order": [],
            "pending": [],
            "fights": [],
            "winners": [],
            "pickers": [],
            "picks": {},
        }
        if len(high) == 2:
            self.tournament["fights"] = [high]
            self._next_tournament_fight()
            return True
        # rank by gold value of gladiators and equipment, poorest first; ties by a die roll
        groups: dict[int, list[int]] = {}
        for s in high:
            groups.setdefault(self.gold_value(s), []).append(s)
        self.tournament["pending"] = [groups[v] for v in sorted(groups)]
        self._emit(
            "tournament_values",
            "gold value of gladiators and equipment: "
            + ", ".join(f"{self.name(s)} {self.gold_value(s)}" for s in high),
        )
        self._next_tiebreak()
        return True

    def _next_tiebreak(self) -> None:
        t = self.tournament
        assert t is not None
        while t["pending"]:
            group = t["pending"][0]
            if len(group) == 1:
                t["order"].append(group[0])
                t["pending"].pop(0)
                continue
            self._start_rolloff(group, "tiebreak")
            return
        order = t["order"]
        if len(order) == 3:
            t["fights"] = [[order[0], order[1]]]
            t["final_seed"] = order[2]
        else:
            t["fights"] = [[order[0], order[1]], [order[2], order[3]]]
        self._emit(
            "tournament_order",
            "poorest to richest: " + ", ".join(self.name(s) for s in order),
            order=list(order),
        )
        self._next_tournament_fight()

    def _tiebreak_done(self) -> None:
        t = self.tournament
        assert t is not None
        rolls = self.rolloff_rolls
        group = t["pending"].pop(0)
        # the lower roll counts as the poorer house (ruling R30a); equal rolls roll again
        by_roll: dict[int, list[int]] = {}
        for s in group:
            by_roll.setdefault(rolls[s], []).append(s)
        t["pending"] = [by_roll[r] for r in sorted(by_roll)] + t["pending"]
        self._next_tiebreak()

    def _next_tournament_fight(self) -> None:
        t = self.tournament
        assert t is not None
        if not t["fights"]:
            if len(t["winners"]) == 1 and "final_seed" not in t:
                self._finish([t["winners"][0]], "won the tie tournament")
                return
            if "final_seed" in t:
                t["fights"] = [[t["winners"][0], t.pop("final_seed")]]
            else:
                t["fights"] = [list(t["winners"])]
            t["winners"] = []
        pair = t["fights"][0]
        t["pickers"] = list(pair)
        t["picks"] = {}
        self._emit(
            "tournament_fight",
            f"tournament: {self.name(pair[0])} against {self.name(pair[1])}",
            seats=list(pair),
        )
        self._continue_picks()

    def _continue_picks(self) -> None:
        t = self.tournament
        assert t is not None
        while t["pickers"] and not self.ready_fighters(t["pickers"][0]):
            seat = t["pickers"].pop(0)
            self._emit("no_fighter", f"{self.name(seat)} has no ready fighter", seat=seat)
            t["picks"][seat] = None
        if t["pickers"]:
            self.phase = "tournament_pick"
            return
        a, b = t["fights"][0]
        pa, pb = t["picks"][a], t["picks"][b]
        if pa is None and pb is None:
            self._start_rolloff([a, b], "tournament")
        elif pa is None or pb is None:
            self._tournament_fight_won(b if pa is None else a)
        else:
            self._start_fight(
                (self._fighter("I", a, *pa), self._fighter("II", b, *pb)), "tournament"
            )

    def _tournament_pick(self, a: A.Accept) -> None:
        t = self.tournament
        assert t is not None
        seat = t["pickers"].pop(0)
        t["picks"][seat] = (a.fighter, a.equipment)
        self._emit(
            "accepted",
            f"{self.name(seat)} sends {self.card(a.fighter).title}",
            seat=seat,
            fighter=a.fighter,
            equipment=list(a.equipment),
        )
        self._continue_picks()

    def _tournament_fight_won(self, seat: int) -> None:
        t = self.tournament
        assert t is not None
        t["fights"].pop(0)
        t["winners"].append(seat)
        self._emit("tournament_winner", f"{self.name(seat)} wins the tournament fight", seat=seat)
        self._next_tournament_fight()

    # -- the combat assistant: one fight -------------------------------------------------

    def _start_assistant_fight(self) -> None:
        specs = self.config.fight
        assert specs is not None
        fighters = tuple(
            self._spec_fighter(side, seat, spec)
            for seat, (side, spec) in enumerate(zip(("I", "II"), specs, strict=True))
        )
        self.round = 1
        self._emit("fight_started", f"{specs[0].name} against {specs[1].name}")
        self._start_fight((fighters[0], fighters[1]), "assistant")

    def _spec_fighter(self, side: str, seat: int, spec: FighterSpec) -> Fighter:
        return Fighter(
            side,
            spec.name,
            (spec.attack, spec.defence, spec.speed),
            owner=seat,
            card=spec.card,
            equipment=tuple(self.card(e) for e in spec.equipment),
            abilities=tuple(self.data.abilities[a] for a in spec.abilities),
            favours=spec.favours,
            champion=spec.champion,
        )

    # -- corrections ---------------------------------------------------------------------

    def _do_AdjustGold(self, a: A.AdjustGold) -> None:
        self._gold(self.seat_of(a.house), a.delta, "correction")

    def _do_GiveGold(self, a: A.GiveGold) -> None:
        self._transfer(
            self.seat_of(a.giver), self.seat_of(a.receiver), a.amount, "given at the table"
        )

    def _do_AdjustInfluence(self, a: A.AdjustInfluence) -> None:
        self._influence(self.seat_of(a.house), a.delta, "correction")

    def _do_LoseCard(self, a: A.LoseCard) -> None:
        self._lose_card(a.card, "correction")

    def _do_ExhaustProperty(self, a: A.ExhaustProperty) -> None:
        self.exhausted.add(a.card)
        self._emit("correction", f"{a.card} exhausted (correction)", card=a.card)

    def _do_ReadyProperty(self, a: A.ReadyProperty) -> None:
        self.exhausted.discard(a.card)
        self.injured.discard(a.card)
        self._emit("correction", f"{a.card} ready (correction)", card=a.card)

    def _after_correction(self) -> None:
        """A correction can leave a pending choice without options: move on."""
        if self.phase == "upkeep_pay" and self._deficit(self.pay_queue[0]) <= 0:
            seat = self.pay_queue.pop(0)
            if self._deficit(seat) < 0:
                self._gold(seat, -self._deficit(seat), "upkeep: ready slaves earn")
            self._continue_upkeep()
        elif (
            self.phase == "discard_choice"
            and self.scheme is not None
            and not self.ready(self.scheme["target"], self.scheme["discard"])
        ):
            self._run_effects()
        elif self.phase == "hand_limit":
            self._continue_hand_limit()
        elif self.phase == "tournament_pick":
            self._continue_picks()

    # ------------------------------------------------------------------ snapshots

    def snapshot(self) -> dict[str, Any]:
        """Everything that makes the state, as plain JSON-able data."""
        return {
            **super().snapshot(),
            "round": self.round,
            "host": self.host,
            "active": self.active,
            "houses": list(self.houses),
            "gold": list(self.gold),
            "influence": list(self.influence),
            "bank": self.bank,
            "property": [list(p) for p in self.property],
            "exhausted": sorted(self.exhausted),
            "injured": sorted(self.injured),
            "favours": dict(sorted(self.favours.items())),
            "champions": sorted(self.champions),
            **self._hand_snapshot(),
            "guards": [list(g) for g in self.guards],
            "intrigue_discard": dict(sorted(self.intrigue_discard.items())),
            "market_deck": dict(sorted(self.market_deck.items())),
            "market_discard": dict(sorted(self.market_discard.items())),
            "deal_queue": [list(d) for d in self.deal_queue],
            "heal_queue": [list(h) for h in self.heal_queue],
            "pay_queue": list(self.pay_queue),
            "accounts_round": self.accounts_round,
            "draw_queue": [list(d) for d in self.draw_queue],
            "after_draw": self.after_draw,
            "turns_left": list(self.turns_left),
            "limit_queue": list(self.limit_queue),
            "scheme": None
            if self.scheme is None
            else {k: (list(v) if isinstance(v, list) else v) for k, v in self.scheme.items()},
            "effects": [[k, v] for k, v in self.effects],
            "peek_pending": None if self.peek_pending is None else list(self.peek_pending),
            "auction_left": self.auction_left,
            "auction_card": self.auction_card,
            "bidders": list(self.bidders),
            "bids": {str(k): v for k, v in self.bids.items()},
            "bid_totals": {str(k): v for k, v in self.bid_totals.items()},
            "rolloff": [
                list(self.rolloff_seats),
                {str(k): v for k, v in self.rolloff_rolls.items()},
                self.rolloff_purpose,
            ],
            "asked": list(self.asked),
            "invitee": self.invitee,
            "entrants": [[s, f, list(e)] for s, f, e in self.entrants],
            "bettors": list(self.bettors),
            "bets": [list(b) for b in self.bets],
            "fight_result": self.fight_result,
            "fight_context": self.fight_context,
            "fight": None if self.fight is None else self.fight.snapshot(),
            "tournament": None if self.tournament is None else plain(self.tournament),
            # present only while they hold something, so older games' checkpoints still match
            **({"rules_used": sorted(self.rules_used)} if self.rules_used else {}),
        }

    def _hand_snapshot(self) -> dict[str, Any]:
        """The hands and the intrigue deck: card counts (tracked mode; private and hidden
        in the views), or in assist mode only how many cards each hand holds (public)."""
        if self.assist:
            return {"hand_sizes": {str(s): n for s, n in enumerate(self.hand_counts)}}
        return {
            "hands": [dict(sorted(h.items())) for h in self.hands],
            "intrigue_deck": dict(sorted(self.intrigue_deck.items())),
        }


def new_game(config: SpartacusConfig | None = None) -> SpartacusState:
    """A fresh game (default config: 4 houses, quick game, host drawn)."""
    return SpartacusState(config)


def replay(config: SpartacusConfig, history: Iterable[A.Action]) -> SpartacusState:
    """Rebuild a state from its config and action log; every action is checked again."""
    return SpartacusState.replay(config, history)
