"""A ``keyring:`` credential end to end: Secret Service -> ``mcpwall serve --stdio`` -> one server.

The secret lives only in a real Secret Service (gnome-keyring on a private D-Bus session, see
tests/keyring_session.py); mcpwall, started by the official SDK client, resolves it when it
starts the fixture server tests/servers/credentialed.py and puts it in that server's
environment. The server reports a hash of what it got and its command line, then echoes the
secret back. The secret, in any of the forms redaction knows (escaped, percent-encoded, base64),
must appear nowhere else: not in the client's view, the audit trail, mcpwall's stderr or the
server's argv.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import keyring
import pytest
import yaml
from keyring.backends.SecretService import Keyring as SecretServiceKeyring
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp_types import TextContent

from conftest import ALLOW_EVERYTHING, SERVERS, Wall
from keyring_session import SecretService, running_secret_service
from mcpwall.credentials.redaction import REDACTED, forms

pytestmark = pytest.mark.anyio

SERVICE, ENTRY = "mcpwall-e2e/upstream", "api-token"
SECRET = "kr-e2e-Secret-9d41c7e2b8"
BACKEND = "keyring.backends.SecretService.Keyring"
"""Named for mcpwall's process through ``PYTHON_KEYRING_BACKEND``: no fallback backend can answer."""


@pytest.fixture
def secret_service(monkeypatch: pytest.MonkeyPatch) -> Iterator[SecretService]:
    """A private Secret Service holding SECRET, the test process's keyring backend meanwhile."""
    previous = keyring.get_keyring()
    with running_secret_service() as service:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", service.address)
        keyring.set_keyring(SecretServiceKeyring())  # type: ignore[no-untyped-call]  # keyring's __init__ is unannotated
        try:
            keyring.set_password(SERVICE, ENTRY, SECRET)
            yield service
        finally:
            keyring.set_keyring(previous)


def serve_params(wall: Wall, service: SecretService) -> StdioServerParameters:
    """``mcpwall serve --stdio`` in front of the credentialed server, its API_TOKEN from the keyring."""
    server = {
        "command": sys.executable,
        "args": [str(SERVERS / "credentialed.py")],
        "environment": {"env": {"API_TOKEN": f"keyring:{SERVICE}/{ENTRY}"}},
    }
    config = {"gatekeeper": ALLOW_EVERYTHING, "audit": {"record_arguments": 1000}, "servers": {"vault": server}}
    path = wall.workdir / "serve.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    env = wall.env(DBUS_SESSION_BUS_ADDRESS=service.address, PYTHON_KEYRING_BACKEND=BACKEND)
    argv = [sys.executable, "-m", "mcpwall", "serve", "--stdio", "--config", str(path)]
    return StdioServerParameters(command=argv[0], args=argv[1:], env=env, cwd=str(wall.workdir))


def text_of(result: object) -> str:
    return "".join(c.text for c in getattr(result, "content", []) if isinstance(c, TextContent))


async def report_and_echo(params: StdioServerParameters, stderr: Path, mode: str) -> tuple[dict[str, Any], str]:
    """The server's credential report and its echo of the credential, as the client sees them."""
    with stderr.open("w", encoding="utf-8") as errlog, anyio.fail_after(90):
        async with Client(stdio_client(params, errlog=errlog), mode=mode) as client:
            await client.list_tools()  # the gateway learns its servers' tools (and starts them) here
            report = await client.call_tool("vault__credential_report", {"name": "API_TOKEN"})
            echoed = await client.call_tool("vault__echo_env", {"name": "API_TOKEN"})
    return json.loads(text_of(report)), text_of(echoed)


def leaked(text: str) -> list[str]:
    """The forms of SECRET found in ``text``."""
    return sorted(form for form in forms(SECRET) if form in text)


@pytest.mark.requirement("env:minimal-server-environment")
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_keyring_credential_reaches_only_its_server_and_is_redacted_everywhere(
    wall: Wall, secret_service: SecretService, mode: str
) -> None:
    params = serve_params(wall, secret_service)
    stderr = wall.workdir / "mcpwall.stderr"

    report, echoed = await report_and_echo(params, stderr, mode)

    assert SECRET not in json.dumps(params.env)
    assert report["set"] is True
    assert (report["length"], report["sha256"]) == (len(SECRET), hashlib.sha256(SECRET.encode()).hexdigest())
    assert report["argv"][1:] == [str(SERVERS / "credentialed.py")]
    assert echoed == REDACTED
    audit = wall.audit.read_text(encoding="utf-8")
    records = [json.loads(line) for line in audit.splitlines()]
    assert [r["tool"] for r in records if r["type"] == "tool_call_completed"] == ["credential_report", "echo_env"]
    assert [(r["server"], r["direction"]) for r in records if r["type"] == "credential_redacted"] == [
        ("vault", "server")
    ]
    assert leaked(audit) == []
    assert leaked(stderr.read_text(encoding="utf-8")) == []
