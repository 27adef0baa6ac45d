"""Kampf der Gladiatoren (Reiner Knizia, Hans im Glück, 2002): the complete rules engine.

``GladiatorenConfig`` -> ``new_game(config)`` -> a :class:`GladiatorenState` that changes
only through ``apply(action)``; :data:`GAME` is the game as the registry sees it.
``odds.combat_odds`` gives the exact loss distribution of a combat. See
``docs/rules/kampf-der-gladiatoren.md``.
"""

from companion.games.core import Game, RandomBot
from companion.games.kampf_der_gladiatoren.actions import (
    CODEC,
    Action,
    ActionFormatError,
    action_from_dict,
    parse_action,
)
from companion.games.kampf_der_gladiatoren.config import (
    COLOURS,
    ConfigError,
    GladiatorenConfig,
)
from companion.games.kampf_der_gladiatoren.events import Event
from companion.games.kampf_der_gladiatoren.privacy import PRIVACY
from companion.games.kampf_der_gladiatoren.rules import KINDS
from companion.games.kampf_der_gladiatoren.state import (
    CHANCE,
    TERMINAL,
    GladiatorenState,
    IllegalActionError,
    new_game,
    replay,
)

GAME = Game(
    name="gladiatoren",
    title="Kampf der Gladiatoren",
    state=GladiatorenState,
    config=GladiatorenConfig,
    codec=CODEC,
    bot=RandomBot,
    builtin_data="gladiatoren.json",
    privacy=PRIVACY,
)

__all__ = [
    "CHANCE",
    "COLOURS",
    "GAME",
    "KINDS",
    "TERMINAL",
    "Action",
    "ActionFormatError",
    "ConfigError",
    "Event",
    "GladiatorenConfig",
    "GladiatorenState",
    "IllegalActionError",
    "action_from_dict",
    "new_game",
    "parse_action",
    "replay",
]
