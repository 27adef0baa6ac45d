"""Kampf der Gladiatoren's part of the search: nothing is hidden; score what a seat holds.

- Hidden: nothing (teams, animals, stables and hit stars are on the table; the animal
  stack is a chance node of the engine).
- Evaluation: the points a seat would have if the game ended now (rule 8): its stable
  (1 per gladiator, 2 per animal) plus its gladiators still in the arena, which go to the
  stable at the end; a softmax turns the points into win chances.
- Choices inside a combat (nets, reroll, which gladiator to give up) follow the exact
  odds' documented policy (:data:`odds.POLICY`: a reroll when it lowers the expected
  losses) and are not searched: the search spends its iterations on the challenges and
  the entry, where the game is decided.
- Prior: a challenge's exact expected gain from the combat odds; the search widens from
  the most promising challenges (a turn offers up to dozens).
- Hints show a challenge's exact odds beside it (:func:`challenge_odds`); there is none
  during the set-up (:func:`blind`).
- Rollouts: the table's policy bot (random outside a combat, the odds' policy inside)
  to the end of the combat under way and the next turn's start.
"""

from __future__ import annotations

from typing import Any

from companion.games.core.actions import Action
from companion.games.core.bots import Rng
from companion.games.kampf_der_gladiatoren import actions as A
from companion.games.kampf_der_gladiatoren.bot import PolicyBot
from companion.games.kampf_der_gladiatoren.odds import odds_for_challenge
from companion.games.search.profile import Profile, playable, win_chances

#: points of difference that make a seat e times more likely to win
TEMPERATURE = 2.0


def points_now(state: Any) -> list[float]:
    """Each seat's points if the game ended now (stable + gladiators in the arena)."""
    points = [float(p) for p in state.scores()]
    for team in state.teams.values():
        points[team.owner] += team.size
    return points


def evaluate(state: Any) -> list[float]:
    return win_chances(points_now(state), [True] * state.players, TEMPERATURE)


COMBAT_CHOICES = frozenset({"net", "reroll", "give_up"})


class _NoDraws:
    """The generator of the policy inside a combat, where it draws nothing."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the odds policy drew a random number ({name}) in a combat")


_NO_RNG: Any = _NoDraws()


def options(state: Any) -> list[Action]:
    """Outside a combat every legal action; inside, the odds' policy's one choice."""
    if state.phase in COMBAT_CHOICES:
        return [PolicyBot(_NO_RNG).choose(state)]
    return playable(state)


def rollout(state: Any, rng: Rng) -> Action:
    return PolicyBot(rng).choose(state)


def prior(state: Any, actions: list[Action]) -> list[float]:
    """A challenge's exact expected gain in points (:func:`odds.odds_for_challenge`): the
    gladiators the target loses (an animal: 2 points times the chance it is defeated) less
    the challenger's losses; anything else 0."""
    fields = {f: i for i, f in enumerate(state.field_ids)}
    out = []
    for a in actions:
        if not isinstance(a, A.Challenge):
            out.append(0.0)
            continue
        attacker = state.board[fields[a.team]]
        target = state.board[fields[a.target]]
        odds = odds_for_challenge(state, attacker, target)
        gain = 2 * odds.out(1) if target[0] == "animal" else odds.expected(1)
        out.append(float(gain - odds.expected(0)))
    return out


def challenge_odds(state: Any, action: Action) -> str | None:
    """A hint's exact odds of a challenge (:func:`odds.odds_for_challenge`): how likely
    the target is out, how likely the challenger's team is, the expected losses."""
    if not isinstance(action, A.Challenge):
        return None
    fields = {f: i for i, f in enumerate(state.field_ids)}
    odds = odds_for_challenge(
        state, state.board[fields[action.team]], state.board[fields[action.target]]
    )
    return (
        f"challenge odds: target out {float(odds.out(1)):.0%}, your team out "
        f"{float(odds.out(0)):.0%}; expected losses {float(odds.expected(1)):.2f} for the "
        f"target, {float(odds.expected(0)):.2f} for you"
    )


#: the set-up's phases: the teams enter, the animals are drawn and placed
SET_UP = frozenset({"entry", "draw_animal", "place_animal"})


def blind(state: Any) -> str | None:
    """The set-up is beyond the search: it scores a position by the points (nobody has
    any before the first challenge) and its rollouts stop at the first turn, so every team
    entry and animal placement scores the same, and a hint named the first one."""
    if state.phase in SET_UP:
        return (
            "the set-up is beyond the search: it scores a position by the points, and "
            "nobody has any before the first challenge"
        )
    return None


def next_turn(state: Any) -> bool:
    return state.phase == "turn"


PROFILE = Profile(
    evaluate=evaluate,
    options=options,
    rollout=rollout,
    rollout_depth=40,
    stop_rollout=next_turn,
    prior=prior,
    odds=challenge_odds,
    heuristic=PolicyBot,
    blind=blind,
    iterations={"easy": 8, "normal": 30, "strong": 300},
)
