"""The arena skirmish's part of the search: nothing is hidden; score the gladiators standing.

- Hidden: nothing (teams, profiles, positions and dice are all in the open).
- Evaluation: a seat's strength is the points of its gladiators standing, each weighed by
  the life it has left (half for being there, half by life), plus, under points victory,
  the points it has scored; as shares of the total, a softmax gives win chances.
- Rollouts: the table's skirmish bot (walks to the nearest enemy and strikes), which
  makes a few activations of play cheap and sensible.
"""

from __future__ import annotations

from typing import Any

from companion.games.arena_skirmish.bot import SkirmishBot
from companion.games.core.actions import Action
from companion.games.core.bots import Rng
from companion.games.search.profile import Profile, win_chances

#: share of the total strength that makes a seat e times more likely to win
TEMPERATURE = 0.08


def strength(state: Any) -> list[float]:
    out = [0.0] * state.players
    for g in state.gladiators.values():
        if g.alive:
            out[g.owner] += g.profile.points * (0.5 + 0.5 * g.life / max(1, g.profile.life))
    if state.config.victory == "points":
        for seat, scored in enumerate(state.scored):
            out[seat] += scored
    return out


def evaluate(state: Any) -> list[float]:
    scores = strength(state)
    total = sum(scores) or 1.0
    alive = [s > 0 for s in scores] if state.config.victory != "points" else [True] * len(scores)
    return win_chances([s / total for s in scores], alive, TEMPERATURE)


def rollout(state: Any, rng: Rng) -> Action:
    return SkirmishBot(rng).choose(state)


PROFILE = Profile(
    evaluate=evaluate,
    rollout=rollout,
    rollout_depth=15,
    heuristic=SkirmishBot,
    iterations={"easy": 8, "normal": 30, "strong": 300},
)
