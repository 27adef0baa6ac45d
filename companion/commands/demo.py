"""``companion demo``: a full, seeded Battle Royale game of bots, shown turn by turn."""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.rule import Rule

from companion.cli import CommandError
from companion.dice import Roller
from companion.games.battle_royale import BattleRoyaleConfig, ConfigError, new_game
from companion.games.battle_royale.bot import RandomBot
from companion.games.battle_royale.events import Event
from companion.ui.battle_royale import colour_text, turn_view

TURN_DELAY_S = 0.4  # on a terminal, at --speed 1


def run(args: argparse.Namespace) -> int:
    try:
        config = BattleRoyaleConfig(players=args.players, layout=args.layout,
                                    data_file=args.data)
    except (ConfigError, ValueError) as exc:
        raise CommandError(str(exc)) from None
    console = Console()
    delay = TURN_DELAY_S / args.speed if console.is_terminal else 0.0
    state = new_game(config)
    roller = Roller.seeded(args.seed)
    bot = RandomBot(random.Random(args.seed))
    console.print(Rule(f"Battle Royale demo: {args.players} bots, seed {args.seed}"))
    console.print(f"Layout {config.layout}:\n{config.arena_layout.draw()}\n")
    events: list[Event] = []
    last_face: str | None = None
    shown_turn = 0
    while not state.is_terminal:
        action = (roller.choose(state.chance_outcomes()) if state.is_chance_node
                  else bot.choose(state))
        new = state.apply(action)
        for event in new:
            if event.kind == "turn_started" and shown_turn:
                _show_turn(console, state, shown_turn, events, last_face)
                events = []
                time.sleep(delay)
            if event.kind == "turn_started":
                shown_turn = event.data["turn"]
            if event.kind == "doom_rolled" and not event.data.get("extra"):
                last_face = event.data["face"]
            events.append(event)
    _show_turn(console, state, shown_turn, events, last_face)
    winners = [state.colours[s] for s in state.winners]
    line = colour_text(winners[0], f"{' and '.join(winners)}")
    line.append(f" win{'s' if len(winners) == 1 else ''} after {state.turn} turns: "
                f"{state.end_reason}", style="bold green")
    console.print(Rule("Game over"))
    console.print(line, soft_wrap=True)
    return 0


def _show_turn(console: Console, state, turn: int, events: list[Event],
               last_face: str | None) -> None:
    seat = next((e.data["seat"] for e in events if e.kind == "turn_started"), state.active)
    title = colour_text(state.colours[seat], f"Turn {turn}: {state.colours[seat]}")
    console.print(Rule(title))
    console.print(turn_view(state, events, last_face))
