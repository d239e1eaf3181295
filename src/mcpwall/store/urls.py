"""Choosing a store backend from a URL, as ``limits`` chooses its storage.

``sqlite:///abs/path.db`` (or a plain filesystem path) opens a `SqliteStore`;
``postgresql://...`` is reserved for the multi-machine backend, not built yet.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

from mcpwall.errors import ConfigError
from mcpwall.state import DATABASE_FILE, state_dir
from mcpwall.store.interface import Store
from mcpwall.store.sqlite import SqliteStore

_POSTGRES = ("postgresql", "postgres", "postgresql+psycopg")


def open_store(url_or_path: str | Path) -> Store:
    """Open the store named by a URL or a path.

    Args:
        url_or_path: ``sqlite:///abs/path``, ``sqlite://`` + a relative path, or a plain path.

    Raises:
        ConfigError: an unknown scheme, a PostgreSQL URL (not supported yet), or a database
            that cannot be opened.
    """
    if isinstance(url_or_path, Path):
        return SqliteStore(url_or_path)
    parts = urlsplit(url_or_path)
    if len(parts.scheme) <= 1:  # no scheme, or a Windows drive letter
        return SqliteStore(Path(url_or_path).expanduser())
    if parts.scheme == "sqlite":
        if parts.netloc or not parts.path:
            raise ConfigError(f"expected sqlite:///path/to/file.db, got {url_or_path!r}", path="store")
        return SqliteStore(Path(unquote(parts.path)))
    if parts.scheme in _POSTGRES:
        raise ConfigError("the PostgreSQL store is not implemented yet; use sqlite:///path", path="store")
    raise ConfigError(f"unknown store scheme {parts.scheme!r} (expected sqlite:// or a path)", path="store")


def default_store(configured_state_dir: str | None = None) -> Store:
    """The store in the state directory (``mcpwall.db``), as every command opens it.

    Args:
        configured_state_dir: the configuration's ``state_dir``, if any.
    """
    return SqliteStore(state_dir(configured_state_dir) / DATABASE_FILE)
