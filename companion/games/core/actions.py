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
from dataclasses import MISSING, FrozenInstanceError, dataclass, fields
from typing import Any, ClassVar, Generic, TypeVar, dataclass_transform

A = TypeVar("A", bound="Action")
Convert = Callable[[type[Any], str, Any], Any]


class ActionFormatError(ValueError):
    """Text or data that is not an action; the message says the expected form."""


@dataclass_transform(frozen_default=True)
class Action:
    """Base class. An action is an immutable record, so it can be compared, hashed, listed
    by ``legal_actions()`` and written to a log; a subclass is one without a decorator::

        class Step(Action, kind="step"):  # one field in a direction
            direction: str

    ``kind`` names the action in notation and in logs; ``chance=True`` marks an outcome of
    a chance node (a die face, a card drawn), ``correction=True`` what really happened on
    the table that the rules cannot know. A field that defaults to ``None`` is optional: it
    is left out of the dict form while it is ``None``, so adding one keeps old journals
    readable and their records unchanged.

    Each subclass is a dataclass as far as :func:`dataclasses.fields` and
    :func:`~dataclasses.is_dataclass` see (its fields, in order, with their defaults),
    but its methods are made on first use, not at import: ``dataclass()`` compiles six
    functions a class (24 Battle Royale actions took 20 ms to import); here the first
    construction, comparison or hash of a class compiles its ``__init__``, ``__eq__`` and
    ``__hash__`` at once (the code ``dataclass()`` would write), and classes never used
    are never compiled. They behave as a frozen dataclass's do:
    ``StartFigure(6, "purple")``, keywords and defaults; equal when of the same class
    with equal fields, hashed as the tuple of the fields, shown as
    ``StartFigure(field=6, colour='purple')``; assigning a field raises
    :class:`~dataclasses.FrozenInstanceError`; ``__post_init__`` runs if a class has one.
    """

    kind: ClassVar[str] = ""
    is_chance: ClassVar[bool] = False
    is_correction: ClassVar[bool] = False
    #: the field names in order, their defaults, whether ``__post_init__`` runs: set per
    #: subclass
    _names: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}
    _post_init: ClassVar[bool] = False

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
        own_doc = cls.__dict__.get("__doc__") is not None
        if not own_doc:
            cls.__doc__ = ""  # dataclass() would work a signature out for it (slow)
        # the fields as dataclasses reads them (no method is generated: init, repr and eq
        # are off, and the frozen check is this class's __setattr__)
        dataclass(init=False, repr=False, eq=False)(cls)
        found = fields(cls)  # type: ignore[arg-type]
        assert all(f.default_factory is MISSING for f in found), "no default factories"
        cls._names = tuple(f.name for f in found)
        cls._defaults = {f.name: f.default for f in found if f.default is not MISSING}
        cls._post_init = hasattr(cls, "__post_init__")
        for name, method in _FIRST_USE.items():  # each class compiles its own on first use
            if name not in cls.__dict__:
                setattr(cls, name, method)
        if not own_doc:  # as dataclass() writes it: ``Step(direction: 'str')``
            shown = (
                f"{f.name}: {f.type!r}" + ("" if f.default is MISSING else f" = {f.default!r}")
                for f in found
            )
            cls.__doc__ = f"{cls.__name__}({', '.join(shown)})"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _compiled(type(self), "__init__")(self, *args, **kwargs)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._names)
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self, other: object) -> bool:
        return _compiled(type(self), "__eq__")(self, other)  # type: ignore[no-any-return]

    def __hash__(self) -> int:
        return _compiled(type(self), "__hash__")(self)  # type: ignore[no-any-return]

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

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


def _compiled(cls: type[Action], name: str) -> Callable[..., Any]:
    """The class's own method ``name``, compiled with its siblings on the first call of
    any of them (what ``dataclass(frozen=True)`` generates, one ``exec`` a class)."""
    if cls.__dict__.get(name) is _FIRST_USE[name]:
        names = cls._names
        fields_ = "".join(f"self.{n}," for n in names)
        others = "".join(f"other.{n}," for n in names)
        params = "".join(f", {n}=_dflt_{n}" if n in cls._defaults else f", {n}" for n in names)
        sets = "".join(f"\n    _set(self, {n!r}, {n})" for n in names)
        post = "\n    self.__post_init__()" if cls._post_init else ""
        source = (
            f"def __init__(self{params}):{sets}{post}\n    pass\n"
            "def __eq__(self, other):\n"
            "    if other.__class__ is self.__class__:\n"
            f"        return ({fields_}) == ({others})\n"
            "    return NotImplemented\n"
            f"def __hash__(self):\n    return hash(({fields_}))\n"
        )
        scope: dict[str, Any] = {"_set": object.__setattr__}
        scope.update({f"_dflt_{n}": v for n, v in cls._defaults.items()})
        exec(source, scope)  # noqa: S102 - our own code, from the class's field names
        for method_name, first in _FIRST_USE.items():
            if cls.__dict__.get(method_name) is first:  # not one the class wrote itself
                method = scope[method_name]
                method.__qualname__ = f"{cls.__qualname__}.{method_name}"
                setattr(cls, method_name, method)
    return getattr(cls, name)  # type: ignore[no-any-return]


_FIRST_USE = {
    "__init__": Action.__init__,
    "__eq__": Action.__eq__,
    "__hash__": Action.__hash__,
}


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


@dataclass(frozen=True)
class ActionCodec(Generic[A]):
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
