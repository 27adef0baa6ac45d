"""Battle Royale (Kosmos / Identity Games, 2024): the complete rules engine.

``BattleRoyaleConfig`` -> ``new_game(config)`` -> a :class:`BattleRoyaleState` that changes
only through ``apply(action)``; :data:`GAME` is the game as the registry sees it. Assist
mode (the pieces on the table are the truth) is :mod:`.assist`. See
``docs/rules/battle-royale.md``.
"""

from typing import TYPE_CHECKING

from companion.games.lazy import lazy_names

if TYPE_CHECKING:
    from companion.games.battle_royale.actions import Action, action_from_dict, parse_action
    from companion.games.battle_royale.config import COLOURS, BattleRoyaleConfig, ConfigError
    from companion.games.battle_royale.events import Event
    from companion.games.battle_royale.game import GAME
    from companion.games.battle_royale.state import (
        CHANCE,
        TERMINAL,
        BattleRoyaleState,
        IllegalActionError,
        new_game,
        replay,
    )

#: Each name loads with its module on first use: ``companion serve`` reads a table's
#: Battle Royale configuration before it is ready and needs neither the actions nor the
#: full engine (its state, with the tables it builds at import) for that, and an
#: assist-mode table (the pieces on the table are the truth, :mod:`.assist`) never needs
#: the engine at all.
__getattr__ = lazy_names(
    __name__,
    {
        "Action": "actions",
        "action_from_dict": "actions",
        "parse_action": "actions",
        "COLOURS": "config",
        "BattleRoyaleConfig": "config",
        "ConfigError": "config",
        "Event": "events",
        "CHANCE": "state",
        "TERMINAL": "state",
        "BattleRoyaleState": "state",
        "IllegalActionError": "state",
        "new_game": "state",
        "replay": "state",
        "GAME": "game",
    },
)

__all__ = [
    "CHANCE",
    "COLOURS",
    "TERMINAL",
    "Action",
    "BattleRoyaleConfig",
    "BattleRoyaleState",
    "GAME",
    "ConfigError",
    "Event",
    "IllegalActionError",
    "action_from_dict",
    "new_game",
    "parse_action",
    "replay",
]
