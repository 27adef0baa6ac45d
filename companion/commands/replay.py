"""``companion replay FILE``: the state of a journalled game at its end or at a turn.

``--json`` prints a stable document for tools (``docs/journal.md`` describes it).
"""

from __future__ import annotations

import argparse
import importlib
import json
from typing import Any

from rich.console import Console

from companion.commands.errors import CommandError
from companion.games.battle_royale.layout import CELLS, field_name
from companion.table.journal import JournalError, read_journal
from companion.table.session import GameSession, rebuild

REPLAY_FORMAT = "companion-replay/1"

#: The module with ``replay_document`` and ``print_replay`` of every other game.
GAME_VIEWS = {
    "gladiatoren": "companion.commands.gladiatoren",
    "skirmish": "companion.commands.skirmish",
    "spartacus": "companion.commands.spartacus",
}


def game_document(session: Any, journal: str, records: int, players: int) -> dict[str, Any]:
    """The keys a replay document of every game but Spartacus starts with: the file, the
    game, its ``players`` seats' colours, where the game is and its end."""
    state = session.state
    colours = list(state.colours)
    return {
        "format": REPLAY_FORMAT,
        "journal": journal,
        "game": session.settings.game,
        "mode": session.settings.mode,
        "players": colours[:players],
        "records": records,
        "actions": len(state.history),
        "turn": state.turn,
        "phase": state.phase,
        "active": colours[state.active] if state.turn else None,
        "finished": state.is_terminal,
        "winners": [colours[s] for s in state.winners],
        "end_reason": state.end_reason,
    }


def replay_document(session: GameSession, journal: str, records: int) -> dict[str, Any]:
    """The stable JSON view of a replayed game."""
    state = session.state
    colours = list(state.colours)
    doc: dict[str, Any] = {
        **game_document(session, journal, records, session.config.players),
        "eliminator": field_name(state.eliminator),
        "fields": [field_name(c) for c in range(CELLS) if state.present[c]],
    }
    if hasattr(state, "counts"):
        doc["figures"] = {
            field_name(c): {colours[k]: n for k, n in enumerate(state.counts[c]) if n}
            for c in range(CELLS)
            if state.present[c] and any(state.counts[c])
        }
        doc["in_arena"] = {colours[k]: n for k, n in enumerate(state.arena_total)}
        doc["prisoners"] = {
            colours[s]: {colours[k]: n for k, n in enumerate(row) if n}
            for s, row in enumerate(state.prisoners)
        }
        doc["box"] = {colours[k]: n for k, n in enumerate(state.box)}
    else:
        doc["out"] = [colours[s] for s, out in enumerate(state.out) if out]
    return doc


def run(args: argparse.Namespace) -> int:
    try:
        contents = read_journal(args.journal, until_line=args.until_line)
        session = rebuild(contents, until_turn=args.turn)
    except JournalError as exc:
        raise CommandError(str(exc)) from None
    state = session.state
    if args.turn is not None and (
        args.turn > state.turn or (args.turn == state.turn and not state.is_terminal)
    ):
        ended = "the game ended" if state.is_terminal else "the journal ends"
        raise CommandError(
            f"{ended} during turn {state.turn}: turn {args.turn} is not over "
            "in it; leave out --turn to see the last state"
        )
    console = Console(stderr=True)
    for warning in contents.warnings:
        console.print(f"warning: {warning}", style="yellow", soft_wrap=True)
    game = session.settings.game
    # each game's own view (its module in companion.commands); Battle Royale's is here
    module = None if game == "battle-royale" else importlib.import_module(GAME_VIEWS[game])
    if args.json:
        view = module.replay_document if module is not None else replay_document
        doc = view(session, str(args.journal), len(contents.records))
        print(json.dumps({**doc, "hints": hints_shown(session)}, indent=2, sort_keys=True))
        return 0
    if module is not None:
        module.print_replay(session, str(args.journal))
        print_hints(Console(), session)
        return 0
    out = Console()
    when = (
        f"after turn {args.turn}"
        if args.turn
        else ("final" if state.is_terminal else f"turn {state.turn}, {state.phase}")
    )
    out.print(f"{args.journal}: {session.settings.mode} game, {when}", soft_wrap=True)
    if hasattr(state, "counts"):
        from companion.ui.battle_royale import arena_table, players_table

        out.print(arena_table(state))
        out.print(players_table(state))
    else:
        from companion.ui.dashboard import assist_arena

        out.print(assist_arena(state))
    if state.is_terminal:
        names = " and ".join(state.colours[s] for s in state.winners)
        out.print(f"winner: {names} ({state.end_reason})", soft_wrap=True)
    print_hints(out, session)
    return 0


def hints_shown(session: GameSession) -> list[dict[str, Any]]:
    """The hints the journal holds (``hint`` records, never actions), in order: ``seat``,
    ``actions`` (how many actions were applied when it was shown), ``level``, ``shown``.

    A hint was shown to its seat only, and names what that seat may do (a card of its
    hand, its hidden gold), so ``shown`` is ``None`` until the replayed game is over."""
    keys = ("seat", "actions", "level", "shown")
    over = session.state.is_terminal
    return [{k: h.get(k) if over or k != "shown" else None for k in keys} for h in session.hints]


def print_hints(out: Console, session: GameSession) -> None:
    """One line per hint shown (the journal keeps them; they were never actions); what a
    hint said only once the game is over."""
    from companion.table.hints import hint_text

    over = session.state.is_terminal
    for h in hints_shown(session):
        seat = h["seat"]
        name = session.state.seat_name(seat) if isinstance(seat, int) else str(seat)
        shown = h["shown"]
        if not over:
            text = "a hint (shown to that seat only; listed once the game is over)"
        elif isinstance(shown, dict) and "notation" in shown:
            text = hint_text(shown)
        else:
            text = "hint: (unreadable)"
        out.print(f"after action {h['actions']}, to {name}: {text}", soft_wrap=True)
