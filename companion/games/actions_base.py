"""What every engine's actions share: the action base class, its format error, and the
generic halves of reading an action back from a dict or from its notation.

Each engine defines its own ``Action`` subclass (which may show some fields specially
in the notation), its action classes, a kind -> class table and a field converter
``convert(cls, name, raw)`` that checks one value and returns it in its stored form.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, TypeVar

A = TypeVar("A", bound="Action")
Convert = Callable[[type[Any], str, Any], Any]


class ActionFormatError(ValueError):
    """Text or data that is not an action; the message says the expected form."""


@dataclass(frozen=True)
class Action:
    """Base class. ``kind`` names the action in notation and in logs."""

    kind: ClassVar[str] = ""
    is_chance: ClassVar[bool] = False
    is_correction: ClassVar[bool] = False

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            data[f.name] = list(value) if isinstance(value, tuple) else value
        return data

    @property
    def notation(self) -> str:
        parts = [self.kind]
        for f in fields(self):
            part = self._show_field(f.name, getattr(self, f.name))
            if part is not None:
                parts.append(part)
        return " ".join(parts)

    def _show_field(self, name: str, value: Any) -> str | None:
        """One field's text in the notation; None leaves it out."""
        return str(value)

    def __str__(self) -> str:
        return self.notation


def usage(cls: type[Action]) -> str:
    """The notation's form: ``kind <field> <field>``."""
    return " ".join([cls.kind, *(f"<{f.name}>" for f in fields(cls))])


def action_from_dict(data: Any, types: Mapping[str, type[A]], convert: Convert, *, game: str) -> A:
    """Rebuild an action from :meth:`Action.to_dict` output; ``game`` names the game
    in the error (``a Battle Royale``)."""
    if not isinstance(data, dict) or data.get("kind") not in types:
        raise ActionFormatError(f"not {game} action: {data!r}")
    cls = types[data["kind"]]
    names = [f.name for f in fields(cls)]
    extra = set(data) - set(names) - {"kind"}
    required = [f.name for f in fields(cls) if f.default is MISSING]
    missing = [n for n in required if n not in data]
    if extra or missing:
        raise ActionFormatError(f"{cls.kind}: expected fields {names}, got {sorted(set(data))}")
    return cls(**{n: convert(cls, n, data[n]) for n in names if n in data})


def parse_action(
    text: str,
    types: Mapping[str, type[A]],
    convert: Convert,
    *,
    example: str,
    show_usage: Callable[[type[A]], str] = usage,
    special: Callable[[type[A], list[str]], A | None] | None = None,
) -> A:
    """Read the notation: the kind, then one word per field. ``example`` completes the
    hint for empty input; ``special(cls, words)`` may read a kind's words itself (it
    returns None for the one-word-per-field form)."""
    words = text.split()
    if not words:
        raise ActionFormatError(f"empty input: type an action such as {example}")
    cls = types.get(words[0].lower())
    if cls is None:
        known = ", ".join(sorted(k for k, c in types.items() if not c.is_chance))
        raise ActionFormatError(f"unknown action {words[0]!r}; actions are: {known}")
    values = words[1:]
    if special is not None:
        action = special(cls, values)
        if action is not None:
            return action
    names = [f.name for f in fields(cls)]
    if len(values) != len(names):
        raise ActionFormatError(f"{cls.kind} takes {len(names)} value(s): {show_usage(cls)}")
    return cls(**{n: convert(cls, n, w) for n, w in zip(names, values, strict=True)})
