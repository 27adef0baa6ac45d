"""The worker process for exact odds: another process, lower priority, no pins, exact same
numbers for the table and the web view, and a worker that dies costs nothing but time."""

from __future__ import annotations

import logging
import os
import random
import signal
import sys
from fractions import Fraction

import pytest
from processes import parent_to_kill, running

from companion import worker
from companion.dice import Roller
from companion.games.registry import get_game
from companion.games.spartacus.combat import Modifiers
from companion.games.spartacus.data import builtin_data
from companion.games.spartacus.odds import attack_odds
from companion.ui.spartacus import odds_text
from companion.web.odds import public_odds
from companion.worker import WORKER_NICE, heavy_work_here, run_heavy, shutdown_worker


@pytest.fixture(autouse=True)
def fresh_worker():
    shutdown_worker()
    yield
    shutdown_worker()


def fight_turn(seed: int = 3):
    """A Spartacus game at a fighter's turn in the arena (odds are shown there)."""
    game = get_game("spartacus")
    state = game.new_game()
    bot, roller = game.bot(random.Random(seed)), Roller.seeded(seed)
    while not (
        state.phase == "fight"
        and state.fight is not None
        and state.fight.phase == "turn"
        and not state.is_chance_node
    ):
        state.apply(
            roller.choose(state.chance_outcomes()) if state.is_chance_node else bot.choose(state)
        )
    return state


def test_heavy_work_runs_in_another_process_at_a_lower_priority() -> None:
    pid = run_heavy(os.getpid)
    assert pid != os.getpid()
    assert run_heavy(os.getpid) == pid  # one worker, kept
    assert run_heavy(os.nice, 0) == os.nice(0) + WORKER_NICE
    assert run_heavy(signal.getsignal, signal.SIGINT) == signal.SIG_IGN  # Ctrl-C: the service's


def imported(name: str) -> bool:
    return name in sys.modules


def test_the_worker_holds_no_pin_and_no_port() -> None:
    import gpiozero  # noqa: F401  (imported here: the worker must not inherit it)

    assert "gpiozero" in sys.modules
    assert not run_heavy(imported, "gpiozero")
    assert not run_heavy(imported, "serial")


def test_errors_of_the_computation_come_back_as_they_are() -> None:
    with pytest.raises(ValueError, match="needs at least one attack"):
        run_heavy(attack_odds, 0, 3)
    assert run_heavy(os.getpid) != os.getpid()  # the worker is still there


def test_exact_fractions_come_back_exact() -> None:
    mods = Modifiers((builtin_data().abilities["pair-extra-wound"],), (), extra_wound=1)
    there = run_heavy(attack_odds, 4, 3, mods, attack_reroll=True, defence_reroll=True)
    with heavy_work_here():
        here = run_heavy(attack_odds, 4, 3, mods, attack_reroll=True, defence_reroll=True)
    assert there.joint == here.joint and there.wounds == here.wounds
    assert all(isinstance(p, Fraction) for p in there.joint.values())
    assert sum(there.joint.values()) == 1


def test_the_table_and_the_web_view_show_the_same_odds_as_computed_here() -> None:
    state = fight_turn()
    fight, side = state.fight, state.fight.active.side
    assert run_heavy(os.getpid) != os.getpid()  # the worker is up: the calls below use it
    web, table = public_odds(state), odds_text(fight, side).plain
    with heavy_work_here():
        assert public_odds(state) == web
        assert odds_text(fight, side).plain == table
    direct = fight.odds(side)
    title, rows = web["odds"][-2]
    assert title.endswith("wounds") and len(rows) == len(direct.wounds)
    assert f"{float(direct.wounds[0]) * 100:.1f}%" in table


def test_a_worker_that_dies_costs_only_time(caplog) -> None:
    pid = run_heavy(os.getpid)
    os.kill(pid, signal.SIGKILL)
    with caplog.at_level(logging.WARNING, logger="companion.worker"):
        assert run_heavy(os.getpid) == os.getpid()  # computed here instead
    assert "computing in the service" in caplog.text
    state = fight_turn()
    assert public_odds(state)["odds"]  # still shown
    shutdown_worker()  # a new start: a fresh worker again
    assert run_heavy(os.getpid) != os.getpid()


def test_a_worker_stopped_with_the_service_is_not_a_failure(caplog) -> None:
    """systemd's stop sends SIGTERM to every process of the unit, the worker too: the
    work is still done here, and the log says stopped, not failed."""
    pid = run_heavy(os.getpid)
    os.kill(pid, signal.SIGTERM)
    with caplog.at_level(logging.INFO, logger="companion.worker"):
        assert run_heavy(os.getpid) == os.getpid()  # computed here instead
    assert "the worker process was stopped (SIGTERM)" in caplog.text
    assert "failed" not in caplog.text
    assert all(r.levelno < logging.WARNING for r in caplog.records)


def test_heavy_work_here_stays_here() -> None:
    with heavy_work_here():
        assert run_heavy(os.getpid) == os.getpid()
    assert not worker.heavy.running  # nothing was started


def test_a_worker_ends_with_its_parent_even_a_killed_one() -> None:
    """A pool's worker holds its own end of the task queue: without watching its parent it
    waited for work forever after a parent killed by SIGKILL (the OOM killer on a Pi)."""
    import time

    code = (
        "import os, time\n"
        "from companion.worker import Worker\n"
        "if __name__ == '__main__':\n"
        "    print(Worker('test').run(os.getpid), flush=True)\n"
        "    time.sleep(120)\n"
    )
    parent, pid = parent_to_kill(code)
    try:
        assert pid != parent.pid
        parent.kill()
        parent.wait(10)
        deadline = time.monotonic() + 20
        while running(pid):
            assert time.monotonic() < deadline, "the worker outlived its killed parent"
            time.sleep(0.05)
    finally:
        parent.kill()
