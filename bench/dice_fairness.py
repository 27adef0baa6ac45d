"""Dice fairness: chi-square goodness of fit of many rolls of each die from the default generator.

Run from the repository root (needs SciPy for the p-value: ``pip install -e '.[bench]'``)::

    python bench/dice_fairness.py                 # 1,000,000 rolls of each die
    python bench/dice_fairness.py --rolls 10000 --json

The default generator is the operating system's (``random.SystemRandom``), so
this measures the real thing a table uses, not a seeded stand-in. A p-value is
the chance of a fit at least this bad from a fair die: tiny values (< 0.001)
would mean a bias.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scipy.stats import chisquare  # noqa: E402

from companion.dice import Roller, builtin_dice, get_die  # noqa: E402

DICE = (*builtin_dice(), "d6", "d20")


def fit(name: str, rolls: int) -> dict[str, object]:
    die = get_die(name)
    roller = Roller()
    assert roller.is_system
    start = time.perf_counter()
    counts = Counter(face.id for face in roller.roll_many(die, rolls))
    seconds = time.perf_counter() - start
    dist = die.distribution()
    observed = [counts[f.id] for f in die.faces]
    expected = [float(dist[f.id]) * rolls for f in die.faces]
    result = chisquare(observed, expected)
    return {
        "die": name,
        "rolls": rolls,
        "faces": len(die.faces),
        "chi2": float(result.statistic),
        "p_value": float(result.pvalue),
        "rolls_per_s": rolls / seconds,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=1_000_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = [fit(name, args.rolls) for name in DICE]
    if args.json:
        print(
            json.dumps(
                {
                    "benchmark": "dice_fairness",
                    "python": platform.python_version(),
                    "machine": platform.machine(),
                    "results": results,
                }
            )
        )
        return 0
    print(f"{args.rolls:,} rolls of each die from the system generator")
    for r in results:
        print(
            f"{r['die']:>6}: chi2 {r['chi2']:8.2f} over {r['faces'] - 1} df, "
            f"p = {r['p_value']:.3f}, {r['rolls_per_s']:,.0f} rolls/s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
