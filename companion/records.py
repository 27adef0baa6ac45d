"""Records that cost little to define: a dataclass whose methods are compiled on first use.

On Python 3.11 (a Pi OS Bookworm table's) ``@dataclass(frozen=True)`` compiles six
functions a class, one ``exec`` each (``__init__``, ``__repr__``, ``__eq__``,
``__setattr__``, ``__delattr__``, ``__hash__``): 0.5 to 2.3 ms a class here, ten times
that on a Pi Zero 2 W, paid at import for every record ``companion serve`` loads before it
is ready (issue 18; ``bench/import_time.py``). A :class:`Record` subclass is written as a
frozen dataclass is, without a decorator::

    class Face(Record):
        id: str
        label: str
        count: int = 1
        extras: tuple[str, ...] = field(default=(), compare=False)

It is a dataclass as far as :func:`dataclasses.fields`, :func:`~dataclasses.replace`,
:func:`~dataclasses.asdict` and :func:`~dataclasses.is_dataclass` see (``dataclass()``
reads its fields, with ``init``, ``repr`` and ``eq`` off), and it behaves as a frozen
dataclass does: positional and keyword arguments with defaults and default factories;
``__post_init__`` runs if the class has one; equal when of the same class with equal
compared fields, hashed as the tuple of those; shown as ``Face(id='skull', ...)`` (the
fields with ``repr=True``); assigning or deleting an attribute raises
:class:`~dataclasses.FrozenInstanceError`. The one difference: its ``__init__``,
``__eq__`` and ``__hash__`` are compiled together, the code ``dataclass()`` would write,
the first time any of them is called on the class, so a class never constructed or
compared is never compiled.

``class Contact(Record, frozen=False)`` is a mutable record, as ``@dataclass`` (not
frozen) makes it: its fields can be assigned, and it is unhashable unless it writes its own
``__hash__``. A record and its subclasses are all frozen or all mutable.

``class InputEvent(Record, eager=True)`` compiles its methods when the class is defined:
for a record made where no time may be lost (a press on the way to the coil), so that the
first one made is not the one that pays.

Not supported (an error when the class is defined):
``InitVar`` and keyword-only fields, ``field(init=False)``; a class that needs them, or
``slots``, stays a dataclass.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import MISSING, FrozenInstanceError, dataclass, field
from typing import Any, ClassVar, dataclass_transform


@dataclass_transform(frozen_default=True, field_specifiers=(field, dataclasses.Field))
class Record:
    """Base class of a record, frozen unless ``frozen=False`` (see the module's
    documentation)."""

    #: per subclass: the fields shown by ``repr``, compared by ``==`` and hashed; frozen
    _shown: ClassVar[tuple[str, ...]] = ()
    _compared: ClassVar[tuple[str, ...]] = ()
    _hashed: ClassVar[tuple[str, ...]] = ()
    _frozen: ClassVar[bool] = True

    def __init_subclass__(
        cls, frozen: bool | None = None, eager: bool = False, **kwargs: Any
    ) -> None:
        super().__init_subclass__(**kwargs)
        inherited = {
            b._frozen for b in cls.__mro__[1:-1] if issubclass(b, Record) and b is not Record
        }
        if frozen is None:
            frozen = inherited.pop() if inherited else True
        elif inherited - {frozen}:
            raise TypeError(
                f"{cls.__qualname__}: a record and its bases are all frozen or all mutable"
            )
        cls._frozen = frozen
        if not frozen:  # as @dataclass: fields assignable, unhashable (unless its own)
            cls.__setattr__ = object.__setattr__  # type: ignore[assignment]
            cls.__delattr__ = object.__delattr__  # type: ignore[assignment]
        own_doc = cls.__dict__.get("__doc__") is not None
        if not own_doc:
            cls.__doc__ = cls.__name__  # (not empty) else dataclass() works a signature out (slow)
        dataclass(init=False, repr=False, eq=False)(cls)
        declared = cls.__dataclass_fields__.values()  # type: ignore[attr-defined]
        odd = [f.name for f in declared if f._field_type is dataclasses._FIELD_INITVAR]  # type: ignore[attr-defined]
        found = dataclasses.fields(cls)  # type: ignore[arg-type]
        odd += [f.name for f in found if f.kw_only is True or not f.init]
        if odd:
            raise TypeError(f"{cls.__qualname__}: Record fields {odd} must be plain fields")
        defaulted = False
        for f in found:
            has_default = f.default is not MISSING or f.default_factory is not MISSING
            if defaulted and not has_default:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
            defaulted = defaulted or has_default
        cls._shown = tuple(f.name for f in found if f.repr)
        cls._compared = tuple(f.name for f in found if f.compare)
        cls._hashed = tuple(f.name for f in found if (f.compare if f.hash is None else f.hash))
        # as dataclass() decides: a class's own __init__, __eq__ and __hash__ stay (a
        # __hash__ = None that Python wrote for an own __eq__ is not one); a mutable
        # record without its own __hash__ is unhashable
        own_hash = cls.__dict__.get("__hash__", MISSING)
        explicit_hash = not (own_hash is MISSING or (own_hash is None and "__eq__" in cls.__dict__))
        for name, method in _FIRST_USE.items():  # each class compiles its own on first use
            if name == "__hash__" and not explicit_hash:
                cls.__hash__ = method if frozen else None  # type: ignore[assignment]
            elif name not in cls.__dict__:
                setattr(cls, name, method)
        if not own_doc:  # as dataclass() writes it: ``Face(id: 'str', count: 'int' = 1)``
            shown = (
                f"{f.name}: {f.type!r}"
                + ("" if f.default is MISSING else f" = {f.default!r}")
                + ("" if f.default_factory is MISSING else " = <factory>")
                for f in found
            )
            cls.__doc__ = f"{cls.__name__}({', '.join(shown)})"
        if eager:  # made where no time may be lost: never compiled there
            _compiled(cls, "__init__")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _compiled(type(self), "__init__")(self, *args, **kwargs)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown)
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self, other: object) -> bool:
        return _compiled(type(self), "__eq__")(self, other)  # type: ignore[no-any-return]

    def __hash__(self) -> int:
        return _compiled(type(self), "__hash__")(self)  # type: ignore[no-any-return]

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


#: the default-factory marker of a compiled ``__init__`` (dataclasses has its own)
_FACTORY = object()


def _source(cls: type[Record]) -> tuple[str, dict[str, Any]]:
    """The code ``dataclass()`` would write for the class's ``__init__``, ``__eq__`` and
    ``__hash__``, and the names it uses."""
    scope: dict[str, Any] = {"_set": object.__setattr__, "_FACTORY": _FACTORY}
    params, sets = [], []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        name = f.name
        if f.default_factory is not MISSING:
            scope[f"_make_{name}"] = f.default_factory
            params.append(f", {name}=_FACTORY")
            value = f"_make_{name}() if {name} is _FACTORY else {name}"
        else:
            if f.default is not MISSING:
                scope[f"_dflt_{name}"] = f.default
                params.append(f", {name}=_dflt_{name}")
            else:
                params.append(f", {name}")
            value = name
        sets.append(f"\n    _set(self, {name!r}, {value})")
    post = "\n    self.__post_init__()" if hasattr(cls, "__post_init__") else ""
    mine = "".join(f"self.{n}," for n in cls._compared)
    theirs = "".join(f"other.{n}," for n in cls._compared)
    hashed = "".join(f"self.{n}," for n in cls._hashed)
    source = (
        f"def __init__(self{''.join(params)}):{''.join(sets)}{post}\n    pass\n"
        "def __eq__(self, other):\n"
        "    if other.__class__ is self.__class__:\n"
        f"        return ({mine}) == ({theirs})\n"
        "    return NotImplemented\n"
        f"def __hash__(self):\n    return hash(({hashed}))\n"
    )
    return source, scope


def _compiled(cls: type[Record], name: str) -> Callable[..., Any]:
    """The class's own method ``name``, compiled with its siblings on the first call of
    any of them (one ``exec`` a class)."""
    if cls.__dict__.get(name) is _FIRST_USE[name]:
        source, scope = _source(cls)
        exec(source, scope)  # noqa: S102 - our own code, from the class's field names
        for method_name, first in _FIRST_USE.items():
            if cls.__dict__.get(method_name) is first:  # not one the class wrote itself
                method = scope[method_name]
                method.__qualname__ = f"{cls.__qualname__}.{method_name}"
                setattr(cls, method_name, method)
    return getattr(cls, name)  # type: ignore[no-any-return]


_FIRST_USE = {
    "__init__": Record.__init__,
    "__eq__": Record.__eq__,
    "__hash__": Record.__hash__,
}
