"""Opening a store: chosen by URL, schema created once, WAL, private file, newer schemas refused."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

import pytest

from mcpwall.errors import ConfigError
from mcpwall.store import Pin, SqliteStore, Store, default_store, open_store


def test_sqlite_url_and_plain_path_open_the_same_database(tmp_path: Path) -> None:
    path = tmp_path / "state" / "mcpwall.db"
    with SqliteStore(path) as first:
        first.put_pin(Pin("s", "t", "h" * 64, {"name": "t"}, "new", 1.0, 1.0))

    for opened in (open_store(f"sqlite://{path}"), open_store(str(path)), open_store(path)):
        assert [p.tool for p in opened.list_pins()] == ["t"]
        opened.close()


@pytest.mark.parametrize("url", ["postgresql://mcpwall@db/mcpwall", "postgres://db/x"])
def test_postgresql_url_is_refused_clearly_for_now(url: str) -> None:
    with pytest.raises(ConfigError, match="PostgreSQL store is not implemented"):
        open_store(url)


@pytest.mark.parametrize("url", ["redis://localhost", "sqlite://relative.db", "sqlite://"])
def test_unusable_url_is_a_config_error(url: str) -> None:
    with pytest.raises(ConfigError):
        open_store(url)


def test_database_is_private_and_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "mcpwall.db"
    SqliteStore(path).close()

    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    conn.close()


def test_reopening_keeps_one_schema_version_row(tmp_path: Path) -> None:
    path = tmp_path / "mcpwall.db"
    for _ in range(3):
        SqliteStore(path).close()

    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(1,)]
    finally:
        conn.close()


def test_database_from_a_newer_mcpwall_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "mcpwall.db"
    SqliteStore(path).close()
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE schema_version SET version = 99")
    conn.close()

    with pytest.raises(ConfigError, match="schema 99"):
        SqliteStore(path)


def test_a_file_that_is_not_a_database_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "mcpwall.db"
    path.write_bytes(b"not a database, just some bytes " * 100)

    with pytest.raises(ConfigError, match="cannot open the state database"):
        SqliteStore(path)


def test_default_store_lives_in_the_state_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCPWALL_STATE_DIR", str(tmp_path / "state"))

    store: Store = default_store()
    store.close()

    assert (tmp_path / "state" / "mcpwall.db").exists()
