"""Properties over random legal play: movement never exceeds the points, nobody walks
through anyone (or onto a blocked cell, or up a cliff), chance is exact, and a game
replays bit for bit from its config and action log."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.dice import Roller
from companion.games.arena_skirmish import SkirmishConfig, new_game, replay
from companion.games.arena_skirmish import actions as A
from companion.games.arena_skirmish.bot import SkirmishBot
from companion.games.core import RandomBot, play_out

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

configs = st.one_of(
    st.builds(
        SkirmishConfig,
        players=st.just(2),
        map=st.sampled_from(["default", "duel"]),
        round_limit=st.integers(1, 6),
    ),
    st.builds(SkirmishConfig, players=st.integers(3, 4), round_limit=st.integers(1, 5)),
    st.builds(
        SkirmishConfig,
        players=st.integers(5, 10),
        map=st.just("colosseum"),
        round_limit=st.integers(1, 4),
    ),
)


def check_board(state) -> None:
    seen = {}
    for gid, g in state.gladiators.items():
        if g.alive and g.cell is not None:
            assert g.cell not in seen, "two gladiators on one cell"
            seen[g.cell] = gid
            assert not state.map.blocked[g.cell]
            assert g.life >= 1
        if not g.alive:
            assert g.cell is None and g.life == 0
        assert min(g.movement, g.attack, g.affinity) >= 0
    for cell, gid in enumerate(state.occupant):
        assert (gid >= 0) == (cell in seen) and (gid < 0 or seen[cell] == gid)


def play_and_check(config: SkirmishConfig, seed: int, mode: str, max_actions: int = 4000):
    state = new_game(config)
    roller = Roller.seeded(seed)
    rng = random.Random(seed)
    bot = SkirmishBot(rng) if mode == "skirmish" else RandomBot(rng)
    spent = 0
    budget = None
    for _ in range(max_actions):
        if state.is_terminal:
            break
        if state.is_chance_node:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1 and all(p > 0 for _, p in outcomes)
            assert [a for a, _ in outcomes] == state.legal_actions()
            action = roller.choose(outcomes)
        elif mode == "corrections" and rng.random() < 0.1:
            action = rng.choice(state.legal_actions())
        else:
            action = bot.choose(state)
        gid = state.active_gladiator
        before = None if gid is None else (state.gladiators[gid].cell, state.points_left)
        events = state.apply(action)
        if any(e.kind == "turn_started" for e in events):
            spent, budget = 0, state.points_left
        if isinstance(action, A.Adjust) and action.stat == "points" and budget is not None:
            budget += action.delta
        if isinstance(action, A.Step | A.TurnLeft | A.TurnRight):
            assert before is not None
            cost = before[1] - state.points_left
            spent += cost
            assert 1 <= cost <= 4
            assert budget is not None and spent <= budget, "movement exceeds the points"
            g = state.gladiators[gid]
            if isinstance(action, A.Step):
                src, dst = before[0], g.cell
                assert state.map.direction_between(src, dst) == g.facing  # forward, orthogonal
                assert abs(state.map.heights[dst] - state.map.heights[src]) <= 1
        if state.phase in ("move", "rest", "combo"):
            assert state.points_left >= 0
        check_board(state)
    return state


@SETTINGS
@given(configs, st.integers(0, 2**32 - 1), st.sampled_from(["random", "skirmish", "corrections"]))
def test_random_play_keeps_the_rules(config, seed, mode):
    state = play_and_check(config, seed, mode)
    again = replay(config, state.history)
    assert again.snapshot() == state.snapshot()
    assert json.dumps(again.snapshot(), sort_keys=True) == json.dumps(
        state.snapshot(), sort_keys=True
    )


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(2, 4))
def test_bot_games_end_and_replay_identically(seed, players):
    config = SkirmishConfig(players=players, round_limit=150)
    state = play_out(
        new_game(config), SkirmishBot(random.Random(seed)), Roller.seeded(seed).choose, 200_000
    )
    assert state.is_terminal and state.winners
    assert replay(config, state.history).snapshot() == state.snapshot()
    # the same seed gives the same game
    bot, roller = SkirmishBot(random.Random(seed)), Roller.seeded(seed)
    assert play_out(new_game(config), bot, roller.choose, 200_000).history == state.history
