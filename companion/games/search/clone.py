"""A fast copy of a game state, for search: the search plays thousands of moves on copies.

Rebuilding a state from its history (``Game.replay``) checks every action again and takes
milliseconds; a search needs a copy per iteration. :func:`clone` copies what a state can
change and shares what it cannot: the config, frozen dataclasses (data files, maps), the
history's actions (frozen) and the setup events. Lists, dicts and sets are copied level
by level; any other object (a team, a fight) is copied attribute by attribute, and a
method bound to the state (a fight's ``emit``) is bound to the copy. The copy starts
with an empty legality cache.
"""

from __future__ import annotations

import copy
from dataclasses import is_dataclass
from types import MethodType
from typing import Any, TypeVar

from companion.records import Record

S = TypeVar("S")

_ATOMS = (int, float, str, bool, bytes, type(None), frozenset)
#: attributes of a GameState that are never copied: config and setup events are shared,
#: the legality cache starts empty, the last action's events are not the copy's
_SHARED = frozenset({"config", "initial_events"})
_RESET: dict[str, Any] = {"_legal": None, "_legal_set": None, "_playable": None}
_EMPTY = frozenset({"_events", "_outcomes"})
#: tuples found immutable, by id (kept alive here, so an id is never reused meanwhile)
_CONSTANT: dict[int, tuple[Any, ...]] = {}


def _frozen(value: Any) -> bool:
    if isinstance(value, Record):  # actions too; a mutable record is copied
        return value._frozen
    params = getattr(type(value), "__dataclass_params__", None)
    return params is not None and params.frozen and is_dataclass(value)


def _copy(value: Any, memo: dict[int, Any]) -> Any:
    if isinstance(value, _ATOMS):
        return value
    kind = type(value)
    if kind is list:
        return [v if isinstance(v, _ATOMS) else _copy(v, memo) for v in value]
    if kind is dict:
        return {k: v if isinstance(v, _ATOMS) else _copy(v, memo) for k, v in value.items()}
    if kind is set:
        return set(value)  # members are hashable, so immutable
    if kind is tuple:
        if _CONSTANT.get(id(value)) is value:
            return value
        if all(isinstance(v, _ATOMS) or _frozen(v) for v in value):
            if len(_CONSTANT) > 4096:
                _CONSTANT.clear()
            _CONSTANT[id(value)] = value  # the same tuple comes back in every copy
            return value
        return tuple(_copy(v, memo) for v in value)
    if _frozen(value):
        return value
    found = memo.get(id(value))
    if found is None:
        found = _copy_object(value, memo)
    return found


def _copy_object(value: Any, memo: dict[int, Any]) -> Any:
    """A plain object (a team, a fight): a new instance with its attributes copied; a
    method bound to a copied object is bound to its copy."""
    if isinstance(value, MethodType):
        owner = memo.get(id(value.__self__))
        return value if owner is None else MethodType(value.__func__, owner)
    kind = type(value)
    if kind.__module__ == "builtins" or callable(value):
        return copy.deepcopy(value, memo)
    new = object.__new__(kind)
    memo[id(value)] = new
    if hasattr(value, "__dict__"):
        new.__dict__.update({k: _copy(v, memo) for k, v in vars(value).items()})
    for name in getattr(kind, "__slots__", ()):
        if hasattr(value, name):
            object.__setattr__(new, name, _copy(getattr(value, name), memo))
    return new


def clone(state: S) -> S:
    """An independent copy of ``state``: applying actions to it leaves ``state`` unchanged."""
    new = object.__new__(type(state))
    memo: dict[int, Any] = {id(state): new}
    attributes = [*vars(state).items(), *_slot_items(state)]
    for key, value in attributes:
        if isinstance(value, _ATOMS):
            pass
        elif key in _SHARED or _frozen(value):
            memo[id(value)] = value
    for key, value in attributes:
        if key in _RESET:
            value = _RESET[key]
        elif key in _EMPTY:
            value = []
        elif key == "history":
            value = list(value)
        elif key not in _SHARED:
            value = _copy(value, memo)
        object.__setattr__(new, key, value)
    return new


def _slot_items(state: Any) -> list[tuple[str, Any]]:
    """The attributes a state keeps in ``__slots__`` (an engine may, for speed), set ones."""
    missing = object()
    items = []
    for cls in type(state).__mro__:
        for name in cls.__dict__.get("__slots__", ()):
            value = getattr(state, name, missing)
            if value is not missing:
                items.append((name, value))
    return items
