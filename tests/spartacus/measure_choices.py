"""How long the option lists a person sees are, before and after the kind -> parameter
menus (issue 17): a seeded game of simple bots, measured at every decision of a house.

Run from the repository root::

    .venv/bin/python tests/spartacus/measure_choices.py [--players 3] [--seeds 1 2 3]

Before: the flat list the terminal offered (every legal action of the seat asked that is
not a correction: the same choices, unstructured). After: the longest list on the way
through ``state.menu(seat)``: the kinds, or the values of one parameter (a range of
numbers counts once: it is typed).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.dice import Roller  # noqa: E402
from companion.games.spartacus import SpartacusConfig, new_game  # noqa: E402
from companion.games.spartacus.bot import SimpleBot  # noqa: E402


def measure(players: int, seed: int) -> dict[str, Any]:
    """The longest list before and after over one seeded game, with where it was."""
    state = new_game(SpartacusConfig(players=players, length="standard"))
    roller, bot = Roller.seeded(seed), SimpleBot(random.Random(seed))
    before = after = 0
    before_at = after_at = ""
    while not state.is_terminal:
        if state.is_chance_node:
            state.apply(roller.choose(state.chance_outcomes()))
            continue
        seat = state.current_player
        flat = [a for a in state.legal_actions_for(seat) if not a.is_correction]
        menu = state.menu(seat)
        longest = menu.longest_list()
        if len(flat) > before:
            before, before_at = len(flat), state.phase
        if longest > after:
            after, after_at = longest, state.phase
        state.apply(bot.choose(state))
    return {
        "players": players,
        "seed": seed,
        "before": before,
        "before_phase": before_at,
        "after": after,
        "after_phase": after_at,
        "actions": len(state.history),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    args = parser.parse_args(argv)
    for seed in args.seeds:
        m = measure(args.players, seed)
        print(
            f"{m['players']} houses, seed {m['seed']} ({m['actions']} actions): longest list "
            f"before {m['before']} ({m['before_phase']}), after {m['after']} "
            f"({m['after_phase']})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
