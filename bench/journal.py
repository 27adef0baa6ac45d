"""Journal benchmark: append + fsync per record, and resume of a 2,000-record journal.

Run from the repository root::

    python bench/journal.py                  # 500 appends, a 2,000-record resume, 5 times
    python bench/journal.py --appends 50 --records 200 --json

Targets (here): resume of 2,000 records <= 0.5 s. The append figure is the disk's fsync
time plus a little JSON; it is what every action costs at the table.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.dice import Roller  # noqa: E402
from companion.games.battle_royale import BattleRoyaleConfig  # noqa: E402
from companion.games.core import RandomBot  # noqa: E402
from companion.table.journal import JournalWriter  # noqa: E402
from companion.table.session import GameSession, SessionSettings, resume_session  # noqa: E402

TARGET_RESUME_S = 0.5


def append_times(directory: Path, count: int) -> list[float]:
    times = []
    with JournalWriter.create(directory / "append.jsonl", {"format": "bench"}) as writer:
        for i in range(count):
            start = time.perf_counter()
            writer.append("action", action={"kind": "step", "direction": "N", "i": i})
            times.append(time.perf_counter() - start)
    return times


def journal_of(directory: Path, records: int, seed: int = 1) -> Path:
    """A real, unfinished 4-player journal of ``records`` records.

    A single game is about 600 records, so this one is played by bots that behave
    like people fixing their entries: now and then they undo their last data-entry
    action and choose again. Undo records make resume replay the game again, so
    this is a harder journal to resume than a plain one of the same length.
    """
    import random

    path = directory / "resume.jsonl"
    config = BattleRoyaleConfig(players=4)
    session = GameSession.start(config, SessionSettings(bots=4, seed=seed), path)
    roller, bot, rng = Roller.seeded(seed), RandomBot(random.Random(seed)), random.Random(seed)
    session.journal._fsync = False  # building the file is not what is measured
    while session.journal._next <= records:
        state = session.state
        if state.is_terminal:
            raise RuntimeError(
                "the game ended before the journal was long enough; use a "
                "smaller --records or another seed"
            )
        if not state.is_chance_node and session.undoable() and rng.random() < 0.6:
            session.undo(1)
            continue
        action = (
            roller.choose(state.chance_outcomes()) if state.is_chance_node else bot.choose(state)
        )
        session.commit(action)
        session.apply(action)
    session.journal.close()
    return path


def long_journal(directory: Path, records: int) -> Path:
    """The first seed (from 1) whose game is long enough; the same file on every run."""
    for seed in range(1, 500):
        try:
            return journal_of(directory, records, seed)
        except RuntimeError:
            (directory / "resume.jsonl").unlink()
    raise RuntimeError(f"no game of {records} records found; use a smaller --records")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=500)
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        appends = sorted(append_times(directory, args.appends))
        path = long_journal(directory, args.records)
        lines = len(path.read_text().splitlines())
        resumes = []
        for _ in range(args.runs):
            copy = directory / "copy.jsonl"
            copy.write_bytes(path.read_bytes())
            start = time.perf_counter()
            session, _ = resume_session(copy)
            resumes.append(time.perf_counter() - start)
            session.journal.close()
            copy.unlink()
    result = {
        "machine": f"{platform.machine()} {platform.platform()}",
        "python": platform.python_version(),
        "append_fsync_ms": {
            "median": statistics.median(appends) * 1000,
            "p99": appends[int(len(appends) * 0.99) - 1] * 1000,
            "count": len(appends),
        },
        "resume_s": {
            "median": statistics.median(resumes),
            "max": max(resumes),
            "records": lines - 1,
        },
        "target_resume_s": TARGET_RESUME_S,
    }
    result["ok"] = result["resume_s"]["median"] <= TARGET_RESUME_S
    if args.json:
        print(json.dumps(result))
    else:
        print(f"machine: {result['machine']}; python {result['python']}")
        a = result["append_fsync_ms"]
        print(
            f"append + fsync: median {a['median']:.3f} ms, p99 {a['p99']:.3f} ms "
            f"({a['count']} records)"
        )
        r = result["resume_s"]
        print(
            f"resume of {r['records']} records: median {r['median']:.3f} s, max "
            f"{r['max']:.3f} s (target <= {TARGET_RESUME_S} s)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
