"""Spartacus component data: arenas, houses, market and intrigue cards, abilities.

Loaded from ``companion/data/spartacus.json`` or a file of the user's and
validated with errors that name the entry and say what to fix. The rulebook
prints rules, not card texts: entries labelled "default" are guesses.

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
  a reaction's targets; ``manual`` text is applied by the players with
  corrections.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.core.data import DataFile
from companion.games.core.errors import DataError
from companion.games.spartacus.hexmap import HexMap, HexMapError

ROLLS = ("attack", "defence")
PATTERNS = ("pair", "triple")
ABILITY_EFFECTS = {"attack": ("extra_wound",), "defence": ("wound_attacker", "ignore_wound")}
EQUIPMENT_TYPES = ("weapon", "armour", "special")
EQUIPMENT_EFFECTS = (
    "reroll_attack",
    "reroll_defence",
    "reach",
    "quick_attack",
    "ignore_wound",
    "extra_wound",
    "net",
)
INTRIGUE_KINDS = ("scheme", "reaction", "guard")
CARD_EFFECTS = (
    "gain_gold",
    "gold_per_ready_slave",
    "influence",
    "draw",
    "discard",
    "pay_each",
    "thwart",
    "peek",
)
CONDITIONS = ("no_gold", "no_slaves")
EXHAUST_EFFECTS = ("gain_gold", "peek")


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

    def effect(self, name: str) -> Any:
        for key, value in self.effects:
            if key == name:
                return value
        return None

    @property
    def thwarts(self) -> bool:
        return bool(self.effect("thwart"))


@dataclass(frozen=True)
class House:
    id: str
    title: str
    gladiators: int
    slaves: int
    guards: int
    gold: int
    rule: str = ""


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

    def hand_limit(self, influence: int) -> int:
        limits = self.hand_limits
        return limits[max(0, min(influence, len(limits) - 1))]

    def ability(self, ability_id: str | None) -> Ability | None:
        return self.abilities[ability_id] if ability_id else None

    def starters(self, kind: str) -> list[str]:
        return [c.id for c in self.market.values() if c.kind == kind and c.starter]

    def market_deck(self) -> list[str]:
        return [c.id for c in self.market.values() if not c.starter]

    def intrigue_deck(self) -> list[str]:
        return [c.id for c in self.intrigue.values() for _ in range(c.count)]


def _need(entry: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = entry.get(key)
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise DataError(f"{where}: '{key}' must be a whole number, got {value!r}")
    if kind is str and (not isinstance(value, str) or not value):
        raise DataError(f"{where}: '{key}' must be non-empty text, got {value!r}")
    return value


def _ability(entry: Any, where: str) -> Ability:
    if not isinstance(entry, dict):
        raise DataError(f"{where}: an ability must be an object")
    aid = _need(entry, "id", str, where)
    where = f"{where} ({aid})"
    trigger = entry.get("trigger")
    if not isinstance(trigger, dict):
        raise DataError(f"{where}: needs a 'trigger' object with 'roll' and 'pattern'")
    roll, pattern = trigger.get("roll"), trigger.get("pattern")
    if roll not in ROLLS:
        raise DataError(f"{where}: trigger.roll must be one of {ROLLS}, got {roll!r}")
    if pattern not in PATTERNS:
        raise DataError(f"{where}: trigger.pattern must be one of {PATTERNS}, got {pattern!r}")
    face = trigger.get("face")
    if face is not None and (not isinstance(face, int) or not 1 <= face <= 6):
        raise DataError(f"{where}: trigger.face must be 1..6, got {face!r}")
    effect = entry.get("effect")
    if effect not in ABILITY_EFFECTS[roll]:
        raise DataError(
            f"{where}: a {roll} trigger's effect must be one of "
            f"{ABILITY_EFFECTS[roll]}, got {effect!r}"
        )
    amount = entry.get("amount", 1)
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
        raise DataError(f"{where}: 'amount' must be a whole number >= 1, got {amount!r}")
    return Ability(aid, str(entry.get("title", aid)), roll, pattern, effect, amount, face)


def _equip_effects(raw: Any, where: str) -> tuple[EquipEffect, ...]:
    if not isinstance(raw, list) or not raw:
        raise DataError(f"{where}: equipment needs a non-empty 'effects' list")
    out = []
    for e in raw:
        if not isinstance(e, dict) or e.get("effect") not in EQUIPMENT_EFFECTS:
            raise DataError(
                f"{where}: each effect needs 'effect', one of {EQUIPMENT_EFFECTS}; got {e!r}"
            )
        value = e.get("value", 2 if e["effect"] == "reach" else 1)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise DataError(f"{where}: effect value must be a whole number >= 1, got {value!r}")
        out.append(EquipEffect(e["effect"], value, bool(e.get("once_per_fight", False))))
    return tuple(out)


def _card_effects(raw: Any, where: str, allowed: tuple[str, ...]) -> tuple[tuple[str, Any], ...]:
    items: list[tuple[str, Any]] = []
    entries = raw if isinstance(raw, list) else [raw]
    for e in entries:
        if not isinstance(e, dict):
            raise DataError(f'{where}: effects must be objects like {{"gain_gold": 2}}')
        for key, value in e.items():
            if key not in allowed:
                raise DataError(f"{where}: unknown effect {key!r}; known: {', '.join(allowed)}")
            if key == "discard" and value not in ("slave", "gladiator"):
                raise DataError(f"{where}: discard must be 'slave' or 'gladiator'")
            if key in ("gain_gold", "gold_per_ready_slave", "draw", "pay_each", "influence") and (
                not isinstance(value, int) or isinstance(value, bool)
            ):
                raise DataError(f"{where}: {key} needs a whole number, got {value!r}")
            items.append((key, value))
    return tuple(items)


def _fighter(entry: dict[str, Any], kind: str, where: str, abilities: dict) -> MarketCard:
    cid = _need(entry, "id", str, where)
    where = f"{where} ({cid})"
    stats = {}
    for key in ("attack", "defence", "speed"):
        value = entry.get(key, 1)
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 8:
            raise DataError(f"{where}: '{key}' must be 1..8 dice, got {value!r}")
        stats[key] = value
    ability = entry.get("ability")
    if ability is not None and ability not in abilities:
        raise DataError(f"{where}: unknown ability {ability!r}; known: {sorted(abilities)}")
    exhaust = _card_effects(entry["exhaust"], where, EXHAUST_EFFECTS) if "exhaust" in entry else ()
    return MarketCard(
        cid,
        str(entry.get("title", cid)),
        kind,
        _need(entry, "value", int, where),
        ability=ability,
        starter=bool(entry.get("starter", False)),
        exhaust=exhaust,
        manual=str(entry.get("manual", "")),
        label=str(entry.get("label", "")),
        **stats,
    )


def parse_data(data: Any, source: str = "spartacus data") -> SpartacusData:
    """Validate a Spartacus data document."""
    if not isinstance(data, dict):
        raise DataError(f"{source}: expected a JSON object")
    arenas: dict[str, HexMap] = {}
    for name, entry in (data.get("arenas") or {}).items():
        try:
            arenas[name] = HexMap.parse(entry.get("rows", []), str(entry.get("label", "")))
        except (HexMapError, AttributeError) as exc:
            raise DataError(f"{source}: arena {name!r}: {exc}") from None
    if not arenas:
        raise DataError(f"{source}: needs at least one arena in 'arenas'")
    lengths = {}
    for name, entry in (data.get("game_lengths") or {}).items():
        lengths[name] = _need(entry, "influence", int, f"{source}: game length {name!r}")
    limits = (data.get("hand_limit") or {}).get("by_influence")
    if (
        not isinstance(limits, list)
        or not limits
        or not all(isinstance(n, int) and n >= 0 for n in limits)
    ):
        raise DataError(
            f"{source}: hand_limit.by_influence must be a list of card counts, "
            "one per influence value from 0"
        )
    houses = {}
    for i, entry in enumerate(data.get("houses") or []):
        where = f"{source}: house #{i}"
        hid = _need(entry, "id", str, where)
        houses[hid] = House(
            hid,
            str(entry.get("title", hid)),
            *(_need(entry, k, int, where) for k in ("gladiators", "slaves", "guards", "gold")),
            rule=str(entry.get("rule", "")),
        )
    if len(houses) < 2:
        raise DataError(f"{source}: needs at least 2 houses")
    abilities = {}
    for i, entry in enumerate(data.get("abilities") or []):
        ability = _ability(entry, f"{source}: ability #{i}")
        abilities[ability.id] = ability
    market: dict[str, MarketCard] = {}

    def add(card: MarketCard, where: str) -> None:
        if card.id in market:
            raise DataError(f"{where}: card id {card.id!r} is used twice")
        market[card.id] = card

    for i, entry in enumerate(data.get("gladiators") or []):
        add(_fighter(entry, "gladiator", f"{source}: gladiator #{i}", abilities), source)
    for i, entry in enumerate(data.get("slaves") or []):
        add(_fighter(entry, "slave", f"{source}: slave #{i}", abilities), source)
    for i, entry in enumerate(data.get("equipment") or []):
        where = f"{source}: equipment #{i}"
        eid = _need(entry, "id", str, where)
        etype = entry.get("type")
        if etype not in EQUIPMENT_TYPES:
            raise DataError(f"{where} ({eid}): type must be one of {EQUIPMENT_TYPES}")
        add(
            MarketCard(
                eid,
                str(entry.get("title", eid)),
                "equipment",
                _need(entry, "value", int, where),
                equipment_type=etype,
                effects=_equip_effects(entry.get("effects"), f"{where} ({eid})"),
                label=str(entry.get("label", "")),
            ),
            where,
        )
    intrigue: dict[str, IntrigueCard] = {}
    for i, entry in enumerate(data.get("intrigue") or []):
        where = f"{source}: intrigue card #{i}"
        cid = _need(entry, "id", str, where)
        kind = entry.get("kind")
        if kind not in INTRIGUE_KINDS:
            raise DataError(f"{where} ({cid}): kind must be one of {INTRIGUE_KINDS}")
        condition = entry.get("condition")
        if condition is not None and condition not in CONDITIONS:
            raise DataError(f"{where} ({cid}): condition must be one of {CONDITIONS}")
        count = entry.get("count", 1)
        if not isinstance(count, int) or count < 1:
            raise DataError(f"{where} ({cid}): count must be >= 1")
        if cid in intrigue:
            raise DataError(f"{where}: card id {cid!r} is used twice")
        intrigue[cid] = IntrigueCard(
            cid,
            str(entry.get("title", cid)),
            kind,
            _need(entry, "influence", int, where),
            _need(entry, "value", int, where),
            count,
            _card_effects(entry.get("effects", []), f"{where} ({cid})", CARD_EFFECTS),
            condition,
            str(entry.get("manual", "")),
            str(entry.get("label", "")),
        )
    clash = sorted(set(intrigue) & set(market))
    if clash:
        raise DataError(f"{source}: ids used by both a market and an intrigue card: {clash}")
    if not any(c.kind == "guard" for c in intrigue.values()):
        raise DataError(f"{source}: the intrigue deck needs guard cards (kind 'guard')")
    return SpartacusData(
        arenas, lengths, tuple(limits), houses, abilities, market, intrigue, source
    )


DATA_FILE = DataFile("spartacus.json", "Spartacus", parse_data)
builtin_data = DATA_FILE.builtin_data
load_data = DATA_FILE.load
