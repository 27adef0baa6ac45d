"""Helpers for arena skirmish tests: small data files, and positions reached by legal play."""

from __future__ import annotations

import hashlib
import json
import tempfile
from pathlib import Path

from companion.games import registry
from companion.games.arena_skirmish import SkirmishConfig, new_game
from companion.games.arena_skirmish import actions as A

# The game is registered in companion/games/registry.py; until that line is in, the tests
# register it here (harmless once it is).
registry.GAME_MODULES.setdefault("skirmish", "companion.games.arena_skirmish")

_DIR = Path(tempfile.mkdtemp(prefix="skm-data-"))

# 5x5, entrances at c2 and c3: every cell is within 5 fields of both, so tests can
# place gladiators anywhere.
OPEN5 = ["00000", "00A00", "00B00", "00000", "00000"]


def profile(gid: int, **values: object) -> dict[str, object]:
    entry: dict[str, object] = {
        "id": gid,
        "name": f"T{gid}",
        "initiative": 5,
        "movement": 4,
        "attack": 2,
        "element": "fire",
        "affinity": 1,
        "life": 5,
        "class": "medium",
        "points": 10,
        "combo": "",
    }
    entry.update({("class" if k == "weight" else k): v for k, v in values.items()})
    return entry


def data_file(
    profiles: list[dict[str, object]],
    maps: dict[str, list[str]] | None = None,
    two: tuple[int, int] = (5, 295),
) -> str:
    """Write a data file (cached by content) and return its path."""
    doc = {
        "two_players": {"gladiators": two[0], "points": two[1], "label": "test"},
        "maps": {
            "default": {"rows": OPEN5, "label": "test"},
            **{name: {"rows": rows} for name, rows in (maps or {}).items()},
        },
        "gladiators": {"label": "test profiles", "profiles": profiles},
    }
    text = json.dumps(doc, sort_keys=True)
    path = _DIR / f"{hashlib.sha256(text.encode()).hexdigest()[:16]}.json"
    if not path.exists():
        path.write_text(text, "utf-8")
    return str(path)


def start(
    profiles: list[dict[str, object]],
    teams: list[list[int]],
    placements: dict[int, tuple[str, str]],
    rows: list[str] | None = None,
    winner: int = 0,
    entrance: str = "A",
    **config: object,
):
    """A game past setup: seat ``winner`` wins the roll-off and takes ``entrance``; every
    gladiator is placed as ``placements`` says (tie-breaks: lowest ID first)."""
    path = data_file(profiles, {"test": rows} if rows else None)
    cfg = SkirmishConfig(
        players=len(teams),
        map="test" if rows else "default",
        teams=tuple(tuple(t) for t in teams),
        data_file=path,
        **config,
    )
    state = new_game(cfg)
    state.apply(A.RollOff(winner))
    state.apply(A.ChooseEntrance(entrance))
    while state.phase in ("place", "tie_break") and (
        state.phase == "place" or state.tie_for == "place"
    ):
        if state.phase == "tie_break":
            state.apply(A.TieBreak(min(state.tied)))
        else:
            cell, facing = placements[state.placing]
            state.apply(A.Place(cell, facing))
    return state


def resolve_ties(state, prefer: int | None = None) -> None:
    """Resolve activation tie-breaks (``prefer`` if tied, else the lowest ID)."""
    while state.phase == "tie_break":
        choice = prefer if prefer in state.tied else min(state.tied)
        state.apply(A.TieBreak(choice))


def roll(state, *faces: int):
    """Apply hit dice; returns the events of the last one."""
    events = []
    for face in faces:
        events = state.apply(A.HitDie(face))
    return events
