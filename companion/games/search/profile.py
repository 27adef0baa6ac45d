"""What the search needs of one game, and nothing more: a :class:`Profile` per engine.

The machinery (:mod:`.mcts`) is game-neutral; a game adds only

- ``options(state)``: the choices of the seat to move (the engine's legal actions,
  corrections left out: those are for real tables);
- ``determinizer(state, seat)``: for a game with hidden information, a function that
  redraws, in a copy of the state, everything ``seat`` may not see, from what
  ``game.view(state, seat)`` shows (``None``: nothing is hidden);
- ``evaluate(state)``: each seat's estimated win chance in a position that is not over;
- ``rollout`` and ``rollout_depth``: a cheap policy for the few moves played after a new
  node (``None``: uniform among the options), ``stop_rollout`` where a rollout may end
  early (at a turn's end);
- ``exact(state, seat)``: decisions the game's exact odds settle (a reroll), answered
  without sampling (``None``: none);
- ``prior(state, actions)``: how promising each action looks before any search (the
  search then widens from the best ones; ``None``: every action is tried);
- ``odds(state, action)``: the exact odds a hint shows beside ``action`` where the game
  has them (a challenge's combat odds, an attack's wounds), as a line of text;
- ``heuristic(rng)``: the game's current table bot, the yardstick of ``docs/bots.md``;
- ``iterations``: the iterations of each level (``easy``, ``normal``, ``strong``), set so
  that a ``normal`` move of this game takes at most about 100 ms on the benchmark
  machine (an iteration costs what the game's moves cost).

Profiles live beside the machinery, one module per game (:data:`PROFILE_MODULES`), and
are imported when first asked for, like the engines in the registry.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.core.actions import Action
from companion.games.core.bots import RandomBot, Rng
from companion.games.search.result import SearchResult

Sampler = Callable[[Any, Rng], None]


def playable(state: Any) -> list[Action]:
    """The legal actions without corrections: what a bot may choose."""
    return [a for a in state.legal_actions() if not a.is_correction]


@dataclass(frozen=True)
class Profile:
    """One game's part of the search (see the module docstring)."""

    evaluate: Callable[[Any], list[float]]
    options: Callable[[Any], list[Action]] = playable
    determinizer: Callable[[Any, int], Sampler | None] = lambda state, seat: None
    rollout: Callable[[Any, Rng], Action] | None = None
    rollout_depth: int = 20
    stop_rollout: Callable[[Any], bool] | None = None
    exact: Callable[[Any, int], SearchResult | None] | None = None
    prior: Callable[[Any, list[Action]], list[float]] | None = None
    odds: Callable[[Any, Action], str | None] | None = None
    heuristic: Callable[[Rng], Any] = RandomBot
    #: why the search cannot tell the choices of this state apart (``None``: it can): a
    #: hint there would name the first legal action with an even chance as the best
    blind: Callable[[Any], str | None] = lambda state: None
    iterations: Mapping[str, int] = field(
        default_factory=lambda: {"easy": 25, "normal": 100, "strong": 1000}
    )


def win_chances(scores: Sequence[float], alive: Sequence[bool], temperature: float) -> list[float]:
    """Scores turned into win chances that sum to 1: a softmax over the seats still in
    the game (a seat that is out has none)."""
    live = [s for s, a in zip(scores, alive, strict=True) if a]
    if not live:
        return [1.0 / len(scores)] * len(scores)
    top = max(live)
    weights = [
        math.exp((s - top) / temperature) if a else 0.0 for s, a in zip(scores, alive, strict=True)
    ]
    total = sum(weights)
    return [w / total for w in weights]


#: game name -> the module whose PROFILE is its search profile
PROFILE_MODULES: dict[str, str] = {
    "battle-royale": "companion.games.search.battle_royale",
    "gladiatoren": "companion.games.search.gladiatoren",
    "skirmish": "companion.games.search.skirmish",
    "spartacus": "companion.games.search.spartacus",
}


def profile_for(game: str) -> Profile:
    """The search profile of the registered game ``game``."""
    try:
        module = PROFILE_MODULES[game]
    except KeyError:
        raise KeyError(f"no search bot for {game!r}; games: {', '.join(PROFILE_MODULES)}") from None
    profile: Profile = importlib.import_module(module).PROFILE
    return profile
