"""``companion journals [list|unfinished|prune]``: a season of journals in one folder.

- ``list`` (default): the newest journals (``--limit``), each with its game, mode,
  state (unfinished, finished, damaged), size and the winners or the last record;
- ``unfinished``: the game ``companion serve`` would resume, with its turn;
- ``prune``: delete the oldest finished journals beyond ``--keep`` (default: the
  ``[journal] keep_finished`` of ``--config``, else 500); ``--dry-run`` only lists them.

Reads only each journal's header and last record, so listing a season is quick.
"""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from companion.commands.errors import CommandError
from companion.table.config import (
    DEFAULT_KEEP_FINISHED,
    TableConfigError,
    load_table_config,
)
from companion.table.journal import JournalError, default_journal_dir
from companion.table.journals import Listed, find_unfinished, list_journals, prune
from companion.table.session import load_resume


def _folder(args: argparse.Namespace) -> Path:
    folder = Path(args.dir) if args.dir else default_journal_dir()
    if folder.exists() and not folder.is_dir():
        raise CommandError(f"{folder} is not a folder")
    if args.dir and not folder.exists():  # a typo; the default folder comes with a first game
        raise CommandError(f"there is no folder {folder}")
    return folder


def _row(item: Listed) -> dict[str, Any]:
    header = item.summary.header if item.summary else {}
    last = item.summary.last if item.summary else None
    stamp = datetime.fromtimestamp(item.path.stat().st_mtime, UTC)
    row: dict[str, Any] = {
        "path": str(item.path),
        "state": item.state,
        "game": header.get("game"),
        "mode": header.get("mode"),
        "created": header.get("created"),
        "changed": stamp.isoformat(timespec="seconds"),
        "bytes": item.summary.size if item.summary else item.path.stat().st_size,
        "records": last.get("n") if isinstance(last, dict) else None,
    }
    if isinstance(last, dict) and last.get("type") == "end":
        row["end_reason"] = last.get("reason")
    return row


def _list(args: argparse.Namespace, folder: Path) -> int:
    items = list_journals(folder)
    rows = [_row(item) for item in items[: args.limit]]
    if args.json:
        print(json.dumps({"folder": str(folder), "total": len(items), "journals": rows}, indent=2))
        return 0
    console = Console()
    if not items:
        console.print(f"no journals in {folder}", soft_wrap=True)
        return 0
    table = Table(title=f"{folder}: {len(items)} journal(s), newest first")
    for column in ("changed (UTC)", "state", "game", "mode", "records", "file"):
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(
            row["changed"].replace("T", " ").removesuffix("+00:00"),
            row["state"],
            str(row["game"]),
            str(row["mode"]),
            "" if row["records"] is None else str(row["records"]),
            Path(row["path"]).relative_to(folder).as_posix(),
        )
    console.print(table)
    if len(items) > len(rows):
        console.print(f"... and {len(items) - len(rows)} older (--limit)", soft_wrap=True)
    return 0


def _unfinished(args: argparse.Namespace, folder: Path) -> int:
    path = find_unfinished(folder, mode="assist")
    if path is None:
        if args.json:
            print(json.dumps({"folder": str(folder), "unfinished": None}))
        else:
            print(f"no unfinished assist game in {folder}: serve starts a new game")
        return 0
    doc: dict[str, Any] = {"folder": str(folder), "unfinished": str(path)}
    try:
        pending = load_resume(path)
    except JournalError as exc:
        doc["problem"] = str(exc)
    else:
        state = pending.session.state
        doc.update(turn=state.turn, actions=len(state.history), warnings=pending.warnings)
    if args.json:
        print(json.dumps(doc, indent=2))
    elif "problem" in doc:
        print(f"{path}: serve would try to resume it, but: {doc['problem']}")
    else:
        print(
            f"{path}: turn {doc['turn']}, {doc['actions']} actions; serve resumes it "
            f"(or: companion resume {path})"
        )
    return 0


def _keep(args: argparse.Namespace) -> int:
    if args.keep is not None:
        return int(args.keep)
    if args.config:
        try:
            return load_table_config(args.config).journal.keep_finished
        except TableConfigError as exc:
            raise CommandError(str(exc)) from None
    return DEFAULT_KEEP_FINISHED


def _prune(args: argparse.Namespace, folder: Path) -> int:
    keep = _keep(args)
    removed = prune(folder, keep, dry_run=args.dry_run)
    verb = "would delete" if args.dry_run else "deleted"
    if args.json:
        print(
            json.dumps(
                {
                    "folder": str(folder),
                    "keep": keep,
                    verb.replace(" ", "_"): [str(p) for p in removed],
                },
                indent=2,
            )
        )
    else:
        print(f"{verb} {len(removed)} finished journal(s) in {folder}, keeping the newest {keep}")
        for path in removed:
            print(f"  {path.name}")
    return 0


def run(args: argparse.Namespace) -> int:
    folder = _folder(args)
    if args.action == "unfinished":
        return _unfinished(args, folder)
    if args.action == "prune":
        return _prune(args, folder)
    return _list(args, folder)
