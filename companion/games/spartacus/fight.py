"""One arena fight as a state machine of small actions (rules C1-C14).

A :class:`Fight` lives inside a :class:`~companion.games.spartacus.state.SpartacusState`
(the arena phase, a tie tournament, or the combat assistant's whole game). It
lists its legal actions and chance outcomes and applies them; the game state
keeps the history, checks legality and explains refusals.

A combat round: nets may be declared (rule C2), both fighters roll their speed
dice for the initiative (ties roll again), the winner names who acts first;
each fighter then moves hex by hex up to its speed and attacks once, in either
order (rule C3). An attack: the attack roll, the defence roll, rerolls chosen
by both sides before either is rolled (rule C7), wounds (rules C4-C10) removed
die by die by their owner under the rule of one (rule C12), until a fighter
has an attribute at 0 (rule C13).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from companion.games.core.state import Handlers
from companion.games.spartacus import actions as A
from companion.games.spartacus.combat import (
    ATTRS,
    DIE_OF,
    AttackOutcome,
    Modifiers,
    attack_outcome,
    defeat_level,
    faces_text,
    sort_faces,
    wound_choices,
)
from companion.games.spartacus.data import Ability, MarketCard
from companion.games.spartacus.hexmap import DIRECTIONS, Hex, HexMap, distance, step
from companion.games.spartacus.odds import AttackOdds, attack_odds, multisets

SIDES = A.SIDES
FIGHT_CHANCE = {"initiative", "attack_roll", "defence_roll", "reroll_roll"}
LEVEL_TEXT = {"yield": "at yield", "injury": "injured", "decapitation": "decapitated"}

Emit = Callable[..., None]


@dataclass
class Fighter:
    """A fighter in the arena: its card, equipment, dice left and position."""

    side: str
    name: str
    base: tuple[int, int, int]  # attack, defence, speed on the card
    owner: int = 0  # the seat that decides for it
    card: str | None = None
    equipment: tuple[MarketCard, ...] = ()
    abilities: tuple[Ability, ...] = ()
    favours: int = 0
    champion: bool = False
    dice: list[int] = field(default_factory=list)
    pos: Hex = (0, 0)
    used: set[str] = field(default_factory=set)  # equipment ids spent (once per fight, nets)

    def __post_init__(self) -> None:
        if not self.dice:
            self.dice = list(self.base)

    @property
    def life(self) -> int:
        return sum(self.dice)

    @property
    def attack(self) -> int:
        return self.dice[0]

    @property
    def defence(self) -> int:
        return self.dice[1]

    @property
    def speed(self) -> int:
        return self.dice[2]

    def effects(self, effect: str) -> list[MarketCard]:
        """Equipment with ``effect`` that can still be used in this fight."""
        out = []
        for card in self.equipment:
            for e in card.effects:
                if e.effect == effect and not (e.once_per_fight and card.id in self.used):
                    out.append(card)
                    break
        return out

    def once(self, card: MarketCard, effect: str) -> bool:
        return any(e.effect == effect and e.once_per_fight for e in card.effects)

    def reach(self) -> int:
        return max(
            [1, *(e.value for c in self.effects("reach") for e in c.effects if e.effect == "reach")]
        )

    def has_net(self) -> bool:
        return any(c.has("net") and c.id not in self.used for c in self.equipment)

    def abilities_for(self, roll: str) -> tuple[Ability, ...]:
        return tuple(a for a in self.abilities if a.roll == roll)

    def snapshot(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "name": self.name,
            "card": self.card,
            "owner": self.owner,
            "base": list(self.base),
            "dice": list(self.dice),
            "pos": list(self.pos),
            "equipment": [c.id for c in self.equipment],
            "abilities": [a.id for a in self.abilities],
            "favours": self.favours,
            "champion": self.champion,
            "used": sorted(self.used),
        }


def roll_outcomes(who: str, purpose: str, n: int) -> list[tuple[A.Action, Fraction]]:
    """The chance outcomes of rolling ``n`` d6: each sorted roll with its exact probability."""
    den = 6**n
    return [(A.DiceRoll(who, purpose, faces), Fraction(w, den)) for faces, w in multisets(n)]


class Fight(Handlers):
    """The fight between fighter I and fighter II in ``arena``."""

    def __init__(
        self,
        arena: HexMap,
        fighters: tuple[Fighter, Fighter],
        emit: Emit,
        checkpoints: bool = False,
    ) -> None:
        self.arena = arena
        self.checkpoints = checkpoints
        self.fighters = {f.side: f for f in fighters}
        for f, start in zip(fighters, arena.starts, strict=True):
            f.pos = start
        self.emit = emit
        self.round = 0
        self.phase = ""
        self.nets: dict[str, bool] = {}
        self.init_rolls: dict[str, tuple[int, ...]] = {}
        self.init_winner: str | None = None
        self.order: list[str] = []
        self.acting = 0
        self.steps = 0
        self.attacked = False
        self.moved_before_attack = False
        # the attack under way
        self.attacker: str | None = None
        self.quick = False
        self.rolls: dict[str, tuple[int, ...]] = {}
        self.reroll_pending: list[str] = []  # sides still to choose a reroll
        self.reroll_faces: dict[str, int] = {}  # side -> face to reroll (chosen, not rolled)
        self.outcome: AttackOutcome | None = None
        self.wound_queue: list[list[Any]] = []  # [side, wounds left]
        self.winner: str | None = None
        self.loser: str | None = None
        self.level: str | None = None
        self._new_round()

    # ---------------------------------------------------------------- queries

    def other(self, side: str) -> str:
        return "II" if side == "I" else "I"

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def is_chance(self) -> bool:
        return self.phase in FIGHT_CHANCE

    @property
    def active(self) -> Fighter:
        return self.fighters[self.order[self.acting]]

    def decider(self) -> str | None:
        """The side whose owner chooses now (None at a chance node or when over)."""
        p = self.phase
        if p == "net":
            return next(s for s in SIDES if s not in self.nets and self.fighters[s].has_net())
        if p == "first":
            return self.init_winner
        if p == "turn":
            return self.order[self.acting]
        if p == "reroll_choice":
            return self.reroll_pending[0]
        if p == "wound":
            return self.wound_queue[0][0]
        return None

    def chance_outcomes(self) -> list[tuple[A.Action, Fraction]]:
        p = self.phase
        if p == "initiative":
            side = "I" if "I" not in self.init_rolls else "II"
            return roll_outcomes(side, "initiative", self.fighters[side].speed)
        if p == "attack_roll":
            assert self.attacker is not None
            att = self.fighters[self.attacker]
            return roll_outcomes(self.attacker, "attack", att.speed if self.quick else att.attack)
        if p == "defence_roll":
            side = self.other(self.attacker or "I")
            return roll_outcomes(side, "defence", self.fighters[side].defence)
        if p == "reroll_roll":
            side = next(s for s in SIDES if s in self.reroll_faces)
            return roll_outcomes(side, "reroll", 1)
        return []

    def legal(self) -> list[A.Action]:
        p = self.phase
        if p in FIGHT_CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if p == "net":
            side = self.decider()
            assert side is not None
            return [A.UseNet(side, True), A.UseNet(side, False)]
        if p == "first":
            return [A.ChooseFirst(s) for s in SIDES]
        if p == "turn":
            return self._turn_actions()
        if p == "reroll_choice":
            side = self.reroll_pending[0]
            return [A.KeepRoll(side), *(A.Reroll(side, f) for f in sorted(set(self.rolls[side])))]
        if p == "wound":
            side = self.wound_queue[0][0]
            return [A.Wound(side, ATTRS[i]) for i in wound_choices(self.fighters[side].dice)]
        return []

    def steps_left(self) -> int:
        if self.attacked and self.moved_before_attack:
            return 0
        return max(0, self.active.speed - self.steps)

    def step_targets(self) -> list[tuple[str, Hex]]:
        if self.steps_left() <= 0:
            return []
        me = self.active
        foe = self.fighters[self.other(me.side)]
        out = []
        for d in DIRECTIONS:
            to = self.arena.neighbour(me.pos, d)
            if to is not None and to != foe.pos:
                out.append((d, to))
        return out

    def in_reach(self, side: str) -> bool:
        me, foe = self.fighters[side], self.fighters[self.other(side)]
        return self.arena.in_reach(me.pos, foe.pos, me.reach())

    def _turn_actions(self) -> list[A.Action]:
        acts: list[A.Action] = [A.Step(d) for d, _ in self.step_targets()]
        me = self.active
        if not self.attacked and self.in_reach(me.side):
            acts.append(A.Attack())
            if me.effects("quick_attack"):
                acts.append(A.QuickAttack())
        acts.append(A.EndTurn())
        return acts

    def modifiers(self, attacker: str) -> Modifiers:
        """The attacker's and defender's abilities and equipment for one attack."""
        att, dfn = self.fighters[attacker], self.fighters[self.other(attacker)]
        return Modifiers(
            att.abilities_for("attack"),
            dfn.abilities_for("defence"),
            extra_wound=len(att.effects("extra_wound")),
            ignore_defender=len(dfn.effects("ignore_wound")),
            ignore_attacker=len(att.effects("ignore_wound")),
        )

    def odds(self, attacker: str, quick: bool = False, rerolls: bool = True) -> AttackOdds:
        """Exact odds of an attack by ``attacker`` now (see :mod:`.odds`)."""
        att, dfn = self.fighters[attacker], self.fighters[self.other(attacker)]
        return attack_odds(
            att.speed if quick else att.attack,
            dfn.defence,
            self.modifiers(attacker),
            attack_reroll=rerolls and bool(att.effects("reroll_attack")),
            defence_reroll=rerolls and bool(dfn.effects("reroll_defence")),
            defender_life=dfn.life,
            attacker_life=att.life,
        )

    # ---------------------------------------------------------------- apply

    def apply(self, action: A.Action) -> None:
        """Apply an action the game state has checked (it keeps the history)."""
        self._dispatch(action)

    def _new_round(self) -> None:
        self.round += 1
        self.nets = {}
        self.init_rolls = {}
        self.init_winner = None
        self.emit("combat_round", f"combat round {self.round}", round=self.round)
        if self.checkpoints:  # a fight on its own: each combat round is a turn of the game
            self.emit("turn_started", f"combat round {self.round}", round=self.round)
        self._to_initiative()

    def _to_initiative(self) -> None:
        if any(self.fighters[s].has_net() and s not in self.nets for s in SIDES):
            self.phase = "net"
            return
        users = [s for s in SIDES if self.nets.get(s)]
        if len(users) == 1:
            self.init_winner = users[0]
            self.emit(
                "initiative",
                f"{self._name(users[0])} throws the net and wins the initiative",
                side=users[0],
                net=True,
            )
            self.phase = "first"
        else:
            if len(users) == 2:
                self.emit("nets_cancel", "both nets are thrown: both exhausted, roll as usual")
            self.phase = "initiative"

    def _name(self, side: str) -> str:
        return f"{side} {self.fighters[side].name}"

    def _do_UseNet(self, a: A.UseNet) -> None:
        self.nets[a.side] = a.use
        if any(self.fighters[s].has_net() and s not in self.nets for s in SIDES):
            self.emit("net_declared", f"{self._name(a.side)} has declared (hidden)", side=a.side)
            return  # ruling C2a: nothing is revealed until every net is declared
        for side in SIDES:
            if self.nets.get(side):
                f = self.fighters[side]
                net = next(c for c in f.equipment if c.has("net") and c.id not in f.used)
                f.used.add(net.id)
                self.emit(
                    "net",
                    f"{self._name(side)} throws the net ({net.title}, exhausted)",
                    side=side,
                    card=net.id,
                )
        self._to_initiative()

    def _do_DiceRoll(self, a: A.DiceRoll) -> None:
        die = {
            "initiative": "blue",
            "attack": "blue" if self.quick else "red",
            "defence": "black",
            "reroll": None,
        }[a.purpose]
        if a.purpose == "reroll":
            die = "black" if a.who != self.attacker else ("blue" if self.quick else "red")
        self.emit(
            "dice_rolled",
            f"{self._name(a.who)} rolls {a.purpose}: {faces_text(a.faces)}",
            side=a.who,
            purpose=a.purpose,
            faces=list(a.faces),
            die=die,
        )
        if a.purpose == "initiative":
            self.init_rolls[a.who] = a.faces
            if len(self.init_rolls) < 2:
                return
            s1, s2 = sum(self.init_rolls["I"]), sum(self.init_rolls["II"])
            if s1 == s2:
                self.emit("initiative_tie", f"initiative tie ({s1} each): roll again", sum=s1)
                self.init_rolls = {}
                return
            self.init_winner = "I" if s1 > s2 else "II"
            self.emit(
                "initiative",
                f"{self._name(self.init_winner)} wins the initiative "
                f"({max(s1, s2)} against {min(s1, s2)})",  # the winner's sum first
                side=self.init_winner,
                sums=[s1, s2],
                net=False,
            )
            self.phase = "first"
        elif a.purpose == "attack":
            self.rolls[a.who] = a.faces
            self.phase = "defence_roll"
        elif a.purpose == "defence":
            self.rolls[a.who] = a.faces
            assert self.attacker is not None
            att, dfn = self.fighters[self.attacker], self.fighters[a.who]
            self.reroll_pending = []
            if att.effects("reroll_attack"):
                self.reroll_pending.append(att.side)
            if dfn.effects("reroll_defence"):
                self.reroll_pending.append(dfn.side)
            self.reroll_faces = {}
            self.phase = "reroll_choice" if self.reroll_pending else ""
            if not self.reroll_pending:
                self._resolve_attack()
        else:  # reroll
            old = self.reroll_faces.pop(a.who)
            faces = list(self.rolls[a.who])
            faces.remove(old)
            faces.append(a.faces[0])
            self.rolls[a.who] = sort_faces(faces)
            self.emit(
                "rerolled",
                f"{self._name(a.who)} rerolls a {old}: {a.faces[0]} -> "
                f"{faces_text(self.rolls[a.who])}",
                side=a.who,
                old=old,
                new=a.faces[0],
                faces=list(self.rolls[a.who]),
            )
            if not self.reroll_faces:
                self._resolve_attack()

    def _do_ChooseFirst(self, a: A.ChooseFirst) -> None:
        self.order = [a.side, self.other(a.side)]
        chooser = self.init_winner or a.side
        text = (
            f"{self._name(a.side)} acts first"
            if chooser == a.side
            else f"{self._name(chooser)} lets {self._name(a.side)} act first"
        )
        self.emit("first", text, side=a.side)
        self.acting = 0
        self._start_turn()

    def _start_turn(self) -> None:
        self.steps = 0
        self.attacked = False
        self.moved_before_attack = False
        self.phase = "turn"
        self.emit(
            "fighter_turn",
            f"{self._name(self.order[self.acting])} acts",
            side=self.order[self.acting],
        )
        self._auto_end()

    def _auto_end(self) -> None:
        """A fighter with nothing left to do but end its turn ends it (ruling C3b)."""
        if self.phase == "turn" and self._turn_actions() == [A.EndTurn()]:
            self._end_turn()

    def _do_Step(self, a: A.Step) -> None:
        me = self.active
        old = me.pos
        me.pos = step(old, a.direction)
        self.steps += 1
        self.emit(
            "fighter_moved",
            f"{self._name(me.side)} {self.arena.name(old)} -> {self.arena.name(me.pos)}",
            side=me.side,
            **{"from": self.arena.name(old)},
            to=self.arena.name(me.pos),
            direction=a.direction,
        )
        self._auto_end()

    def _do_Attack(self, a: A.Attack) -> None:
        self._begin_attack(quick=False)

    def _do_QuickAttack(self, a: A.QuickAttack) -> None:
        me = self.active
        card = me.effects("quick_attack")[0]
        if me.once(card, "quick_attack"):
            me.used.add(card.id)
        self._begin_attack(quick=True)

    def _begin_attack(self, quick: bool) -> None:
        me = self.active
        self.attacker = me.side
        self.quick = quick
        self.moved_before_attack = self.steps > 0
        self.attacked = True
        self.rolls = {}
        kind = "a quick attack (speed dice)" if quick else "an attack"
        self.emit(
            "attack_declared",
            f"{self._name(me.side)} makes {kind} on {self._name(self.other(me.side))}",
            side=me.side,
            quick=quick,
        )
        self.phase = "attack_roll"

    def _do_EndTurn(self, a: A.EndTurn) -> None:
        self._end_turn()

    def _end_turn(self) -> None:
        if self.acting == 0:
            self.acting = 1
            self._start_turn()
        else:
            self._new_round()

    def _do_KeepRoll(self, a: A.KeepRoll) -> None:
        self.reroll_pending.pop(0)
        self._after_reroll_choice()

    def _do_Reroll(self, a: A.Reroll) -> None:
        self.reroll_pending.pop(0)
        self.reroll_faces[a.side] = a.face
        f = self.fighters[a.side]
        effect = "reroll_attack" if a.side == self.attacker else "reroll_defence"
        card = f.effects(effect)[0]
        if f.once(card, effect):
            f.used.add(card.id)
        self.emit(
            "reroll_chosen",
            f"{self._name(a.side)} rerolls a {a.face} ({card.title})",
            side=a.side,
            face=a.face,
            card=card.id,
        )
        self._after_reroll_choice()

    def _after_reroll_choice(self) -> None:
        if self.reroll_pending:
            return
        if self.reroll_faces:  # both sides chose before either die is rolled (rule C7)
            self.phase = "reroll_roll"
        else:
            self._resolve_attack()

    def _resolve_attack(self) -> None:
        att_side = self.attacker
        assert att_side is not None
        def_side = self.other(att_side)
        att, dfn = self.fighters[att_side], self.fighters[def_side]
        mods = self.modifiers(att_side)
        o = attack_outcome(self.rolls[att_side], self.rolls[def_side], mods)
        self.outcome = o
        # equipment used once per fight is spent when it changed the result (an extra
        # wound always does: ruling C10a)
        if o.extra_wound:
            for card in att.effects("extra_wound"):
                if att.once(card, "extra_wound"):
                    att.used.add(card.id)
        self._spend_ignores(dfn, o.ignored)
        self._spend_ignores(att, o.counter_ignored)
        cmp = o.comparison
        parts = [f"{x}>{y}" if w else f"{x}<={y}" for x, y, w in cmp.pairs]
        parts += [f"{x} unmatched {'hits' if w else 'misses'}" for x, w in cmp.unmatched]
        extra = []
        if o.ability_wounds:
            extra.append(f"+{o.ability_wounds} ability")
        if o.extra_wound:
            extra.append(f"+{o.extra_wound} equipment")
        if o.ignored:
            extra.append(f"-{o.ignored} ignored")
        text = (
            f"{faces_text(cmp.attack)} against {faces_text(cmp.defence)}: "
            f"{', '.join(parts)}{' ' + ' '.join(extra) if extra else ''} -> "
            f"{o.to_defender} wound{'s' if o.to_defender != 1 else ''} to "
            f"{self._name(def_side)}"
        )
        if o.counter:
            text += f"; {self._name(att_side)} takes {o.to_attacker} back"
        self.emit(
            "attack_resolved",
            text,
            attacker=att_side,
            defender=def_side,
            attack=list(cmp.attack),
            defence=list(cmp.defence),
            base=cmp.wounds,
            ability=o.ability_wounds,
            extra=o.extra_wound,
            ignored=o.ignored,
            to_defender=o.to_defender,
            counter=o.counter,
            to_attacker=o.to_attacker,
            die={
                "attack": DIE_OF["speed"] if self.quick else DIE_OF["attack"],
                "defence": DIE_OF["defence"],
            },
        )
        self.wound_queue = [[def_side, o.to_defender], [att_side, o.to_attacker]]
        self._continue_wounds()

    def _spend_ignores(self, f: Fighter, ignored: int) -> None:
        each = [c for c in f.effects("ignore_wound") if not f.once(c, "ignore_wound")]
        left = ignored - len(each)
        for card in f.effects("ignore_wound"):
            if left > 0 and f.once(card, "ignore_wound"):
                f.used.add(card.id)
                left -= 1

    def _continue_wounds(self) -> None:
        """Allocate the queued wounds: the defender's, then the attacker's counter wounds.
        A fighter with an attribute at 0 once its wounds are placed has lost (rule C13).
        A defender defeated by the attack has lost the fight, and the attacker still takes
        the counter wounds (ruling C10b): the fight is decided, so they are placed without
        a question (the level they give does not depend on the choice: ruling C12a)."""
        while self.wound_queue:
            side, left = self.wound_queue[0]
            f = self.fighters[side]
            if left > 0 and any(f.dice):
                choices = wound_choices(f.dice)
                if len(choices) == 1 or max(f.dice) <= 1 or self.loser is not None:
                    # forced, defeated whatever is chosen, or after the fight is decided
                    # (ruling C12b): no question asked
                    self._wound(side, choices[0])
                    continue
                self.phase = "wound"
                return
            self.wound_queue.pop(0)
            level = defeat_level(f.dice)
            if level and self.loser is None:
                self.winner, self.loser, self.level = self.other(side), side, level
        if self.loser is not None:
            assert self.winner is not None and self.level is not None
            self._finish(self.winner, self.loser, self.level)
            return
        self.phase = "turn"
        self._auto_end()

    def _do_Wound(self, a: A.Wound) -> None:
        self._wound(a.side, ATTRS.index(a.attr))
        self._continue_wounds()

    def _wound(self, side: str, attr: int) -> None:
        f = self.fighters[side]
        f.dice[attr] -= 1
        self.wound_queue[0][1] -= 1
        self.emit(
            "wounded",
            f"{self._name(side)} loses one {ATTRS[attr]} die ({'/'.join(str(n) for n in f.dice)})",
            side=side,
            attr=ATTRS[attr],
            dice=list(f.dice),
        )

    def winner_level(self) -> str | None:
        """Ruling C10b: the defeat level of a winner that took counter wounds after the
        attack that decided the fight (None: it stands)."""
        return defeat_level(self.fighters[self.winner].dice) if self.winner else None

    def _finish(self, winner: str, loser: str, level: str) -> None:
        self.winner, self.loser, self.level = winner, loser, level
        self.phase = "over"
        self.wound_queue = []
        words = {"yield": "yields", "injury": "is injured", "decapitation": "is decapitated"}
        hurt = self.winner_level()
        text = f"{self._name(winner)} wins: {self._name(loser)} {words[level]}"
        if hurt:
            text += f"; the counter wounds leave {self._name(winner)} {LEVEL_TEXT[hurt]}"
        self.emit("fight_over", text, winner=winner, loser=loser, level=level, winner_level=hurt)

    # ---------------------------------------------------------------- snapshot

    def snapshot(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "phase": self.phase,
            "fighters": [self.fighters[s].snapshot() for s in SIDES],
            "nets": dict(self.nets),
            "init_rolls": {k: list(v) for k, v in self.init_rolls.items()},
            "init_winner": self.init_winner,
            "order": list(self.order),
            "acting": self.acting,
            "steps": self.steps,
            "attacked": self.attacked,
            "moved_before_attack": self.moved_before_attack,
            "attacker": self.attacker,
            "quick": self.quick,
            "rolls": {k: list(v) for k, v in self.rolls.items()},
            "reroll_pending": list(self.reroll_pending),
            "reroll_faces": dict(self.reroll_faces),
            "wound_queue": [list(w) for w in self.wound_queue],
            "winner": self.winner,
            "loser": self.loser,
            "level": self.level,
        }


def distance_between(fight: Fight) -> int:
    return distance(fight.fighters["I"].pos, fight.fighters["II"].pos)
