"""The machinery every rules engine shares, learnt from OpenSpiel's Game/State split.

- :class:`GameState` (``state.py``): legality (``legal_actions``, cached, the one source
  of legality), ``apply`` with typed rejection, chance nodes with exact outcomes,
  history, ``replay``, winners, events, dispatch of actions to per-kind handlers;
- :class:`Game` (``game.py``): what the registry, the table and the journal know of a
  game: config, new game, replay, action codec, bot, data file, seat views;
- ``actions.py`` (actions and their codec), ``events.py``, ``errors.py``, ``views.py``
  (public and private parts), ``bots.py`` (the random bot, playing a game out),
  ``config.py`` and ``data.py`` (checks and data files every game uses), ``plain.py``.

An engine keeps only its rules. See ``docs/architecture.md``.
"""

from typing import TYPE_CHECKING

from companion.games.lazy import lazy_names

if TYPE_CHECKING:
    from companion.games.core.actions import Action, ActionCodec, ActionFormatError
    from companion.games.core.bots import Bot, RandomBot, Rng, play_out
    from companion.games.core.errors import ConfigError, DataError, IllegalActionError
    from companion.games.core.events import Event
    from companion.games.core.game import Game
    from companion.games.core.state import CHANCE, GAME_OVER, TERMINAL, GameState, best
    from companion.games.core.views import Privacy, Secret, hidden

#: Each name is imported from its module the first time it is read: importing one module
#: of the package (``companion.games.core.errors``, say) does not load the rest.
__getattr__ = lazy_names(
    __name__,
    {
        "Action": "actions",
        "ActionCodec": "actions",
        "ActionFormatError": "actions",
        "Bot": "bots",
        "RandomBot": "bots",
        "Rng": "bots",
        "play_out": "bots",
        "ConfigError": "errors",
        "DataError": "errors",
        "IllegalActionError": "errors",
        "Event": "events",
        "Game": "game",
        "CHANCE": "state",
        "GAME_OVER": "state",
        "TERMINAL": "state",
        "GameState": "state",
        "best": "state",
        "Privacy": "views",
        "Secret": "views",
        "hidden": "views",
    },
)

__all__ = [
    "CHANCE",
    "GAME_OVER",
    "TERMINAL",
    "Action",
    "ActionCodec",
    "ActionFormatError",
    "Bot",
    "ConfigError",
    "DataError",
    "Event",
    "Game",
    "GameState",
    "IllegalActionError",
    "Privacy",
    "RandomBot",
    "Rng",
    "Secret",
    "best",
    "hidden",
    "play_out",
]
