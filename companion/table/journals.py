"""The journal folder over a season: the unfinished game, finished games, retention.

A journal folder (``serve --journal-dir``, by default
:func:`~companion.table.journal.default_journal_dir`) holds, at its top level,
only journals of games that are not over; a game that ends is moved into
``finished/`` beside them (:func:`archive`). So finding the game to resume reads
the top level only (normally one file, or none), however many games the season
has seen: start-up does not grow with history. A journal that cannot be resumed
is moved into ``damaged/`` by the service so it is not tried again at every
start. Retention (:func:`prune`) deletes the oldest finished journals beyond a
count (``[journal] keep_finished`` in ``table.toml``); it never touches an
unfinished or damaged one.

Moving a finished journal is safe at any moment: its ``end`` record is durable
before the move, and a journal found finished at the top level (a crash between
the two) is moved when the folder is next looked at.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from companion.records import Record
from companion.table.journal import JournalError, JournalSummary, peek_journal

FINISHED = "finished"
DAMAGED = "damaged"
PATTERN = "*.jsonl"


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _move(path: Path, folder: str, *, sync: bool = True) -> Path:
    """Move ``path`` into ``folder`` beside it; with ``sync``, make both folders durable
    (without, the caller syncs them once after moving many: a lost move is only redone)."""
    target_dir = path.parent / folder
    target_dir.mkdir(exist_ok=True)
    target = target_dir / path.name
    number = 1
    while target.exists():  # never overwrite: another file of the same name
        target = target_dir / f"{path.stem}.{number}{path.suffix}"
        number += 1
    os.replace(path, target)
    if sync:
        _fsync_dir(target_dir)
        _fsync_dir(path.parent)
    return target


def archive(path: Path) -> Path:
    """Move a finished game's journal into ``finished/`` beside it; returns the new path."""
    return _move(path, FINISHED)


def set_aside(path: Path) -> Path:
    """Move a journal that cannot be resumed into ``damaged/`` beside it (content unchanged)."""
    return _move(path, DAMAGED)


def _newest_first(paths: Iterator[Path]) -> list[Path]:
    stamped = []
    for path in paths:
        try:
            stamped.append((path.stat().st_mtime, path.name, path))
        except OSError:  # removed meanwhile
            continue
    return [path for *_, path in sorted(stamped, reverse=True)]


def find_unfinished(directory: Path, mode: str | None = None) -> Path | None:
    """The newest journal at the top of ``directory`` whose game is not over (and of
    ``mode``), skipping demos; finished journals found there are archived on the way.

    Reads each candidate's header and last record only. A journal whose header is
    damaged is returned (resuming it says what is wrong). The folders are made durable
    once after all the moves (a folder of an older version can hold a whole season of
    finished journals at its top; two fsyncs per file made its first start slow).
    """
    if not directory.is_dir():
        return None
    moved = False
    try:
        for path in _newest_first(directory.glob(PATTERN)):
            try:
                summary = peek_journal(path)
            except JournalError:
                return path
            if summary.finished:
                _move(path, FINISHED, sync=False)
                moved = True
                continue
            session = summary.header.get("session")
            if isinstance(session, dict) and session.get("demo") is True:
                continue
            if mode is None or summary.header.get("mode") == mode:
                return path
        return None
    finally:
        if moved:
            _fsync_dir(directory / FINISHED)
            _fsync_dir(directory)


class Listed(Record, frozen=False):
    """One journal of a folder, for ``companion journals``."""

    path: Path
    summary: JournalSummary | None  # None: the header is damaged
    where: str  # "", "finished" or "damaged"

    @property
    def state(self) -> str:
        if self.summary is None or self.where == DAMAGED:
            return "damaged"
        return "finished" if self.summary.finished else "unfinished"


def list_journals(directory: Path) -> list[Listed]:
    """Every journal of the folder (top level, ``finished/``, ``damaged/``), newest first."""
    listed = []
    for where in ("", FINISHED, DAMAGED):
        folder = directory / where if where else directory
        if not folder.is_dir():
            continue
        for path in folder.glob(PATTERN):
            try:
                summary: JournalSummary | None = peek_journal(path)
            except JournalError:
                summary = None
            listed.append(Listed(path, summary, where))

    def mtime(item: Listed) -> float:
        try:
            return item.path.stat().st_mtime
        except OSError:
            return 0.0

    return sorted(listed, key=lambda item: (mtime(item), item.path.name), reverse=True)


def prune(directory: Path, keep: int, *, dry_run: bool = False) -> list[Path]:
    """Delete the oldest finished journals beyond the newest ``keep``; returns what was
    (or, with ``dry_run``, would be) deleted. Unfinished and damaged journals stay."""
    if keep < 0:
        raise ValueError(f"keep must be 0 or more, not {keep}")
    folder = directory / FINISHED
    if not folder.is_dir():
        return []
    old = _newest_first(folder.glob(PATTERN))[keep:]
    if not dry_run:
        for path in old:
            path.unlink(missing_ok=True)
        if old:
            _fsync_dir(folder)
    return old
