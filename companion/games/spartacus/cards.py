"""Checking a Spartacus data file against its schema: is it valid, is it complete?

The fields of a data file are declared once, in ``companion/data/spartacus.schema.json``
(a field table: type, required, complete, default, and the rulebook's words for each
field). :func:`check` walks a decoded document along that table and reports every
problem, one :class:`Problem` each, at one of three levels:

- ``invalid``: the file cannot be used (a wrong type, a value out of range, an unknown
  field or effect, an id used twice, an ability that does not exist);
- ``missing``: the file can be used, but something of the box is not in it yet (cards
  the box has and the file lacks, a house card's special rules), so the companion uses a
  stand-in;
- ``guess``: a value the entry itself labels as a guess (its ``guessed`` list).

A file is *valid* without invalid problems and *complete* without any problem at all.
``companion spartacus cards check FILE`` prints the report (exit 0 complete, 1 valid but
incomplete, 2 invalid); :func:`~companion.games.spartacus.data.parse_data` refuses a file
with invalid problems. No JSON Schema library is used: the checks are this small walk
over a declared table (a library would cost a Pi Zero more than it saves here).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from companion.games.spartacus.hexmap import HexMap, HexMapError

INVALID, MISSING, GUESS = "invalid", "missing", "guess"
SCHEMA_FILE = "spartacus.schema.json"
MARKET_SECTIONS = ("gladiators", "slaves", "equipment")
ABILITY_ROLL_EFFECTS = {"attack": ("extra_wound",), "defence": ("wound_attacker", "ignore_wound")}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with or missing from a data file."""

    level: str  # invalid, missing, guess
    where: str  # intrigue[3] (skandal).influence
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


@dataclass(frozen=True)
class Report:
    """Every problem of one data file, in file order within each level."""

    problems: tuple[Problem, ...]

    def at(self, level: str) -> list[Problem]:
        return [p for p in self.problems if p.level == level]

    @property
    def valid(self) -> bool:
        return not self.at(INVALID)

    @property
    def complete(self) -> bool:
        return not self.problems


@cache
def schema() -> dict[str, Any]:
    """The field table shipped with companion (read once)."""
    text = resources.files("companion.data").joinpath(SCHEMA_FILE).read_text("utf-8")
    return json.loads(text)


def market_ids(entry: dict[str, Any]) -> list[str]:
    """The card ids of a market entry: its id, or ``<id>-1`` .. ``<id>-n`` with a count."""
    count = entry.get("count", 1)
    cid = entry["id"]
    if not isinstance(count, int) or isinstance(count, bool) or count <= 1:
        return [cid]
    return [f"{cid}-{i}" for i in range(1, count + 1)]


def _name(entry: Any, where: str) -> str:
    if isinstance(entry, dict) and isinstance(entry.get("id"), str):
        return f"{where} ({entry['id']})"
    return where


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Walk:
    """One pass over a document; problems collect in ``out``."""

    def __init__(self) -> None:
        self.out: list[Problem] = []
        self.vocabularies: dict[str, dict[str, Any]] = schema()["vocabularies"]

    def bad(self, where: str, message: str) -> None:
        self.out.append(Problem(INVALID, where, message))

    def fields(self, value: Any, fields: dict[str, Any], where: str) -> None:
        if not isinstance(value, dict):
            self.bad(where, f"must be an object with fields {', '.join(fields)}")
            return
        for key in value:
            if key not in fields:
                self.bad(where, f"unknown field {key!r}; fields: {', '.join(fields)}")
        for key, spec in fields.items():
            path = f"{where}.{key}" if where else key
            if key in value:
                self.value(value[key], spec, path, fields)
            elif spec.get("required"):
                self.bad(where, f"needs {key!r}: {spec.get('doc', key)}")
            elif spec.get("complete"):
                missing = spec.get("missing", spec["doc"])
                self.out.append(Problem(MISSING, where, f"no {key!r} yet: {missing}"))

    def value(self, value: Any, spec: dict[str, Any], where: str, siblings: dict) -> None:
        kind = spec["type"]
        check = getattr(self, "t_" + kind)
        check(value, spec, where, siblings)

    # -- the types ------------------------------------------------------------------------

    def t_id(self, value: Any, spec: dict, where: str, siblings: dict) -> None:
        if not isinstance(value, str) or not value or any(c.isspace() for c in value):
            self.bad(where, f"must be a name without spaces (typed at the table), got {value!r}")

    def t_text(self, value: Any, spec: dict, where: str, siblings: dict) -> None:
        if not isinstance(value, str):
            self.bad(where, f"must be text, got {value!r}")

    def t_int(self, value: Any, spec: dict, where: str, siblings: dict) -> None:
        low, high = spec["min"], spec["max"]
        if not _whole(value) or not low <= value <= high:
            self.bad(where, f"must be a whole number {low}..{high}, got {value!r}")

    def t_bool(self, value: Any, spec: dict, where: str, siblings: dict) -> None:
        if not isinstance(value, bool):
            self.bad(where, f"must be true or false, got {value!r}")

    def t_true(self, value: Any, spec: dict, where: str, siblings: dict) -> None:
        if value is not True:
            self.bad(where, f"must be true, got {value!r}")

    def t_choice(self, value: Any, spec: dict, where: str, siblings: dict) -> None:
        if value not in spec["values"]:
            self.bad(where, f"must be one of {', '.join(spec['values'])}; got {value!r}")

    def t_ref(self, value: Any, spec: dict, where: str, siblings: dict) -> None:
        if not isinstance(value, str) or not value:
            self.bad(where, f"must name an entry of {spec['to']}, got {value!r}")

    def t_ints(self, value: Any, spec: dict, where: str, siblings: dict) -> None:
        low, high = spec["min"], spec["max"]
        if (
            not isinstance(value, list)
            or not value
            or not all(_whole(n) and low <= n <= high for n in value)
        ):
            self.bad(where, f"must be a list of whole numbers {low}..{high}, got {value!r}")

    def t_rows(self, value: Any, spec: dict, where: str, siblings: dict) -> None:
        if not isinstance(value, list) or not value or not all(isinstance(r, str) for r in value):
            self.bad(where, "must be a list of text rows")

    def t_guessed(self, value: Any, spec: dict, where: str, siblings: dict) -> None:
        known = [k for k in siblings if k not in ("guessed", "source", "label", "text")]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.bad(where, f"must be a list of field names ({', '.join(known)})")
            return
        for name in value:
            if name not in known:
                self.bad(where, f"{name!r} is not a field here; fields: {', '.join(known)}")

    def t_effects(self, value: Any, spec: dict, where: str, siblings: dict) -> None:
        vocabulary = self.vocabularies[spec["vocabulary"]]
        entries = value if isinstance(value, list) else [value]
        for i, effect in enumerate(entries):
            at = f"{where}[{i}]" if isinstance(value, list) else where
            if not isinstance(effect, dict) or not effect:
                self.bad(at, 'an effect is an object like {"gain_gold": 2}')
                continue
            for key, amount in effect.items():
                if key not in vocabulary:
                    self.bad(at, f"unknown effect {key!r}; known: {', '.join(vocabulary)}")
                else:
                    self.value(amount, vocabulary[key], f"{at}.{key}", {})

    def t_object(self, value: Any, spec: dict, where: str, siblings: dict) -> None:
        self.fields(value, spec["fields"], where)

    def t_list(self, value: Any, spec: dict, where: str, siblings: dict) -> None:
        if not isinstance(value, list):
            self.bad(where, "must be a list of entries")
            return
        if len(value) < spec.get("min_items", 0):
            self.bad(where, f"needs at least {spec['min_items']} entries, has {len(value)}")
        for i, entry in enumerate(value):
            self.fields(entry, spec["fields"], _name(entry, f"{where}[{i}]"))

    def t_map(self, value: Any, spec: dict, where: str, siblings: dict) -> None:
        if not isinstance(value, dict) or not value:
            self.bad(where, "must be an object of named entries (at least one)")
            return
        for name, entry in value.items():
            self.fields(entry, spec["fields"], f"{where}.{name}")


# -- checks across entries ----------------------------------------------------------------


def _entries(document: dict[str, Any], section: str) -> Iterable[tuple[str, dict[str, Any]]]:
    entries = document.get(section)
    if not isinstance(entries, list):
        return []
    return [
        (_name(e, f"{section}[{i}]"), e)
        for i, e in enumerate(entries)
        if isinstance(e, dict) and isinstance(e.get("id"), str)
    ]


def _cross(walk: _Walk, document: dict[str, Any]) -> None:
    """What one entry alone cannot say: ids used twice, refs, maps, rule shapes."""
    for section in ("houses", "abilities", "intrigue"):
        seen: set[str] = set()
        for where, entry in _entries(document, section):
            if entry["id"] in seen:
                walk.bad(where, f"the id {entry['id']!r} is used twice in {section}")
            seen.add(entry["id"])
    market: dict[str, str] = {}
    for section in MARKET_SECTIONS:
        for where, entry in _entries(document, section):
            for cid in market_ids(entry):
                if cid in market:
                    walk.bad(where, f"the card id {cid!r} is also {market[cid]}")
                market[cid] = where
    for where, entry in _entries(document, "intrigue"):
        if entry["id"] in market:
            walk.bad(where, f"the id {entry['id']!r} is also a market card ({market[entry['id']]})")
        kind = entry.get("kind")
        effects = entry.get("effects") if isinstance(entry.get("effects"), list) else []
        if "condition" in entry and kind != "reaction":
            walk.bad(where, "only a reaction has a condition (its targets)")
        if any(isinstance(e, dict) and "thwart" in e for e in effects) and kind != "reaction":
            walk.bad(where, "only a reaction thwarts a scheme")
    intrigue = [e for _, e in _entries(document, "intrigue")]
    if isinstance(document.get("intrigue"), list) and not any(
        e.get("kind") == "guard" for e in intrigue
    ):
        walk.bad("intrigue", "the deck needs guard cards (kind 'guard'): houses start with guards")
    abilities = {e["id"]: e for _, e in _entries(document, "abilities")}
    for where, entry in _entries(document, "abilities"):
        trigger = entry.get("trigger")
        roll = trigger.get("roll") if isinstance(trigger, dict) else None
        allowed = ABILITY_ROLL_EFFECTS.get(roll) if isinstance(roll, str) else None
        if allowed and entry.get("effect") not in allowed:
            walk.bad(
                where,
                f"the effect of a {roll} trigger must be one of {', '.join(allowed)}; "
                f"got {entry.get('effect')!r}",
            )
    for section in ("gladiators", "slaves"):
        for where, entry in _entries(document, section):
            ability = entry.get("ability")
            if isinstance(ability, str) and ability not in abilities:
                walk.bad(
                    f"{where}.ability",
                    f"unknown ability {ability!r}; abilities: {', '.join(abilities) or 'none'}",
                )
    for where, entry in _entries(document, "houses"):
        rules = entry.get("rules")
        for i, rule in enumerate(rules if isinstance(rules, list) else []):
            if isinstance(rule, dict) and ("manual" in rule) == ("ability" in rule):
                walk.bad(
                    _name(rule, f"{where}.rules[{i}]"),
                    "a house rule is either an 'ability' (data) or a 'manual' step, one of them",
                )
    arenas = document.get("arenas")
    for name, entry in arenas.items() if isinstance(arenas, dict) else []:
        rows = entry.get("rows") if isinstance(entry, dict) else None
        if isinstance(rows, list) and all(isinstance(r, str) for r in rows):
            try:
                HexMap.parse(rows)
            except HexMapError as exc:
                walk.bad(f"arenas.{name}.rows", str(exc))


def _completeness(walk: _Walk, document: dict[str, Any]) -> None:
    """What of the box is not (yet) in the file, and what the file labels as guesses."""
    box = schema()["box"]

    def short(what: str, have: int, key: str) -> None:
        want = box[key]["cards"]
        if have < want:
            message = f"{have} of the box's {want} in the file ({want - have} to add)"
            walk.out.append(Problem(MISSING, what, message))

    intrigue = [e for _, e in _entries(document, "intrigue")]
    short("intrigue cards", sum(_count(e) for e in intrigue), "intrigue")
    market = [e for s in MARKET_SECTIONS for _, e in _entries(document, s)]
    short("market cards", sum(_count(e) for e in market), "market")
    short("house cards", len(list(_entries(document, "houses"))), "houses")
    for kind, key in (("gladiators", "starter_gladiators"), ("slaves", "starter_slaves")):
        starters = [e for _, e in _entries(document, kind) if e.get("starter") is True]
        short(f"starting {kind}", sum(_count(e) for e in starters), key)
    for where, entry in _guess_holders(document):
        guessed = entry.get("guessed")
        if isinstance(guessed, list) and guessed:
            names = ", ".join(str(g) for g in guessed)
            walk.out.append(Problem(GUESS, where, f"guessed: {names}"))


def _count(entry: dict[str, Any]) -> int:
    count = entry.get("count", 1)
    return count if _whole(count) and count > 0 else 1


def _guess_holders(document: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    for key in ("arenas",):
        section = document.get(key)
        for name, entry in section.items() if isinstance(section, dict) else []:
            if isinstance(entry, dict):
                out.append((f"{key}.{name}", entry))
    if isinstance(document.get("hand_limit"), dict):
        out.append(("hand_limit", document["hand_limit"]))
    for section in ("houses", "abilities", *MARKET_SECTIONS, "intrigue"):
        for where, entry in _entries(document, section):
            out.append((where, entry))
            rules = entry.get("rules") if section == "houses" else None
            for i, rule in enumerate(rules if isinstance(rules, list) else []):
                if isinstance(rule, dict):
                    out.append((_name(rule, f"{where}.rules[{i}]"), rule))
    return out


def check(document: Any) -> Report:
    """Every problem of a decoded data document: invalid, then missing, then guesses."""
    walk = _Walk()
    walk.fields(document, schema()["fields"], "")
    if isinstance(document, dict):
        _cross(walk, document)
        if not any(p.level == INVALID for p in walk.out):  # completeness of a usable file
            _completeness(walk, document)
    order = {INVALID: 0, MISSING: 1, GUESS: 2}
    return Report(tuple(sorted(walk.out, key=lambda p: order[p.level])))
