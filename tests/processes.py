"""Processes seen from /proc (Linux): is one still running, which are its children. For
the tests that kill a parent and check that nothing is left behind."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the command's name (state first)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def running(pid: int) -> bool:
    """``pid`` exists and is not a zombie waiting to be reaped."""
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def children(pid: int) -> list[int]:
    """The running processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and fields[0] != "Z" and int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


ROOT = Path(__file__).resolve().parents[1]


def parent_to_kill(code: str) -> tuple[subprocess.Popen[str], int]:
    """A Python process running ``code`` (from this checkout), which prints one pid and
    waits to be killed: the process and the pid it printed."""
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        # once killed, its resource tracker reports (and removes) its semaphores
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert process.stdout is not None
    return process, int(process.stdout.readline())
