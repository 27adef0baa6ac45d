"""``companion dice`` and ``companion roll``."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.table import Table

from companion.commands.errors import CommandError
from companion.dice import DiceError, Roller, builtin_dice, get_die, plain_die

MAX_COUNT = 10_000


def list_dice(args: argparse.Namespace) -> int:
    dice = [*builtin_dice().values(), plain_die(6)]
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "name": d.name,
                        "title": d.title,
                        "source": d.source,
                        "faces": [
                            {
                                "id": f.id,
                                "label": f.label,
                                "count": f.count,
                                "probability": str(d.distribution()[f.id]),
                            }
                            for f in d.faces
                        ],
                    }
                    for d in dice
                ],
                indent=2,
            )
        )
        return 0
    table = Table(title="Table dice")
    table.add_column("die")
    table.add_column("title")
    table.add_column("faces (sides: probability)")
    for d in dice:
        dist = d.distribution()
        if all(f.id == str(i + 1) and f.count == 1 for i, f in enumerate(d.faces)):
            faces = f"1..{d.sides}, each {dist['1']}"
        else:
            faces = ", ".join(f"{f.label} ({f.count}: {dist[f.id]})" for f in d.faces)
        table.add_row(d.name, d.title, faces)
    table.caption = "any plain die: d2 .. d1000, e.g. 'companion roll d20'"
    Console().print(table)
    return 0


def roll(args: argparse.Namespace) -> int:
    try:
        die = get_die(args.die)
    except DiceError as exc:
        raise CommandError(f"{exc} (see 'companion dice')") from None
    if args.count > MAX_COUNT:
        raise CommandError(f"at most {MAX_COUNT} dice per roll, got {args.count}")
    roller = Roller.seeded(args.seed) if args.seed is not None else Roller()
    faces = roller.roll_many(die, args.count)
    if args.json:
        print(json.dumps({"die": die.name, "seed": args.seed, "faces": [f.id for f in faces]}))
    else:
        print(f"{die.name}: " + ", ".join(f.label for f in faces))
    return 0
