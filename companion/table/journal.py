"""The session journal: every action and die result, durable before the table acts on it.

A journal is a JSON Lines file (see ``docs/journal.md``). Line 1 is a header
(format, software version, game, mode, config, layout, players, data files with
their SHA-256, session settings). Every further line is one record:

- ``action``: one engine action (a choice, a die result, a card drawn);
- ``armed``: an explosion is armed (written before the solenoid guard is armed);
- ``fired``: its tile has flown (written after the pulse: nothing is written
  between the red button and the coil);
- ``undo``: the last ``count`` data-entry actions are taken back;
- ``checkpoint``: a digest of the game state, written when a turn starts;
- ``end``: the game is over.

Each record carries ``n`` (its number) and ``crc`` (CRC-32 of the record without
``crc``, canonical JSON). :meth:`JournalWriter.append` flushes and fsyncs before
it returns, so a record is on disk before the table shows or applies anything.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

FORMAT = "companion-journal/1"
RECORD_TYPES = ("action", "armed", "fired", "undo", "checkpoint", "end")


class JournalError(ValueError):
    """A journal that cannot be read or resumed; the message names the line and the options."""


def canonical(data: dict[str, Any]) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def record_crc(record: dict[str, Any]) -> str:
    """CRC-32 (hex) of a record's canonical JSON without its ``crc`` field."""
    body = {k: v for k, v in record.items() if k != "crc"}
    return f"{zlib.crc32(canonical(body)):08x}"


def state_digest(snapshot: dict[str, Any]) -> str:
    """A short digest of a game state's snapshot, for checkpoints."""
    return hashlib.sha256(canonical(snapshot)).hexdigest()[:16]


def file_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def default_journal_dir() -> Path:
    """Where sessions keep their journals: systemd's StateDirectory, else the user's data dir."""
    state_dir = os.environ.get("STATE_DIRECTORY")
    if state_dir:
        return Path(state_dir.split(":")[0]) / "journals"
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "companion" / "journals"


def new_journal_path(game: str, mode: str, directory: Path | None = None) -> Path:
    """A fresh file name for a session: ``<dir>/<UTC time>-<game>-<mode>.jsonl``."""
    directory = directory or default_journal_dir()
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    return directory / f"{stamp}-{game}-{mode}.jsonl"


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - not every platform opens directories
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class JournalWriter:
    """Appends records to a journal, each one flushed and fsynced before ``append`` returns."""

    def __init__(self, path: Path, handle: BinaryIO, next_n: int, *, fsync: bool = True) -> None:
        self.path = path
        self._file = handle
        self._next = next_n
        self._fsync = fsync

    @classmethod
    def create(
        cls, path: str | Path, header: dict[str, Any], *, fsync: bool = True
    ) -> JournalWriter:
        """Start a new journal (never overwrites an existing file)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            handle = open(path, "xb")  # noqa: SIM115 - closed by close()
        except FileExistsError:
            raise JournalError(
                f"{path} exists already: choose another --journal file, or "
                f"'companion resume {path}' to continue that game"
            ) from None
        writer = cls(path, handle, 1, fsync=fsync)
        writer._write({"type": "header", **header})
        if fsync:
            _fsync_dir(path.parent)
        return writer

    @classmethod
    def reopen(
        cls, path: str | Path, valid_bytes: int, next_n: int, *, fsync: bool = True
    ) -> JournalWriter:
        """Continue a journal after resume: cut a torn tail at ``valid_bytes``, then append."""
        path = Path(path)
        handle = open(path, "r+b")  # noqa: SIM115 - closed by close()
        handle.truncate(valid_bytes)
        handle.seek(valid_bytes)
        return cls(path, handle, next_n, fsync=fsync)

    def _write(self, record: dict[str, Any]) -> dict[str, Any]:
        record["crc"] = record_crc(record)
        # written in the order given (type and n first), compact; the CRC is over the
        # canonical (sorted) form, so any key order reads back the same
        line = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()
        self._file.write(line + b"\n")
        self._file.flush()
        if self._fsync:
            os.fsync(self._file.fileno())
        return record

    def append(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Write one record durably and return it."""
        if kind not in RECORD_TYPES:
            raise ValueError(f"unknown journal record type {kind!r}")
        record = {"type": kind, "n": self._next, **fields}
        self._next += 1
        return self._write(record)

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class JournalContents:
    """A journal read back and checked: the header and the records, in order."""

    path: Path
    header: dict[str, Any]
    records: list[tuple[int, dict[str, Any]]]  # (line number, record)
    valid_bytes: int  # the length of the good part of the file
    warnings: list[str] = field(default_factory=list)

    @property
    def next_n(self) -> int:
        return (self.records[-1][1]["n"] + 1) if self.records else 1

    @property
    def finished(self) -> bool:
        return any(record["type"] == "end" for _, record in self.records)


def _lines(data: bytes) -> Iterator[tuple[int, int, bytes, bool]]:
    """(line number, end offset, text, complete) for every line of the file."""
    offset = 0
    number = 0
    while offset < len(data):
        number += 1
        end = data.find(b"\n", offset)
        if end < 0:
            yield number, len(data), data[offset:], False
            return
        yield number, end + 1, data[offset:end], True
        offset = end + 1


def _parse(text: bytes) -> dict[str, Any] | None:
    try:
        record = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    if not isinstance(record, dict) or record.get("crc") != record_crc(record):
        return None
    return record


def read_journal(path: str | Path, *, until_line: int | None = None) -> JournalContents:
    """Read and check a journal, never changing the file.

    A torn last record (a power cut mid-write) is dropped with a warning. A
    corrupt record before the last one raises :class:`JournalError` naming the
    line and what to do. ``until_line`` reads only lines up to that one.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise JournalError(f"cannot read journal {path}: {exc.strerror}") from None
    lines = list(_lines(data))
    if until_line is not None:
        lines = [ln for ln in lines if ln[0] <= until_line]
    if not lines:
        raise JournalError(f"{path} is empty: it is not a companion journal")
    header = _parse(lines[0][2])
    if header is None or header.get("type") != "header":
        raise JournalError(
            f"{path}, line 1: not a companion journal header (or it is "
            "damaged); nothing can be resumed from this file"
        )
    if header.get("format") != FORMAT:
        raise JournalError(
            f"{path}: journal format {header.get('format')!r} is not one this "
            f"companion reads ({FORMAT}); update companion to a version that "
            "writes it"
        )
    contents = JournalContents(path, header, [], lines[0][1])
    expected_n = 1
    for i, (number, end, text, complete) in enumerate(lines[1:], start=1):
        last = i == len(lines) - 1
        record = _parse(text)
        if record is None or not complete:
            if last:
                contents.warnings.append(
                    f"{path}, line {number}: the last record is incomplete (torn by a power cut "
                    "or a crash) and was dropped; everything before it is kept"
                )
                break
            raise JournalError(
                f"{path}, line {number}: the record is corrupt (its checksum does not match). "
                "Nothing was changed. Options: resume from the records before it with "
                f"'companion resume {path} --until-line {number - 1}' (it continues in a new "
                "journal file and loses everything after that line), inspect the game with "
                f"'companion replay {path} --until-line {number - 1}', or attach the file to "
                "a bug report"
            )
        if record.get("type") not in RECORD_TYPES or record.get("n") != expected_n:
            raise JournalError(
                f"{path}, line {number}: record {record.get('n')!r} of type "
                f"{record.get('type')!r} is out of order (expected record {expected_n}); "
                f"use 'companion resume {path} --until-line {number - 1}' to continue from "
                "the records before it"
            )
        expected_n += 1
        contents.records.append((number, record))
        contents.valid_bytes = end
    return contents
