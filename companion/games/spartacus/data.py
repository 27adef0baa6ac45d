"""Spartacus component data: arenas, houses, market and intrigue cards, abilities.

Loaded from ``companion/data/spartacus.json`` or a file of the user's, checked against
the declared fields of ``companion/data/spartacus.schema.json`` (:mod:`.cards`: errors
name the entry and say what to fix), then built into the typed entries below. The
rulebook prints rules, not card texts: each entry lists the fields whose values are
guesses (``guessed``); market entries with ``count`` n are the cards ``<id>-1`` ..
``<id>-n``.

Two small vocabularies make cards data:

- a gladiator *ability* is a trigger and an effect: ``trigger.roll`` is
  ``attack`` (the dice of an attack, quick attacks included) or ``defence``;
  ``trigger.pattern`` is ``pair`` or ``triple`` (optionally only of ``face``);
  ``effect`` is ``extra_wound`` (attack roll: the defender takes ``amount``
  more wounds per trigger), ``wound_attacker`` (defence roll: the attacker
  takes ``amount`` wounds per trigger) or ``ignore_wound`` (defence roll: the
  defender ignores ``amount`` wounds per trigger);
- *equipment* effects: ``reroll_attack``, ``reroll_defence``, ``reach``
  (``value`` 2), ``quick_attack``, ``ignore_wound``, ``extra_wound``, ``net``;
  ``once_per_fight`` marks an effect that exhausts the card when used;
- *intrigue* card effects (applied to the card's target unless said):
  ``gain_gold``, ``gold_per_ready_slave``, ``influence`` (+-n), ``draw``,
  ``discard`` (``slave`` or ``gladiator``, the target chooses a ready one),
  ``pay_each`` (the player pays n to every other house), ``thwart`` (a
  reaction that thwarts a scheme), ``peek`` (the player looks at a random
  hand card of the target); ``condition`` (``no_gold``, ``no_slaves``) limits
  a reaction's targets; ``cost`` is gold paid to the bank when a scheme
  succeeds; ``manual`` text is applied by the players with corrections;
- a *house rule* (:class:`HouseRule`) is an intrigue-turn ability with costs
  (``exhaust`` a ready gladiator or slave, ``pay`` gold) and effects from the
  intrigue vocabulary on a ``target``, or a named manual step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from companion.games.core.data import DataFile
from companion.games.core.errors import DataError
from companion.games.spartacus.cards import INVALID, check, market_ids
from companion.games.spartacus.hexmap import HexMap


@dataclass(frozen=True)
class Ability:
    """A special ability triggered by pairs or triples in one roll."""

    id: str
    title: str
    roll: str
    pattern: str
    effect: str
    amount: int = 1
    face: int | None = None

    def matches(self, face: int) -> bool:
        return self.face is None or self.face == face


@dataclass(frozen=True)
class EquipEffect:
    effect: str
    value: int = 1
    once_per_fight: bool = False


@dataclass(frozen=True)
class MarketCard:
    """A gladiator, slave or piece of equipment (the market deck)."""

    id: str
    title: str
    kind: str  # gladiator, slave, equipment
    value: int
    attack: int = 0
    defence: int = 0
    speed: int = 0
    ability: str | None = None
    starter: bool = False
    equipment_type: str | None = None
    effects: tuple[EquipEffect, ...] = ()
    exhaust: tuple[tuple[str, Any], ...] = ()
    manual: str = ""
    label: str = ""
    guessed: tuple[str, ...] = ()
    source: str = ""

    @property
    def is_fighter(self) -> bool:
        return self.kind in ("gladiator", "slave")

    def has(self, effect: str) -> bool:
        return any(e.effect == effect for e in self.effects)


@dataclass(frozen=True)
class IntrigueCard:
    id: str
    title: str
    kind: str  # scheme, reaction, guard
    influence: int
    value: int
    count: int
    effects: tuple[tuple[str, Any], ...] = ()
    condition: str | None = None
    manual: str = ""
    label: str = ""
    cost: int = 0  # gold to the bank when the scheme succeeds
    guessed: tuple[str, ...] = ()
    source: str = ""

    def effect(self, name: str) -> Any:
        for key, value in self.effects:
            if key == name:
                return value
        return None

    @property
    def thwarts(self) -> bool:
        return bool(self.effect("thwart"))

    def effect_line(self) -> str:
        """What the card does, in one short line made from its data (the rulebook prints
        no card texts): ``Gewinn vom Schwarzmarkt: scheme, 7 influence; the target gains
        5 gold``. Values the data marks as guesses are labelled (``[guessed: influence]``),
        so no line passes a guess off as the printed card."""
        said = [_EFFECT_WORDS[k](v) for k, v in self.effects if k in _EFFECT_WORDS]
        if self.kind == "guard":
            said.append("send it against a scheme on you: 4-6 thwarts it (or lay it down)")
        if self.condition in _CONDITION_WORDS:
            said.insert(0, _CONDITION_WORDS[self.condition])
        if self.cost:
            said.append(f"you pay {self.cost} gold when it succeeds")
        if self.manual:
            said.append(f"by hand: {self.manual}")
        needs = f", {self.influence} influence" if self.kind != "guard" else ""
        shown = ("title", "effects", "manual") if self.kind == "guard" else _SHOWN
        guessed = [f for f in shown if f in self.guessed]
        label = f" [guessed: {', '.join(guessed)}]" if guessed else ""
        return f"{self.title}: {self.kind}{needs}; {'; '.join(said) or 'no effect'}{label}"


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


#: The intrigue effect vocabulary in words (the module docstring says what each does).
_EFFECT_WORDS = {
    "gain_gold": lambda n: f"the target gains {n} gold",
    "gold_per_ready_slave": lambda n: f"the target gains {n} gold per ready slave",
    "influence": lambda n: f"the target {_signed(n)} influence",
    "draw": lambda n: f"the target draws {n} card{'s' if n != 1 else ''}",
    "discard": lambda kind: f"the target discards a ready {kind} of its choice",
    "pay_each": lambda n: f"you pay {n} gold to every other house",
    "thwart": lambda _: "thwarts a scheme",
    "peek": lambda _: "you look at a random card of the target's hand",
}
_SHOWN = ("title", "influence", "effects", "manual")  # the fields a line shows
_CONDITION_WORDS = {
    "no_gold": "on a house without gold",
    "no_slaves": "on a house without a ready slave",
}


@dataclass(frozen=True)
class HouseRule:
    """A house card's special rule, used in the house's intrigue turn: an ability in the
    card vocabulary (``effects``, with the costs ``exhaust`` and ``pay``, on a ``target``:
    self, other or any), or a named manual step (``manual``) the table prompts for."""

    id: str
    title: str
    text: str = ""
    manual: str = ""
    exhaust: str | None = None  # gladiator or slave: exhaust one ready card of the house
    pay: int = 0
    target: str = "self"
    effects: tuple[tuple[str, Any], ...] = ()

    @property
    def is_manual(self) -> bool:
        return not self.effects


#: The stand-in for a house whose special rules are not in the data file.
UNTRANSCRIBED_RULES = HouseRule(
    "house-card",
    "House card",
    manual="apply your house card's special rules by hand (corrections): they are not in the "
    "data file yet",
)


@dataclass(frozen=True)
class House:
    id: str
    title: str
    gladiators: int
    slaves: int
    guards: int
    gold: int
    rule: str = ""
    rules: tuple[HouseRule, ...] | None = None  # None: not transcribed yet
    hand_limit: tuple[int, ...] | None = None  # the house card's own scale, if any

    @property
    def special_rules(self) -> tuple[HouseRule, ...]:
        """The rules the engine knows, or the one manual stand-in when not transcribed."""
        return (UNTRANSCRIBED_RULES,) if self.rules is None else self.rules


@dataclass(frozen=True)
class SpartacusData:
    arenas: dict[str, HexMap]
    game_lengths: dict[str, int]
    hand_limits: tuple[int, ...]
    houses: dict[str, House]
    abilities: dict[str, Ability]
    market: dict[str, MarketCard]
    intrigue: dict[str, IntrigueCard]
    source: str = field(default="", compare=False)

    def hand_limit(self, influence: int, house: str | None = None) -> int:
        """Cards a house may hold at ``influence`` (its own card's scale if it prints one)."""
        own = self.houses[house].hand_limit if house is not None else None
        limits = own or self.hand_limits
        return limits[max(0, min(influence, len(limits) - 1))]

    def ability(self, ability_id: str | None) -> Ability | None:
        return self.abilities[ability_id] if ability_id else None

    def starters(self, kind: str) -> list[str]:
        return [c.id for c in self.market.values() if c.kind == kind and c.starter]

    def market_deck(self) -> list[str]:
        return [c.id for c in self.market.values() if not c.starter]

    @cached_property
    def reactions(self) -> list[IntrigueCard]:
        """The reactions with an effect (not thwarts): played at any time."""
        return [c for c in self.intrigue.values() if c.kind == "reaction" and not c.thwarts]

    def intrigue_deck(self) -> list[str]:
        return [c.id for c in self.intrigue.values() for _ in range(c.count)]


def _effects(raw: Any) -> tuple[tuple[str, Any], ...]:
    """A checked ``effects`` value (a list of one-key objects, or one object) as pairs."""
    entries = raw if isinstance(raw, list) else [raw]
    return tuple((key, value) for e in entries for key, value in e.items())


def _ability(entry: dict[str, Any]) -> Ability:
    trigger = entry["trigger"]
    return Ability(
        entry["id"],
        str(entry.get("title", entry["id"])),
        trigger["roll"],
        trigger["pattern"],
        entry["effect"],
        entry.get("amount", 1),
        trigger.get("face"),
    )


def _market(entry: dict[str, Any], kind: str) -> list[MarketCard]:
    """The cards of one market entry (``count`` copies: ``<id>-1`` .. ``<id>-n``)."""
    common: dict[str, Any] = {
        "title": str(entry.get("title", entry["id"])),
        "kind": kind,
        "value": entry["value"],
        "label": str(entry.get("label", "")),
        "guessed": tuple(entry.get("guessed", ())),
        "source": str(entry.get("source", "")),
    }
    if kind == "equipment":
        common["equipment_type"] = entry["type"]
        common["effects"] = tuple(
            EquipEffect(
                e["effect"],
                e.get("value", 2 if e["effect"] == "reach" else 1),
                e.get("once_per_fight", False),
            )
            for e in entry["effects"]
        )
    else:
        common.update(
            attack=entry.get("attack", 1),
            defence=entry.get("defence", 1),
            speed=entry.get("speed", 1),
            ability=entry.get("ability"),
            starter=entry.get("starter", False),
            exhaust=_effects(entry["exhaust"]) if "exhaust" in entry else (),
            manual=str(entry.get("manual", "")),
        )
    return [MarketCard(cid, **common) for cid in market_ids(entry)]


def _house_rule(entry: dict[str, Any]) -> HouseRule:
    ability = entry.get("ability") or {}
    return HouseRule(
        entry["id"],
        str(entry.get("title", entry["id"])),
        str(entry.get("text", "")),
        str(entry.get("manual", "")),
        ability.get("exhaust"),
        ability.get("pay", 0),
        ability.get("target", "self"),
        _effects(ability["effects"]) if ability else (),
    )


def _house(entry: dict[str, Any]) -> House:
    rules = entry.get("rules")
    limit = entry.get("hand_limit")
    return House(
        entry["id"],
        str(entry.get("title", entry["id"])),
        entry["gladiators"],
        entry["slaves"],
        entry["guards"],
        entry["gold"],
        rule=str(entry.get("rule", "")),
        rules=None if rules is None else tuple(_house_rule(r) for r in rules),
        hand_limit=None if limit is None else tuple(limit),
    )


def _intrigue(entry: dict[str, Any]) -> IntrigueCard:
    return IntrigueCard(
        entry["id"],
        str(entry.get("title", entry["id"])),
        entry["kind"],
        entry["influence"],
        entry["value"],
        entry.get("count", 1),
        _effects(entry.get("effects", [])),
        entry.get("condition"),
        str(entry.get("manual", "")),
        str(entry.get("label", "")),
        cost=entry.get("cost", 0),
        guessed=tuple(entry.get("guessed", ())),
        source=str(entry.get("source", "")),
    )


def parse_data(data: Any, source: str = "spartacus data") -> SpartacusData:
    """Check a Spartacus data document against its schema (:mod:`.cards`) and build it.

    An invalid document raises :class:`DataError` naming its first problem (``companion
    spartacus cards check FILE`` lists them all); missing cards and guesses are fine.
    """
    report = check(data)
    invalid = report.at(INVALID)
    if invalid:
        more = (
            f" (and {len(invalid) - 1} more: 'companion spartacus cards check' lists them)"
            if len(invalid) > 1
            else ""
        )
        raise DataError(f"{source}: {invalid[0]}{more}")
    arenas = {
        name: HexMap.parse(entry["rows"], str(entry.get("label") or entry.get("source", "")))
        for name, entry in data["arenas"].items()
    }
    lengths = {name: entry["influence"] for name, entry in data["game_lengths"].items()}
    houses = {e["id"]: _house(e) for e in data["houses"]}
    abilities = {e["id"]: _ability(e) for e in data.get("abilities", [])}
    market = {
        card.id: card
        for section, kind in (("gladiators", "gladiator"), ("slaves", "slave"))
        for entry in data[section]
        for card in _market(entry, kind)
    }
    market.update((c.id, c) for e in data["equipment"] for c in _market(e, "equipment"))
    intrigue = {e["id"]: _intrigue(e) for e in data["intrigue"]}
    return SpartacusData(
        arenas,
        lengths,
        tuple(data["hand_limit"]["by_influence"]),
        houses,
        abilities,
        market,
        intrigue,
        source,
    )


DATA_FILE = DataFile("spartacus.json", "Spartacus", parse_data)
builtin_data = DATA_FILE.builtin_data
load_data = DATA_FILE.load
