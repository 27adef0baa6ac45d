"""What a search answers: each root action with its visits and estimated win chance."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.core.actions import Action


@dataclass(frozen=True)
class Choice:
    """One root action after a search: how often it was tried and its mean value (the
    estimated win chance of the seat that chose it)."""

    action: Action
    visits: int
    win_chance: float


@dataclass(frozen=True)
class SearchResult:
    """The search's answer: the best action first (most visited), every root action with
    its statistics, how many iterations ran."""

    choices: tuple[Choice, ...]
    iterations: int
    exact: bool = False

    @property
    def best(self) -> Choice:
        return self.choices[0]
