"""Helpers for Kampf der Gladiatoren tests: set up a position, play actions by notation."""

from __future__ import annotations

from companion.games.kampf_der_gladiatoren import GladiatorenConfig, new_game, parse_action
from companion.games.kampf_der_gladiatoren.events import Event
from companion.games.kampf_der_gladiatoren.state import GladiatorenState

SEATS = {"R": 0, "Y": 1, "B": 2, "G": 3, "W": 4}


def team(spec: str, field: str, stars: int = 0) -> dict:
    """``team("R", "E spear sword")`` style: owner letter, then gladiators."""
    owner, *gladiators = spec.split()
    return {"owner": SEATS[owner], "field": field, "gladiators": gladiators, "stars": stars}


def position_game(
    teams: list[dict],
    animals: list[dict] | None = None,
    players: int = 2,
    active: int = 0,
    **position,
) -> GladiatorenState:
    """A game that starts in the fight phase from this position."""
    pos = {"teams": teams, "animals": animals or [], "active": active, **position}
    return new_game(GladiatorenConfig(players=players, position=pos))


def play(state: GladiatorenState, *moves: str) -> list[Event]:
    """Apply actions written in notation; return all their events."""
    events: list[Event] = []
    for move in moves:
        events.extend(state.apply(parse_action(move)))
    return events


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def first(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e.kind == kind)
