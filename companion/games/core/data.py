"""Component data files: the labelled defaults shipped in ``companion/data``, or a file of
the user's, read and validated the same way for every game.

An engine gives its file name and a ``parse(document, source)`` that validates the
decoded JSON and raises :class:`DataError` naming the entry; :class:`DataFile` reads the
built-in file once (cached) and turns unreadable or malformed files into one clear
message.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, Generic, TypeVar

from companion.datafiles import DataFileError, check_data_file
from companion.games.core.errors import DataError
from companion.records import Record

T = TypeVar("T")
Parse = Callable[[Any, str], T]


@cache
def _builtin(name: str, parse: Parse[Any]) -> Any:
    # imported on the first read, not with the engines: importlib.resources brings
    # tempfile, shutil, bz2 and lzma (7 ms), json its decoder
    import json
    from importlib import resources

    text = resources.files("companion.data").joinpath(name).read_text("utf-8")
    return parse(json.loads(text), f"companion/data/{name}")


class DataFile(Record, Generic[T]):
    """One game's data file: ``builtin`` in ``companion/data``; ``what`` names the game in
    messages (``Battle Royale``)."""

    builtin: str
    what: str
    parse: Parse[T]

    def builtin_data(self) -> T:
        """The labelled defaults shipped with companion (read once)."""
        return _builtin(self.builtin, self.parse)

    def load(self, path: str | Path | None) -> T:
        """Load a user's data file, or the defaults for ``None``."""
        if path is None:
            return self.builtin_data()
        return self.parse(read_json(path, self.what), str(path))


def read_json(path: str | Path, what: str) -> Any:
    """The decoded document of a user's JSON data file (``what`` names the game in
    messages); an unreadable or malformed file raises one clear :class:`DataError`."""
    p = Path(path)
    try:
        check_data_file(p)  # never a device, a pipe or a folder; at most 1 MiB
        text = p.read_text("utf-8")
    except DataFileError as exc:
        raise DataError(f"cannot read {what} {exc}") from None
    except OSError as exc:
        raise DataError(f"cannot read {what} data file {p}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise DataError(f"{p}: not a text file (expected JSON in UTF-8)") from None
    import json  # on the first read (see _builtin)

    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(
            f"{p}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None


def whole(value: Any, where: str, low: int, high: int) -> int:
    """A whole number ``low..high`` from a data file (never a bool)."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise DataError(f"{where} must be a whole number {low}..{high}, got {value!r}")
    return value
