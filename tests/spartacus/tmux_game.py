"""Play a whole 3-house Spartacus game at a real terminal (tmux), as three people would.

Not a test (pytest does not collect it): the script behind the transcript in
``docs/rules/spartacus.md`` ("A whole 3-house game at one terminal"), kept so that it can be
run again after the table changes::

    python tests/spartacus/tmux_game.py --seed 7 --out /tmp/spartacus-tmux.txt

It starts ``companion play spartacus --players 3 --bots 0 --seed SEED --journal FILE`` (quick
length, simulated hardware, all three houses people at one terminal) in a detached tmux
session of 100x40, reads the screen with ``capture-pane`` and answers every prompt with
``send-keys`` as a person would: Enter at a hand-over, a house rule done by hand or the ROLL
prompt; now and then the faces of "physical" dice instead of ROLL; a secret bid; a number
from the options listed (an attack whenever one is offered, so fights end); the kind of
action first where the options are listed by kind; Enter or a play when a house is asked
out of turn. The people's choices come from a generator seeded with ``--seed``. Each screen
read, the keys sent and the events are written to ``--out``; the last screen (the result)
is printed. Exit 0 when the game ended, 1 when it did not within ``--steps`` answers.
"""

from __future__ import annotations

import argparse
import random
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

SOCKET = "companion-spartacus-tmux"
SESSION = "game"
REPO = Path(__file__).resolve().parents[2]


def tmux(*args: str) -> str:
    done = subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def capture() -> list[str]:
    return tmux("capture-pane", "-p", "-t", SESSION).rstrip("\n").split("\n")


def settled(timeout_s: float = 60.0) -> list[str]:
    """The screen once it has stopped changing and waits for a line (the input row's
    ``>`` at the bottom), or the game's end."""
    deadline = time.monotonic() + timeout_s
    last: list[str] = []
    stable_since = time.monotonic()
    while time.monotonic() < deadline:
        screen = capture()
        if screen != last:
            last, stable_since = screen, time.monotonic()
        elif time.monotonic() - stable_since > 0.3:
            text = "\n".join(screen)
            if "GAME-EXITED" in text or (screen and screen[-1].startswith(">")):
                return screen
        time.sleep(0.05)
    raise TimeoutError("the screen did not settle:\n" + "\n".join(last))


def prompt_of(screen: list[str]) -> tuple[str, list[str]]:
    """The prompt shown above the input row and the option lines below it."""
    rows = screen[:-1]
    starts = [i for i, line in enumerate(rows) if line.startswith("> ")]
    if not starts:
        return "", []
    i = starts[-1]
    block = [line for line in rows[i:] if line.strip() and line.strip() != ">"]
    # the prompt's text runs to the line that closes its "(...)"; the options follow
    end = next((j for j, line in enumerate(block) if line.rstrip().endswith(")")), None)
    if end is None:
        return " ".join(line.strip() for line in block)[2:], []
    text = " ".join(line.strip() for line in block[: end + 1])[2:]
    return text, block[end + 1 :]


def numbered(options: list[str]) -> dict[int, str]:
    found: dict[int, str] = {}
    for line in options:
        for number, label in re.findall(r"(\d+): (.+?)(?=\s{2,}\d+: |\s*$)", line):
            found[int(number)] = label.strip()
    return found


def events_of(screen: list[str]) -> list[str]:
    """The lines of the events panel."""
    inside, lines = False, []
    for line in screen:
        if "events" in line and line.lstrip().startswith("╭"):
            inside = True
            continue
        if inside and line.lstrip().startswith("╰"):
            break
        if inside:
            text = line.strip().strip("│").strip()
            if text:
                lines.append(text)
    return lines


class People:
    """Three people at the terminal: what each would type at a prompt."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.rolls = 0

    def answer(self, text: str, options: list[str]) -> str:
        rng = self.rng
        low = text.lower()
        if "pass the screen to" in low or "by hand:" in low:
            return ""
        if "press roll" in low:
            self.rolls += 1
            dice = re.search(r"type the (\d+) faces?", low)
            if dice and self.rolls % 4 == 0:  # now and then their own dice
                return "-".join(str(rng.randint(1, 6)) for _ in range(int(dice.group(1))))
            return ""
        if "secret bid" in low:
            room = int(re.search(r"0\.\.(\d+)", low).group(1))  # type: ignore[union-attr]
            return str(rng.randint(0, min(room, 6)))
        if "throw the net" in low:
            return "yes"
        listed = numbered(options)
        if ", out of turn:" in low:
            return "1" if listed else ""
        if "names, or none" in low:
            return "none"
        span = re.search(r"(\d+)\.\.(\d+)", " ".join(options))
        if "which" in low and span and not listed:
            return str(rng.randint(int(span.group(1)), min(int(span.group(2)), 5)))
        if listed:
            attack = [n for n, o in listed.items() if o.startswith(("attack", "quick-attack"))]
            if attack:
                return str(attack[0])
            calm = [n for n, o in listed.items() if not o.startswith(("decline", "sell"))]
            return str(rng.choice(calm or list(listed)))
        kinds = [line.split()[0] for line in options if line.strip()]
        if kinds:
            return rng.choice(kinds)
        return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", default="/tmp/spartacus-tmux.txt")
    parser.add_argument("--journal", default="/tmp/spartacus-tmux.jsonl")
    parser.add_argument("--steps", type=int, default=4000)
    parser.add_argument("--width", type=int, default=100)
    parser.add_argument("--height", type=int, default=40)
    args = parser.parse_args(argv)
    Path(args.journal).unlink(missing_ok=True)
    command = [
        sys.executable,
        "-m",
        "companion",
        "play",
        "spartacus",
        "--players",
        "3",
        "--bots",
        "0",
        "--seed",
        str(args.seed),
        "--journal",
        args.journal,
    ]
    shell = f"cd {shlex.quote(str(REPO))} && {shlex.join(command)}; echo GAME-EXITED $?; sleep 3600"
    subprocess.run(["tmux", "-L", SOCKET, "kill-server"], capture_output=True)
    tmux("new-session", "-d", "-s", SESSION, "-x", str(args.width), "-y", str(args.height), shell)
    people = People(args.seed)
    seen: list[str] = []
    ended = False
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(f"$ {shlex.join(['companion', *command[3:]])}\n")
        try:
            for step in range(args.steps):
                screen = settled()
                events = events_of(screen)
                overlap = max(
                    (k for k in range(len(events) + 1) if seen[-k:] == events[:k] or k == 0),
                    default=0,
                )
                for line in events[overlap:]:
                    out.write(f"  - {line}\n")
                seen = (seen + events[overlap:])[-200:]
                if "GAME-EXITED" in "\n".join(screen):
                    out.write("=== the last screen ===\n" + "\n".join(screen) + "\n")
                    print("\n".join(screen))
                    ended = "GAME-EXITED 0" in "\n".join(screen)
                    break
                text, options = prompt_of(screen)
                keys = people.answer(text, options)
                out.write(f"=== screen {step} ===\n" + "\n".join(screen) + "\n")
                out.write(f"> {text}\n" + "".join(f"{o}\n" for o in options))
                out.write(f"typed: {keys!r}\n")
                out.flush()
                if keys:
                    tmux("send-keys", "-t", SESSION, "-l", keys)
                tmux("send-keys", "-t", SESSION, "Enter")
                time.sleep(0.1)
        finally:
            subprocess.run(["tmux", "-L", SOCKET, "kill-server"], capture_output=True)
    return 0 if ended else 1


if __name__ == "__main__":
    sys.exit(main())
