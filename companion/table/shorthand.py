"""Move shorthand for tracked mode at the terminal: ``b2 E N`` moves your figure on b2."""

from __future__ import annotations

import re
from typing import Any

from companion.games.battle_royale import actions as A
from companion.games.battle_royale.layout import DIRECTIONS, parse_field

_SHORTHAND = re.compile(r"^([a-e][1-5])((?:\s+[a-z]{1,2})+)$", re.IGNORECASE)


def expand_move(state: Any, line: str) -> list[A.Action] | None:
    """``"b2 E N"`` -> figure b2 <your colour>, step E, step N, stop; ``None`` if not shorthand.

    A direction that is not one of N, E, S, W, NE, SE, SW, NW is an error (ValueError).
    """
    match = _SHORTHAND.match(line.strip())
    if not match:
        return None
    field = parse_field(match.group(1))
    steps = match.group(2).split()
    bad = [d for d in steps if d.upper() not in DIRECTIONS]
    if bad:
        raise ValueError(f"{', '.join(bad)}: directions are {', '.join(DIRECTIONS)}")
    colour = state.colours[state.current_player]
    return [A.StartFigure(field, colour), *(A.Step(d.upper()) for d in steps), A.StopFigure()]
