"""Shared fixtures: a private state directory per test, and launch parameters for mcpwall.

Tests drive mcpwall as a real process (``python -m mcpwall run -- ...``) with the official MCP
SDK client, in front of real servers: the SDK fixture servers in tests/servers, PyPI servers
from the venv and npm servers from node_modules (installed from package-lock.json).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
import yaml
from mcp import StdioServerParameters

ROOT = Path(__file__).resolve().parent.parent
SERVERS = ROOT / "tests" / "servers"
NODE_BIN = ROOT / "node_modules" / ".bin"
VENV_BIN = Path(sys.executable).parent


ALLOW_EVERYTHING = {
    "overrides": [{"match": "*", "level": "AUTO_APPROVE", "rationale": "tests not about the gatekeeper"}],
    "danger_zone": {"budget": 1_000_000},
}
"""Tests that are not about the gatekeeper run with an operator override that sets every
operation to AUTO_APPROVE, so that confirmation does not stand in their way."""


def fixture_server(name: str, *args: str) -> list[str]:
    """The command that starts a fixture server from tests/servers."""
    return [sys.executable, str(SERVERS / f"{name}.py"), *args]


def npm_server(binary: str, *args: str) -> list[str]:
    """The command that starts an npm server installed from package-lock.json."""
    path = NODE_BIN / binary
    if not path.exists():
        pytest.fail(f"{path} is missing: run `npm ci` (the test command does)")
    return [str(path), *args]


def pypi_server(binary: str, *args: str) -> list[str]:
    """The command that starts a PyPI server installed in this venv."""
    path = VENV_BIN / binary
    found = str(path) if path.exists() else shutil.which(binary)
    if found is None:
        pytest.fail(f"{binary} is not installed: install the dev extras")
    return [found, *args]


class Wall:
    """Launches mcpwall with a private state directory and optional config."""

    def __init__(self, state: Path, workdir: Path) -> None:
        self.state = state
        self.workdir = workdir
        self.fixture_log = workdir / "fixture-calls.jsonl"
        self.audit = state / "audit.jsonl"

    def write_config(self, data: dict[str, object]) -> Path:
        """Write a YAML config; FIXTURE_LOG is always let through to the server.

        Without a ``gatekeeper`` section the config gets `ALLOW_EVERYTHING`.
        """
        given = data.pop("environment", None)
        env: dict[str, list[str]] = dict(given) if isinstance(given, dict) else {}
        env.setdefault("allowed_env", [])
        env["allowed_env"] = [*env["allowed_env"], "FIXTURE_LOG", "EXTRAS_INSTRUCTIONS"]
        data.setdefault("gatekeeper", ALLOW_EVERYTHING)
        path = self.workdir / "mcpwall.yaml"
        path.write_text(yaml.safe_dump({**data, "environment": env}), encoding="utf-8")
        return path

    def argv(self, command: Sequence[str], *, config: Path | None = None, name: str | None = None) -> list[str]:
        """The argv of ``mcpwall run`` in front of ``command``."""
        argv = [sys.executable, "-m", "mcpwall", "run"]
        argv += ["--config", str(config or self.write_config({}))]
        if name:
            argv += ["--name", name]
        return [*argv, "--", *command]

    def env(self, **extra: str) -> dict[str, str]:
        """mcpwall's own environment: minimal, plus the state directory and fixture log."""
        env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG") if k in os.environ}
        env.update(MCPWALL_STATE_DIR=str(self.state), FIXTURE_LOG=str(self.fixture_log))
        env.update(extra)
        return env

    def params(
        self, command: Sequence[str], *, config: Path | None = None, name: str | None = None, **env: str
    ) -> StdioServerParameters:
        """SDK launch parameters for mcpwall in front of ``command``."""
        argv = self.argv(command, config=config, name=name)
        return StdioServerParameters(command=argv[0], args=argv[1:], env=self.env(**env), cwd=str(self.workdir))

    def received_calls(self) -> list[dict[str, object]]:
        """The tools/call requests the upstream fixture server actually received."""
        import orjson

        if not self.fixture_log.exists():
            return []
        return [orjson.loads(line) for line in self.fixture_log.read_bytes().splitlines() if line.strip()]


@pytest.fixture
def wall(tmp_path: Path) -> Wall:
    """A mcpwall launcher with its own state directory under tmp_path."""
    state = tmp_path / "state"
    work = tmp_path / "work"
    work.mkdir()
    return Wall(state, work)


@pytest.fixture
def anyio_backend() -> str:
    """Async tests run on asyncio (the backend mcpwall itself uses)."""
    return "asyncio"


def fixture_spec(name: str, *args: str) -> dict[str, object]:
    """A ``servers:`` entry that starts a fixture server (FIXTURE_LOG passed through)."""
    return {
        "command": sys.executable,
        "args": [str(SERVERS / f"{name}.py"), *args],
        "environment": {"allowed_env": ["FIXTURE_LOG"]},
    }


def free_port() -> int:
    """A loopback TCP port nothing listens on now."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, within: float = 30.0) -> None:
    """Wait (bounded) until something accepts connections on a loopback port."""
    import socket
    import time

    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        with socket.socket() as attempt:
            if attempt.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    pytest.fail(f"nothing listens on 127.0.0.1:{port} after {within} s")


def announced_url(process: subprocess.Popen[bytes], stderr: Path, within: float = 30.0) -> str:
    """The URL ``mcpwall serve --http`` prints on stderr once it listens (bounded wait; fails when
    the gateway exits first)."""
    import re
    import time

    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        found = re.search(r"mcpwall: serving MCP on (http://\S+)", stderr.read_text(encoding="utf-8", errors="replace"))
        if found:
            return found.group(1)
        if process.poll() is not None:
            pytest.fail(f"the gateway exited ({process.returncode}) before listening: {stderr.read_text()[-2000:]}")
        time.sleep(0.05)
    pytest.fail(f"the gateway printed no URL within {within} s")


def stop_process(process: subprocess.Popen[bytes], grace: float = 20.0) -> None:
    """Terminate a test's child process, killing it when it outlives ``grace`` seconds."""
    process.terminate()
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)
