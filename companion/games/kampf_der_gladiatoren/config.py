"""Kampf der Gladiatoren game configuration: everything fixed before the first action."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from companion.dice import DiceError, get_die
from companion.games.core.config import (
    ConfigDict,
    check_count,
    check_names,
    check_seat,
    load_for_config,
)
from companion.games.core.errors import ConfigError, DataError
from companion.games.kampf_der_gladiatoren.data import GladiatorenData, load_data
from companion.games.kampf_der_gladiatoren.rules import KINDS, STAR_FACES, TEAM_SIZE

# The rulebook's examples name red and yellow; the other three are the companion's names.
COLOURS = ("red", "yellow", "blue", "green", "white")


@dataclass(frozen=True)
class TeamSpec:
    owner: int
    field: int
    counts: tuple[int, ...]
    stars: int


@dataclass(frozen=True)
class Position:
    """A game that starts in the fight phase (tests, the combat assistant, puzzles)."""

    teams: tuple[TeamSpec, ...]
    animals: tuple[tuple[int, int, int], ...]  # (animal index, field, stars) on the board
    defeated: tuple[tuple[int, int | None], ...]  # (animal index, stable seat or None: box)
    stables: tuple[tuple[int, ...], ...]  # gladiators per kind, per seat
    active: int


@dataclass(frozen=True)
class GladiatorenConfig(ConfigDict):
    """How a game is set up.

    ``players``: 2..5, seated clockwise in the order of ``colours``.
    ``start_player``: the seat of the oldest player, who starts the entry, the
    animal placement and the fight (rulebook: "Der älteste Spieler beginnt").
    ``data_file``: a gladiator data file, or ``None`` for the labelled defaults.
    ``die``: the name of the star die in the dice data (``star``).
    ``position``: optional; start in the fight phase from this position instead of
    the entry (a JSON object, see ``docs/rules/kampf-der-gladiatoren.md``).
    """

    players: int = 3
    colours: tuple[str, ...] = ()
    start_player: int = 0
    data_file: str | None = None
    die: str = "star"
    position: Any = None  # canonical JSON text after validation (hashable)
    _data: GladiatorenData | None = field(default=None, compare=False, repr=False)
    _position: Position | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        check_count(self.players, 2, 5)
        object.__setattr__(self, "colours", check_names(self.colours, self.players, COLOURS))
        check_seat(self.start_player, self.players, "start_player", " (the oldest player)")
        object.__setattr__(self, "_data", load_for_config(load_data, self.data_file))
        self.die_faces()  # validate now
        if self.position is not None:
            raw = json.loads(self.position) if isinstance(self.position, str) else self.position
            object.__setattr__(self, "_position", self._parse_position(raw))
            object.__setattr__(
                self, "position", json.dumps(raw, sort_keys=True, separators=(",", ":"))
            )

    @property
    def data(self) -> GladiatorenData:
        assert self._data is not None
        return self._data

    @property
    def carriers(self) -> int:
        """Carriers per player: 2p 4, 3p 4, 4p 3, 5p 3 (from the data file)."""
        return self.data.carriers[self.players]

    @property
    def start_position(self) -> Position | None:
        return self._position

    def die_faces(self) -> tuple[Fraction, Fraction, Fraction]:
        """Probabilities of (double, single, blank) on the star die."""
        try:
            dist = get_die(self.die).distribution()
        except DiceError as exc:
            raise ConfigError(str(exc)) from None
        if set(dist) != set(STAR_FACES):
            raise ConfigError(
                f"die {self.die!r} must have exactly the faces "
                f"{', '.join(STAR_FACES)}, has {', '.join(sorted(dist))}"
            )
        return (dist[STAR_FACES[0]], dist[STAR_FACES[1]], dist[STAR_FACES[2]])

    # -- a start position ---------------------------------------------------------------

    def _parse_position(self, raw: Any) -> Position:
        data = self.data
        arena = data.arena
        if not isinstance(raw, dict):
            raise ConfigError("position must be an object with 'teams' (and 'animals', ...)")
        known = {"teams", "animals", "defeated", "stables", "active"}
        if set(raw) - known:
            raise ConfigError(
                f"unknown position key(s) {sorted(set(raw) - known)}; known: {sorted(known)}"
            )
        used: dict[int, str] = {}

        def place(fid: Any, what: str) -> int:
            if not isinstance(fid, str):
                raise ConfigError(f"position: {what} needs a field id, got {fid!r}")
            try:
                i = arena.index(fid)
            except DataError as exc:
                raise ConfigError(f"position: {what}: {exc}") from None
            if i in used:
                raise ConfigError(
                    f"position: {what} and {used[i]} are both on field {arena.ids[i]}"
                )
            used[i] = what
            return i

        def seat(value: Any, what: str) -> int:
            if (
                not isinstance(value, int)
                or isinstance(value, bool)
                or not 0 <= value < self.players
            ):
                raise ConfigError(
                    f"position: {what} must be a seat 0..{self.players - 1}, got {value!r}"
                )
            return value

        def stars(value: Any, what: str, high: int) -> int:
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= high:
                raise ConfigError(f"position: {what}: stars must be 0..{high}, got {value!r}")
            return value

        totals = [0] * len(KINDS)
        teams = []
        raw_teams = raw.get("teams", [])
        if not isinstance(raw_teams, list):
            raise ConfigError("position: 'teams' must be a list")
        for i, t in enumerate(raw_teams):
            what = f"team #{i}"
            if not isinstance(t, dict):
                raise ConfigError(f"position: {what} must be an object")
            owner = seat(t.get("owner"), f"{what} owner")
            glads = t.get("gladiators")
            if (
                not isinstance(glads, list)
                or not 1 <= len(glads) <= TEAM_SIZE
                or not all(g in KINDS for g in glads)
            ):
                raise ConfigError(
                    f"position: {what} needs 'gladiators', 1..{TEAM_SIZE} of "
                    f"{', '.join(KINDS)}; got {glads!r}"
                )
            counts = tuple(glads.count(k) for k in KINDS)
            for k, n in enumerate(counts):
                totals[k] += n
            teams.append(
                TeamSpec(
                    owner, place(t.get("field"), what), counts, stars(t.get("stars", 0), what, 1)
                )
            )
        animals = []
        taken: set[int] = set()

        def animal(value: Any, what: str) -> int:
            try:
                index = data.animal_index(str(value))
            except DataError as exc:
                raise ConfigError(f"position: {what}: {exc}") from None
            if index in taken:
                raise ConfigError(f"position: the animal {value!r} is listed twice")
            taken.add(index)
            return index

        for i, a in enumerate(raw.get("animals", [])):
            what = f"animal #{i}"
            if not isinstance(a, dict):
                raise ConfigError(f"position: {what} must be an object")
            index = animal(a.get("animal"), what)
            hits = data.animals[index].hits
            animals.append(
                (
                    index,
                    place(a.get("field"), f"the {data.animals[index].id}"),
                    stars(a.get("stars", 0), what, hits - 1),
                )
            )
        defeated = []
        for i, d in enumerate(raw.get("defeated", [])):
            what = f"defeated animal #{i}"
            if not isinstance(d, dict):
                raise ConfigError(f"position: {what} must be an object with 'animal' and 'by'")
            by = d.get("by")
            defeated.append(
                (animal(d.get("animal"), what), None if by is None else seat(by, f"{what} 'by'"))
            )
        stables = [[0] * len(KINDS) for _ in range(self.players)]
        raw_stables = raw.get("stables", {})
        if not isinstance(raw_stables, dict):
            raise ConfigError('position: \'stables\' must map seats ("0", "1") to {kind: count}')
        for key, entry in raw_stables.items():
            try:
                s = seat(int(key), "a stable")
            except ValueError:
                raise ConfigError(f"position: stable key {key!r} is not a seat number") from None
            if not isinstance(entry, dict) or not set(entry) <= set(KINDS):
                raise ConfigError(
                    f"position: stable {key} must map kinds ({', '.join(KINDS)}) to counts"
                )
            for kind, n in entry.items():
                if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                    raise ConfigError(f"position: stable {key}: {kind} count must be >= 0")
                stables[s][KINDS.index(kind)] += n
                totals[KINDS.index(kind)] += n
        for k, kind in enumerate(KINDS):
            if totals[k] > data.supply[k]:
                raise ConfigError(
                    f"position uses {totals[k]} {kind} gladiators; the supply has {data.supply[k]}"
                )
        active = seat(raw.get("active", self.start_player), "'active'")
        return Position(
            tuple(teams), tuple(animals), tuple(defeated), tuple(tuple(s) for s in stables), active
        )

    # -- dict form ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "colours": list(self.colours),
            "start_player": self.start_player,
            "data_file": self.data_file,
            "die": self.die,
            "position": None if self.position is None else json.loads(self.position),
        }
