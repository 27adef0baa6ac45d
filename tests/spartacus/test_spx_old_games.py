"""Games played before issue 17 replay to the same states: action records read as before and
a tracked game's snapshot (digested in journal checkpoints) is unchanged.

The fixtures were written by the engine of ``main`` before this change: a demo journal (3
houses, seed 7) and two games with random legal actions, corrections included.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games.spartacus import SpartacusConfig, new_game
from companion.games.spartacus import actions as A
from companion.table.journal import read_journal, state_digest

DATA = Path(__file__).resolve().parent / "data"


def test_a_journal_of_main_replays_through_every_checkpoint() -> None:
    contents = read_journal(DATA / "main-demo-3-houses-seed7.jsonl")
    state = new_game(SpartacusConfig.from_dict(contents.header["config"]))
    checked = 0
    for _line, record in contents.records:
        if record["type"] == "action":
            state.apply(A.action_from_dict(record["action"]))
        elif record["type"] == "checkpoint":
            assert len(state.history) == record["actions"]
            assert state_digest(state.snapshot()) == record["digest"], record
            checked += 1
    assert checked == 4 and state.is_terminal


@pytest.mark.parametrize("index", [0, 1])
def test_random_games_of_main_replay_to_the_same_states(index: int) -> None:
    game = json.loads((DATA / "main-random-games.json").read_text("utf-8"))["games"][index]
    state = new_game(SpartacusConfig.from_dict(game["config"]))
    for n, record in enumerate(game["actions"], 1):
        action = A.action_from_dict(record)
        assert action.to_dict() == record  # the record form is unchanged
        state.apply(action)
        if str(n) in game["digests"]:
            assert state_digest(state.snapshot()) == game["digests"][str(n)], n
