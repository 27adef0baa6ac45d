"""What a user-supplied data file must be before anything reads it.

A data file (cards, layouts, maps, gladiators: ``--data``, ``game.data_file`` in
``table.toml``, or a path in a journal header) is read whole into memory. A path
that names a device (``/dev/zero``), a pipe or a folder would read until memory
runs out, or block forever, so only a regular file of at most
:data:`MAX_DATA_FILE_BYTES` is accepted. The built-in data files are about 15 KB.

This module has no dependencies, so the command line's argument checks, the
table configuration and the journal can all use it (and the engines' loaders
may).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: The largest data file accepted (1 MiB; the built-in ones are about 15 KB).
MAX_DATA_FILE_BYTES = 1024 * 1024


class DataFileError(ValueError):
    """A data file path that must not be read; the message says why and what to do."""


def check_data_file(path: str | os.PathLike[str]) -> Path:
    """``path`` if it names a regular file of at most :data:`MAX_DATA_FILE_BYTES`.

    Follows symbolic links (a link to a regular file is fine). Raises
    :class:`DataFileError` for a missing file, a folder, a device, a pipe or
    socket, or a file that is too large; never opens the file.
    """
    path = Path(path)
    try:
        info = path.stat()
    except OSError as exc:
        raise DataFileError(f"data file {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        kind = (
            "a folder, not a regular file" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        )
        raise DataFileError(
            f"data file {path}: {kind} (a device, pipe or folder is never read as data); "
            "name a JSON data file"
        )
    if info.st_size > MAX_DATA_FILE_BYTES:
        raise DataFileError(
            f"data file {path}: {info.st_size:,} bytes; a data file has at most "
            f"{MAX_DATA_FILE_BYTES:,} (the built-in ones are about 15 KB)"
        )
    return path
