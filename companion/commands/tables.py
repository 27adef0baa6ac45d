"""What every command that plays a game at the table does around the table loop."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.table.people import TableStopped, TerminalInput


def who_plays(people: int, bots: int) -> str:
    """``1 at the terminal, 2 bots``, in words people read (``1 bot``, ``no bots``)."""
    named = "no bots" if bots == 0 else f"{bots} bot{'s' if bots != 1 else ''}"
    return f"{people} at the terminal, {named}"


def run_table(
    console: Any,
    session: Any,
    terminal: TerminalInput | None,
    play: Callable[[], Any],
    *,
    resume: str = "companion resume",
) -> Any | None:
    """Run ``play()`` (the table loop) and return its final state, or ``None`` when the
    people stopped it (``quit``, the input ended): then say how to continue. On every
    exit path the journal is closed and the terminal restored (echo on)."""
    try:
        return play()
    except (TableStopped, EOFError) as exc:
        where = (
            f"continue it with: {resume} {session.journal_path}"
            if session.journal_path is not None
            else "it was not journalled"
        )
        console.print(
            f"game stopped ({exc}) after {len(session.state.history)} actions; {where}",
            soft_wrap=True,
        )
        return None
    finally:
        if getattr(session, "journal", None) is not None:
            session.journal.close()
        if terminal is not None:
            terminal.restore()
