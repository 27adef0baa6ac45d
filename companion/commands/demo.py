"""``companion demo``: a full, seeded Battle Royale game of bots on simulated hardware."""

from __future__ import annotations

import argparse

from companion.commands.errors import CommandError
from companion.commands.play import PlayOptions, in_flag_terms, play_game
from companion.commands.web_option import web_request
from companion.hal import HardwareConfig
from companion.table.config import GameSettings, TableConfig, TableConfigError


def run(args: argparse.Namespace) -> int:
    if args.game == "spartacus":
        from companion.commands.spartacus import run_demo as spartacus_run_demo

        return spartacus_run_demo(args)
    if args.game == "skirmish":
        from companion.commands.skirmish import run_demo

        return run_demo(args)
    if args.game == "gladiatoren":
        from companion.commands.gladiatoren import run_demo as gladiatoren_demo

        args.players = args.players or 4
        if args.players > 5:
            raise CommandError("Kampf der Gladiatoren is for 2 to 5 players")
        return gladiatoren_demo(args)
    args.players = args.players or 4
    if args.players > 4:
        raise CommandError("Battle Royale is for 2 to 4 players")
    try:
        game = GameSettings(
            mode="tracked",
            players=args.players,
            bots=args.players,
            layout=args.layout,
            data_file=args.data,
        )
        hardware = HardwareConfig(profile=getattr(args, "hardware", None) or "sim")
        table = TableConfig(game, hardware, "companion demo")
    except TableConfigError as exc:
        given = {"layout": args.layout, "data_file": args.data}
        flags = {key: value for key, value in given.items() if value is not None}
        raise CommandError(in_flag_terms(exc, flags)) from None
    title = f"Battle Royale demo: {args.players} bots, seed {args.seed}"
    web = web_request(args, game.players, game.bot_seats)
    return play_game(
        PlayOptions(
            table,
            seed=args.seed,
            speed=args.speed,
            title=title,
            journal=args.journal,
            demo=True,
            web=web,
            bot_level=getattr(args, "bots_level", None),
        )
    )
