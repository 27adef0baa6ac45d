"""Battle Royale game configuration: everything fixed before the first action."""

from __future__ import annotations

from dataclasses import field
from fractions import Fraction
from typing import Any

from companion.dice import get_die
from companion.games.battle_royale.data import DOOM_ACTIONS, BattleRoyaleData, load_data
from companion.games.battle_royale.layout import Layout
from companion.games.core.config import (
    ConfigDict,
    check_count,
    check_names,
    check_seat,
    load_for_config,
)
from companion.games.core.errors import ConfigError
from companion.records import Record

# The rulebook's four colours: Lila, Grau, Tuerkis, Rot.
COLOURS = ("purple", "grey", "turquoise", "red")
DOOM_FACES = (*DOOM_ACTIONS, "free_choice")


class BattleRoyaleConfig(ConfigDict, Record):
    """How a game is set up.

    ``players``: 2..4, seated clockwise in the order of ``colours``.
    ``layout``: a layout name from the data file, or layout text (5 lines).
    ``start_player``: a seat, or ``None`` to draw it at random (a chance node);
    the rules say the youngest person starts.
    ``abilities`` / ``special_actions``: the optional cards.
    ``data_file``: a Battle Royale data file, or ``None`` for the labelled defaults.
    ``doom_die``: the name of the die in the dice data (``doom``).
    """

    players: int = 4
    colours: tuple[str, ...] = ()
    layout: str = "first-game"
    start_player: int | None = None
    abilities: bool = False
    special_actions: bool = False
    data_file: str | None = None
    doom_die: str = "doom"
    _data: BattleRoyaleData | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        check_count(self.players, 2, 4)
        object.__setattr__(self, "colours", check_names(self.colours, self.players, COLOURS))
        check_seat(self.start_player, self.players, "start_player", "", drawn=True)
        object.__setattr__(self, "_data", load_for_config(load_data, self.data_file))
        self.arena_layout  # noqa: B018 - validate the layout now
        faces = set(self.doom_distribution())
        if faces != set(DOOM_FACES):
            raise ConfigError(
                f"die {self.doom_die!r} must have exactly the faces {', '.join(DOOM_FACES)}, "
                f"has {', '.join(sorted(faces))}"
            )

    @property
    def data(self) -> BattleRoyaleData:
        assert self._data is not None
        return self._data

    @property
    def neutral_colour(self) -> str | None:
        """Two players: the first unused colour plays neutral."""
        if self.players != 2:
            return None
        return next(c for c in COLOURS if c not in self.colours)

    @property
    def capacity(self) -> int:
        """Most figures on one field: 5 with 2-3 players, 6 with 4."""
        return 6 if self.players == 4 else 5

    @property
    def arena_layout(self) -> Layout:
        if self.layout in self.data.layouts:
            return self.data.layouts[self.layout]
        if "\n" in self.layout:
            return Layout.parse(self.layout)
        known = ", ".join(self.data.layouts)
        raise ConfigError(
            f"unknown layout {self.layout!r}: use one of {known}, or 5 lines of "
            "# (field), . (hole) and C (the centre, in the middle)"
        )

    def doom_distribution(self) -> dict[str, Fraction]:
        return get_die(self.doom_die).distribution()

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "colours": list(self.colours),
            "layout": self.arena_layout.draw()
            if self.layout not in self.data.layouts
            else self.layout,
            "start_player": self.start_player,
            "abilities": self.abilities,
            "special_actions": self.special_actions,
            "data_file": self.data_file,
            "doom_die": self.doom_die,
        }
