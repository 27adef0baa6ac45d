"""Arena skirmish game configuration: everything fixed before the first action."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.arena_skirmish.data import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PRINTED_LIMITS,
    SkirmishData,
    id_table,
    load_data,
)
from companion.games.arena_skirmish.grid import GameMap, MapError
from companion.games.core.config import ConfigDict, check_count, check_names, load_for_config
from companion.games.core.errors import ConfigError

# The first four have a turn LED on the table (companion.hal DEFAULT_TURN_COLOURS).
COLOURS = (
    "purple",
    "grey",
    "turquoise",
    "red",
    "orange",
    "green",
    "blue",
    "yellow",
    "white",
    "black",
)
VICTORIES = ("last-standing", "points")


@dataclass(frozen=True)
class SkirmishConfig(ConfigDict):
    """How a game is set up.

    ``players``: 2..10, seated in the order of ``colours``.
    ``map``: a map name from the data file, or map text (rows of 0-9, #, A-Z).
    ``teams``: the gladiator IDs of each seat, or ``None`` to pick them in the game
    (from the seat's column of the fair-choice ID table when ``id_tables``).
    ``max_gladiators`` / ``max_points``: ``None`` for the printed limits (two players:
    the data file's labelled default).
    ``victory``: ``last-standing`` (the last player with gladiators standing wins) or
    ``points`` (most points of removed enemy gladiators; needs ``round_limit``).
    ``round_limit``: end after this many rounds (``None``: no limit); then
    ``last-standing`` ranks by points of gladiators still standing.
    ``data_file``: an arena skirmish data file, or ``None`` for the labelled defaults.
    """

    players: int = 2
    map: str = "default"
    teams: tuple[tuple[int, ...], ...] | None = None
    max_gladiators: int | None = None
    max_points: int | None = None
    id_tables: bool = True
    victory: str = "last-standing"
    round_limit: int | None = None
    colours: tuple[str, ...] = ()
    data_file: str | None = None
    _data: SkirmishData | None = field(default=None, compare=False, repr=False)
    _map: GameMap | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        check_count(self.players, MIN_PLAYERS, MAX_PLAYERS)
        colours = check_names(self.colours, self.players, COLOURS)
        object.__setattr__(self, "colours", colours)
        data = load_for_config(load_data, self.data_file)
        object.__setattr__(self, "_data", data)
        object.__setattr__(self, "_map", self._resolve_map(data))
        if len(self.game_map.entrances) < self.players:
            raise ConfigError(
                f"map {self.game_map.name!r} has {len(self.game_map.entrances)} entrances, too "
                f"few for {self.players} players: choose a map with at least {self.players} "
                f"(maps: {', '.join(data.maps)})"
            )
        for name in ("max_gladiators", "max_points", "round_limit"):
            value = getattr(self, name)
            if value is not None and (
                not isinstance(value, int) or isinstance(value, bool) or value < 1
            ):
                raise ConfigError(f"{name} must be a whole number >= 1 or None, got {value!r}")
        if self.victory not in VICTORIES:
            raise ConfigError(
                f"victory must be one of {', '.join(VICTORIES)}, got {self.victory!r}"
            )
        if self.victory == "points" and self.round_limit is None:
            raise ConfigError("victory 'points' needs a round_limit (the rounds to play)")
        if self.teams is not None:
            object.__setattr__(self, "teams", tuple(tuple(t) for t in self.teams))
            self._check_teams()
        else:
            if not self.id_tables and len(data.profiles) < self.players:
                raise ConfigError(
                    f"{self.players} players need at least {self.players} "
                    f"gladiator profiles; {data.source} has {len(data.profiles)}"
                )
            for seat in range(self.players):
                if not self.offered(seat):
                    raise ConfigError(
                        f"seat {seat} ({colours[seat]}) has no gladiator profile "
                        "to choose within the points limit"
                    )

    def _resolve_map(self, data: SkirmishData) -> GameMap:
        if self.map in data.maps:
            return data.maps[self.map]
        if "\n" in self.map:
            try:
                return GameMap.parse(self.map, "custom")
            except MapError as exc:
                raise ConfigError(str(exc)) from None
        raise ConfigError(
            f"unknown map {self.map!r}: use one of {', '.join(data.maps)}, or map "
            "text (rows of 0-9, # and entrance letters A-Z)"
        )

    def _check_teams(self) -> None:
        teams = self.teams
        assert teams is not None
        if len(teams) != self.players:
            raise ConfigError(
                f"teams must list {self.players} teams, one per player, got {len(teams)}"
            )
        count, points, _ = self.limits
        seen: set[int] = set()
        for seat, team in enumerate(teams):
            who = f"team {seat + 1} ({self.colours[seat]})"
            if not team:
                raise ConfigError(f"{who} has no gladiator")
            if len(team) > count:
                raise ConfigError(f"{who} has {len(team)} gladiators; the limit is {count}")
            for gid in team:
                if not isinstance(gid, int) or gid not in self.data.profiles:
                    raise ConfigError(
                        f"{who}: no gladiator profile with ID {gid!r} in {self.data.source}"
                    )
                if gid in seen:
                    raise ConfigError(
                        f"gladiator {gid} is in two teams; each profile card exists once"
                    )
                seen.add(gid)
            total = sum(self.data.profiles[g].points for g in team)
            if total > points:
                raise ConfigError(f"{who} costs {total} points; the limit is {points}")

    @property
    def data(self) -> SkirmishData:
        assert self._data is not None
        return self._data

    @property
    def game_map(self) -> GameMap:
        assert self._map is not None
        return self._map

    @property
    def limits(self) -> tuple[int, int, str]:
        """(gladiators, points, where the numbers come from) per player."""
        if self.players in PRINTED_LIMITS:
            count, points = PRINTED_LIMITS[self.players]
            source = "as printed"
        else:
            count, points = self.data.two_player_limit
            source = self.data.two_player_label or "default for two players"
        if self.max_gladiators is not None or self.max_points is not None:
            source = "set in the game config"
        return (self.max_gladiators or count, self.max_points or points, source)

    def offered(self, seat: int) -> tuple[int, ...]:
        """The profile IDs seat ``seat`` may choose from (in-game team choice)."""
        if self.id_tables:
            column = id_table(self.players)[0][seat]
            ids = [g for g in column if g in self.data.profiles]
        else:
            ids = sorted(self.data.profiles)
        _, points, _ = self.limits
        return tuple(g for g in ids if self.data.profiles[g].points <= points)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "map": self.map if self.map in self.data.maps else self.game_map.draw(),
            "teams": None if self.teams is None else [list(t) for t in self.teams],
            "max_gladiators": self.max_gladiators,
            "max_points": self.max_points,
            "id_tables": self.id_tables,
            "victory": self.victory,
            "round_limit": self.round_limit,
            "colours": list(self.colours),
            "data_file": self.data_file,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SkirmishConfig:
        values = cls.dict_values(data)
        if values.get("teams") is not None:
            values["teams"] = tuple(tuple(t) for t in values["teams"])
        return cls(**values)
