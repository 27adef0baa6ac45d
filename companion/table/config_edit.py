"""Change one value in a ``table.toml`` and keep everything else of the file as it was.

:func:`set_table_value` edits the one line that holds ``key`` in ``[table]`` (its
comment stays), or adds the line under the table's header, or adds the table at the
end. The result is parsed again and must equal the old document with just that
value changed; anything else (a key written as a dotted key or in an inline table,
say) is refused with :exc:`ConfigEditError` rather than guessed, and the file is not
touched. The file is replaced atomically (a new file in the same folder, then a
rename), keeping its permissions, so a power cut leaves the old file or the new one.

This is the standard library's :mod:`tomllib` plus a careful line edit: a
round-tripping TOML library is not worth a dependency on a Pi for one key.
"""

from __future__ import annotations

import copy
import os
import re
import shutil
import tempfile
import tomllib
from os import PathLike
from pathlib import Path
from typing import Any

__all__ = ["ConfigEditError", "set_table_value", "toml_value"]

_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")
_ARRAY_HEADER = re.compile(r"^\s*\[\[")


class ConfigEditError(ValueError):
    """The file cannot be changed safely; it was left as it was."""


def toml_value(value: Any) -> str:
    """*value* (bool, int, float or str) written as TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    raise TypeError(f"cannot write {value!r} as a TOML value here")


def _edited(text: str, table: str, key: str, value: Any) -> str:
    lines = text.splitlines(keepends=True)
    written = f"{key} = {toml_value(value)}"
    assignment = re.compile(rf"^(\s*){re.escape(key)}(\s*=\s*)(.*?)(\s*#.*)?$")
    header_at: int | None = None
    current: str | None = None
    for i, line in enumerate(lines):
        body = line.rstrip("\r\n")
        if _ARRAY_HEADER.match(body):
            current = None
            continue
        found = _HEADER.match(body)
        if found:
            current = found.group(1).replace(" ", "")
            if current == table:
                header_at = i
            continue
        if current == table:
            match = assignment.match(body)
            if match:
                ending = line[len(body) :]
                comment = match.group(4) or ""
                lines[i] = f"{match.group(1)}{key}{match.group(2)}{toml_value(value)}{comment}"
                lines[i] += ending
                return "".join(lines)
    if header_at is not None:
        ending = "\r\n" if lines[header_at].endswith("\r\n") else "\n"
        lines.insert(header_at + 1, written + ending)
        return "".join(lines)
    sep = "" if not text or text.endswith("\n") else "\n"
    return f"{text}{sep}\n[{table}]\n{written}\n"


def set_table_value(path: str | PathLike[str], table: str, key: str, value: Any) -> str:
    """
    Set ``[table] key = value`` in the TOML file *path*, keeping every other line.

    Returns the new text. Raises :exc:`ConfigEditError` if the file cannot be parsed,
    if the edit would change anything else, or if the file cannot be written.
    """
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")  # line ends exactly as they are
        before = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigEditError(f"cannot read {path}: {exc}") from None
    new_text = _edited(text, table, key, value)
    expected = copy.deepcopy(before)
    section = expected.setdefault(table, {})
    by_hand = f"set it by hand: `{key} = {toml_value(value)}` under [{table}] in {path}"
    if not isinstance(section, dict):
        raise ConfigEditError(f"{path}: {table} is not a table; {by_hand}")
    section[key] = value
    try:
        after = tomllib.loads(new_text)
    except tomllib.TOMLDecodeError:
        after = None
    if after != expected:
        raise ConfigEditError(
            f"cannot change {table}.{key} in {path} safely (is it a dotted key or an inline "
            f"table?); the file is unchanged: {by_hand}"
        )
    try:
        _replace_atomically(path, new_text)
    except OSError as exc:
        raise ConfigEditError(
            f"cannot write {path}: {exc.strerror or exc} (sudo for /etc); {by_hand}"
        ) from None
    return new_text


def _replace_atomically(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        shutil.copymode(path, tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
