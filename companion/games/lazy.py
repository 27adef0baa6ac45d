"""Names a package gives from its modules on first use (PEP 562 module ``__getattr__``).

A package that re-exports its modules' names would import every module the moment any
one of them is imported (Python runs a package's ``__init__`` first): ``companion serve``
would pay for the full engines before it is ready, where it needs only their
configurations. With :func:`lazy_names` a package's ``__init__`` stays empty of imports
and each name is imported the first time it is read, then kept in the package.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib import import_module


def lazy_names(package: str, names: dict[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``package``: reading ``name`` imports the package's
    module ``names[name]`` and gives its ``name`` (kept in the package from then on);
    any other name is an :class:`AttributeError`, as for any module."""

    def __getattr__(name: str) -> object:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
