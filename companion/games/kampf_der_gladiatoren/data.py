"""Kampf der Gladiatoren component data: the arena graph, carriers, supply, animal tiles.

Loaded from ``companion/data/gladiatoren.json`` or a file of the user's, and
validated with errors that name the entry and say what to fix. Values the
rulebook does not print are labelled ``default`` in the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from companion.games.core.data import DataFile, whole
from companion.games.core.errors import DataError
from companion.games.kampf_der_gladiatoren.rules import KINDS, TEAM_SIZE

_ID = re.compile(r"^[A-Za-z0-9]{1,3}$")
_ANIMAL_ID = re.compile(r"^[a-z][a-z0-9_]{0,23}$")
PLAYER_COUNTS = (2, 3, 4, 5)


@dataclass(frozen=True)
class Arena:
    """Fields (ids, upper case), their screen positions and the adjacency graph."""

    ids: tuple[str, ...]
    positions: tuple[tuple[int, int], ...]  # (row, col) on the screen map
    neighbours: tuple[tuple[int, ...], ...]  # by field index
    source: str

    def index(self, field_id: str) -> int:
        try:
            return self.ids.index(field_id.upper())
        except ValueError:
            raise DataError(f"no field {field_id!r}; fields are {', '.join(self.ids)}") from None

    def __len__(self) -> int:
        return len(self.ids)


@dataclass(frozen=True)
class Animal:
    """An animal tile: its symbols and how many hit stars defeat it."""

    id: str
    name: str
    hits: int
    swords: int
    shields: int
    tridents: int
    spears: int
    source: str = ""

    @property
    def symbols(self) -> tuple[int, int, int, int, int]:
        """Symbols in gladiator-kind order (spear, net, sword, trident, shield); never a net."""
        return (self.spears, 0, self.swords, self.tridents, self.shields)

    def describe(self) -> str:
        parts = [f"{self.hits} hit{'s' if self.hits != 1 else ''}"]
        for n, word in (
            (self.swords, "sword"),
            (self.shields, "shield"),
            (self.tridents, "trident"),
            (self.spears, "spear"),
        ):
            if n:
                parts.append(f"{n} {word}{'s' if n != 1 else ''}")
        return ", ".join(parts)


@dataclass(frozen=True)
class GladiatorenData:
    arena: Arena
    carriers: dict[int, int]  # player count -> carriers per player
    supply: tuple[int, ...]  # gladiators per kind, in KINDS order
    animals: tuple[Animal, ...]
    source: str

    def animal(self, animal_id: str) -> Animal:
        for a in self.animals:
            if a.id == animal_id:
                return a
        known = ", ".join(a.id for a in self.animals)
        raise DataError(f"no animal {animal_id!r} in {self.source}; animals: {known}")

    def animal_index(self, animal_id: str) -> int:
        for i, a in enumerate(self.animals):
            if a.id == animal_id:
                return i
        known = ", ".join(a.id for a in self.animals)
        raise DataError(f"no animal {animal_id!r} in {self.source}; animals: {known}")


def _section(data: dict[str, Any], key: str, source: str) -> dict[str, Any]:
    section = data.get(key)
    if not isinstance(section, dict):
        raise DataError(f"{source}: needs an object {key!r}")
    return section


def _parse_arena(data: dict[str, Any], source: str) -> Arena:
    arena = _section(data, "arena", source)
    fields = arena.get("fields")
    if not isinstance(fields, list) or not 2 <= len(fields) <= 40:
        raise DataError(f"{source}: arena 'fields' must be a list of 2..40 fields")
    ids: list[str] = []
    positions: list[tuple[int, int]] = []
    for i, f in enumerate(fields):
        if not isinstance(f, dict) or not isinstance(f.get("id"), str) or not _ID.match(f["id"]):
            raise DataError(f"{source}: arena field #{i} needs an 'id' of 1-3 letters or digits")
        fid = f["id"].upper()
        if fid in ids:
            raise DataError(f"{source}: arena field {fid!r} is listed twice (ids ignore case)")
        ids.append(fid)
        where = f"{source}: arena field {fid!r}"
        positions.append(
            (
                whole(f.get("row"), f"{where}: 'row'", 0, 40),
                whole(f.get("col"), f"{where}: 'col'", 0, 80),
            )
        )
    if len(set(positions)) != len(positions):
        raise DataError(f"{source}: two arena fields share a screen position (row, col)")
    neighbours: list[tuple[int, ...]] = []
    for f, fid in zip(fields, ids, strict=True):
        raw = f.get("neighbours")
        if not isinstance(raw, list) or not all(isinstance(n, str) for n in raw):
            raise DataError(f"{source}: arena field {fid!r} needs 'neighbours', a list of ids")
        idx = []
        for n in raw:
            if n.upper() not in ids:
                raise DataError(f"{source}: arena field {fid!r} names an unknown neighbour {n!r}")
            if n.upper() == fid:
                raise DataError(f"{source}: arena field {fid!r} cannot neighbour itself")
            idx.append(ids.index(n.upper()))
        if len(set(idx)) != len(idx):
            raise DataError(f"{source}: arena field {fid!r} lists a neighbour twice")
        neighbours.append(tuple(sorted(idx)))
    for a, ns in enumerate(neighbours):
        for b in ns:
            if a not in neighbours[b]:
                raise DataError(
                    f"{source}: {ids[a]} lists {ids[b]} as a neighbour but {ids[b]} "
                    f"does not list {ids[a]}: adjacency must be symmetric"
                )
    seen = {0}
    todo = [0]
    while todo:
        for n in neighbours[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    if len(seen) != len(ids):
        cut = ", ".join(ids[i] for i in range(len(ids)) if i not in seen)
        raise DataError(f"{source}: the arena must be connected; cannot reach {cut} from {ids[0]}")
    return Arena(tuple(ids), tuple(positions), tuple(neighbours), str(arena.get("source", "")))


def _parse_animals(data: dict[str, Any], source: str) -> tuple[Animal, ...]:
    tiles = _section(data, "animals", source).get("tiles")
    if not isinstance(tiles, list) or not 1 <= len(tiles) <= 40:
        raise DataError(f"{source}: animals 'tiles' must be a list of 1..40 animals")
    animals = []
    for i, t in enumerate(tiles):
        if (
            not isinstance(t, dict)
            or not isinstance(t.get("id"), str)
            or not _ANIMAL_ID.match(t["id"])
        ):
            raise DataError(
                f"{source}: animal #{i} needs an 'id' of lower-case letters, digits "
                "or _ (starting with a letter)"
            )
        where = f"{source}: animal {t['id']!r}"
        animals.append(
            Animal(
                id=t["id"],
                name=str(t.get("name", t["id"])),
                hits=whole(t.get("hits"), f"{where}: 'hits'", 1, 20),
                swords=whole(t.get("swords"), f"{where}: 'swords'", 0, 8),
                shields=whole(t.get("shields"), f"{where}: 'shields'", 0, 8),
                tridents=whole(t.get("tridents"), f"{where}: 'tridents'", 0, 8),
                spears=whole(t.get("spears"), f"{where}: 'spears'", 0, 8),
                source=str(t.get("source", "")),
            )
        )
        if "nets" in t:
            raise DataError(
                f"{where}: animals have no nets (rulebook: 'Tiere haben keine "
                "Netzsymbole'); remove 'nets'"
            )
    ids = [a.id for a in animals]
    dupes = sorted({a for a in ids if ids.count(a) > 1})
    if dupes:
        raise DataError(f"{source}: animal id(s) used twice: {', '.join(dupes)}")
    return tuple(animals)


def parse_data(data: Any, source: str) -> GladiatorenData:
    """Validate a decoded data document."""
    if not isinstance(data, dict):
        raise DataError(f"{source}: expected a JSON object")
    arena = _parse_arena(data, source)
    per_player = _section(data, "carriers", source).get("per_player")
    if not isinstance(per_player, dict) or set(per_player) != {str(n) for n in PLAYER_COUNTS}:
        raise DataError(
            f"{source}: carriers 'per_player' must give carriers for each of "
            '"2", "3", "4" and "5" players'
        )
    carriers = {
        int(k): whole(v, f"{source}: carriers for {k} players", 1, 10)
        for k, v in per_player.items()
    }
    raw_supply = _section(data, "supply", source).get("gladiators")
    if not isinstance(raw_supply, dict) or set(raw_supply) != set(KINDS):
        raise DataError(
            f"{source}: supply 'gladiators' must give a count for each of {', '.join(KINDS)}"
        )
    supply = tuple(whole(raw_supply[k], f"{source}: supply of {k}", 0, 200) for k in KINDS)
    animals = _parse_animals(data, source)
    for players, n in carriers.items():
        if n * players > len(arena):
            raise DataError(
                f"{source}: {players} players x {n} carriers do not fit on {len(arena)} fields"
            )
        if n * players * TEAM_SIZE > sum(supply):
            raise DataError(
                f"{source}: {players} players x {n} full carriers need "
                f"{n * players * TEAM_SIZE} gladiators; the supply has {sum(supply)}"
            )
    return GladiatorenData(arena, carriers, supply, animals, source)


DATA_FILE = DataFile("gladiatoren.json", "gladiator", parse_data)
default_data = DATA_FILE.builtin_data
load_data = DATA_FILE.load
