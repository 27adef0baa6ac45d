"""Spartacus engine benchmark: exact attack odds, and time per engine step.

Run from the repository root::

    python bench/spartacus.py              # odds + 20 bot games + 50 fights
    python bench/spartacus.py --games 5 --json

Measurements, single process:

- odds: the exact wound distribution of an attack (cold: the caches are
  cleared before each run), for 3 vs 3, 5 vs 5 plain, 5 vs 5 with the
  rulebook's Spartacus and Agron abilities, extra wound and both rerolls,
  and 8 vs 8 with everything;
- step: ``legal_actions()`` plus ``apply()`` of every action of full games
  (simple bots, seeded chance) and of single fights (the combat assistant).

Targets: a 5 vs 5 attack distribution in at most 50 ms (the table shows the
odds before every attack), and a median step of at most 0.5 ms.
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
from companion.games.spartacus import FighterSpec, SpartacusConfig, new_game  # noqa: E402
from companion.games.spartacus import odds as O  # noqa: E402
from companion.games.spartacus.bot import SimpleBot  # noqa: E402
from companion.games.spartacus.combat import Modifiers  # noqa: E402
from companion.games.spartacus.data import builtin_data  # noqa: E402

TARGET_ODDS_5V5_MS = 50.0
TARGET_STEP_MEDIAN_MS = 0.5


def _clear() -> None:
    O._joint.cache_clear()
    O.multisets.cache_clear()


def bench_odds(runs: int) -> dict[str, Any]:
    data = builtin_data()
    full = Modifiers(
        (data.abilities["pair-extra-wound"],),
        (data.abilities["defence-triple-counter"],),
        extra_wound=1,
    )
    cases = {
        "3v3": (3, 3, Modifiers(), False, False),
        "5v5": (5, 5, Modifiers(), False, False),
        "5v5_abilities_rerolls": (5, 5, full, True, True),
        "8v8_abilities_rerolls": (8, 8, full, True, True),
    }
    out = {}
    for name, (a, d, mods, ar, dr) in cases.items():
        times = []
        for _ in range(runs if a < 8 else max(1, runs // 5)):
            _clear()
            t0 = time.perf_counter()
            O.attack_odds(a, d, mods, attack_reroll=ar, defence_reroll=dr)
            times.append((time.perf_counter() - t0) * 1000)
        out[name] = {
            "median_ms": statistics.median(times),
            "max_ms": max(times),
            "runs": len(times),
        }
    return out


def step_times_ns(config: SpartacusConfig, seed: int) -> list[int]:
    state = new_game(config)
    roller = Roller.seeded(seed)
    bot = SimpleBot(random.Random(seed))
    clock = time.perf_counter_ns
    times = []
    for _ in range(100_000):
        if state.is_terminal:
            break
        t0 = clock()
        state.legal_actions()
        t1 = clock()
        action = (
            roller.choose(state.chance_outcomes()) if state.is_chance_node else bot.choose(state)
        )
        t2 = clock()
        state.apply(action)
        t3 = clock()
        times.append((t1 - t0) + (t3 - t2))
    return times


def summarise(times: list[int], games: int) -> dict[str, Any]:
    times = sorted(times)
    return {
        "games": games,
        "steps": len(times),
        "median_ms": statistics.median(times) / 1e6,
        "p90_ms": times[int(0.9 * (len(times) - 1))] / 1e6,
        "p99_ms": times[int(0.99 * (len(times) - 1))] / 1e6,
        "max_ms": times[-1] / 1e6,
    }


def bench_steps(games: int, fights: int, seed: int) -> dict[str, Any]:
    data = builtin_data()
    game_times: list[int] = []
    for i in range(games):
        config = SpartacusConfig(players=2 + i % 3, length="standard")
        game_times += step_times_ns(config, seed + i)
    fight_times: list[int] = []
    for i in range(fights):
        config = SpartacusConfig(
            fight=(
                FighterSpec.from_card(data, "spartacus", ("gladius", "helm", "netz")),
                FighterSpec.from_card(data, "agron", ("dreizack", "schild")),
            )
        )
        fight_times += step_times_ns(config, seed + i)
    return {"game": summarise(game_times, games), "fight": summarise(fight_times, fights)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="full bot games (default 20)")
    parser.add_argument("--fights", type=int, default=50, help="single fights (default 50)")
    parser.add_argument("--odds-runs", type=int, default=10, help="cold odds runs per case")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    args = parser.parse_args(argv)
    odds = bench_odds(args.odds_runs)
    steps = bench_steps(args.games, args.fights, args.seed)
    meets = {
        "odds_5v5": odds["5v5_abilities_rerolls"]["median_ms"] <= TARGET_ODDS_5V5_MS,
        "step_median": max(steps["game"]["median_ms"], steps["fight"]["median_ms"])
        <= TARGET_STEP_MEDIAN_MS,
    }
    summary = {
        "machine": {
            "machine": platform.machine(),
            "processor": platform.processor(),
            "python": platform.python_version(),
        },
        "odds": odds,
        "steps": steps,
        "targets": {
            "odds_5v5_ms_max": TARGET_ODDS_5V5_MS,
            "step_median_ms_max": TARGET_STEP_MEDIAN_MS,
        },
        "meets_targets": meets,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    m = summary["machine"]
    print(f"python: {m['python']} on {m['machine']} {m['processor']}")
    for name, r in odds.items():
        print(
            f"odds {name:>24}: median {r['median_ms']:7.2f} ms, max {r['max_ms']:7.2f} ms "
            f"({r['runs']} cold runs)"
        )
    for name, r in steps.items():
        print(
            f"step {name:>5}: {r['steps']} steps in {r['games']} {name}s, median "
            f"{r['median_ms'] * 1000:.1f} us, p90 {r['p90_ms'] * 1000:.1f} us, p99 "
            f"{r['p99_ms'] * 1000:.1f} us, max {r['max_ms']:.2f} ms"
        )
    print(
        f"target 5v5 odds (abilities, rerolls) <= {TARGET_ODDS_5V5_MS:.0f} ms: "
        f"{'met' if meets['odds_5v5'] else 'MISSED'}; median step <= "
        f"{TARGET_STEP_MEDIAN_MS} ms: {'met' if meets['step_median'] else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
