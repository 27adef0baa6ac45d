"""Spartacus engine benchmark: exact attack odds, and time per engine step.

Run from the repository root::

    python bench/spartacus.py              # odds + 20 bot games + 50 fights
    python bench/spartacus.py --games 5 --json

Measurements, single process:

- odds: the exact wound distribution of an attack (cold: every cache of the
  odds cleared before each run), for 3 vs 3, 5 vs 5 plain, 5 vs 5 with the
  rulebook's Spartacus and Agron abilities, extra wound and both rerolls,
  and 8 vs 8 with everything; CPU time (``time.process_time``) and wall clock,
  the median of the runs (at least 3 when 3 are asked for) and the first run in the
  process on its own (it also pays for fresh memory), with the 1-minute load average;
- step: ``legal_actions()`` plus ``apply()`` of every action of full games
  (simple bots, seeded chance) and of single fights (the combat assistant).

Targets (issue 18): the 5 vs 5 attack with abilities, extra wound and both rerolls
in at most 10 ms, the 8 vs 8 one in at most 50 ms (CPU; the table shows the odds
before every attack), and a median step of at most 0.5 ms.

The rerolls are chosen as ruling C7b says (issue 17): after seeing the defence, so
every pair of rolls is decided (63,504 pairs at 5 vs 5, 1,656,369 at 8 vs 8). The
odds work on numpy arrays of whole numbers (``companion/games/spartacus/odds_tables.py``);
numpy itself is imported once per process, before the first odds: not in the odds' runs,
but apart, in a fresh process (``odds_import_cpu_ms``: every thread's CPU until 0.3 s after
the import, which counts threads a library starts as it loads).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
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

TARGET_ODDS_5V5_MS = 10.0
TARGET_ODDS_8V8_MS = 50.0
TARGET_STEP_MEDIAN_MS = 0.5
BEFORE_AFTER = (
    "Before/after (issues 17 and 18), CPU ms of a cold 5 vs 5 / 8 vs 8 attack with abilities, "
    "extra wound and both rerolls, median of 15 / 5 runs, the three versions alternated in "
    "one session on the shared 2-core machine (load average about 5): the old odds with a "
    "fixed reroll rule 32 / 268; the exact reroll choices of ruling C7b in packed Python ints "
    "54 / 1231; the same choices on numpy arrays 9.4 / 145. Profiled with py-spy and stage "
    "timers: the pure-Python version spent its time in the per-pair loop that counted "
    "outcomes and in the big-int passes over every pair; on arrays the 8 vs 8 case is "
    "bounded by memory traffic (about 30 passes over 2-4 million pair and state entries: "
    "moving each pair's weight to the states chosen and from them to the final rolls), "
    "so 50 ms is not reached there. "
    "Issue 18 re-check (branch odds; CPU ms; old and new alternated, 6 processes each, "
    "load average 3.4 on the 2 shared cores): the recorded 8 vs 8 figure (411) was one run, "
    "the first in its process; the bench now takes at least 3 (when 3 are asked) and "
    "reports the first apart, with the load. Where the time goes (stage timers, 8 vs 8): "
    "counting the chosen "
    "states' weights 65% (a bincount of 1,656,369 pairs into the 2,080 x 2,080 grid of "
    "state pairs, 631,084 cells of it used, and the two flows to the final rolls, float64 "
    "because the totals reach 6^16 x 36), the choices 22%, the outcome table 8%. Changed: "
    "the dice comparison adds bytes, one die position at a time (table 13.9 -> 11.9 ms); "
    "8 vs 8 median 187 -> 171, first run in a process 220 -> 238 (noise), 5 vs 5 8.9 -> 8.9. "
    "Tried and dropped, no gain beyond the noise: gathering rows of the turned table "
    "instead of columns for the defence flow (first runs 411 -> 312 in one session, steady "
    "221 -> 239), adding the parts where they go instead of gathering them (37 -> 35 ms "
    "for the attack flow alone), looking the outcome up where a defence part goes instead "
    "of moving the weights (42 -> 55 ms), working in column blocks for the cache (slower), "
    "np.add.at and a 0/1 matrix product for the flows (4x slower). 5 vs 5 is within 10 ms, "
    "narrowly (over it at higher load); 8 vs 8 misses 50 ms by about 3.4x: "
    "each pair of rolls needs its own choice (ruling C7b: the same attack roll rerolls "
    "against one defence and keeps against another), the sorted rolls are already the "
    "smallest state that decides it, and counting needs the weight of every pair of chosen "
    "states (looking up the 36 outcomes of each used cell would be 15 million lookups). "
    "Repeated odds for the same dice and modifiers come from the cache in 2-3 us. "
    "Issue 18, third round (branch odds): getrusage showed a quarter of the 8 vs 8 CPU "
    "time in the kernel (46 ms system of 180, 12,000 minor page faults a run: fresh 13-35 MB "
    "tables). Changed: the flows go a block of final attack rolls (half a MiB) at a time "
    "through buffers allocated once and are counted by outcome per block; they gather only "
    "the faces a roll shows (rolls ordered by faces shown: 3.69 of 6 on average at 8 dice); "
    "the choices gather the defender's options as columns instead of transposing twice, and "
    "its answer is built as the attacker's key (64 x value + k, uint16); the defence parts' "
    "values are gathered over the attack rolls only. Values equal main's in 84 cases and the "
    "brute-force and pair-by-pair tests. Measured, main and the branch alternated in one "
    "process (odds_tables.counts, getrusage user+system, median of 14 / 60, load 3.3): "
    "8 vs 8 167 -> 115 ms (minor faults 11,493 -> 7,910), 5 vs 5 6.9 -> 7.4 (noise: "
    "callgrind counts 27.1 -> 34.8 M instructions a run, gathering columns loops per entry). "
    "This script's bench_odds(15), main, branch, main, branch (load 2.7-2.8): 5 vs 5 9.8, "
    "7.1, 7.6, 6.2 ms; 8 vs 8 181.9, 124.4, 134.2, 110.8 ms. The gain is memory, not "
    "instructions: callgrind counts 589 M instructions a cold 8 vs 8 run on main, 719 M on "
    "the branch (gathering columns loops per entry; transposes and fresh pages cost cycles "
    "callgrind does not count). Tried and dropped: counting the pairs where both keep "
    "directly and the rest in two smaller grids (35 -> 21 MB: 719 -> 721 M instructions, "
    "CPU within the noise at load 7.8); the defence parts' values by rows of a transposed "
    "table (CPU 120.7 -> 122.7 ms, noise). 8 vs 8 still misses 50 ms, "
    "by about 2.2-2.5x. Checked and left: splitting the pairs by who rerolls (74% reroll on "
    "both sides, 90% of the weight), sums over the defence rolls for a fixed attacker choice "
    "(the choice itself depends on the defence roll), values per sorted position (a prefix "
    "and a suffix count per pair: more entries than the six gathers). What is left is numpy "
    "passes over 1.66 M pairs (about 14% building each pair's state index, 13% the bincount "
    "into the state grid, 26% flows and count, 24% choices); a compiled kernel would fuse "
    "them (one pass per pair, no 35 MB grid), but it is a build dependency for a Pi Zero "
    "(a C extension or numba/LLVM): not added, the lead's decision. "
    "Issue 18, fourth round (a different, faster host: Intel Xeon instead of AMD EPYC, a "
    "bare interpreter start 7.0 ms CPU instead of 16.1): CPU time above wall clock in the 5 "
    "vs 5 case (9.3 ms CPU, 5.2 wall) was OpenBLAS, which numpy loads: it starts a thread per "
    "further core as it loads, and that thread spun about 0.1 s of CPU waiting for BLAS "
    "work the odds never give (no matrix products; /proc/self/task/*/schedstat: 4-8 ms of "
    "the other thread's CPU in each 5 vs 5 run right after the import, none a second later). "
    "On a Pi Zero 2 W that is three threads at the first odds. odds_tables sets "
    "OPENBLAS_NUM_THREADS and OMP_NUM_THREADS to 1 (unless set) before numpy loads. Before/after, "
    "this script, the two alternated (load 0.1-0.2): 5 vs 5 CPU 9.36, 8.87 -> 3.48, 3.48 ms "
    "(wall 5.35, 5.28 -> 3.49, 3.52), the first run in a process 15.9, 13.1 -> 4.7, 5.0; the "
    "odds' import, every thread's CPU until 0.3 s after, 169, 169 -> 65, 102 ms; 8 vs 8 "
    "86, 71 -> 66, 83 ms (noise). "
    "Fresh pages, measured and left: an 8 vs 8 run maps 6,600-7,100 fresh pages (getrusage "
    "minor faults; 13-28 ms of system time) because the state grid's bincount (35 MB of "
    "float64) is above glibc's 32 MB ceiling for reusing freed memory. With glibc told to "
    "keep freed memory (MALLOC_MMAP_THRESHOLD_=128 MiB, MALLOC_TRIM_THRESHOLD_=256 MiB, an "
    "experiment) a run takes about 56 ms of CPU instead of about 71, with no faults, but the "
    "process then keeps 106 MB resident after three runs instead of 58 (peak 119 MB either "
    "way): on a 512 MB Pi the worker giving its memory back is worth more than 15 ms. "
    "Issue 18, fifth round: the state grid's weights are added a block of attack rolls at a "
    "time with np.add.at (numpy 1.25's fast path for ufunc.at; 15x slower in 1.24, hence "
    "numpy>=1.25) instead of one bincount over all 1,656,369 pairs, which needed four "
    "pair-sized tables (13 MB each: the index, its lookup, the weights, bincount's "
    "input). Main and the change alternated, 6 fresh processes each, 5 runs a process "
    "(load 0.1; CPU ms): this script's median of the first 3 runs 72-92 -> 68-70, the "
    "first run 78-92 -> 71-74, warm runs (3-5) 64-72 -> 68-70 (unchanged); peak resident "
    "(VmHWM) after the first run 101 -> 73 MB, after five 118 -> 93 MB (odds_8v8_memory). "
    "Values equal main's in 656 cases (every pair of abilities, 1-8 dice, each reroll "
    "setting). 8 vs 8 still misses 50 ms: the choices, the counting and the flows are "
    "about 20 ms each. "
    "Sixth round (fewer and reused temporaries: a fresh page costs about 2 us here): the "
    "choices' values are built in the defender's column order and share one scratch table; "
    "each block of the flows is turned between the two flows so both gather whole rows; the "
    "outcome table stays in bytes when its sums fit; the count's look-ups use 32-bit "
    "positions. Main and the change alternated, 6 fresh processes each, 8 runs a process "
    "(load about 1.3; CPU ms): median of the first 3 runs 76.5 (71.9-92.6) -> 63.2 "
    "(62.2-63.8), warm runs 73.4 -> 62.4; this script's 8 vs 8 median 70.0-73.7 -> "
    "60.0-61.7 (4 processes each); VmHWM after one run unchanged (74-75 MB), after 8 runs "
    "96 -> 75 MB. Values equal main's in 16,384 cases (every subset of the abilities on "
    "each side, extra wound 0/1, 1-8 dice a side, every reroll setting). What is left, warm "
    "about 60 ms: the choices about 19 (about 11 passes over 2-3 MB tables), the counting "
    "about 15 (two look-ups a pair and np.add.at into the 35 MB grid), the flows and the "
    "count by outcome about 18 (memory bandwidth: about 100 MB read a run); block sizes "
    "from 128 KiB to 2 MiB, a sorted scatter and a transposed sum over the new die measured "
    "no better. 50 ms would need these passes fused, that is compiled code. "
    "Seventh round (measured, nothing landed): stage timers on a quiet machine (load 0.3), "
    "warm 55.5 ms: the rolls 1.7, abilities 0.5, outcome table 2.1, options 2.4, choices "
    "17.3, counting 14.7 (np.add.at about 7 of it), flows and count by outcome 17.4. The "
    "flows as SciPy sparse products (the flows from states to rolls as CSR matrices: the "
    "attack flow times the grid, the defence flow times its transpose, then bincount by "
    "outcome; values equal): 22-24 ms against the blocked numpy's 16.6-17.2 (warm, 4 runs "
    "each), and SciPy would become a run-time dependency of the table: dropped."
)


def full_modifiers() -> Modifiers:
    """The attacks with everything on: an ability on each side and an extra wound."""
    abilities = builtin_data().abilities
    return Modifiers(
        (abilities["pair-extra-wound"],), (abilities["defence-triple-counter"],), extra_wound=1
    )


def bench_odds(runs: int) -> dict[str, Any]:
    full = full_modifiers()
    cases = {
        "3v3": (3, 3, Modifiers(), False, False),
        "5v5": (5, 5, Modifiers(), False, False),
        "5v5_abilities_rerolls": (5, 5, full, True, True),
        "8v8_abilities_rerolls": (8, 8, full, True, True),
    }
    O.attack_odds(1, 1)  # numpy is imported once per process (odds_import_cpu_ms)
    out = {}
    for name, (a, d, mods, ar, dr) in cases.items():
        cpu, wall = [], []
        load = os.getloadavg()[0]
        # 8 vs 8 takes at least 3 runs when 3 are asked for: the first in a process also
        # pays for fresh memory (about 100 MB, page by page), so one run alone is not the
        # median (--odds-runs 1, bench/run --quick, is a smoke run: one of each)
        for _ in range(max(runs if a < 8 else runs // 5, min(runs, 3))):
            O.clear_caches()
            c0, w0 = time.process_time(), time.perf_counter()
            O.attack_odds(a, d, mods, attack_reroll=ar, defence_reroll=dr)
            cpu.append((time.process_time() - c0) * 1000)
            wall.append((time.perf_counter() - w0) * 1000)
        out[name] = {
            "median_ms": statistics.median(cpu),
            "first_ms": cpu[0],
            "max_ms": max(cpu),
            "wall_median_ms": statistics.median(wall),
            "runs": len(cpu),
            "load_average_1min": round(load, 2),
        }
    return out


#: How long after the import the odds' import is still counted: threads a library starts
#: as it loads may go on using CPU (OpenBLAS's spun about 0.1 s of CPU per further core).
SETTLE_S = 0.3

IMPORT_CODE = f"""
import time
c = time.process_time()
import companion.games.spartacus.odds_tables
time.sleep({SETTLE_S})
print(time.process_time() - c)
"""


def odds_import_cpu_ms() -> float:
    """The first odds' one-off cost: CPU time (every thread of the process) of importing
    the odds' tables (numpy with them) in a fresh interpreter, counted until 0.3 s after."""
    return float(fresh_python(IMPORT_CODE)) * 1000


MEMORY_CODE = f"""
import json, sys
sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
from spartacus import O, full_modifiers


def peak_kb():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))


full = full_modifiers()
O.attack_odds(1, 1)
before = peak_kb()
O.attack_odds(8, 8, full, attack_reroll=True, defence_reroll=True)
print(json.dumps([before, peak_kb()]))
"""


def fresh_python(code: str) -> str:
    """What ``code`` prints, run by a fresh interpreter with the checkout on its path."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    ).stdout


def odds_8v8_memory_mb() -> dict[str, float]:
    """The worker's memory for the largest odds the companion shows: peak resident size
    of a fresh interpreter with the odds' tables (numpy) and this script's modules
    imported, and after one 8 vs 8 attack with abilities, extra wound and both rerolls
    (what a Pi's 512 MB must hold at once). ``VmHWM`` of ``/proc/self/status``:
    ``ru_maxrss`` would start at this process's size, which Linux carries over into the
    child at ``exec``."""
    before, after = json.loads(fresh_python(MEMORY_CODE))
    return {"imported_mb": before / 1024, "peak_mb": after / 1024}


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
        "odds_8v8": odds["8v8_abilities_rerolls"]["median_ms"] <= TARGET_ODDS_8V8_MS,
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
        "odds_import_cpu_ms": odds_import_cpu_ms(),
        "odds_8v8_memory": odds_8v8_memory_mb(),
        "steps": steps,
        "targets": {
            "odds_5v5_ms_max": TARGET_ODDS_5V5_MS,
            "odds_8v8_ms_max": TARGET_ODDS_8V8_MS,
            "step_median_ms_max": TARGET_STEP_MEDIAN_MS,
        },
        "meets_targets": meets,
        "before_after": BEFORE_AFTER,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    m = summary["machine"]
    print(f"python: {m['python']} on {m['machine']} {m['processor']}")
    for name, r in odds.items():
        print(
            f"odds {name:>24}: median {r['median_ms']:7.2f} ms CPU ({r['wall_median_ms']:.2f} "
            f"wall), first {r['first_ms']:7.2f} ms, max {r['max_ms']:7.2f} ms ({r['runs']} cold "
            f"runs, load {r['load_average_1min']})"
        )
    print(
        f"the odds' import (numpy; once per process, before the first odds): "
        f"{summary['odds_import_cpu_ms']:.0f} ms CPU"
    )
    mem = summary["odds_8v8_memory"]
    print(
        f"8v8 odds' memory: peak {mem['peak_mb']:.0f} MB resident (before them, with numpy: "
        f"{mem['imported_mb']:.0f} MB)"
    )
    for name, r in steps.items():
        print(
            f"step {name:>5}: {r['steps']} steps in {r['games']} {name}s, median "
            f"{r['median_ms'] * 1000:.1f} us, p90 {r['p90_ms'] * 1000:.1f} us, p99 "
            f"{r['p99_ms'] * 1000:.1f} us, max {r['max_ms']:.2f} ms"
        )
    print(
        f"target 5v5 odds (abilities, extra wound, rerolls) <= {TARGET_ODDS_5V5_MS:.0f} ms: "
        f"{'met' if meets['odds_5v5'] else 'MISSED'}; 8v8 <= {TARGET_ODDS_8V8_MS:.0f} ms: "
        f"{'met' if meets['odds_8v8'] else 'MISSED'}; median step <= "
        f"{TARGET_STEP_MEDIAN_MS} ms: {'met' if meets['step_median'] else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
