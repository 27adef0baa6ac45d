"""Snapshots are plain data: JSON types only, in a stable order."""

from __future__ import annotations

from typing import Any


def plain(value: Any) -> Any:
    """``value`` as JSON-able data: dict keys as text, tuples as lists, sets sorted."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted(plain(v) for v in value)
    return value
