"""Properties of the Battle Royale engine over random legal play from real starts.

Games are driven the way the table drives them: chance nodes resolved with
``Roller.seeded(seed).choose(state.chance_outcomes())``, decisions picked at
random among all legal actions (corrections included in some runs).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.dice import Roller
from companion.games.battle_royale import (
    CHANCE,
    TERMINAL,
    BattleRoyaleConfig,
    BattleRoyaleState,
    IllegalActionError,
    new_game,
    replay,
)
from companion.games.battle_royale import actions as A
from companion.games.battle_royale.layout import (
    CELLS,
    CENTRE,
    DIRECTIONS,
    connected_to_centre,
    neighbours,
)
from companion.games.core import RandomBot, play_out

FIGURES_PER_COLOUR = 21
MAX_STEPS = 1500  # actions per hypothesis example (most random games end before)
GAME_BOUND = 20_000  # a random-bot game must end within this many actions

PROPERTY_SETTINGS = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

configs = st.builds(
    BattleRoyaleConfig,
    players=st.integers(2, 4),
    abilities=st.booleans(),
    special_actions=st.booleans(),
)
seeds = st.integers(0, 2**32 - 1)
# Probability of picking among all legal actions (corrections included) at a decision.
correction_rates = st.sampled_from([0.0, 0.0, 0.05, 0.3])


def play(
    config: BattleRoyaleConfig, seed: int, correction_rate: float, max_steps: int = MAX_STEPS
) -> Iterator[tuple[BattleRoyaleState, A.Action]]:
    """Random legal play; yields the state after each action (and the action)."""
    state = new_game(config)
    roller = Roller.seeded(seed)
    rng = random.Random(seed)
    for _ in range(max_steps):
        if state.is_terminal:
            return
        if state.is_chance_node:
            action = roller.choose(state.chance_outcomes())
        else:
            legal = state.legal_actions()
            ordinary = [a for a in legal if not a.is_correction]
            pool = legal if (rng.random() < correction_rate or not ordinary) else ordinary
            action = rng.choice(pool)
        state.apply(action)
        yield state, action


# The phases of a turn that only a player still in reaches (ruling 11a).
TURN_PHASES = {
    "turn_start",
    "move",
    "figure",
    "draw_card",
    "after_move",
    "doom_roll",
    "reroll_choice",
    "choose",
    "move_eliminator",
    "extra_roll",
}


def initial_neutral(config: BattleRoyaleConfig) -> int:
    """Two players: 2 neutral figures on the centre and on each of its 8 neighbours."""
    if config.neutral_colour is None:
        return 0
    fields = config.arena_layout.fields
    ring = [CENTRE, *(n for _, n in neighbours(CENTRE, True))]
    return 2 * sum(1 for cell in ring if cell in fields)


def push_pending(state: BattleRoyaleState) -> bool:
    return state.phase == "push" or bool(state.push_stack) or state.figure is not None


def check_invariants(state: BattleRoyaleState, neutral_total: int, check_capacity: bool) -> None:
    k = len(state.colours)
    assert len(state.counts) == CELLS
    for colour in range(k):
        arena = sum(state.counts[cell][colour] for cell in range(CELLS))
        assert arena == state.arena_total[colour], f"arena_total of {state.colours[colour]}"
        assert all(state.counts[cell][colour] >= 0 for cell in range(CELLS))
        prisoners = sum(p[colour] for p in state.prisoners)
        total = arena + prisoners + state.box[colour] + state.reserve[colour]
        expected = FIGURES_PER_COLOUR if colour < state.players else neutral_total
        assert total == expected, f"figures of {state.colours[colour]}: {total} != {expected}"
    for cell in range(CELLS):
        if not state.present[cell]:
            assert sum(state.counts[cell]) == 0, f"figures on the hole {cell}"
    fields = state.fields()
    assert CENTRE in fields
    assert set(fields) == connected_to_centre(fields), "a field is cut off from the centre"
    if check_capacity and not push_pending(state):
        for cell in fields:
            assert state.field_total(cell) <= state.capacity, (
                f"field {cell} holds {state.counts[cell]} (capacity {state.capacity}) "
                f"in phase {state.phase}"
            )

    if state.is_terminal:
        assert state.current_player == TERMINAL
        assert state.legal_actions() == []
        assert state.winners and state.end_reason
        return
    if state.phase in TURN_PHASES:  # ruling 11a: a player out never moves, draws or rolls
        assert not state.out[state.active], f"{state.colours[state.active]} is out"
    legal = state.legal_actions()
    assert legal, f"no legal action in phase {state.phase}"
    assert len(set(legal)) == len(legal), "legal_actions lists an action twice"
    if state.is_chance_node:
        assert state.current_player == CHANCE
        outcomes = state.chance_outcomes()
        probabilities = [p for _, p in outcomes]
        assert all(isinstance(p, Fraction) and p > 0 for p in probabilities)
        assert sum(probabilities) == 1
        assert [a for a, _ in outcomes] == legal
        assert all(a.is_chance for a in legal)
    else:
        assert 0 <= state.current_player < state.players
        assert state.chance_outcomes() == []
        assert not any(a.is_chance for a in legal)


# --- invariants -------------------------------------------------------------------------


@pytest.mark.slow
@settings(PROPERTY_SETTINGS, max_examples=50)
@given(config=configs, seed=seeds, correction_rate=correction_rates)
def test_invariants_hold_after_every_action(
    config: BattleRoyaleConfig, seed: int, correction_rate: float
) -> None:
    neutral_total = initial_neutral(config)
    fresh = new_game(config)
    check_invariants(fresh, neutral_total, check_capacity=True)
    # Shifting a knocked figure onto a field is the table's word and may overfill it;
    # capacity is a rules property only while no such correction has been entered.
    shifted = False
    for state, action in play(config, seed, correction_rate):
        shifted = shifted or isinstance(action, A.ShiftFigure)
        check_invariants(state, neutral_total, check_capacity=not shifted)


@settings(max_examples=20, deadline=None)
@given(config=configs, seed=seeds)
def test_capacity_holds_in_whole_games_without_corrections(
    config: BattleRoyaleConfig, seed: int
) -> None:
    neutral_total = initial_neutral(config)
    for state, _ in play(config, seed, 0.0, max_steps=GAME_BOUND):
        check_invariants(state, neutral_total, check_capacity=True)
        if not push_pending(state):
            assert max(state.field_total(c) for c in state.fields()) <= state.capacity


# --- replay -----------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(
    config=configs, seed=seeds, correction_rate=correction_rates, steps=st.integers(0, MAX_STEPS)
)
def test_replaying_the_history_rebuilds_the_state(
    config: BattleRoyaleConfig, seed: int, correction_rate: float, steps: int
) -> None:
    state = new_game(config)
    for state, _ in play(config, seed, correction_rate, max_steps=steps):  # noqa: B007
        pass
    rebuilt = replay(config, state.history)
    assert rebuilt.snapshot() == state.snapshot()
    assert rebuilt.history == state.history
    assert rebuilt.legal_actions() == state.legal_actions()


# --- illegal actions --------------------------------------------------------------------


@cache
def foreign_actions() -> tuple[A.Action, ...]:
    """Legal actions seen in other games (all player counts, options and corrections)."""
    seen: set[A.Action] = set()
    for i, config in enumerate(
        [
            BattleRoyaleConfig(players=4, abilities=True, special_actions=True),
            BattleRoyaleConfig(players=3, special_actions=True),
            BattleRoyaleConfig(players=2, abilities=True),
        ]
    ):
        for state, _ in play(config, 1000 + i, 0.2, max_steps=1500):
            seen.update(state.legal_actions())
    seen.update(A.Step(d) for d in DIRECTIONS)
    return tuple(sorted(seen, key=lambda a: a.notation))


def illegal_candidates(state: BattleRoyaleState, rng: random.Random) -> list[A.Action]:
    """Actions that ``legal_actions`` does not list now."""
    legal = set(state.legal_actions())
    out: list[A.Action] = []
    if state.phase != "figure":
        out.append(A.Step(rng.choice(list(DIRECTIONS))))
    if state.phase == "figure":
        out.extend(a for a in (A.Step(d) for d in DIRECTIONS) if a not in legal)
    if not state.is_terminal and state.current_player >= 0:
        hand = state.hands[state.active]
        out.extend(A.PlayCard(c) for c, n in hand.items() if n == 0)
    out.append(A.PlayCard("no-such-card"))
    if state.push_stack:
        cell = state.push_stack[-1][0]
        out.extend(A.Push(c) for i, c in enumerate(state.colours) if state.counts[cell][i] == 0)
    out.extend(A.Push(c) for c in ("purple", "grey", "turquoise", "red") if c not in state.colours)
    foreign = foreign_actions()
    out.extend(rng.sample(foreign, min(12, len(foreign))))
    return [a for a in out if a not in legal]


def assert_rejected(state: BattleRoyaleState, action: A.Action) -> None:
    before = state.snapshot()
    legal_before = state.legal_actions()
    history_before = list(state.history)
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    error = info.value
    assert isinstance(error.rule, str) and error.rule.strip(), action
    assert isinstance(error.reason, str) and error.reason.strip(), action
    assert error.action == action
    assert action.notation in str(error)
    assert state.snapshot() == before
    assert state.legal_actions() == legal_before
    assert state.history == history_before


@pytest.mark.slow
@settings(PROPERTY_SETTINGS, max_examples=40)
@given(config=configs, seed=seeds, correction_rate=correction_rates)
def test_illegal_actions_are_rejected_and_change_nothing(
    config: BattleRoyaleConfig, seed: int, correction_rate: float
) -> None:
    rng = random.Random(seed ^ 0x5EED)
    state = new_game(config)
    for action in illegal_candidates(state, rng):
        assert_rejected(state, action)
    for i, (state, _) in enumerate(play(config, seed, correction_rate)):
        if i % 7 and not state.is_terminal:
            continue
        for action in illegal_candidates(state, rng):
            assert_rejected(state, action)


@settings(max_examples=20, deadline=None)
@given(config=configs, seed=seeds)
def test_a_finished_game_rejects_everything(config: BattleRoyaleConfig, seed: int) -> None:
    state = play_out(new_game(config), RandomBot(random.Random(seed)), Roller.seeded(seed).choose)
    assert state.is_terminal
    rng = random.Random(seed)
    for action in [*rng.sample(foreign_actions(), 10), A.EndMovement(), A.Continue()]:
        assert_rejected(state, action)
        with pytest.raises(IllegalActionError) as info:
            state.apply(action)
        assert "end of game" in info.value.rule


# --- termination ------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(config=configs, seed=seeds)
def test_random_bot_games_end(config: BattleRoyaleConfig, seed: int) -> None:
    state = play_out(
        new_game(config),
        RandomBot(random.Random(seed)),
        Roller.seeded(seed).choose,
        max_actions=GAME_BOUND,
    )
    assert state.is_terminal
    assert len(state.history) <= GAME_BOUND
    assert state.winners
    assert set(state.winners) <= set(range(config.players))
    assert state.end_reason
    alive = [s for s in range(config.players) if state.arena_total[s] > 0]
    on_centre_only = sum(state.arena_total) == sum(state.counts[CENTRE])
    assert len(alive) <= 1 or on_centre_only, "the game ended while undecided"
    assert replay(config, state.history).snapshot() == state.snapshot()


def test_random_bot_never_corrects() -> None:
    bot = RandomBot(random.Random(0))
    for state, _ in play(
        BattleRoyaleConfig(players=4, special_actions=True), 3, 0.0, max_steps=3000
    ):
        if not state.is_terminal and not state.is_chance_node:
            assert not bot.choose(state).is_correction


def _collect(predicate: Callable[[BattleRoyaleState], bool]) -> bool:
    for seed in range(50):
        for state, _ in play(BattleRoyaleConfig(players=4, special_actions=True), seed, 0.3):
            if predicate(state):
                return True
    return False


def test_the_random_driver_reaches_pushes_and_corrections() -> None:
    """Guard for the properties above: the random play does reach the interesting phases."""
    assert _collect(lambda s: s.phase == "push")
    assert _collect(lambda s: s.phase == "blast")
    assert _collect(lambda s: s.phase == "capture")
