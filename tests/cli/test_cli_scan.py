"""``mcpwall scan``: real servers started from a client or mcpwall config, inspected and pinned."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml
from operator_cli import OperatorCli

SERVERS = Path(__file__).resolve().parent.parent / "servers"


def fixture(name: str, *args: str) -> dict[str, Any]:
    """A client-config entry that starts a fixture server from tests/servers."""
    return {"command": sys.executable, "args": [str(SERVERS / f"{name}.py"), *args]}


def client_config(tmp_path: Path, servers: dict[str, Any], key: str = "mcpServers") -> Path:
    path = tmp_path / "claude_desktop_config.json"
    path.write_text(json.dumps({key: servers}), encoding="utf-8")
    return path


def summary_row(stdout: str, server: str) -> list[str]:
    """The cells of one server's row in the summary table."""
    for line in stdout.splitlines():
        cells = [cell.strip() for cell in line.strip("│┃ ").split("│")]
        if cells and cells[0] == server:
            return cells
    raise AssertionError(f"no row for {server} in:\n{stdout}")


def test_scan_pins_every_tool_audits_it_and_exits_1_on_a_poisoned_server(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    config = client_config(tmp_path, {"good": fixture("wellbehaved"), "bad": fixture("poisoned", "shadowing")})

    done = cli("scan", "--client-config", str(config))

    assert done.returncode == 1, done.stderr
    good, bad = summary_row(done.stdout, "good"), summary_row(done.stdout, "bad")
    assert good[1:4] == ["11", "0", "-"]
    assert bad[1:4] == ["2", "1", "high"]
    with cli.store() as store:
        assert len(store.list_pins("good")) == 11
        assert {p.tool: p.max_severity for p in store.list_pins("bad")} == {
            "email_formatter": "high",
            "safe_echo": None,
        }
    seen = [r for r in cli.audit() if r["type"] == "mcp_tool_seen"]
    assert {(r["server"], r["tool"]) for r in seen} >= {("bad", "email_formatter"), ("good", "echo")}
    assert len(seen) == 13


def test_a_second_scan_finds_the_pins_unchanged(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    config = client_config(tmp_path, {"good": fixture("wellbehaved")})
    first = cli("scan", "--client-config", str(config))

    again = cli("scan", "--client-config", str(config))

    assert (first.returncode, again.returncode) == (0, 0), again.stderr
    assert summary_row(first.stdout, "good")[4] == "11 new"
    assert summary_row(again.stdout, "good")[4] == "11 unchanged"


def test_servers_that_fail_or_hang_are_reported_and_the_rest_is_scanned(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    dies = {"command": sys.executable, "args": ["-c", "import sys; sys.stderr.write('boom: no token\\n'); sys.exit(3)"]}
    hangs = {"command": sys.executable, "args": ["-c", "import time; time.sleep(60)"]}
    servers = {
        "good": fixture("wellbehaved"),
        "missing": {"command": str(tmp_path / "no-such-server")},
        "dies": dies,
        "hangs": hangs,
        "needs-secret": {**fixture("wellbehaved"), "env": {"TOKEN": "env:MCPWALL_TEST_UNSET_VARIABLE"}},
    }

    # the timeout leaves the good server room to start on a loaded machine (two test workers)
    done = cli("scan", "--client-config", str(client_config(tmp_path, servers)), "--timeout", "10")

    assert done.returncode == 0, done.stderr
    assert summary_row(done.stdout, "good")[1] == "11"
    assert "error: FileNotFoundError" in summary_row(done.stdout, "missing")[4]
    assert "boom: no token" in summary_row(done.stdout, "dies")[4]
    assert "no tools/list answer within 10 s" in summary_row(done.stdout, "hangs")[4]
    assert "env:MCPWALL_TEST_UNSET_VARIABLE is not set" in summary_row(done.stdout, "needs-secret")[4]
    failed = {r["server"] for r in cli.audit() if r["type"] == "mcp_scan_failed"}
    assert failed == {"missing", "dies", "hangs", "needs-secret"}


def test_vscode_config_is_read_and_remote_servers_are_skipped_with_a_note(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    servers = {
        "bad": {"type": "stdio", **fixture("poisoned", "directive-description")},
        "web": {"type": "http", "url": "https://example.com/mcp"},
    }

    done = cli("scan", "--client-config", str(client_config(tmp_path, servers, key="servers")), "--verbose")

    assert done.returncode == 1
    assert "web: http server (not stdio), skipped" in done.stderr
    assert summary_row(done.stdout, "bad")[3] == "critical"
    assert "combo.secret_file_access" in done.stdout  # --verbose lists the findings


def test_mcpwall_config_servers_are_scanned_into_its_state_dir(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    state = tmp_path / "configured-state"
    entry = fixture("poisoned", "concealment")
    config = {"state_dir": str(state), "inspection": {"alert_threshold": "critical"}, "servers": {"notes": entry}}
    path = tmp_path / "mcpwall.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")

    done = cli("scan", "--config", str(path))

    assert done.returncode == 0, done.stdout + done.stderr  # high findings, but the config alerts at critical
    assert summary_row(done.stdout, "notes")[1:4] == ["2", "0", "high"]
    assert (state / "mcpwall.db").exists()
    assert (state / "audit.jsonl").exists()


def test_scan_needs_exactly_one_config(tmp_path: Path) -> None:
    cli = OperatorCli(tmp_path)
    config = client_config(tmp_path, {})

    assert cli("scan").returncode == 2
    assert cli("scan", "--config", str(config), "--client-config", str(config)).returncode == 2
    nothing = cli("scan", "--client-config", str(config))
    assert nothing.returncode == 2
    assert "no stdio servers" in nothing.stderr
