"""What every game's config checks the same way: player counts, seat names, seats,
the data file, and reading a config back from its dict form (a journal header).

Each engine's config is a frozen dataclass (Battle Royale's a
:class:`~companion.records.Record`, which starts faster) whose ``__post_init__`` validates
it with these helpers and raises :class:`ConfigError` with a message that names the setting.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields
from typing import Any, ClassVar, TypeVar

from companion.games.core.errors import ConfigError, DataError

T = TypeVar("T")
C = TypeVar("C", bound="ConfigDict")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_count(value: Any, low: int, high: int, name: str = "players") -> int:
    """A whole number ``low..high``: ``players must be 2, 3 or 4, got 5``."""
    if not _whole(value) or not low <= value <= high:
        if high - low <= 3:
            options = [str(n) for n in range(low, high + 1)]
            allowed = f"{', '.join(options[:-1])} or {options[-1]}"
        else:
            allowed = f"{low}..{high}"
        raise ConfigError(f"{name} must be {allowed}, got {value!r}")
    return value


def check_names(
    names: Sequence[str], players: int, known: Sequence[str], what: str = "colour"
) -> tuple[str, ...]:
    """One different name (colour, house) per seat, from ``known``; empty: the first ones."""
    chosen = tuple(names) or tuple(known[:players])
    if len(chosen) != players or len(set(chosen)) != len(chosen):
        raise ConfigError(f"{what}s must name {players} different {what}s, got {list(chosen)}")
    unknown = [c for c in chosen if c not in known]
    if unknown:
        raise ConfigError(f"unknown {what}(s) {unknown}; choose from {', '.join(known)}")
    return chosen


def check_seat(value: Any, players: int, name: str, note: str, drawn: bool = False) -> None:
    """A seat ``0..players-1`` (or ``None`` when ``drawn``: a chance node picks it)."""
    if drawn and value is None:
        return
    if not _whole(value) or not 0 <= value < players:
        either = " or None (drawn)" if drawn else ""
        raise ConfigError(f"{name} must be a seat 0..{players - 1}{note}{either}, got {value!r}")


def load_for_config(load: Callable[[Any], T], path: Any) -> T:
    """Load a data file for a config: a bad file is a bad config (the setting named)."""
    try:
        return load(path)
    except DataError as exc:
        raise ConfigError(str(exc)) from None


class ConfigDict:
    """``from_dict`` for a frozen config dataclass: its keys are the dataclass's init
    fields (not those starting with ``_``); ``TUPLES`` are lists in the dict form."""

    TUPLES: ClassVar[tuple[str, ...]] = ("colours",)
    WHAT: ClassVar[str] = "config"

    @classmethod
    def dict_values(cls, data: Any) -> dict[str, Any]:
        """The constructor's arguments from a dict; unknown keys are refused."""
        if not isinstance(data, dict):
            raise ConfigError(f"a {cls.WHAT} must be an object, got {data!r}")
        known = {f.name for f in fields(cls) if f.init and not f.name.startswith("_")}  # type: ignore[arg-type]
        unknown = set(data) - known
        if unknown:
            raise ConfigError(
                f"unknown {cls.WHAT} key(s) {sorted(unknown)}; known: {sorted(known)}"
            )
        values = dict(data)
        for key in cls.TUPLES:
            if values.get(key) is not None:
                values[key] = tuple(values[key])
        return values

    @classmethod
    def from_dict(cls: type[C], data: Any) -> C:
        return cls(**cls.dict_values(data))
