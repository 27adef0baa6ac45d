"""Battle Royale (Kosmos / Identity Games, 2024): the complete rules engine.

``BattleRoyaleConfig`` -> ``new_game(config)`` -> a :class:`BattleRoyaleState`
that changes only through ``apply(action)``. See ``docs/rules/battle-royale.md``.
"""

from companion.games.battle_royale.actions import Action, action_from_dict, parse_action
from companion.games.battle_royale.config import COLOURS, BattleRoyaleConfig, ConfigError
from companion.games.battle_royale.events import Event
from companion.games.battle_royale.state import (
    CHANCE,
    TERMINAL,
    BattleRoyaleState,
    IllegalActionError,
    new_game,
    replay,
)

__all__ = [
    "CHANCE", "COLOURS", "TERMINAL", "Action", "BattleRoyaleConfig", "BattleRoyaleState",
    "ConfigError", "Event", "IllegalActionError", "action_from_dict", "new_game",
    "parse_action", "replay",
]
