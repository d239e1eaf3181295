"""The operator CLI as a real process: ``python -m mcpwall ...`` with a private state directory.

A helper module, not a conftest: a second ``conftest`` module name would clash for mypy.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson

from mcpwall.store import SqliteStore


class OperatorCli:
    """Runs mcpwall commands against one state directory and reads what they left behind."""

    def __init__(self, tmp_path: Path) -> None:
        self.state = tmp_path / "state"

    def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Run ``python -m mcpwall ARGS`` (killed after 60 s); never raises on a non-zero exit."""
        env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "USER", "LOGNAME") if k in os.environ}
        env["MCPWALL_STATE_DIR"] = str(self.state)
        argv = [sys.executable, "-m", "mcpwall", *args]
        return subprocess.run(argv, env=env, capture_output=True, text=True, encoding="utf-8", timeout=60, check=False)

    def json(self, *args: str) -> Any:
        """Run a command with ``--json`` and parse its stdout."""
        done = self(*args, "--json")
        assert done.returncode == 0, done.stderr
        return orjson.loads(done.stdout)

    def store(self) -> SqliteStore:
        """The state directory's store, as the gateway would open it."""
        return SqliteStore(self.state / "mcpwall.db")

    def audit(self) -> list[dict[str, Any]]:
        """The audit records written so far."""
        path = self.state / "audit.jsonl"
        return [orjson.loads(line) for line in path.read_bytes().splitlines()] if path.exists() else []
