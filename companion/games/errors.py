"""Errors every rules engine shares, so the table and the journal handle all games alike."""

from __future__ import annotations

from typing import Any


class IllegalActionError(ValueError):
    """An action that the rules do not allow now.

    ``rule`` names the rule (as in the game's ``docs/rules/*.md``), ``reason``
    says what was wrong and what is possible instead. Raised before anything
    changes.
    """

    def __init__(self, action: Any, rule: str, reason: str) -> None:
        super().__init__(f"{action.notation!r} is not allowed: {rule}: {reason}")
        self.action = action
        self.rule = rule
        self.reason = reason
