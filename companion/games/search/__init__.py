"""Bots worth playing against, and hints: information-set MCTS over every engine.

- :mod:`.mcts`: the search, written once (determinizations, UCB1 with availability
  counts, chance nodes sampled from the engines' exact probabilities);
- :mod:`.profile`: what a game adds (determinizer, evaluation, rollout policy, exact
  decisions), one module per game (``battle_royale``, ``gladiatoren``, ``skirmish``,
  ``spartacus``);
- :mod:`.bot`: :class:`SearchBot`, the levels, :func:`hint` and :func:`think`;
- :mod:`.tournament`: seeded matches between bots with Wilson intervals;
- :mod:`.clone`: a fast copy of a state.

Like the engines, nothing here reads a clock or the hardware: a time budget takes the
clock its caller passes in. See ``docs/bots.md``.
"""

from companion.games.search.bot import LEVELS, Hint, SearchBot, hint, move, think
from companion.games.search.mcts import Budget, search
from companion.games.search.result import SearchResult

__all__ = [
    "LEVELS",
    "Budget",
    "Hint",
    "SearchBot",
    "SearchResult",
    "hint",
    "move",
    "search",
    "think",
]
