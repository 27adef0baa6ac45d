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
from operator import attrgetter
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
    but its methods are this class's, shared by every action instead of generated and
    compiled for each class (``dataclass()`` compiles six functions a class: 24 Battle
    Royale actions took 20 ms to import). They behave as a frozen dataclass's do:
    ``StartFigure(6, "purple")``, keywords and defaults; equal when of the same class
    with equal fields, hashed as the tuple of the fields, shown as
    ``StartFigure(field=6, colour='purple')``; assigning a field raises
    :class:`~dataclasses.FrozenInstanceError`; ``__post_init__`` runs if a class has one.
    """

    kind: ClassVar[str] = ""
    is_chance: ClassVar[bool] = False
    is_correction: ClassVar[bool] = False
    #: the field names in order, their defaults, the fields as a tuple (for ``==`` and
    #: ``hash``), whether ``__post_init__`` runs: set per subclass
    _names: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, Any]] = {}
    _values: ClassVar[Callable[[Any], tuple[Any, ...]]] = staticmethod(lambda action: ())
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
        cls._names = names = tuple(f.name for f in found)
        cls._defaults = {f.name: f.default for f in found if f.default is not MISSING}
        cls._values = staticmethod(_values_getter(names))
        cls._post_init = hasattr(cls, "__post_init__")
        if not own_doc:  # as dataclass() writes it: ``Step(direction: 'str')``
            shown = (
                f"{f.name}: {f.type!r}" + ("" if f.default is MISSING else f" = {f.default!r}")
                for f in found
            )
            cls.__doc__ = f"{cls.__name__}({', '.join(shown)})"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        names = self._names
        if kwargs or len(args) != len(names):
            args = _bind(type(self), args, kwargs)
        for name, value in zip(names, args, strict=True):
            _set(self, name, value)
        if self._post_init:
            self.__post_init__()  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._names)
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values(self) == other._values(other)  # type: ignore[attr-defined]
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values(self))

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


_set = object.__setattr__


def _values_getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving an action's fields as a tuple (what a dataclass compares and
    hashes)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda action: (one(action),)
    return lambda action: ()


def _bind(cls: type[Action], args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """The field values from positional and keyword arguments and the defaults, refused
    as a dataclass's ``__init__`` refuses them."""
    names = cls._names
    if len(args) > len(names):
        raise TypeError(
            f"{cls.__qualname__}.__init__() takes {len(names) + 1} positional arguments "
            f"but {len(args) + 1} were given"
        )
    values = list(args)
    for name in names[: len(args)]:
        if name in kwargs:
            raise TypeError(f"{cls.__qualname__}.__init__() got multiple values for {name!r}")
    for name in names[len(args) :]:
        if name in kwargs:
            values.append(kwargs.pop(name))
        elif name in cls._defaults:
            values.append(cls._defaults[name])
        else:
            raise TypeError(f"{cls.__qualname__}.__init__() missing 1 required argument: {name!r}")
    if kwargs:
        raise TypeError(
            f"{cls.__qualname__}.__init__() got an unexpected keyword argument "
            f"{next(iter(kwargs))!r}"
        )
    return tuple(values)


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
