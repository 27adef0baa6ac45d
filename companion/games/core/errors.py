"""Errors every rules engine shares, so the table, the journal and the commands handle all
games alike."""

from __future__ import annotations

from typing import Any


class IllegalActionError(ValueError):
    """An action that the rules do not allow now.

    ``rule`` names the rule (as in the game's ``docs/rules/*.md``), ``reason`` says what
    was wrong and what is possible instead. Raised before anything changes.
    """

    def __init__(self, action: Any, rule: str, reason: str) -> None:
        shown = getattr(action, "notation", repr(action))
        super().__init__(f"{shown!r} is not allowed: {rule}: {reason}")
        self.action = action
        self.rule = rule
        self.reason = reason


class ConfigError(ValueError):
    """A configuration that cannot start a game; the message names the setting."""


class DataError(ValueError):
    """A component data file is malformed; the message names the entry and what to fix."""
