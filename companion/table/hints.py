"""Hints at the table: the best legal action for the seat to move, with its win chance.

``hint`` at the terminal (and the phone's hint button, through :func:`give_hint`) asks
the search bot (``docs/bots.md``) for the seat to move, at the ``normal`` level's budget
with its time cap: the suggested action, the seat's estimated chance to win after it,
and the game's exact odds of that action where it has them (a challenge in Kampf der
Gladiatoren, an attack in a Spartacus fight; a Spartacus reroll or wound is decided by
exact odds outright). The search sees only the seat's own view, so a hint never
depends on another seat's hidden cards.

A hint is journalled as shown (a ``hint`` record: :meth:`GameSession.hint_shown`), never
as an action: replay and resume skip it, ``companion replay`` lists it. It is computed
in the worker process (:func:`companion.worker.run_heavy`), like a search bot's move,
so the button thread keeps the interpreter while it is searched.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from companion.table.session import GameSession

#: the level whose budget a hint searches with
HINT_LEVEL = "normal"
#: why there is no hint in assist mode
ASSIST_REFUSAL = "hints need a tracked game (in assist mode the table is the truth)"


class HintRefused(ValueError):
    """No hint now (not this seat's move, a roll, the game is over, assist mode); the
    message says why, in words for the person who asked."""


@dataclass(frozen=True)
class ShownHint:
    """A hint as it was shown: ``text`` (one line for the seat), ``shown`` (its data,
    ``Hint.to_dict()``) and ``record`` (the journal's ``hint`` record)."""

    text: str
    shown: dict[str, Any]
    record: dict[str, Any]


def hint_text(shown: dict[str, Any]) -> str:
    """The line a seat reads: ``hint: play 2x3 (win chance 41%)``, with exact odds."""
    line = f"hint: {shown['notation']}"
    chance = shown.get("win_chance")
    if chance is None:
        # the search weighed nothing else: a forced move, or a choice the game's profile
        # leaves to a fixed policy (a combat's net by the exact odds) or where other plays
        # (a guard laid at any time) are not searched. "(the only choice)" stood above a
        # list of two (a newcomer's finding)
        line += " (the search weighs no other choice here)"
    elif shown.get("exact"):
        line += " (best by the exact odds)"
    else:
        line += f" (estimated win chance {chance:.0%})"
    if shown.get("odds"):
        line += f"; {shown['odds']}"
    return line


def compute_hint(
    session: GameSession,
    seat: int,
    rng: random.Random | None = None,
    level: str = HINT_LEVEL,
    clock: Any = time.perf_counter,
) -> dict[str, Any]:
    """The hint for ``seat`` as data (``Hint.to_dict()``), searched in the worker process.

    Raises :class:`HintRefused` when ``seat`` has no move to hint now.
    """
    state = session.state
    if session.settings.mode != "tracked":
        raise HintRefused(ASSIST_REFUSAL)
    if state.is_terminal:
        raise HintRefused("the game is over")
    if state.is_chance_node:
        raise HintRefused("nothing to choose now: the dice or the cards decide")
    if state.current_player != seat:
        raise HintRefused(f"it is {state.seat_name(state.current_player)}'s move, not yours")
    why = blind_spot(session.settings.game, state)
    if why is not None:
        raise HintRefused(why)
    return search_hint(session.settings.game, state, seat, rng, level, clock)


def blind_spot(game: str, state: Any) -> str | None:
    """Why the search cannot tell ``state``'s choices apart (its profile's ``blind``), for
    the person who asked; ``None`` where it can. A hint there would name the first legal
    action with an even chance (Kampf der Gladiatoren's set-up)."""
    from companion.games.search.profile import profile_for

    return profile_for(game).blind(state)


def search_hint(
    game: str,
    state: Any,
    seat: int,
    rng: random.Random | None = None,
    level: str = HINT_LEVEL,
    clock: Any = time.perf_counter,
) -> dict[str, Any]:
    """The search bot's hint for ``seat`` in ``state`` as data (``Hint.to_dict()``),
    searched in the worker process (the calling thread waits without the interpreter)."""
    from companion.games.search.bot import hint
    from companion.worker import run_heavy

    rng = rng if rng is not None else random.Random()
    move_rng = random.Random(rng.getrandbits(64))
    found = run_heavy(hint, game, state, seat, move_rng, level, clock)
    shown: dict[str, Any] = found.to_dict()
    return shown


def record_hint(
    session: GameSession, seat: int, shown: dict[str, Any], level: str = HINT_LEVEL
) -> dict[str, Any]:
    """Journal ``shown`` (what the screen showed ``seat``) as a ``hint`` record."""
    return session.hint_shown(seat, level, shown)


def give_hint(
    session: GameSession,
    seat: int,
    rng: random.Random | None = None,
    clock: Any = time.perf_counter,
) -> ShownHint:
    """Compute the hint for ``seat``, journal it as shown and return it: the one call
    for the terminal's ``hint`` and the phone's hint button. The caller shows
    ``text`` to ``seat`` only (a prompt with ``seat=``). Raises :class:`HintRefused`."""
    shown = compute_hint(session, seat, rng, HINT_LEVEL, clock)
    record = record_hint(session, seat, shown)
    return ShownHint(hint_text(shown), shown, record)
