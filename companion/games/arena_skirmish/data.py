"""Arena skirmish component data: gladiator profiles, maps, and the rulebook's printed tables.

The rulebook prints the player-count limits and the fair-choice ID tables (kept here,
verbatim); it prints no gladiator profile and no map. Those come from
``companion/data/arena_skirmish.json`` (a labelled sample set and labelled default maps)
or a file of the user's, validated with errors that name the entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.arena_skirmish.grid import GameMap, MapError
from companion.games.core.data import DataFile, whole
from companion.games.core.errors import DataError

ELEMENTS = ("fire", "water", "air", "earth")
CLASSES = ("light", "medium", "heavy")
ELEMENT_GERMAN = {"fire": "Feuer", "water": "Wasser", "air": "Luft", "earth": "Erde"}
CLASS_GERMAN = {"light": "leicht", "medium": "mittel", "heavy": "schwer"}
MIN_PLAYERS = 2
MAX_PLAYERS = 10
PROFILE_IDS = range(1, 71)

# "Bei 3 Spielern: 4 (max. 235 Punkte); bei 4 Spielern: 3 (max. 175 Punkte); bei 5-6
# Spielern: 2 (max. 120 Punkte); bei 7-10 Spielern: 1 (max. 100 Punkte)."
PRINTED_LIMITS: dict[int, tuple[int, int]] = {
    3: (4, 235),
    4: (3, 175),
    5: (2, 120),
    6: (2, 120),
    7: (1, 100),
    8: (1, 100),
    9: (1, 100),
    10: (1, 100),
}

# "verteilt die IDs zur Auswahl fair! Konsultiert dazu folgende Tabellen (Standard-Auswahl)",
# copied as printed. Note the 6-player table hands out 1..69: ID 70 is in no column.
_PRINTED_TEXT: dict[int, tuple[str, ...]] = {
    3: (
        "1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43, 46, 49, 52, 55, 58, 61, 64, "
        "67, 70",
        "2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 32, 35, 38, 41, 44, 47, 50, 53, 56, 59, 62, 65, 68",
        "3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57, 60, 63, 66, 69",
    ),
    4: (
        "1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45, 49, 53, 57, 61, 65, 69",
        "2, 6, 10, 14, 18, 22, 26, 30, 34, 38, 42, 46, 50, 54, 58, 62, 66, 70",
        "3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47, 51, 55, 59, 63, 67",
        "4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 68",
    ),
    5: (
        "1, 6, 11, 16, 21, 26, 31, 36, 41, 46, 51, 56, 61, 66",
        "2, 7, 12, 17, 22, 27, 32, 37, 42, 47, 52, 57, 62, 67",
        "3, 8, 13, 18, 23, 28, 33, 38, 43, 48, 53, 58, 63, 68",
        "4, 9, 14, 19, 24, 29, 34, 39, 44, 49, 54, 59, 64, 69",
        "5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70",
    ),
    6: (
        "1, 7, 13, 19, 25, 31, 37, 43, 49, 55, 61, 67",
        "2, 8, 14, 20, 26, 32, 38, 44, 50, 56, 62, 68",
        "3, 9, 15, 21, 27, 33, 39, 45, 51, 57, 63, 69",
        "4, 10, 16, 22, 28, 34, 40, 46, 52, 58, 64",
        "5, 11, 17, 23, 29, 35, 41, 47, 53, 59, 65",
        "6, 12, 18, 24, 30, 36, 42, 48, 54, 60, 66",
    ),
    7: (
        "1, 8, 15, 22, 29, 36, 43, 50, 57, 64",
        "2, 9, 16, 23, 30, 37, 44, 51, 58, 65",
        "3, 10, 17, 24, 31, 38, 45, 52, 59, 66",
        "4, 11, 18, 25, 32, 39, 46, 53, 60, 67",
        "5, 12, 19, 26, 33, 40, 47, 54, 61, 68",
        "6, 13, 20, 27, 34, 41, 48, 55, 62, 69",
        "7, 14, 21, 28, 35, 42, 49, 56, 63, 70",
    ),
}

PRINTED_ID_TABLES: dict[int, tuple[tuple[int, ...], ...]] = {
    players: tuple(tuple(int(x) for x in column.split(",")) for column in columns)
    for players, columns in _PRINTED_TEXT.items()
}


def id_table(players: int) -> tuple[tuple[tuple[int, ...], ...], bool]:
    """The fair-choice ID table for ``players`` and whether the rulebook prints it.

    3-7 players: as printed. 2 and 8-10 players are not printed; the same pattern
    is continued (player ``k`` gets the IDs ``k, k + n, k + 2n, ...`` up to 70), a
    labelled ruling.
    """
    if players in PRINTED_ID_TABLES:
        return PRINTED_ID_TABLES[players], True
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {players}")
    return tuple(tuple(range(k, 71, players)) for k in range(1, players + 1)), False


@dataclass(frozen=True)
class Profile:
    """A gladiator's profile card. ``label`` says where the values come from."""

    id: int
    name: str
    initiative: int
    movement: int
    attack: int
    element: str
    affinity: int
    life: int
    weight: str  # light / medium / heavy
    points: int
    combo: str = ""
    label: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "initiative": self.initiative,
            "movement": self.movement,
            "attack": self.attack,
            "element": self.element,
            "affinity": self.affinity,
            "life": self.life,
            "class": self.weight,
            "points": self.points,
            "combo": self.combo,
            "label": self.label,
        }


@dataclass(frozen=True)
class SkirmishData:
    profiles: dict[int, Profile]
    maps: dict[str, GameMap]
    two_player_limit: tuple[int, int]
    two_player_label: str
    profiles_label: str
    source: str

    def profile(self, gid: int) -> Profile:
        try:
            return self.profiles[gid]
        except KeyError:
            raise DataError(f"no gladiator profile with ID {gid} in {self.source}") from None


_STAT_RANGES = {
    "initiative": (0, 99),
    "movement": (0, 20),
    "attack": (0, 20),
    "affinity": (0, 20),
    "life": (1, 99),
    "points": (0, 999),
}


def _int(entry: dict[str, Any], key: str, where: str, low: int, high: int) -> int:
    return whole(entry.get(key), f"{where}: {key!r}", low, high)


def _profile(entry: Any, index: int, source: str, default_label: str) -> Profile:
    if not isinstance(entry, dict):
        raise DataError(f"{source}: gladiator #{index} must be an object")
    gid = entry.get("id")
    where = f"{source}: gladiator {gid!r}"
    gid = _int(entry, "id", f"{source}: gladiator #{index}", 1, 999)
    stats = {key: _int(entry, key, where, low, high) for key, (low, high) in _STAT_RANGES.items()}
    element = entry.get("element")
    if element not in ELEMENTS:
        raise DataError(f"{where}: 'element' must be one of {', '.join(ELEMENTS)}, got {element!r}")
    weight = entry.get("class")
    if weight not in CLASSES:
        raise DataError(f"{where}: 'class' must be one of {', '.join(CLASSES)}, got {weight!r}")
    for key in ("name", "combo", "label"):
        if not isinstance(entry.get(key, ""), str):
            raise DataError(f"{where}: {key!r} must be text")
    return Profile(
        id=gid,
        name=entry.get("name") or f"Gladiator {gid}",
        element=element,
        weight=weight,
        combo=entry.get("combo", ""),
        label=entry.get("label") or default_label,
        **stats,
    )


def parse_data(data: Any, source: str) -> SkirmishData:
    """Validate a decoded data document."""
    if not isinstance(data, dict):
        raise DataError(f"{source}: expected a JSON object")
    raw_maps = data.get("maps")
    if not isinstance(raw_maps, dict) or "default" not in raw_maps:
        raise DataError(f"{source}: 'maps' must be an object with a 'default' map")
    maps: dict[str, GameMap] = {}
    for name, entry in raw_maps.items():
        rows = entry.get("rows") if isinstance(entry, dict) else None
        if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
            raise DataError(f"{source}: map {name!r} needs 'rows', a list of strings")
        try:
            maps[name] = GameMap.parse("\n".join(rows), name, str(entry.get("label", "")))
        except MapError as exc:
            raise DataError(f"{source}: {exc}") from None

    raw = data.get("gladiators")
    if not isinstance(raw, dict) or not isinstance(raw.get("profiles"), list):
        raise DataError(f"{source}: needs a 'gladiators' object with a 'profiles' list")
    label = str(raw.get("label", ""))
    profiles: dict[int, Profile] = {}
    for i, entry in enumerate(raw["profiles"]):
        profile = _profile(entry, i, source, label)
        if profile.id in profiles:
            raise DataError(f"{source}: gladiator ID {profile.id} is defined twice")
        profiles[profile.id] = profile
    if len(profiles) < 2:
        raise DataError(f"{source}: at least 2 gladiator profiles are needed")

    two = data.get("two_players")
    if not isinstance(two, dict):
        raise DataError(
            f"{source}: needs a 'two_players' object with 'gladiators' and 'points' "
            "(the rulebook prints no two-player limit)"
        )
    limit = (
        _int(two, "gladiators", f"{source}: two_players", 1, 70),
        _int(two, "points", f"{source}: two_players", 0, 99_999),
    )
    return SkirmishData(profiles, maps, limit, str(two.get("label", "")), label, source)


DATA_FILE = DataFile("arena_skirmish.json", "arena skirmish", parse_data)
default_data = DATA_FILE.builtin_data
load_data = DATA_FILE.load
