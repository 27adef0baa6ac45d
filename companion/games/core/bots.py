"""Bots every engine can use, and the loop that plays a game through with bots.

A bot is any object with ``choose(state) -> action`` (a legal one). Nothing here makes a
random generator or rolls a die: a bot uses the generator it is given, and
:func:`play_out` takes the picker of chance outcomes from its caller (a seeded
``Roller.choose`` in tests and benchmarks), so a seeded game is repeatable.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Protocol, TypeVar

from companion.games.core.actions import Action
from companion.games.core.state import GAME_OVER, GameState

T = TypeVar("T")
S = TypeVar("S")


class Rng(Protocol):
    """What bots use of a random generator (``random.Random`` has it)."""

    def choice(self, seq: Sequence[T]) -> T: ...

    def random(self) -> float: ...

    def randint(self, a: int, b: int) -> int: ...


class Bot(Protocol):
    def choose(self, state: Any) -> Action: ...


class RandomBot:
    """Plays any seat: a uniform choice among its :meth:`options`. A game's own bots build
    on it and choose among the same options with more sense."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def options(self, state: Any) -> list[Action]:
        """The legal actions, corrections left out (corrections are for real tables)."""
        return state.playable_actions()

    def choose(self, state: Any) -> Action:
        return self.rng.choice(self.options(state))


ChooseOutcome = Callable[[list[tuple[Any, Fraction]]], Any]


def play_out(state: S, bot: Bot, choose_outcome: ChooseOutcome, max_actions: int = 100_000) -> S:
    """Play ``state`` to its end: ``bot`` decides in every seat, ``choose_outcome`` picks
    each chance node's outcome from its ``(action, probability)`` list."""
    game: Any = state
    cls = type(game)
    if cls.is_terminal is GameState.is_terminal and cls.is_chance_node is GameState.is_chance_node:
        # the core's own tests, read from the phase: the same answers without two property
        # calls an action (3% of a random Battle Royale game, callgrind)
        chance = game.CHANCE_PHASES
        if _plain_random(bot):
            # the uniform random bot's choices taken straight from the state's own lists
            if game._play_out(bot.rng.choice, choose_outcome, max_actions):  # type: ignore[attr-defined]
                return state
        else:
            for _ in range(max_actions):
                phase = game.phase
                if phase == GAME_OVER:
                    return state
                if phase in chance:
                    game.apply(choose_outcome(game._chance_now()))
                else:
                    game.apply(bot.choose(game))
    else:
        for _ in range(max_actions):
            if game.is_terminal:
                return state
            if game.is_chance_node:
                game.apply(choose_outcome(game.chance_outcomes()))
            else:
                game.apply(bot.choose(game))
    raise RuntimeError(f"game not finished after {max_actions} actions")


def _plain_random(bot: Any) -> bool:
    """Whether ``bot`` chooses as :class:`RandomBot` itself does, with a generator whose
    ``choice`` is ``random.Random``'s (it returns an element of the list it is given; the
    module is looked up, never imported: nothing here makes a generator)."""
    kind = type(bot)
    if kind.choose is not RandomBot.choose or kind.options is not RandomBot.options:
        return False
    random = sys.modules.get("random")
    choice = getattr(type(getattr(bot, "rng", None)), "choice", None)
    return random is not None and choice is random.Random.choice
