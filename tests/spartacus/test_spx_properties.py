"""Properties over random legal play: gold is conserved, influence moves only by the listed
rules, chance is exact, refusals change nothing, and replay is bit for bit."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spx_helpers import spec

from companion.dice import Roller
from companion.games.core import play_out
from companion.games.spartacus import (
    CHANCE,
    TERMINAL,
    IllegalActionError,
    SpartacusConfig,
    new_game,
    replay,
)
from companion.games.spartacus import actions as A
from companion.games.spartacus.bot import KindBot, SimpleBot
from companion.games.spartacus.events import INFLUENCE_REASONS

PROPERTY_SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
STEPS = 600


def run(config: SpartacusConfig, seed: int, correction_rate: float, steps: int = STEPS):
    state = new_game(config)
    roller = Roller.seeded(seed)
    rng = random.Random(seed)
    bot = KindBot(rng) if seed % 2 else SimpleBot(rng)
    for _ in range(steps):
        if state.is_terminal:
            break
        if state.is_chance_node:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1 and all(p > 0 for _, p in outcomes)
            action = roller.choose(outcomes)
        elif rng.random() < correction_rate:
            action = rng.choice(state.legal_actions())
        else:
            action = bot.choose(state)
        yield state, action


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(
    players=st.integers(2, 4),
    length=st.sampled_from(["quick", "standard", "long"]),
    seed=st.integers(0, 2**32 - 1),
    correction_rate=st.sampled_from([0.0, 0.0, 0.1]),
)
def test_gold_conserved_influence_by_the_rules_and_replay(
    players, length, seed, correction_rate
) -> None:
    config = SpartacusConfig(players=players, length=length)
    state = None
    for state, action in run(config, seed, correction_rate):
        gold, influence = list(state.gold), list(state.influence)
        assert state.current_player == CHANCE or 0 <= state.current_player < players
        events = state.apply(action)
        assert state.total_gold() == 0  # houses + bank + bets on the board
        for seat in range(players):
            moved = sum(
                e.data["delta"] for e in events if e.kind == "influence" and e.data["seat"] == seat
            )
            assert state.influence[seat] - influence[seat] == moved
            assert state.influence[seat] >= 0 and state.gold[seat] >= 0
        for e in events:
            if e.kind == "influence":
                assert e.data["reason"] in INFLUENCE_REASONS
                if e.data["reason"] == "correction":
                    assert action.is_correction
        assert sum(state.gold) - sum(gold) == sum(
            e.data["delta"] for e in events if e.kind == "gold"
        ) - sum(e.data["amount"] for e in events if e.kind == "bet")
    assert state is not None
    again = replay(config, state.history)
    assert again.snapshot() == state.snapshot()
    json.dumps(state.snapshot())


@pytest.mark.slow
@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_refused_actions_change_nothing(seed) -> None:
    config = SpartacusConfig(players=3)
    rng = random.Random(seed)
    candidates = [
        A.Attack(),
        A.EndTurn(),
        A.Bid(99),
        A.Done(),
        A.Pass(),
        A.PayUpkeep(),
        A.Thumbs(False),
        A.Step("E"),
        A.Wound("I", "speed"),
        A.Invite("batiatus"),
        A.DiceRoll("I", "attack", (6,)),
        A.Bet("winner-I", 9),
        A.SellCard("wache"),
    ]
    for state, action in run(config, seed, 0.0, steps=300):
        probe = rng.choice(candidates)
        if probe not in state.legal_actions():
            before = state.snapshot()
            try:
                state.apply(probe)
            except IllegalActionError as exc:
                assert exc.rule and exc.reason
            else:  # pragma: no cover
                raise AssertionError(f"{probe} was accepted but not listed")
            assert state.snapshot() == before
        state.apply(action)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    a=st.integers(1, 5),
    d=st.integers(1, 5),
    s=st.integers(1, 4),
    gear=st.sampled_from(
        [(), ("gladius",), ("dreizack", "helm"), ("wurfspeer", "schild"), ("netz", "axt")]
    ),
    arena=st.sampled_from(["small", "default"]),
)
def test_random_fights_end_and_replay(seed, a, d, s, gear, arena) -> None:
    config = SpartacusConfig(
        fight=(
            spec("A", a, d, s, gear, ("pair-extra-wound",)),
            spec("B", d, a, 5 - s, (), ("defence-triple-counter",)),
        ),
        arena=arena,
    )
    state = play_out(
        new_game(config), SimpleBot(random.Random(seed)), Roller.seeded(seed).choose, 20_000
    )
    assert state.is_terminal and state.current_player == TERMINAL
    assert len(state.winners) == 1 and state.fight.level in ("yield", "injury", "decapitation")
    loser = state.fight.fighters[state.fight.loser]
    assert min(loser.dice) == 0
    assert replay(config, state.history).snapshot() == state.snapshot()


def test_simple_bots_finish_full_games() -> None:
    for seed in range(6):
        config = SpartacusConfig(players=2 + seed % 3, length="standard")
        bot, roller = SimpleBot(random.Random(seed)), Roller.seeded(seed)
        state = play_out(new_game(config), bot, roller.choose, 30_000)
        assert state.is_terminal and len(state.winners) == 1
        assert max(state.influence) >= 12
