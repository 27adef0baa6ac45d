"""The search bot, its levels, and the functions the table calls off its input path.

- :data:`LEVELS`: ``easy``, ``normal``, ``strong``: each game's iteration budget
  (``Profile.iterations``; ``normal`` keeps the median move within 100 ms on the benchmark
  machine, ``docs/bots.md``) with a time cap when a clock is given; the cap binds on a
  slower machine, where the bot plays weaker rather than slower.
- :class:`SearchBot`: a :class:`~companion.games.core.bots.Bot` for any seat of any
  registered game; ``choose(state)`` searches a copy, so the state is never changed and
  the call may run in a worker thread while the table goes on reading buttons.
- :func:`think`: the same from plain data (game name, config dict, action dicts), for a
  worker process: it rebuilds the state from its history and returns the action's dict.
- :func:`hint`: the best legal action for a seat with its estimated win chance (and the
  game's exact odds of it, where it has them).
- :func:`move`: a search bot's move as a module-level function, for a worker process.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.games.core.actions import Action
from companion.games.core.bots import Rng
from companion.games.registry import get_game
from companion.games.search.mcts import Budget, Clock, search
from companion.games.search.profile import profile_for
from companion.games.search.result import SearchResult

#: each level's time cap in seconds (the iterations are the game's: ``Profile.iterations``)
LEVELS: dict[str, float] = {"easy": 0.03, "normal": 0.09, "strong": 1.0}
DEFAULT_LEVEL = "normal"


def budget_of(game: str, level: str) -> Budget:
    """The budget of ``level`` for ``game``; ``ValueError`` naming the levels otherwise."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
    return Budget(profile_for(game).iterations[level], LEVELS[level])


class SearchBot:
    """Plays any seat of ``game`` (a registry name) by information-set MCTS.

    ``rng`` draws the determinizations and the rollouts; ``clock`` (a function returning
    seconds, e.g. ``time.perf_counter``) enables the level's time cap; ``stop`` ends a
    search early with the best move so far. ``last`` keeps the last search's result.
    """

    def __init__(
        self,
        game: str,
        rng: Rng,
        level: str = DEFAULT_LEVEL,
        clock: Clock | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> None:
        self.game = game
        self.level = level
        self.budget = budget_of(game, level)
        self.profile = profile_for(game)
        self.rng = rng
        self.clock = clock
        self.stop = stop
        self.last: SearchResult | None = None

    def options(self, state: Any) -> list[Action]:
        return self.profile.options(state)

    def search(self, state: Any) -> SearchResult:
        self.last = search(state, self.profile, self.budget, self.rng, self.clock, self.stop)
        return self.last

    def choose(self, state: Any) -> Action:
        return self.search(state).best.action


@dataclass(frozen=True)
class Hint:
    """What the companion suggests to a seat: ``action``, and ``win_chance``, the seat's
    estimated chance to win after it (``exact``: the game's exact odds, not a search
    estimate; ``None`` when there was nothing to compare, a forced move); ``odds``: the
    game's exact odds of that action as a line of text, where it has them (a challenge in
    Kampf der Gladiatoren, an attack in a Spartacus fight)."""

    action: Action
    win_chance: float | None
    exact: bool
    iterations: int
    odds: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data = {
            "action": self.action.to_dict(),
            "notation": self.action.notation,
            "win_chance": self.win_chance,
            "exact": self.exact,
            "iterations": self.iterations,
        }
        if self.odds is not None:
            data["odds"] = self.odds
        return data


def hint(
    game: str,
    state: Any,
    seat: int,
    rng: Rng,
    budget: Budget | str = DEFAULT_LEVEL,
    clock: Clock | None = None,
) -> Hint:
    """The best legal action for ``seat`` (the seat to move) with its win chance.

    The search sees only what ``seat`` may see (its determinizations come from
    ``game.view(state, seat)``). ``ValueError`` when ``seat`` is not the seat to move.
    """
    if state.current_player != seat:
        raise ValueError(f"seat {seat} is not to move (seat to move: {state.current_player})")
    if isinstance(budget, str):
        budget = budget_of(game, budget)
    profile = profile_for(game)
    result = search(state, profile, budget, rng, clock)
    best = result.best
    chance = None if math.isnan(best.win_chance) else best.win_chance
    odds = profile.odds(state, best.action) if profile.odds is not None else None
    return Hint(best.action, chance, result.exact, result.iterations, odds)


def move(
    game: str, state: Any, rng: Rng, level: str = DEFAULT_LEVEL, clock: Clock | None = None
) -> Action:
    """``SearchBot(game, rng, level, clock).choose(state)`` as a module-level function, for
    a worker process: every argument pickles (a state pickles in about a millisecond,
    where rebuilding it from its history takes up to a second in Spartacus)."""
    return SearchBot(game, rng, level, clock=clock).choose(state)


def think(
    game: str,
    config: dict[str, Any],
    history: list[dict[str, Any]],
    rng: Rng,
    level: str = DEFAULT_LEVEL,
    clock: Clock | None = None,
) -> dict[str, Any]:
    """A bot's move from plain data, for a worker process (every argument pickles: a
    ``random.Random``, ``time.perf_counter``): the game rebuilt from its config and
    history, searched at ``level``, the action as its journal dict."""
    g = get_game(game)
    state = g.replay(g.config_from_dict(config), [g.action_from_dict(a) for a in history])
    return SearchBot(game, rng, level, clock=clock).choose(state).to_dict()
