"""Battle Royale (Kosmos / Identity Games, 2024): the complete rules engine.

``BattleRoyaleConfig`` -> ``new_game(config)`` -> a :class:`BattleRoyaleState` that changes
only through ``apply(action)``; :data:`GAME` is the game as the registry sees it. Assist
mode (the pieces on the table are the truth) is :mod:`.assist`. See
``docs/rules/battle-royale.md``.
"""

from companion.games.battle_royale.actions import Action, action_from_dict, parse_action
from companion.games.battle_royale.config import COLOURS, BattleRoyaleConfig, ConfigError
from companion.games.battle_royale.events import Event

#: The full engine (its state, with the tables it builds at import) and the game as the
#: registry sees it load on first use: an assist-mode table (the pieces on the table are
#: the truth, :mod:`.assist`) never needs them, and ``companion serve`` starts sooner
#: without them (PEP 562 module ``__getattr__``).
_LAZY = {
    "CHANCE": "state",
    "TERMINAL": "state",
    "BattleRoyaleState": "state",
    "IllegalActionError": "state",
    "new_game": "state",
    "replay": "state",
    "GAME": "game",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


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
