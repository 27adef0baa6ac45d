"""Spartacus game configuration: everything fixed before the first action.

Two kinds of game share one engine:

- a full game (``fight=None``): 2-4 houses, upkeep, intrigue, market, arena; in one of
  two modes: ``tracked`` (the companion deals the intrigue and market cards and knows
  every hand) or ``assist`` (the players shuffle and deal the real cards; the companion
  learns a card when it is played or revealed and keeps hidden hands as counts);
- a single fight (``fight=(spec_I, spec_II)``): the combat assistant of
  ``companion spartacus fight``; seat 0 decides for fighter I, seat 1 for II.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.core.config import (
    ConfigDict,
    check_count,
    check_names,
    check_seat,
    load_for_config,
)
from companion.games.core.errors import ConfigError
from companion.games.spartacus.data import SpartacusData, load_data
from companion.games.spartacus.hexmap import HexMap

LENGTHS = ("quick", "standard", "long")
MODES = ("tracked", "assist")
OPENINGS = ("draw", "dice")


@dataclass(frozen=True)
class FighterSpec(ConfigDict):
    """A fighter for a single fight: from a card (``card``) or typed in (name and dice)."""

    name: str
    attack: int
    defence: int
    speed: int
    equipment: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()
    card: str | None = None
    favours: int = 0
    champion: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "attack": self.attack,
            "defence": self.defence,
            "speed": self.speed,
            "equipment": list(self.equipment),
            "abilities": list(self.abilities),
            "card": self.card,
            "favours": self.favours,
            "champion": self.champion,
        }

    TUPLES = ("equipment", "abilities")
    WHAT = "fighter"

    @classmethod
    def from_dict(cls, data: Any) -> FighterSpec:
        try:
            return cls(**cls.dict_values(data))
        except TypeError as exc:
            raise ConfigError(f"fighter: {exc}") from None

    @classmethod
    def from_card(
        cls, data: SpartacusData, card_id: str, equipment: tuple[str, ...] = ()
    ) -> FighterSpec:
        card = data.market.get(card_id)
        if card is None or not card.is_fighter:
            fighters = sorted(c.id for c in data.market.values() if c.is_fighter)
            raise ConfigError(
                f"no gladiator or slave card {card_id!r}; cards: {', '.join(fighters)}"
            )
        return cls(
            card.title,
            card.attack,
            card.defence,
            card.speed,
            tuple(equipment),
            (card.ability,) if card.ability else (),
            card.id,
        )


@dataclass(frozen=True)
class SpartacusConfig(ConfigDict):
    """How a game is set up.

    ``players``: 2..4 houses, seated clockwise in the order of ``houses``
    (house ids from the data; default the first ones).
    ``length``: quick (7 influence), standard (4) or long (1).
    ``host``: the seat holding the host marker at the start, or ``None`` to
    draw it (the opening roll-off, a chance node).
    ``arena``: an arena name from the data file.
    ``fight``: two :class:`FighterSpec` for a single fight (combat assistant).
    ``mode``: ``tracked`` (the companion's own decks) or ``assist`` (the box's cards).
    ``opening``: how a drawn host is found: ``draw`` (one chance node naming the house
    that won the roll-off) or ``dice`` (every house rolls a die, ties roll again: each
    die is entered, for physical dice); default ``dice`` in assist mode, else ``draw``.
    """

    players: int = 4
    houses: tuple[str, ...] = ()
    length: str = "quick"
    host: int | None = None
    arena: str = "default"
    data_file: str | None = None
    fight: tuple[FighterSpec, FighterSpec] | None = None
    mode: str = "tracked"
    opening: str | None = None
    _data: SpartacusData | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        data = load_for_config(load_data, self.data_file)
        object.__setattr__(self, "_data", data)
        if self.arena not in data.arenas:
            raise ConfigError(f"unknown arena {self.arena!r}; arenas: {', '.join(data.arenas)}")
        if self.mode not in MODES:
            raise ConfigError(f"mode must be one of {', '.join(MODES)}, got {self.mode!r}")
        if self.opening is None:
            object.__setattr__(self, "opening", self._default_opening())
        if self.opening not in OPENINGS:
            raise ConfigError(f"opening must be one of {', '.join(OPENINGS)}, got {self.opening!r}")
        if self.fight is not None:
            if self.mode != "tracked":
                raise ConfigError("a single fight has no cards to assist with: mode tracked")
            fight = tuple(
                f if isinstance(f, FighterSpec) else FighterSpec.from_dict(f) for f in self.fight
            )
            if len(fight) != 2:
                raise ConfigError("a fight needs exactly two fighters (I and II)")
            for spec in fight:
                self._check_fighter(spec, data)
            object.__setattr__(self, "fight", fight)
            object.__setattr__(self, "players", 2)
            object.__setattr__(self, "houses", ("I", "II"))
            return
        check_count(self.players, 2, 4)
        houses = check_names(self.houses, self.players, list(data.houses), "house")
        object.__setattr__(self, "houses", houses)
        if self.length not in data.game_lengths:
            raise ConfigError(
                f"length must be one of {', '.join(data.game_lengths)}, got {self.length!r}"
            )
        check_seat(self.host, self.players, "host", "", drawn=True)
        for kind in ("gladiator", "slave"):
            need = sum(getattr(data.houses[h], kind + "s") for h in houses)
            have = len(data.starters(kind))
            if need > have:
                raise ConfigError(
                    f"these houses start with {need} {kind}s, but the data has "
                    f"only {have} starter {kind} cards"
                )

    @staticmethod
    def _check_fighter(spec: FighterSpec, data: SpartacusData) -> None:
        for key in ("attack", "defence", "speed"):
            value = getattr(spec, key)
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 8:
                raise ConfigError(f"{spec.name}: {key} must be 1..8 dice, got {value!r}")
        types: dict[str, str] = {}
        for eid in spec.equipment:
            card = data.market.get(eid)
            if card is None or card.kind != "equipment":
                known = sorted(c.id for c in data.market.values() if c.kind == "equipment")
                raise ConfigError(
                    f"{spec.name}: no equipment {eid!r}; equipment: {', '.join(known)}"
                )
            assert card.equipment_type is not None
            if card.equipment_type in types:
                raise ConfigError(
                    f"{spec.name}: at most one {card.equipment_type} per fighter (rule C8); "
                    f"{types[card.equipment_type]} and {eid} are both"
                )
            types[card.equipment_type] = eid
        for aid in spec.abilities:
            if aid not in data.abilities:
                raise ConfigError(
                    f"{spec.name}: unknown ability {aid!r}; abilities: {', '.join(data.abilities)}"
                )

    @property
    def data(self) -> SpartacusData:
        assert self._data is not None
        return self._data

    @property
    def arena_map(self) -> HexMap:
        return self.data.arenas[self.arena]

    @property
    def colours(self) -> tuple[str, ...]:
        """The seats' names (houses, or I and II), as the journal header lists players."""
        return self.houses

    @property
    def fight_only(self) -> bool:
        return self.fight is not None

    def _default_opening(self) -> str:
        return "dice" if self.mode == "assist" else "draw"

    @property
    def assist(self) -> bool:
        """The players deal the box's cards; hidden hands are counts (assist mode)."""
        return self.mode == "assist"

    def start_influence(self) -> int:
        return self.data.game_lengths[self.length]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "houses": list(self.houses),
            "length": self.length,
            "host": self.host,
            "arena": self.arena,
            "data_file": self.data_file,
            "fight": None if self.fight is None else [f.to_dict() for f in self.fight],
            # new settings only when set, so a tracked game's header reads as before
            **({"mode": self.mode} if self.mode != "tracked" else {}),
            **({"opening": self.opening} if self.opening != self._default_opening() else {}),
        }

    TUPLES = ("houses",)

    @classmethod
    def from_dict(cls, data: Any) -> SpartacusConfig:
        values = cls.dict_values(data)
        if values.get("fight") is not None:
            values["fight"] = tuple(
                FighterSpec.from_dict(f) if isinstance(f, dict) else f for f in values["fight"]
            )
        return cls(**values)
