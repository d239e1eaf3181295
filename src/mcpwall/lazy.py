"""Packages whose public API is imported on first use, to keep ``mcpwall run``'s start-up short."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from importlib import import_module
from typing import Any


def lazy_exports(package: str, homes: Mapping[str, Sequence[str]]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports ``package.MODULE`` when one of its names is used.

    Args:
        package: the package's dotted name.
        homes: submodule name → the public names it defines.
    """
    where = {name: module for module, names in homes.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(import_module(f"{package}.{module}"), name)

    return __getattr__
