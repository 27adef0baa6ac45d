"""Every interactive command leaves the terminal as it found it (echo on, line editing),
whether people quit, press Ctrl-C or the game ends (issue 15: after ``play battle-royale``
the shell had no echo and a later ``spartacus fight`` hung). Each command runs in a
pseudo-terminal, is stopped, and the terminal's settings are read afterwards."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import subprocess
import sys
import termios
import time

import pytest

COMMANDS = {
    "play battle-royale": ["play", "battle-royale", "--players", "2", "--seed", "3"],
    "gladiatoren play": ["gladiatoren", "play", "--players", "2", "--seed", "3"],
    "gladiatoren combat": [
        "gladiatoren",
        "combat",
        "net sword sword trident",
        "spear sword sword shield",
        "--seed",
        "3",
    ],
    "spartacus fight": ["spartacus", "fight", "--seed", "3"],
}
#: What each command shows when it waits for the person at the terminal.
WAITING = {
    "play battle-royale": b"choose",
    "gladiatoren play": b"choose",
    "gladiatoren combat": b"choose",
    "spartacus fight": b"ROLL",
}


def read_until(fd: int, marker: bytes, seconds: float = 60.0, process=None) -> bytes:
    out = b""
    deadline = time.monotonic() + seconds
    while marker not in out and time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            break
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                out += os.read(fd, 65536)
            except OSError:
                break
    return out


def _controlling_terminal() -> None:
    """In the child: a session of its own with the pty as its controlling terminal, so
    Ctrl-C typed on it is a SIGINT, as in a shell."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def run_in_pty(name: str, stop: bytes, tmp_path) -> tuple[list, list, bytes, int]:
    """Start ``companion <command>`` on a new pty, stop it with ``stop`` once it waits for
    input; the pty's settings before and after, the output, the exit code."""
    controller, terminal = pty.openpty()
    before = termios.tcgetattr(terminal)
    env = {**os.environ, "COLUMNS": "100", "LINES": "40", "TERM": "xterm"}
    env["XDG_DATA_HOME"] = str(tmp_path)  # the journals
    env.pop("COMPANION_CONFIG", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", *COMMANDS[name]],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        env=env,
        preexec_fn=_controlling_terminal,
        cwd=tmp_path,
    )
    try:
        out = read_until(controller, WAITING[name], process=process)
        assert WAITING[name] in out, out.decode(errors="replace")[-2000:]
        time.sleep(0.3)  # the reader thread is in readline (or getpass) now
        os.write(controller, stop)
        out += read_until(controller, b"stopped", 30, process=process)
        code = process.wait(30)
        after = termios.tcgetattr(terminal)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(controller)
        os.close(terminal)
    return before, after, out, code


@pytest.mark.parametrize("name", sorted(COMMANDS))
@pytest.mark.parametrize(("how", "stop"), [("quit", b"quit\r"), ("ctrl-c", b"\x03")])
def test_the_terminal_is_restored(name, how, stop, tmp_path):
    before, after, out, code = run_in_pty(name, stop, tmp_path)
    text = out.decode(errors="replace")
    assert code in (1, 130), text[-2000:]
    assert after[3] & termios.ECHO, f"echo left off after {how}"
    assert after[3] & termios.ICANON, f"line editing left off after {how}"
    assert after[3] == before[3] and after[0] == before[0] and after[1] == before[1]
    assert "Traceback" not in text
