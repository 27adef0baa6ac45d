"""Bots: a random bot for tests, and a simple bot that fights and trades sensibly.

- :class:`KindBot` picks a kind of action uniformly among its seat's own (cards
  played at any time included), then one of that kind (never a correction, never a
  named supporter), and always attacks when it can, so fights end (a uniform choice
  over every action would rarely end a game).
- :class:`SimpleBot` plays the combat to win (closes in, attacks, rerolls the
  die with the best expected gain, removes the dice it needs least) and keeps
  a simple economy (sells surplus intrigue cards, plays affordable schemes on
  the leader, bids a share of its gold on fighters, bets on the favourite).
"""

from __future__ import annotations

from typing import Any

from companion.games.core import RandomBot
from companion.games.spartacus import actions as A
from companion.games.spartacus.combat import attack_outcome, sort_faces
from companion.games.spartacus.hexmap import distance, step


class KindBot(RandomBot):
    """Plays any seat at random, a kind of action first."""

    def options(self, state: Any) -> list[A.Action]:
        """The seat's own legal actions (never another seat's), corrections left out."""
        seat = state.current_player
        return [a for a in state.legal_actions_for(seat) if not a.is_correction]

    def choose(self, state: Any) -> A.Action:
        legal = [a for a in self.options(state) if not getattr(a, "supporters", ())]
        for a in legal:
            if isinstance(a, A.Attack | A.QuickAttack):
                return a
        kinds: dict[str, list[A.Action]] = {}
        for a in legal:
            kinds.setdefault(a.kind, []).append(a)
        return self.rng.choice(kinds[self.rng.choice(sorted(kinds))])


class SimpleBot(RandomBot):
    """A bot for the table: sensible fights, simple economy."""

    def options(self, state: Any) -> list[A.Action]:
        """The decisions of the phase; in its own intrigue turn also the cards it may play
        at any time (a guard laid on the table)."""
        if state.phase == "intrigue_turn":
            seat = state.current_player
            return [a for a in state.legal_actions_for(seat) if not a.is_correction]
        return state.decisions()

    def out_of_turn(self, state: Any, seat: int, options: list[A.Action]) -> A.Action | None:
        """Asked out of turn (a reaction's moment, rule R11): play a reaction that costs a
        rival influence, on the rival with the most (a race to 12 influence); else pass."""
        hurts = [
            a
            for a in options
            if isinstance(a, A.React)
            and a.target != state.houses[seat]
            and any(e == "influence" and v < 0 for e, v in state.intrigue_card(a.card).effects)
        ]
        if not hurts:
            return None
        return max(hurts, key=lambda a: state.influence[state.seat_of(a.target)])

    def choose(self, state: Any) -> A.Action:
        legal = self.options(state)
        if state.phase == "fight":
            return self._fight(state, legal)
        return self._round(state, legal)

    # -- fights -----------------------------------------------------------------------

    def _fight(self, state: Any, legal: list[A.Action]) -> A.Action:
        fight = state.fight
        p = fight.phase
        if p == "net":
            return next(a for a in legal if isinstance(a, A.UseNet) and a.use)
        if p == "first":
            return self._first(fight, legal)
        if p == "turn":
            return self._turn(fight, legal)
        if p == "reroll_choice":
            return self._reroll(fight, legal)
        if p == "wound":
            return self._wound(fight, legal)
        return self.rng.choice(legal)  # pragma: no cover

    def _first(self, fight: Any, legal: list[A.Action]) -> A.Action:
        me = fight.fighters[fight.init_winner]
        foe = fight.fighters[fight.other(me.side)]
        d = distance(me.pos, foe.pos)
        # act first when the opponent is within this round's reach, else let it come
        go_first = d - 1 <= me.speed
        return A.ChooseFirst(me.side if go_first else foe.side)

    def _turn(self, fight: Any, legal: list[A.Action]) -> A.Action:
        attacks = [a for a in legal if isinstance(a, A.Attack | A.QuickAttack)]
        if attacks:
            me = fight.active
            if len(attacks) > 1:
                normal = fight.odds(me.side, quick=False).expected_wounds
                quick = fight.odds(me.side, quick=True).expected_wounds
                return A.QuickAttack() if quick > normal else A.Attack()
            return attacks[0]
        steps = [a for a in legal if isinstance(a, A.Step)]
        if steps and not fight.attacked:
            foe = fight.fighters[fight.other(fight.active.side)]
            here = distance(fight.active.pos, foe.pos)
            best = min(steps, key=lambda a: distance(step(fight.active.pos, a.direction), foe.pos))
            if distance(step(fight.active.pos, best.direction), foe.pos) < here:
                return best
        return A.EndTurn()

    def _reroll(self, fight: Any, legal: list[A.Action]) -> A.Action:
        side = fight.reroll_pending[0]
        attacker = fight.attacker
        mods = fight.modifiers(attacker)
        att, dfn = fight.rolls[attacker], fight.rolls[fight.other(attacker)]

        def score(a_roll: tuple[int, ...], d_roll: tuple[int, ...]) -> float:
            o = attack_outcome(a_roll, d_roll, mods)
            gain = o.to_defender - o.to_attacker
            return gain if side == attacker else -gain

        own = att if side == attacker else dfn
        best: A.Action = A.KeepRoll(side)
        best_value = score(att, dfn)
        for face in sorted(set(own)):
            total = 0.0
            for new in range(1, 7):
                rest = list(own)
                rest.remove(face)
                rolled = sort_faces([*rest, new])
                total += score(rolled, dfn) if side == attacker else score(att, rolled)
            if total / 6 > best_value + 1e-9:
                best, best_value = A.Reroll(side, face), total / 6
        return best

    def _wound(self, fight: Any, legal: list[A.Action]) -> A.Action:
        side = fight.wound_queue[0][0]
        me = fight.fighters[side]
        # keep attack, then defence; speed goes first (a simple, steady preference)
        order = {"speed": 0, "defence": 1, "attack": 2}
        if me.attack > me.defence + 1:
            order = {"speed": 0, "attack": 1, "defence": 2}
        return min(legal, key=lambda a: order[a.attr])

    # -- the round ----------------------------------------------------------------------

    def _round(self, state: Any, legal: list[A.Action]) -> A.Action:
        p = state.phase
        seat = state.current_player
        kinds: dict[str, list[A.Action]] = {}
        for a in legal:
            kinds.setdefault(a.kind, []).append(a)
        if p == "upkeep_pay":
            return kinds.get("pay", kinds.get("release", legal))[0]
        if p == "hand_limit":
            return min(legal, key=lambda a: state.intrigue_card(a.card).value)
        if p == "intrigue_turn":
            return self._intrigue(state, seat, kinds)
        if p == "scheme_response":
            scheme = state.scheme
            mine = scheme["target"] == seat and scheme["player"] != seat
            harmful = any(
                k in ("discard",) or (k == "influence" and v < 0)
                for k, v in state.intrigue_card(scheme["card"]).effects
            )
            if mine and harmful:
                for kind in ("thwart", "guard"):
                    if kind in kinds:
                        return kinds[kind][0]
            return A.Pass()
        if p == "discard_choice":
            return min(legal, key=lambda a: state.card(a.card).value)
        if p == "market_turn":
            return A.Done()
        if p == "bid":
            return self._bid(state, seat, legal)
        if p == "invite":
            others = [a for a in legal if state.seat_of(a.house) != seat]
            return self.rng.choice(others or legal)
        if p in ("invitation", "tournament_pick"):
            accepts = kinds.get("accept", [])
            if not accepts:
                return A.Decline()
            return max(accepts, key=lambda a: (len(a.equipment), _strength(state, a.fighter)))
        if p == "bets":
            return self._bet(state, seat, kinds)
        if p == "thumbs":
            return A.Thumbs(True)
        return self.rng.choice(legal)  # pragma: no cover

    def _intrigue(self, state: Any, seat: int, kinds: dict[str, list[A.Action]]) -> A.Action:
        for a in kinds.get("exhaust", []):
            return a
        for a in kinds.get("post-guard", []):
            return a
        schemes = [a for a in kinds.get("scheme", []) if not a.supporters]
        if schemes:
            leader = max(
                (s for s in range(state.players) if s != seat), key=lambda s: state.influence[s]
            )
            good = []
            for a in schemes:
                card = state.intrigue_card(a.card)
                helps = any(
                    k in ("gain_gold", "gold_per_ready_slave", "draw")
                    or (k == "influence" and v > 0)
                    for k, v in card.effects
                )
                hurts = any(
                    k in ("discard",) or (k == "influence" and v < 0) for k, v in card.effects
                )
                if (helps and a.target == state.name(seat)) or (
                    hurts and a.target == state.name(leader)
                ):
                    good.append(a)
            if good:
                return good[0]
        if "done" not in kinds:
            return min(kinds["sell"], key=lambda a: state.intrigue_card(a.card).value)
        return kinds["done"][0]

    def _bid(self, state: Any, seat: int, legal: list[A.Action]) -> A.Action:
        room = max(a.amount for a in legal)
        card = state.auction_card
        if card is None:  # hosting
            want = min(room, max(0, state.gold[seat] // 4))
        elif state.card(card).kind in ("gladiator", "equipment"):
            want = min(room, state.card(card).value // 2 + self.rng.randint(0, 2))
        else:
            want = min(room, self.rng.randint(0, 1))
        if state.bid_totals.get(seat):  # a tie: add a little, or stop
            want = min(room, self.rng.randint(0, 1))
        return A.Bid(want)

    def _bet(self, state: Any, seat: int, kinds: dict[str, list[A.Action]]) -> A.Action:
        if state.gold[seat] < 6 or self.rng.random() < 0.5:
            return A.Done()
        own = next(
            (("I", "II")[i] for i, (s, _, _) in enumerate(state.entrants) if s == seat), None
        )
        placed = {k for s, k, _ in state.bets if s == seat}
        if any(k.startswith("winner-") for k in placed):
            return A.Done()
        pick = own or (
            "I"
            if _strength(state, state.entrants[0][1]) >= _strength(state, state.entrants[1][1])
            else "II"
        )
        bets = [a for a in kinds.get("bet", []) if a.bet == f"winner-{pick}" and a.amount == 1]
        return bets[0] if bets else A.Done()


def _strength(state: Any, card_id: str) -> int:
    c = state.card(card_id)
    return c.attack + c.defence + c.speed
