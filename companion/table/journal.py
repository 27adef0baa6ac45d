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
- ``end``: the game is over;
- ``hint``: a hint shown to one seat (``seat``, ``actions`` applied when it was
  shown, ``level``, ``shown``: what the screen said), never an action: replay and
  resume skip it, ``companion replay`` lists it (``docs/bots.md``).

Each record carries ``n`` (its number) and ``crc`` (CRC-32 of the record without
``crc``, canonical JSON). :meth:`JournalWriter.append` flushes and fsyncs before
it returns, so a record is on disk before the table shows or applies anything.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

from companion.records import Record

FORMAT = "companion-journal/1"
RECORD_TYPES = ("action", "armed", "fired", "undo", "checkpoint", "end", "hint")


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


def _data_dir() -> Path:
    state_dir = os.environ.get("STATE_DIRECTORY")
    if state_dir:
        return Path(state_dir.split(":")[0])
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "companion"


def default_journal_dir() -> Path:
    """Where sessions keep their journals (and ``serve`` looks for a game to resume):
    systemd's StateDirectory, else the user's data dir."""
    return _data_dir() / "journals"


def demo_journal_dir() -> Path:
    """Where demos and games of simulated people keep their journals: next to
    :func:`default_journal_dir`, never in it, so ``serve`` never resumes a demo."""
    return _data_dir() / "demo-journals"


def new_journal_path(game: str, mode: str, directory: Path | None = None) -> Path:
    """A fresh file name for a session: ``<dir>/<UTC time>-<game>-<mode>.jsonl``."""
    directory = directory or default_journal_dir()
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    return directory / f"{stamp}-{game}-{mode}.jsonl"


# -- writing --------------------------------------------------------------------------------

#: errno values that mean "no space": the table waits for space instead of failing
DISK_FULL = frozenset({errno.ENOSPC, errno.EDQUOT})
#: seconds between two tries to write a record while the disk is full
DISK_FULL_RETRY_S = 2.0


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - not every platform opens directories
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _tell_stderr(text: str) -> None:
    print(f"companion: {text}", file=sys.stderr, flush=True)


def _no_heartbeat() -> None:
    pass


class JournalWriter:
    """Appends records to a journal, each one written and fsynced before ``append`` returns.

    A record is written whole or not at all: if a write or fsync fails, the
    partial bytes are cut off again. When the disk is full (``ENOSPC``,
    ``EDQUOT``), ``append`` says so once through :attr:`notify`, waits
    (:attr:`sleep` of :attr:`retry_s`) and tries again until there is space,
    then says it continues; so the table pauses without acting, and nothing
    is acted on before its record is durable. While it waits it calls
    :attr:`heartbeat` (the table loop's
    :meth:`~companion.table.loop.TableLoop.waiting_for_space`: the service's watchdog
    sees a table that waits, not one that hangs, and does not restart it; a stop signal
    raises there and ends the wait, the record not written and not acted on). Other
    write errors raise.
    """

    def __init__(self, path: Path, handle: BinaryIO, next_n: int, *, fsync: bool = True) -> None:
        self.path = path
        self._file = handle
        self._next = next_n
        self._fsync = fsync
        self._size = handle.seek(0, os.SEEK_END)
        self.created = False  # True when this writer created the file (see discard_unused)
        self._ready = True  # False until a new journal's header is written
        self.notify: Callable[[str], None] = _tell_stderr
        self.sleep: Callable[[float], None] = time.sleep
        self.heartbeat: Callable[[], None] = _no_heartbeat
        self.retry_s = DISK_FULL_RETRY_S

    @classmethod
    def create(
        cls, path: str | Path, header: dict[str, Any], *, fsync: bool = True
    ) -> JournalWriter:
        """Start a new journal (never overwrites an existing file).

        If the header cannot be written (the disk is full), the new file is
        removed again and the :class:`OSError` raised.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            handle = open(path, "xb", buffering=0)  # noqa: SIM115 - closed by close()
        except FileExistsError:
            raise JournalError(
                f"{path} exists already: choose another --journal file, or "
                f"'companion resume {path}' to continue that game"
            ) from None
        writer = cls(path, handle, 1, fsync=fsync)
        writer.created = True
        writer._ready = False
        try:
            writer._put({"type": "header", **header})
            if fsync:
                _fsync_dir(path.parent)
            writer._ready = True
        except BaseException:
            writer.close()
            path.unlink(missing_ok=True)
            raise
        return writer

    @classmethod
    def reopen(
        cls, path: str | Path, valid_bytes: int, next_n: int, *, fsync: bool = True
    ) -> JournalWriter:
        """Continue a journal after resume: cut a torn tail at ``valid_bytes``, then append."""
        path = Path(path)
        handle = open(path, "r+b", buffering=0)  # noqa: SIM115 - closed by close()
        try:
            if handle.seek(0, os.SEEK_END) != valid_bytes:
                handle.truncate(valid_bytes)
                if fsync:
                    os.fsync(handle.fileno())
        except BaseException:
            handle.close()
            raise
        return cls(path, handle, next_n, fsync=fsync)

    @property
    def next_n(self) -> int:
        """The number the next record gets (1 + the records written so far)."""
        return self._next

    def _put(self, record: dict[str, Any]) -> dict[str, Any]:
        record["crc"] = record_crc(record)
        # written in the order given (type and n first), compact; the CRC is over the
        # canonical (sorted) form, so any key order reads back the same
        line = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
        self._write_line(line)
        return record

    def _write_line(self, line: bytes) -> None:
        waiting = False
        while True:
            try:
                self._write_once(line)
            except OSError as exc:
                if exc.errno not in DISK_FULL or not self._ready:
                    raise  # another failure, or no game yet: the caller says so
                if not waiting:
                    waiting = True
                    self.notify(
                        f"the disk is full: journal {self.path} cannot be written. The table "
                        "waits and does nothing until there is space again (free some, e.g. "
                        "'companion journals prune'); nothing is lost"
                    )
                self.heartbeat()
                self.sleep(self.retry_s)
                continue
            if waiting:
                self.notify("disk space is back: the journal is written, the table continues")
            return

    def _write_once(self, line: bytes) -> None:
        """Write ``line`` at the end of the good part and fsync it; on any error (or an
        interrupt), cut the file back to the good part (no partial record stays) and raise."""
        try:
            self._file.seek(self._size)
            view = memoryview(line)
            while view:
                written = self._file.write(view)
                if not written:
                    raise OSError(errno.EIO, "the journal write made no progress")
                view = view[written:]
            if self._fsync:
                os.fsync(self._file.fileno())
        except BaseException:  # a write error, or Ctrl-C in the middle: no partial record
            self._file.truncate(self._size)
            raise
        self._size += len(line)

    def append(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Write one record durably and return it."""
        if kind not in RECORD_TYPES:
            raise ValueError(f"unknown journal record type {kind!r}")
        record = self._put({"type": kind, "n": self._next, **fields})
        self._next += 1
        return record

    def close(self) -> None:
        self._file.close()

    def discard_unused(self) -> bool:
        """Close, and remove the file if this writer created it and wrote only its header
        (a start that failed before the game began leaves no journal behind)."""
        self.close()
        if self.created and self._next == 1:
            self.path.unlink(missing_ok=True)
            return True
        return False

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- reading --------------------------------------------------------------------------------

#: The longest line a journal may hold. Records are about 200 bytes, headers a few KB; a
#: torn tail is at most one record long, so a longer tail is corruption, not a torn write.
MAX_LINE_BYTES = 64 * 1024
#: The deepest nesting of lists and objects in a record (the deepest written is about 5).
MAX_DEPTH = 32


class JournalContents(Record, frozen=False):
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
        return bool(self.records) and self.records[-1][1]["type"] == "end"


def _lines(handle: BinaryIO) -> Iterator[tuple[int, int, bytes, bool]]:
    """(line number, end offset, text, complete) for every line of the file.

    Reads one bounded line at a time: a line longer than :data:`MAX_LINE_BYTES`
    comes back as its first ``MAX_LINE_BYTES + 1`` bytes, not complete, and ends
    the reading (the rest of the file is never loaded).
    """
    offset = 0
    number = 0
    while True:
        chunk = handle.readline(MAX_LINE_BYTES + 1)
        if not chunk:
            return
        number += 1
        complete = chunk.endswith(b"\n")
        offset += len(chunk)
        yield number, offset, chunk[:-1] if complete else chunk, complete
        if not complete:
            return


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Whether lists/objects in ``value`` nest deeper than ``limit`` (no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list):
            continue
        if depth > limit:
            return True
        stack.extend((x, depth + 1) for x in item if isinstance(x, dict | list))
    return False


def _parse(text: bytes) -> tuple[dict[str, Any] | None, str]:
    """The record on a line, or None and why it is not one."""
    if len(text) > MAX_LINE_BYTES:
        return None, f"the line is longer than {MAX_LINE_BYTES // 1024} KiB"
    try:
        record = json.loads(text)
    except RecursionError:
        return None, "it nests lists or objects too deeply"
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None, "it is not a JSON record"
    if not isinstance(record, dict):
        return None, "it is not a JSON object"
    if _depth_exceeds(record, MAX_DEPTH):
        return None, f"it nests lists or objects deeper than {MAX_DEPTH}"
    if record.get("crc") != record_crc(record):
        return None, "its checksum does not match"
    return record, ""


def _corrupt(path: Path, number: int, why: str) -> JournalError:
    return JournalError(
        f"{path}, line {number}: the record is corrupt ({why}). "
        "Nothing was changed. Options: resume from the records before it with "
        f"'companion resume {path} --until-line {number - 1}' (it continues in a new "
        "journal file and loses everything after that line), inspect the game with "
        f"'companion replay {path} --until-line {number - 1}', or attach the file to "
        "a bug report"
    )


def read_journal(path: str | Path, *, until_line: int | None = None) -> JournalContents:
    """Read and check a journal, never changing the file.

    Only an incomplete last line (no newline: a power cut mid-write) of at most
    :data:`MAX_LINE_BYTES` is a torn record: it is dropped with a warning. Every
    complete line must be a record with a good checksum; a bad one (last or not)
    raises :class:`JournalError` naming the line and what to do, and so does a
    line (or tail) longer than :data:`MAX_LINE_BYTES` or nested deeper than
    :data:`MAX_DEPTH`. ``until_line`` reads only lines up to that one. The file
    is read line by line, never whole.
    """
    path = Path(path)
    with _open_journal(path) as handle:
        return _read(path, handle, until_line)


def _open_journal(path: Path) -> BinaryIO:
    """Open a journal for reading; a missing file, a folder, a device or a pipe (never
    opened: that could block) is a :class:`JournalError`."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise JournalError(f"{path} is not a regular file: it is not a companion journal")
        handle = open(path, "rb")  # noqa: SIM115 - the caller closes it
    except OSError as exc:
        raise JournalError(f"cannot read journal {path}: {exc.strerror}") from None
    return handle


def _read(path: Path, handle: BinaryIO, until_line: int | None) -> JournalContents:
    lines = _lines(handle)
    first = next(lines, None)
    if first is None or (until_line is not None and until_line < 1):
        raise JournalError(f"{path} is empty: it is not a companion journal")
    header, _ = _parse(first[2]) if first[3] else (None, "")
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
    contents = JournalContents(path, header, [], first[1])
    expected_n = 1
    for number, end, text, complete in lines:
        if until_line is not None and number > until_line:
            break
        if not complete and len(text) <= MAX_LINE_BYTES:
            contents.warnings.append(
                f"{path}, line {number}: the last record is incomplete (torn by a power cut "
                "or a crash) and is dropped; everything before it is kept (a resumed game "
                "cuts it off once it continues)"
            )
            break
        record, why = _parse(text)
        if record is None:
            raise _corrupt(path, number, why)
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


class JournalSummary(Record, frozen=False):
    """A journal's header and last record, read without reading the records between."""

    path: Path
    header: dict[str, Any]
    last: dict[str, Any] | None  # the last complete record; None: none, or it is damaged
    size: int

    @property
    def finished(self) -> bool:
        return self.last is not None and self.last.get("type") == "end"


def peek_journal(path: str | Path) -> JournalSummary:
    """The header and the last record of a journal: two bounded reads, whatever its length.

    For listing a season of journals quickly; :func:`read_journal` checks every
    record. Raises :class:`JournalError` if the header is not a journal's.
    """
    path = Path(path)
    with _open_journal(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        first = handle.readline(MAX_LINE_BYTES + 1)
        header, _ = _parse(first[:-1]) if first.endswith(b"\n") else (None, "")
        if header is None or header.get("type") != "header" or header.get("format") != FORMAT:
            raise JournalError(f"{path}, line 1: not a companion journal header (or damaged)")
        start = max(len(first), size - MAX_LINE_BYTES)
        handle.seek(start)
        tail = handle.read(size - start)
    lines = tail[: tail.rfind(b"\n") + 1].splitlines()  # a torn tail is left out
    last = _parse(lines[-1])[0] if lines else None
    return JournalSummary(path, header, last, size)
