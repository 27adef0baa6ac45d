"""The search's copy of a state: equal to the original, and independent of it."""

from __future__ import annotations

import random

import pytest
from bot_helpers import GAMES, advance, position

from companion.games.search.clone import clone


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("steps", [5, 60])
def test_clone_is_equal_and_independent(game: str, steps: int) -> None:
    state = position(game, seed=steps, steps=steps)
    before = state.snapshot()
    copy = clone(state)
    assert copy.snapshot() == before
    assert copy.legal_actions() == state.legal_actions()
    assert copy.history == state.history and copy.history is not state.history
    advance(copy, random.Random(1), 40, game)  # play on: the original must not move
    assert state.snapshot() == before
    assert len(state.history) < len(copy.history) or copy.is_terminal


def test_a_fights_emit_is_bound_to_the_copy() -> None:
    """Spartacus's fight reports its events through the state: a copy's fight must
    report to the copy, never to the original."""
    from companion.games.spartacus import FighterSpec, SpartacusConfig

    config = SpartacusConfig(fight=(FighterSpec("A", 3, 3, 3), FighterSpec("B", 3, 3, 3)))
    state = position("spartacus", seed=2, steps=3, config=config)
    copy = clone(state)
    assert copy.fight.emit.__self__ is copy
    assert state.fight.emit.__self__ is state
    assert copy.fight.fighters["I"] is not state.fight.fighters["I"]


def test_a_frozen_record_is_shared_and_a_mutable_one_copied() -> None:
    """Records (``companion.records``) are dataclasses the copy must tell apart: a frozen
    one (an action, a data card) can be shared, a mutable one must be copied."""
    from companion.records import Record

    class Card(Record):
        id: str

    class Tally(Record, frozen=False):
        count: int = 0

    class Holder:
        def __init__(self) -> None:
            self.card, self.tally, self.history = Card("a"), Tally(), []

    state = Holder()
    copy = clone(state)
    assert copy.card is state.card
    assert copy.tally == state.tally and copy.tally is not state.tally
    copy.tally.count = 3
    assert state.tally.count == 0
