"""Arena skirmish engine benchmark: time per step, full games per second, bot move time.

Run from the repository root::

    python bench/skirmish.py               # 50 games per player count
    python bench/skirmish.py --games 10 --json
    python bench/skirmish.py --quick --json  # 1 game per player count (bench/run --quick)

Three measurements, single process, for 2, 4 and 10 players (10 on the colosseum map):

- step: random play (uniform random bot, seeded chance, 40-round limit) timing only
  ``legal_actions()`` plus ``apply()`` of every action, the work a table device does
  per action;
- games: whole games, wall time: random-bot games to the 40-round limit, and games of
  the table's bot (``SkirmishBot``) played to their end (a 300-round safety limit);
- bot: the time of each ``SkirmishBot.choose`` in those games.

Targets (a Raspberry Pi is roughly 10x slower than a laptop and must keep up with the
table): a median step of at most 0.5 ms, at least 10 full 2-player bot games per second,
and a bot move (p99) of at most 20 ms.
"""

from __future__ import annotations

import argparse
import json
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

from companion.dice import Roller  # noqa: E402
from companion.games.arena_skirmish import SkirmishConfig, new_game  # noqa: E402
from companion.games.arena_skirmish.bot import SkirmishBot  # noqa: E402
from companion.games.core import RandomBot, play_out  # noqa: E402

TARGET_STEP_MEDIAN_MS = 0.5
TARGET_BOT_GAMES_PER_S_2P = 10.0
TARGET_BOT_MOVE_P99_MS = 20.0
PLAYER_COUNTS = (2, 4, 10)
RANDOM_ROUNDS = 40
SAFETY_ROUNDS = 300


def config_for(players: int, rounds: int) -> SkirmishConfig:
    return SkirmishConfig(
        players=players, map="colosseum" if players > 8 else "default", round_limit=rounds
    )


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[int(q * (len(values) - 1))]


def step_times_ns(config: SkirmishConfig, seed: int) -> list[int]:
    """One random game; the time of ``legal_actions()`` + ``apply()`` of each action."""
    state = new_game(config)
    roller = Roller.seeded(seed)
    bot = RandomBot(random.Random(seed))
    times: list[int] = []
    clock = time.perf_counter_ns
    while not state.is_terminal:
        t0 = clock()
        state.legal_actions()
        t1 = clock()
        if state.is_chance_node:
            action = roller.choose(state.chance_outcomes())
        else:
            action = bot.choose(state)
        t2 = clock()
        state.apply(action)
        t3 = clock()
        times.append((t1 - t0) + (t3 - t2))
    return times


def bench_steps(players: int, games: int, seed: int) -> dict[str, Any]:
    times: list[int] = []
    for i in range(games):
        times.extend(step_times_ns(config_for(players, RANDOM_ROUNDS), seed + i))
    return {
        "steps": len(times),
        "median_ms": statistics.median(times) / 1e6,
        "p90_ms": _pct(times, 0.9) / 1e6,
        "p99_ms": _pct(times, 0.99) / 1e6,
        "max_ms": max(times) / 1e6,
        "mean_steps_per_game": len(times) / games,
    }


def bench_random_games(players: int, games: int, seed: int) -> dict[str, Any]:
    start = time.perf_counter()
    for i in range(games):
        rng, roller = random.Random(seed + i), Roller.seeded(seed + i)
        play_out(
            new_game(config_for(players, RANDOM_ROUNDS)), RandomBot(rng), roller.choose, 200_000
        )
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "round_limit": RANDOM_ROUNDS,
    }


def bench_bot_games(players: int, games: int, seed: int) -> dict[str, Any]:
    """Games of SkirmishBot to their end, timing every bot move too."""
    moves: list[float] = []
    rounds = 0
    limited = 0
    start = time.perf_counter()
    for i in range(games):
        state = new_game(config_for(players, SAFETY_ROUNDS))
        roller = Roller.seeded(seed + i)
        bot = SkirmishBot(random.Random(seed + i))
        while not state.is_terminal:
            if state.is_chance_node:
                state.apply(roller.choose(state.chance_outcomes()))
                continue
            t0 = time.perf_counter()
            action = bot.choose(state)
            moves.append(time.perf_counter() - t0)
            state.apply(action)
        rounds += state.round
        limited += state.round >= SAFETY_ROUNDS
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "mean_rounds": rounds / games,
        "hit_safety_limit": limited,
        "bot_move": {
            "moves": len(moves),
            "median_ms": statistics.median(moves) * 1e3,
            "p99_ms": _pct(moves, 0.99) * 1e3,
            "max_ms": max(moves) * 1e3,
        },
    }


def machine() -> dict[str, str]:
    return {
        "machine": platform.machine(),
        "processor": platform.processor() or "unknown",
        "platform": platform.platform(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
    }


def run(games: int, seed: int) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for players in PLAYER_COUNTS:
        results[str(players)] = {
            "step": bench_steps(players, games, seed),
            "random_games": bench_random_games(players, games, seed),
            "bot_games": bench_bot_games(players, games, seed),
        }
    worst_median = max(r["step"]["median_ms"] for r in results.values())
    two = results["2"]["bot_games"]["games_per_s"]
    worst_move = max(r["bot_games"]["bot_move"]["p99_ms"] for r in results.values())
    return {
        "benchmark": "skirmish",
        "machine": machine(),
        "games_per_player_count": games,
        "seed": seed,
        "results": results,
        "targets": {
            "step_median_ms_max": TARGET_STEP_MEDIAN_MS,
            "bot_games_per_s_2_players_min": TARGET_BOT_GAMES_PER_S_2P,
            "bot_move_p99_ms_max": TARGET_BOT_MOVE_P99_MS,
        },
        "meets_targets": {
            "step_median": worst_median <= TARGET_STEP_MEDIAN_MS,
            "bot_games_per_s_2_players": two >= TARGET_BOT_GAMES_PER_S_2P,
            "bot_move_p99": worst_move <= TARGET_BOT_MOVE_P99_MS,
        },
    }


def report(summary: dict[str, Any]) -> str:
    m = summary["machine"]
    ok = {True: "ok", False: "MISSED"}
    lines = [
        f"Arena skirmish benchmark: {summary['games_per_player_count']} games per player "
        f"count, seed {summary['seed']}, single process",
        f"machine: {m['machine']} ({m['processor']}), {m['platform']}",
        f"python:  {m['implementation']} {m['python']}",
        "",
        f"{'players':>7}  {'steps':>7}  {'median ms':>9}  {'p99 ms':>7}  {'random g/s':>10}  "
        f"{'bot g/s':>8}  {'rounds':>6}  {'move med ms':>11}  {'move p99 ms':>11}",
    ]
    for players, r in summary["results"].items():
        s, rg, bg = r["step"], r["random_games"], r["bot_games"]
        lines.append(
            f"{players:>7}  {s['steps']:>7}  {s['median_ms']:>9.4f}  {s['p99_ms']:>7.4f}  "
            f"{rg['games_per_s']:>10.1f}  {bg['games_per_s']:>8.1f}  {bg['mean_rounds']:>6.1f}  "
            f"{bg['bot_move']['median_ms']:>11.3f}  {bg['bot_move']['p99_ms']:>11.3f}"
        )
    results = summary["results"]
    worst = max(r["step"]["median_ms"] for r in results.values())
    two = results["2"]["bot_games"]["games_per_s"]
    move = max(r["bot_games"]["bot_move"]["p99_ms"] for r in results.values())
    met = summary["meets_targets"]
    lines += [
        "",
        f"target: median step <= {TARGET_STEP_MEDIAN_MS} ms           measured (worst) "
        f"{worst:.4f} ms   {ok[met['step_median']]}",
        f"target: >= {TARGET_BOT_GAMES_PER_S_2P:.0f} full 2-player bot games/s   measured "
        f"{two:.1f} games/s   {ok[met['bot_games_per_s_2_players']]}",
        f"target: bot move p99 <= {TARGET_BOT_MOVE_P99_MS:.0f} ms          measured (worst) "
        f"{move:.3f} ms   {ok[met['bot_move_p99']]}",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games per player count (default 50)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a tiny size (1 game per player count), for a smoke test",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON summary")
    args = parser.parse_args(argv)
    if args.quick:
        args.games = 1
    if args.games < 1:
        parser.error("--games must be 1 or more")
    summary = run(args.games, args.seed)
    print(json.dumps(summary, indent=2) if args.json else report(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
