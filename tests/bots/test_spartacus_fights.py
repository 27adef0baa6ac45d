"""Spartacus fights: the search bot's reroll and wound choices are never worse than the
exact-odds optimum, each checked through the engine itself.

- A reroll (rule C7): every option is applied to a copy of the fight, the reroll's chance
  node is enumerated with the engine's exact probabilities (the other side's pending
  reroll answered by its own best option, the same way), and the wounds are read from the
  engine's resolved attack: the bot's option has the best exact expected wound difference.
- A wound (rule C11): every legal attribute is taken on a copy, then the engine's own
  ``Fight.odds`` gives both fighters' next attacks: the bot's choice leaves the best chance
  to defeat the opponent less the chance to be defeated.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from companion.games.search import SearchBot
from companion.games.search.clone import clone
from companion.games.search.mcts import sample_outcome
from companion.games.spartacus import FighterSpec, SpartacusConfig, new_game
from companion.games.spartacus.bot import SimpleBot
from companion.games.spartacus.combat import ATTRS


def fight(seed: int) -> Any:
    rng = random.Random(seed)
    dice = lambda: (rng.randint(2, 5), rng.randint(2, 5), rng.randint(1, 3))  # noqa: E731
    one = FighterSpec("A", *dice(), equipment=("gladius", "helm"))
    two = FighterSpec("B", *dice(), equipment=rng.choice([("schwert",), ("galea",), ()]))
    return new_game(SpartacusConfig(fight=(one, two), arena="small"))


def _wound_difference(state: Any, side: str) -> Fraction:
    """Exact expected (wounds dealt - wounds taken) for ``side`` of the attack under way:
    the engine's chance nodes enumerated until the attack is resolved."""
    f = state.fight
    if f.phase == "reroll_roll":
        total = Fraction(0)
        for action, p in state.chance_outcomes():
            after = clone(state)
            after.apply(action)
            total += p * _wound_difference(after, side)
        return total
    if f.phase == "reroll_choice":  # the other side answers with its own best option
        return max(
            (_after(state, a, side) for a in state.legal_actions()),
            key=lambda pair: pair[1],
        )[0]
    o = f.outcome
    diff = Fraction(o.to_defender - o.to_attacker)
    return diff if side == f.attacker else -diff


def _after(state: Any, action: Any, side: str) -> tuple[Fraction, Fraction]:
    """(value for ``side``, value for the chooser) after the chooser's ``action``: the
    wound difference is zero-sum, so one is the other or its negative."""
    chooser = state.fight.reroll_pending[0]
    after = clone(state)
    after.apply(action)
    value = _wound_difference(after, side)
    return value, value if chooser == side else -value


def _exchange(state: Any, side: str) -> Fraction:
    f = state.fight
    foe = f.other(side)
    mine = f.odds(side).defender_levels
    theirs = f.odds(foe).defender_levels
    return (1 - mine["none"]) - (1 - theirs["none"])


def play_and_check(seed: int) -> tuple[int, int]:
    state = fight(seed)
    rng = random.Random(seed)
    bot = SearchBot("spartacus", random.Random(seed), "easy")
    mover = SimpleBot(rng)  # moves and attacks: quick, the checks are about the dice
    rerolls = wounds = 0
    while not state.is_terminal:
        if state.is_chance_node:
            state.apply(sample_outcome(state.chance_outcomes(), rng))
            continue
        f = state.fight
        if f.phase not in ("reroll_choice", "wound"):
            state.apply(mover.choose(state))
            continue
        choice = bot.choose(state)
        if f.phase == "reroll_choice":
            side = f.reroll_pending[0]
            values = {a: _after(state, a, side)[0] for a in state.legal_actions()}
            assert values[choice] == max(values.values()), (seed, values, choice)
            rerolls += 1
        elif f.phase == "wound":
            side = f.wound_queue[0][0]
            values = {}
            for a in state.legal_actions():
                after = clone(state)
                after.fight.fighters[side].dice[ATTRS.index(a.attr)] -= 1
                values[a] = _exchange(after, side)
            assert values[choice] == max(values.values()), (seed, values, choice)
            wounds += 1
        state.apply(choice)
    return rerolls, wounds


def check_fights(seeds: range) -> None:
    rerolls = wounds = 0
    for seed in seeds:
        r, w = play_and_check(seed)
        rerolls += r
        wounds += w
    assert rerolls >= 3 and wounds >= 3  # the checks really ran


def test_rerolls_and_wounds_are_never_worse_than_the_exact_optimum() -> None:
    check_fights(range(2, 5))


@pytest.mark.slow
def test_rerolls_and_wounds_in_more_fights() -> None:
    check_fights(range(10, 20))


def test_a_hint_in_a_fight_gives_the_exact_odds() -> None:
    from companion.games.search import hint

    for seed in range(40):
        state = fight(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            if state.is_chance_node:
                state.apply(sample_outcome(state.chance_outcomes(), rng))
            elif state.fight.phase == "reroll_choice":
                h = hint("spartacus", state, state.current_player, rng, "easy")
                assert h.exact and state.is_legal(h.action)
                return
            else:
                state.apply(SimpleBot(rng).choose(state))
    pytest.fail("no reroll choice in 40 fights")
