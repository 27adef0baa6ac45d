"""``companion demo``: a full, seeded Battle Royale game of bots on simulated hardware."""

from __future__ import annotations

import argparse

from companion.commands.play import PlayOptions, play_game


def run(args: argparse.Namespace) -> int:
    options = PlayOptions(
        players=args.players, mode="tracked", hardware="sim", bots=args.players,
        seed=args.seed, layout=args.layout, data=args.data, start_player=None,
        speed=args.speed, title=f"Battle Royale demo: {args.players} bots, seed {args.seed}",
    )
    return play_game(options)
