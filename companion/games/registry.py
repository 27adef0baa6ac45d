"""The games the companion runs, by name: what the journal, resume and the CLI need of each.

Each engine package defines its :class:`~companion.games.core.game.Game` as ``GAME``.
Engines stay pure: the registry imports a game's package only when asked.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.games.core.game import Game

# name -> the module whose GAME attribute is its Game (imported on first use)
GAME_MODULES: dict[str, str] = {
    "battle-royale": "companion.games.battle_royale",
    "gladiatoren": "companion.games.kampf_der_gladiatoren",
    "skirmish": "companion.games.arena_skirmish",
    "spartacus": "companion.games.spartacus",
}


def game_names() -> list[str]:
    return sorted(GAME_MODULES)


def get_game(name: str) -> Game:
    """The registered game ``name``; ``KeyError`` with the known names otherwise."""
    try:
        module = GAME_MODULES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; games: {', '.join(game_names())}") from None
    return importlib.import_module(module).GAME
