"""Exact odds for the table screen, from the engines' own functions (asked for on the
table's thread, where the state lives; every input is public: a chance node's outcomes, a
Spartacus fight in the arena). A Spartacus attack's odds are computed in the worker process
(:mod:`companion.worker`), so the web server's and the buttons' threads never wait behind
them."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from companion.worker import run_heavy

MAX_OUTCOMES = 12  # a chance node with more outcomes is not listed
DICE_FIELDS = ("face", "faces", "counts")  # what a roll of dice carries, in every engine


def is_dice(action: Any) -> bool:
    """Whether a chance outcome is a roll of dice (not a card draw, a peek, a seat drawn)."""
    return any(hasattr(action, f) for f in DICE_FIELDS)


def percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def public_odds(state: Any) -> dict[str, Any]:
    """``{"odds": [(title, [(what, percent), ...]), ...]}`` for the table screen."""
    sections: list[tuple[str, list[tuple[str, str]]]] = []
    if state.is_chance_node:
        outcomes = state.chance_outcomes()
        # dice only: the outcomes of a card draw or a peek would show a hidden deck or hand
        if len(outcomes) <= MAX_OUTCOMES and all(is_dice(a) for a, _ in outcomes):
            sections.append(("next roll", _chances(outcomes)))
    fight = getattr(state, "fight", None)
    if fight is not None and state.phase == "fight" and fight.phase == "turn":
        side = fight.active.side
        odds = run_heavy(fight.odds, side)  # in the worker process: the GIL stays free
        sections.append(
            (
                f"{side} attacks {fight.other(side)}: wounds",
                [(str(w), percent(p)) for w, p in odds.wounds.items()],
            )
        )
        sections.append(
            (
                f"{fight.other(side)} after the attack",
                [(k, percent(p)) for k, p in odds.defender_levels.items() if p],
            )
        )
    return {"odds": sections}


def _chances(outcomes: Sequence[tuple[Any, Fraction]]) -> list[tuple[str, str]]:
    merged: dict[str, Fraction] = {}
    for action, p in outcomes:
        merged[action.notation] = merged.get(action.notation, Fraction(0)) + p
    return [(k, percent(p)) for k, p in merged.items()]
