"""The games the companion runs, by name: what the journal, resume and the CLI need of each.

Each engine package registers a :class:`GameInfo`. Engines stay pure: the
registry only names their functions; it imports a game's package when asked.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameInfo:
    """How to build, replay and read one game.

    - ``config_from_dict(d)`` / ``config.to_dict()``: the game's config, for journal headers;
    - ``new_game(config)`` -> state with ``legal_actions()``, ``apply(action)``,
      ``chance_outcomes()``, ``is_chance_node``, ``is_terminal``, ``current_player``,
      ``snapshot()``, ``history``, ``winners``, ``turn``;
    - ``replay(config, history)`` -> state;
    - ``action_from_dict(d)`` / ``action.to_dict()``, ``parse_action(text)``: the log and
      the terminal notation; actions have ``kind``, ``is_chance`` and ``is_correction``;
    - ``bot(rng)`` -> an object with ``choose(state)``.
    """

    name: str
    title: str
    config_from_dict: Callable[[dict[str, Any]], Any]
    new_game: Callable[[Any], Any]
    replay: Callable[[Any, list[Any]], Any]
    action_from_dict: Callable[[Any], Any]
    parse_action: Callable[[str], Any]
    bot: Callable[[Any], Any]
    builtin_data: str | None = None  # the game's data file in companion/data, if it has one


# name -> the module whose GAME attribute is its GameInfo (imported on first use)
GAME_MODULES: dict[str, str] = {
    "battle-royale": "companion.games.battle_royale",
    "gladiatoren": "companion.games.kampf_der_gladiatoren",
    "skirmish": "companion.games.arena_skirmish",
    "spartacus": "companion.games.spartacus",
}


def game_names() -> list[str]:
    return sorted(GAME_MODULES)


def get_game(name: str) -> GameInfo:
    """The registered game ``name``; ``KeyError`` with the known names otherwise."""
    try:
        module = GAME_MODULES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; games: {', '.join(game_names())}") from None
    return importlib.import_module(module).GAME
