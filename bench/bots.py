"""Bots benchmark: how long the search bot thinks, and how strong it is.

Run from the repository root::

    python bench/bots.py                 # the real sizes (about an hour on two shared cores)
    python bench/bots.py --quick --json  # tiny sizes, a smoke test

1. *Move time*: the search bot's ``choose`` exactly as a table calls it (``SearchBot`` with
   the level's budget and ``time.perf_counter`` as its clock, so the time cap is on), at
   decisions of seeded games played by the games' table bots, per game and level. Target:
   median move at ``normal`` <= 100 ms here (about 1 s on a Pi Zero 2 W).
2. *Strength*: seeded tournaments (``companion tournament``'s code, seats rotated every
   game, the time cap off so the games are repeatable), wins with 95 % Wilson intervals.
   Targets: Battle Royale, four players, one search bot against three random bots wins
   >= 70 % (Battle Royale's current table bot *is* the random bot: ``BotAgent`` without a
   game bot, a uniform choice among the legal actions less corrections, the same choice as
   ``RandomBot``); Kampf der Gladiatoren, three players, >= 60 % against two of the
   current bots: the odds-policy bot (``heuristic``, the combat assistant's ``--auto``) and,
   what ``gladiatoren play`` seats without a level, the random bot.

The machine's load average is recorded before and after: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.games.registry import get_game  # noqa: E402
from companion.games.search import SearchBot  # noqa: E402
from companion.games.search.bot import LEVELS, budget_of  # noqa: E402
from companion.games.search.mcts import sample_outcome  # noqa: E402
from companion.games.search.profile import profile_for  # noqa: E402
from companion.games.search.tournament import parse_lineup, tournament  # noqa: E402

GAMES = ("battle-royale", "gladiatoren", "skirmish", "spartacus")
TARGET_NORMAL_MEDIAN_MS = 100.0
TOURNAMENTS = (
    # key, game, lineup, target win rate of the first entry, games (the --*-games option)
    ("br_vs_random", "battle-royale", "search:normal,random,random,random", 0.70, "br"),
    ("gladiatoren_vs_current", "gladiatoren", "search:normal,heuristic,heuristic", 0.60, "glad"),
    ("gladiatoren_vs_table", "gladiatoren", "search:normal,random,random", 0.60, "glad_table"),
)


def load() -> float:
    return os.getloadavg()[0]


def move_times(game: str, level: str, moves: int, seed: int) -> dict[str, Any]:
    """``moves`` timed searches at decisions of seeded games of the game's table bots."""
    times: list[float] = []
    cpu = 0.0  # CPU seconds of this process in the searches, and their iterations
    iterations = 0
    capped = 0
    budget = budget_of(game, level)
    profile = profile_for(game)
    g = get_game(game)
    n = 0
    while len(times) < moves:
        rng = random.Random(f"{seed}:{game}:{n}")
        n += 1
        state = g.new_game()
        table_bot = profile.heuristic(rng)
        bot = SearchBot(game, random.Random(n), level, clock=time.perf_counter)
        decisions = 0
        while not state.is_terminal and len(times) < moves:
            if state.is_chance_node:
                state.apply(sample_outcome(state.chance_outcomes(), rng))
                continue
            decisions += 1
            if len(profile.options(state)) > 1 and decisions % 3 == 0:
                started, cpu_started = time.perf_counter(), time.process_time()
                bot.choose(state)
                times.append(time.perf_counter() - started)
                cpu += time.process_time() - cpu_started
                assert bot.last is not None
                iterations += bot.last.iterations
                if not bot.last.exact and bot.last.iterations < budget.iterations:
                    capped += 1
            state.apply(table_bot.choose(state))
    times.sort()
    return {
        "moves": len(times),
        "iterations": budget.iterations,
        "cap_s": budget.seconds,
        "median_ms": statistics.median(times) * 1000,
        "p90_ms": times[int(0.9 * (len(times) - 1))] * 1000,
        "max_ms": times[-1] * 1000,
        "capped": capped,
        # what a move of the full budget costs on a core of its own: the CPU time per
        # iteration (this process's, so other work on the machine does not count)
        "cpu_ms_per_iteration": cpu * 1000 / iterations if iterations else None,
        "full_budget_cpu_ms": cpu * 1000 / iterations * budget.iterations if iterations else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes (a smoke test)")
    parser.add_argument("--moves", type=int, default=60, help="timed moves per game and level")
    parser.add_argument("--br-games", type=int, default=200, help="Battle Royale games")
    parser.add_argument(
        "--gladiatoren-games", type=int, default=150, help="Gladiatoren games (odds-policy bots)"
    )
    parser.add_argument(
        "--gladiatoren-table-games", type=int, default=90, help="Gladiatoren games (table bots)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the JSON summary only")
    args = parser.parse_args()
    if args.quick:
        args.moves, args.br_games, args.gladiatoren_games = 3, 1, 1
        args.gladiatoren_table_games = 1
    games = {
        "br": args.br_games,
        "glad": args.gladiatoren_games,
        "glad_table": args.gladiatoren_table_games,
    }

    load_before = load()
    started = time.perf_counter()
    timing: dict[str, dict[str, Any]] = {}
    for game in GAMES:
        timing[game] = {}
        for level in LEVELS:
            moves = args.moves if level != "strong" else max(1, args.moves // 10)
            timing[game][level] = move_times(game, level, moves, args.seed)
            print(f"  {game} {level}: {timing[game][level]}", file=sys.stderr)
    strength = {}
    for key, game, lineup, target, size in TOURNAMENTS:
        lineup_entries = parse_lineup(lineup)
        load_at_start = load()
        result = tournament(
            game, lineup_entries, games[size], args.seed, random.Random, clock=time.perf_counter
        ).to_dict()
        result["load_average_1min"] = [load_at_start, load()]
        first = result["standings"][0]
        result.update(lineup=lineup, target=target, met=first["rate"] >= target)
        result["interval_above_target"] = first["wilson95"][0] >= target
        strength[key] = result
        print(f"  {key}: {first['wins']:g}/{first['games']} {first['wilson95']}", file=sys.stderr)
    normal = {g: timing[g]["normal"]["median_ms"] for g in GAMES}
    summary = {
        "benchmark": "bots",
        "machine": {
            "machine": platform.machine(),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
        },
        "seed": args.seed,
        "timing": timing,
        "strength": strength,
        "targets": {
            "normal_median_ms_max": TARGET_NORMAL_MEDIAN_MS,
            **{k: t for k, _, _, t, _ in TOURNAMENTS},
        },
        "meets_targets": {
            "normal_median": {g: ms <= TARGET_NORMAL_MEDIAN_MS for g, ms in normal.items()},
            **{k: strength[k]["met"] for k in strength},
        },
        "load_average_1min": [load_before, load()],
        "seconds": time.perf_counter() - started,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    for game in GAMES:
        for level, t in timing[game].items():
            print(
                f"{game:<14} {level:<7} {t['moves']:>4} moves  median {t['median_ms']:7.1f} ms"
                f"  p90 {t['p90_ms']:7.1f} ms  ({t['iterations']} iterations, "
                f"{t['capped']} stopped by the {t['cap_s']} s cap; full budget "
                f"{t['full_budget_cpu_ms'] or 0:.0f} ms of CPU)"
            )
    for key, r in strength.items():
        s = r["standings"][0]
        low, high = s["wilson95"]
        print(
            f"{key}: {r['lineup']}: {s['wins']:g}/{s['games']} = {s['rate']:.1%} "
            f"(95% {low:.1%}-{high:.1%}), target >= {r['target']:.0%}"
        )
    print(f"load average (1 min) before/after: {load_before:.2f} / {load():.2f}")
    print(json.dumps({"benchmark": "bots", "meets_targets": summary["meets_targets"]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
