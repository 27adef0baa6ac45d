"""Information-set Monte-Carlo tree search over any engine, written once for every game.

One search (:func:`search`) for the seat to move:

1. each iteration starts from a *determinization*: a copy of the state whose hidden parts
   (other seats' hands, secret bids) the game's :class:`~.profile.Profile` has redrawn
   from what the seat may see, so the search never uses what the seat cannot know
   (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012);
2. it walks down the tree by UCB1 over the actions legal *in this determinization*, each
   counted against how often it was available (ISMCTS's availability count), and samples
   every chance node from the engine's own exact probabilities (open-loop: a tree node is
   a sequence of decisions, the dice are drawn afresh every time); a game with a *prior*
   considers only its best actions at first, more as a node is visited more (progressive
   widening), and tries them best first;
3. it adds one node, plays a short rollout with the profile's cheap policy and scores the
   position with the profile's evaluation (an estimate of each seat's win chance; the
   real result at the end of a game);
4. every node on the way is credited with the value of the seat that chose it.

The budget is a number of iterations and, when a clock is given, a deadline; ``stop`` ends
a search early (the table asks for the move now). Nothing here reads a clock or draws a
random number of its own: the caller passes both, so a seeded search without a clock is
repeatable move for move.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from companion.games.core.actions import Action
from companion.games.core.bots import Rng
from companion.games.search.clone import clone
from companion.games.search.profile import Profile
from companion.games.search.result import Choice, SearchResult

Clock = Callable[[], float]

#: exploration constant of UCB1 for values in [0, 1]
EXPLORATION = 0.7
#: decisions down the tree before a leaf is scored without going deeper
MAX_TREE_DEPTH = 40
#: actions (chance outcomes and forced moves included) one iteration may apply at most
MAX_STEPS = 2000
#: progressive widening, for a game with a prior: a node visited n times considers its
#: 1 + WIDENING * sqrt(n) best actions by the prior
WIDENING = 1.0


@dataclass(frozen=True)
class Budget:
    """How long one search may think: ``iterations`` at most, and at most ``seconds`` when
    the search is given a clock (the time cap protects a slow Pi; without a clock the
    iteration count alone decides and a seeded search is repeatable)."""

    iterations: int
    seconds: float | None = None


@dataclass
class Node:
    """Statistics of one decision sequence: ``value`` is the sum of the values, for the
    seat that made the last decision, of every iteration through it."""

    seat: int = -1
    visits: int = 0
    available: int = 0
    value: float = 0.0
    children: dict[Action, Node] = field(default_factory=dict)
    prior: dict[Action, float] = field(default_factory=dict)


def sample_outcome(outcomes: list[tuple[Action, Fraction]], rng: Rng) -> Action:
    """One chance outcome drawn by its exact probability."""
    r = rng.random()
    total = 0.0
    for action, p in outcomes:
        total += float(p)
        if r < total:
            return action
    return outcomes[-1][0]


def terminal_values(state: Any) -> list[float]:
    """At the end: 1 shared among the winners, 0 for the others."""
    values = [0.0] * state.players
    for seat in state.winners:
        values[seat] = 1.0 / len(state.winners)
    return values


def search(
    state: Any,
    profile: Profile,
    budget: Budget,
    rng: Rng,
    clock: Clock | None = None,
    stop: Callable[[], bool] | None = None,
) -> SearchResult:
    """Search the decision of the seat to move in ``state`` (which is not changed)."""
    seat = state.current_player
    root_options = profile.options(state)
    if not root_options:
        raise ValueError("nothing to decide: the state is a chance node, over, or has no option")
    exact = profile.exact(state, seat) if profile.exact is not None else None
    if exact is not None:
        return exact
    if len(root_options) == 1:
        return SearchResult((Choice(root_options[0], 0, math.nan),), 0)
    sampler = profile.determinizer(state, seat)
    deadline = None
    if clock is not None and budget.seconds is not None:
        deadline = clock() + budget.seconds
    root = Node(seat)
    done = 0
    while done < budget.iterations:
        if done and ((deadline is not None and clock() >= deadline) or (stop and stop())):  # type: ignore[misc]
            break
        world = clone(state)
        if sampler is not None:
            sampler(world, rng)
        _iterate(world, root, profile, rng)
        root.visits += 1
        done += 1
    return _result(root, root_options, done)


def _iterate(world: Any, root: Node, profile: Profile, rng: Rng) -> None:
    node = root
    path: list[Node] = []
    depth = steps = 0
    expanded = False
    while not world.is_terminal and depth < MAX_TREE_DEPTH and steps < MAX_STEPS:
        steps += 1
        if world.is_chance_node:
            world.apply(sample_outcome(world.chance_outcomes(), rng))
            continue
        options = profile.options(world)
        if len(options) == 1:
            world.apply(options[0])
            continue
        depth += 1
        mover = world.current_player
        if profile.prior is not None:
            options = _widen(node, options, world, profile)
        children = node.children
        untried = []
        for a in options:
            child = children.get(a)
            if child is None:
                untried.append(a)
            else:
                child.available += 1
        if untried:
            action = untried[0] if profile.prior is not None else rng.choice(untried)
            child = children[action] = Node(mover, available=1)
            world.apply(action)
            path.append(child)
            expanded = True
            break
        action = _select(node, options)
        node = children[action]
        world.apply(action)
        path.append(node)
    if expanded and not world.is_terminal:
        _rollout(world, profile, rng)
    values = terminal_values(world) if world.is_terminal else profile.evaluate(world)
    for n in path:
        n.visits += 1
        n.value += values[n.seat]


def _widen(node: Node, options: list[Action], world: Any, profile: Profile) -> list[Action]:
    """The node's best actions by the game's prior, more of them as the node is visited
    more (progressive widening); the prior is computed once per action and node."""
    values = node.prior
    missing = [a for a in options if a not in values]
    if missing:
        assert profile.prior is not None
        values.update(zip(missing, profile.prior(world, missing), strict=True))
    ranked = sorted(options, key=lambda a: -values[a])  # stable: ties keep the engine's order
    return ranked[: 1 + int(WIDENING * math.sqrt(node.visits))]


def _select(node: Node, options: list[Action]) -> Action:
    best_action = options[0]
    best_score = -math.inf
    children = node.children
    for a in options:
        child = children[a]
        score = child.value / child.visits + EXPLORATION * math.sqrt(
            math.log(child.available) / child.visits
        )
        if score > best_score:
            best_action, best_score = a, score
    return best_action


def _rollout(world: Any, profile: Profile, rng: Rng) -> None:
    policy = profile.rollout
    for _ in range(profile.rollout_depth):
        if world.is_terminal or (profile.stop_rollout and profile.stop_rollout(world)):
            return
        if world.is_chance_node:
            world.apply(sample_outcome(world.chance_outcomes(), rng))
        elif policy is not None:
            world.apply(policy(world, rng))
        else:
            world.apply(rng.choice(profile.options(world)))


def _result(root: Node, options: list[Action], iterations: int) -> SearchResult:
    choices = []
    for a in options:
        child = root.children.get(a)
        if child is None or not child.visits:
            choices.append(Choice(a, 0, math.nan))
        else:
            choices.append(Choice(a, child.visits, child.value / child.visits))
    order = sorted(
        range(len(choices)),
        key=lambda i: (
            -choices[i].visits,
            -(0.0 if math.isnan(choices[i].win_chance) else choices[i].win_chance),
            i,
        ),
    )
    return SearchResult(tuple(choices[i] for i in order), iterations)
