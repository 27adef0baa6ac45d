"""``companion tournament``: seeded games between bots, win rates with Wilson intervals.

    companion tournament --game battle-royale --bots search:normal,random,random,random \\
        --games 100 --seed 1

The ``--bots N[:LEVEL]`` form for commands that seat people and bots is
:func:`companion.commands.arguments.bots_option`.
"""

from __future__ import annotations

import argparse
import sys

from companion.commands.arguments import positive_int
from companion.commands.errors import CommandError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (`--help` stays fast)
if TYPE_CHECKING:
    from typing import Any

GAMES = ("battle-royale", "gladiatoren", "skirmish", "spartacus")


def configure_parser(p: argparse.ArgumentParser) -> None:
    """The arguments of ``companion tournament`` (its help is the CLI's)."""
    p.add_argument("--game", choices=GAMES, default="battle-royale", help="the game")
    p.add_argument(
        "--bots",
        required=True,
        help="one bot per seat, comma-separated: search:normal,random,random,random",
    )
    p.add_argument("--games", type=positive_int, default=20, help="how many games (default 20)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    p.add_argument("--json", action="store_true", help="the result as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress line per game")
    p.set_defaults(handler="companion.commands.tournament:run")


def run(args: argparse.Namespace, out: Any = None) -> int:
    import json  # here, not at the top: `companion --help` builds this parser
    import random
    import time

    from companion.games.search.tournament import (
        LineupError,
        TournamentResult,
        parse_lineup,
        tournament,
    )

    out = out or sys.stdout
    try:
        lineup = parse_lineup(args.bots)
    except LineupError as exc:
        raise CommandError(str(exc)) from None
    try:
        from companion.games.registry import get_game

        config = get_game(args.game).config(players=len(lineup))
    except ValueError as exc:  # the game's own check of the player count
        raise CommandError(f"--bots: {exc}") from None

    def progress(done: int, result: TournamentResult) -> None:
        if not args.quiet and not args.json:
            wins = ", ".join(f"{s.entry.label} {s.wins:g}" for s in result.standings)
            print(f"game {done}/{args.games}: wins {wins}", file=sys.stderr)

    result = tournament(
        args.game,
        lineup,
        args.games,
        args.seed,
        random.Random,
        config,
        clock=time.perf_counter,
        progress=progress,
    )
    data = result.to_dict()
    if args.json:
        print(json.dumps(data, indent=2), file=out)
        return 0
    print(
        f"{args.game}, {result.players} players, {args.games} games from seed {args.seed} "
        "(seats rotated every game)",
        file=out,
    )
    for i, s in enumerate(data["standings"]):
        low, high = s["wilson95"]
        print(
            f"  {i + 1}. {s['bot']:<16} {s['wins']:>6g} wins  {s['rate']:6.1%}  "
            f"95% interval {low:.1%}-{high:.1%}",
            file=out,
        )
    if data["search_moves"]:
        print(
            f"search moves: {data['search_moves']}, median {data['search_move_median_ms']:.1f} ms, "
            f"p90 {data['search_move_p90_ms']:.1f} ms",
            file=out,
        )
    return 0
