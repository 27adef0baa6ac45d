"""Spartacus: Intrigen, Blut & Verrat (Gale Force Nine): the rules engine.

``SpartacusConfig`` -> ``new_game(config)`` -> a :class:`SpartacusState` that changes
only through ``apply(action)``; :data:`GAME` is the game as the registry sees it. A
config with ``fight=(I, II)`` is a single arena fight (the combat assistant). See
``docs/rules/spartacus.md``.
"""

from companion.games.core import Game
from companion.games.spartacus.actions import CODEC, Action, action_from_dict, parse_action
from companion.games.spartacus.bot import SimpleBot
from companion.games.spartacus.config import ConfigError, FighterSpec, SpartacusConfig
from companion.games.spartacus.events import Event
from companion.games.spartacus.privacy import PRIVACY
from companion.games.spartacus.state import (
    CHANCE,
    TERMINAL,
    IllegalActionError,
    SpartacusState,
    new_game,
    replay,
)

GAME = Game(
    name="spartacus",
    title="Spartacus: Intrigen, Blut & Verrat",
    state=SpartacusState,
    config=SpartacusConfig,
    codec=CODEC,
    bot=SimpleBot,
    builtin_data="spartacus.json",
    privacy=PRIVACY,
)

__all__ = [
    "CHANCE",
    "GAME",
    "TERMINAL",
    "Action",
    "ConfigError",
    "Event",
    "FighterSpec",
    "IllegalActionError",
    "SpartacusConfig",
    "SpartacusState",
    "action_from_dict",
    "new_game",
    "parse_action",
    "replay",
]
