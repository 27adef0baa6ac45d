"""What every engine's actions share: the action base class, its format error, the codec
that reads an action back from a journal dict or from its notation, and the field
converters the engines' codecs are built from.

An engine defines its own ``Action`` subclass (which may show some fields specially in
the notation), its action classes (immutable records with a ``kind``), a kind -> class
table and a field converter ``convert(cls, name, raw)`` that checks one value and returns
it in its stored form; :class:`ActionCodec` does the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import MISSING, fields
from typing import Any, ClassVar, Generic, TypeVar

from companion.records import Record

A = TypeVar("A", bound="Action")
Convert = Callable[[type[Any], str, Any], Any]


class ActionFormatError(ValueError):
    """Text or data that is not an action; the message says the expected form."""


class Action(Record):
    """Base class. An action is an immutable record (:class:`~companion.records.Record`),
    so it can be compared, hashed, listed by ``legal_actions()`` and written to a log; a
    subclass is one without a decorator::

        class Step(Action, kind="step"):  # one field in a direction
            direction: str

    ``kind`` names the action in notation and in logs; ``chance=True`` marks an outcome of
    a chance node (a die face, a card drawn), ``correction=True`` what really happened on
    the table that the rules cannot know. A field that defaults to ``None`` is optional: it
    is left out of the dict form while it is ``None``, so adding one keeps old journals
    readable and their records unchanged.

    As a record, each subclass's methods are compiled on first use, not at import (24
    Battle Royale actions took 20 ms to import as dataclasses), and classes never used are
    never compiled; they behave as a frozen dataclass's do: ``StartFigure(6, "purple")``,
    equal when of the same class with equal fields, hashed as the tuple of the fields,
    shown as ``StartFigure(field=6, colour='purple')``.
    """

    kind: ClassVar[str] = ""
    is_chance: ClassVar[bool] = False
    is_correction: ClassVar[bool] = False

    def __init_subclass__(
        cls, kind: str = "", chance: bool = False, correction: bool = False, **kwargs: Any
    ) -> None:
        super().__init_subclass__(**kwargs)
        if kind:
            cls.kind = kind
        if chance:
            cls.is_chance = True
        if correction:
            cls.is_correction = True
        cls._shared = {}

    @classmethod
    def shared(cls: type[A], *args: Any) -> A:
        """The action with these field values, made once and then handed out again (an
        action is immutable): what ``legal_actions()`` offers over and over costs one dict
        lookup instead of building a dataclass each time."""
        shared: dict[tuple[Any, ...], A] = cls._shared  # type: ignore[attr-defined]
        action = shared.get(args)
        if action is None:
            action = shared[args] = cls(*args)
        return action

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None and f.default is None:
                continue
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


def action_types(classes: Iterable[type[A]]) -> dict[str, type[A]]:
    """The kind -> class table of an engine; a kind used twice is a programming error."""
    table: dict[str, type[A]] = {}
    for cls in classes:
        assert cls.kind and cls.kind not in table, f"action kind {cls.kind!r} is used twice"
        table[cls.kind] = cls
    return table


class ActionCodec(Record, Generic[A]):
    """Reads one engine's actions: from :meth:`Action.to_dict` output and from notation.

    ``game`` names the game in errors (``a Battle Royale``); ``example`` completes the
    hint for empty input; ``show_usage(cls)`` gives a kind's form in errors;
    ``special(cls, words)`` may read a kind's words itself (it returns None for the
    one-word-per-field form).
    """

    types: Mapping[str, type[A]]
    convert: Convert
    game: str
    example: str
    show_usage: Callable[[type[A]], str] = usage
    special: Callable[[type[A], list[str]], A | None] | None = None

    def from_dict(self, data: Any) -> A:
        """Rebuild an action from :meth:`Action.to_dict` output."""
        if not isinstance(data, dict) or data.get("kind") not in self.types:
            raise ActionFormatError(f"not {self.game} action: {data!r}")
        cls = self.types[data["kind"]]
        names = [f.name for f in fields(cls)]
        extra = set(data) - set(names) - {"kind"}
        required = [f.name for f in fields(cls) if f.default is MISSING]
        missing = [n for n in required if n not in data]
        if extra or missing:
            raise ActionFormatError(f"{cls.kind}: expected fields {names}, got {sorted(set(data))}")
        optional = {f.name for f in fields(cls) if f.default is None}
        return cls(
            **{
                n: None if data[n] is None and n in optional else self.convert(cls, n, data[n])
                for n in names
                if n in data
            }
        )

    def parse(self, text: str) -> A:
        """Read the notation: the kind, then one word per field."""
        words = text.split()
        if not words:
            raise ActionFormatError(f"empty input: type an action such as {self.example}")
        cls = self.types.get(words[0].lower())
        if cls is None:
            known = ", ".join(sorted(k for k, c in self.types.items() if not c.is_chance))
            raise ActionFormatError(f"unknown action {words[0]!r}; actions are: {known}")
        values = words[1:]
        if self.special is not None:
            action = self.special(cls, values)
            if action is not None:
                return action
        names = [f.name for f in fields(cls)]
        if len(values) != len(names):
            raise ActionFormatError(
                f"{cls.kind} takes {len(names)} value(s): {self.show_usage(cls)}"
            )
        return cls(**{n: self.convert(cls, n, w) for n, w in zip(names, values, strict=True)})


# --- field converters: the checks every engine's ``convert`` is made of -------------------


def whole_number(kind: str, name: str, raw: Any, minimum: int | None = None) -> int:
    """A whole number from a journal value or a typed word (never a bool)."""
    if isinstance(raw, bool):
        raise ActionFormatError(f"{kind}: {name} must be a whole number, got {raw!r}")
    try:
        value = int(raw)
    except (TypeError, ValueError):
        raise ActionFormatError(f"{kind}: {name} must be a whole number, got {raw!r}") from None
    if minimum is not None and value < minimum:
        raise ActionFormatError(f"{kind}: {name} must be {minimum} or more, got {value}")
    return value


def one_of(
    kind: str, name: str, raw: Any, choices: Collection[str], case: Callable[[str], str]
) -> str:
    """One of ``choices``, compared after ``case`` (``str.upper``, ``str.lower``)."""
    text = case(str(raw))
    if text not in choices:
        raise ActionFormatError(f"{kind}: {name} must be one of {', '.join(choices)}, got {raw!r}")
    return text


def text(kind: str, name: str, raw: Any) -> str:
    """Non-empty text."""
    if not isinstance(raw, str) or not raw:
        raise ActionFormatError(f"{kind}: {name} must be text, got {raw!r}")
    return raw
