"""``mcpwall serve --http``: the SDK client over Streamable HTTP, the front's own checks, and
agents authenticated by JWT (and Ed25519-signed requests) seeing only their own tools."""

from __future__ import annotations

import base64
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import jwt
import orjson
import pytest
import yaml
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from serve_checks import text_of as _text
from serve_checks import unanswered_call_times_out_and_the_session_goes_on

from conftest import ALLOW_EVERYTHING, Wall, announced_url, fixture_spec, npm_server, stop_process
from mcpwall.identity import encode_public_key, sign_request

pytestmark = pytest.mark.anyio
ISSUER, AUDIENCE = "https://auth.mcpwall.test", "mcpwall"
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
}


@contextmanager
def gateway(wall: Wall, **extra: Any) -> Iterator[str]:
    """A running ``mcpwall serve --http`` on a port the system picked (killed afterwards); its /mcp URL.

    The gateway asks for port 0 and the URL is read from the line it prints once it listens, so no
    other test's server (another pytest worker's) can be on that port first.
    """
    config = {"gatekeeper": ALLOW_EVERYTHING, "servers": {"notes": fixture_spec("wellbehaved")}, **extra}
    path = wall.workdir / "http.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    argv = [sys.executable, "-m", "mcpwall", "serve", "--config", str(path), "--http", "127.0.0.1:0"]
    with (wall.workdir / "serve.stderr").open("wb") as stderr:
        process = subprocess.Popen(argv, env=wall.env(), stderr=stderr)
    try:
        yield announced_url(process, wall.workdir / "serve.stderr")
        assert process.poll() is None, f"the gateway exited early: {_stderr_of(wall)}"
    except BaseException:
        sys.stderr.write(f"mcpwall serve --http stderr:\n{_stderr_of(wall)}\n")
        raise
    finally:
        stop_process(process)


def _stderr_of(wall: Wall) -> str:
    return (wall.workdir / "serve.stderr").read_text(encoding="utf-8", errors="replace")[-4000:]


@asynccontextmanager
async def connect(url: str, mode: str = "legacy", token: str | None = None) -> AsyncIterator[Client]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    http = httpx2.AsyncClient(headers=headers, timeout=30)
    async with http, Client(streamable_http_client(url, http_client=http), mode=mode) as client:
        yield client


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_sdk_client_over_http_lists_and_calls_through_the_gateway(wall: Wall, mode: str) -> None:
    servers = {
        "notes": fixture_spec("wellbehaved"),
        "everything": {"command": npm_server("mcp-server-everything", "stdio")[0], "args": ["stdio"]},
    }
    with gateway(wall, servers=servers) as url:
        with anyio.fail_after(90):
            async with connect(url, mode) as client:
                names = {t.name for t in (await client.list_tools()).tools}
                echoed = await client.call_tool("notes__echo", {"text": "over http"})
                everything = await client.call_tool("everything__echo", {"message": "yo"})
    assert {"notes__echo", "everything__echo"} <= names
    assert _text(echoed) == "over http"
    assert "yo" in _text(everything)
    assert [c["name"] for c in wall.received_calls()] == ["echo"]


@pytest.mark.requirement("http:rebinding-and-csrf-refused")
def test_wrong_host_foreign_origin_and_huge_body_are_refused_before_parsing(wall: Wall) -> None:
    body = orjson.dumps(INIT)
    with gateway(wall, http={"max_body_bytes": 2048}) as url:
        rebinding = httpx.post(
            url, content=body, headers={"Host": "evil.example:80", "Content-Type": "application/json"}
        )
        csrf = httpx.post(
            url, content=body, headers={"Origin": "https://evil.example", "Content-Type": "application/json"}
        )
        huge = httpx.post(url, content=b" " * 4096 + body, headers={"Content-Type": "application/json"})
        no_session = httpx.post(url, content=orjson.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))
    assert (rebinding.status_code, csrf.status_code, huge.status_code, no_session.status_code) == (403, 403, 413, 400)
    assert wall.received_calls() == []


def _write_jwks(path: Path, key: Ed25519PrivateKey) -> Path:
    raw = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    x = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    path.write_bytes(
        orjson.dumps({"keys": [{"kty": "OKP", "crv": "Ed25519", "x": x, "kid": "k1", "alg": "EdDSA", "use": "sig"}]})
    )
    return path


def _identity(tmp: Path, key: Ed25519PrivateKey, **envelope: Any) -> dict[str, Any]:
    jwks = _write_jwks(tmp / "jwks.json", key)
    mapping = {
        "by_subject": {
            "reader": {"profiles": [], "tools": ["notes/read_note", "notes/echo"]},
            "writer": {"profiles": [], "tools": ["notes/*"]},
        }
    }
    section: dict[str, Any] = {
        "jwt": {"issuer": ISSUER, "audience": AUDIENCE, "jwks_path": str(jwks)},
        "agents": mapping,
    }
    if envelope:
        section["envelope"] = envelope
    return section


def _token(key: Ed25519PrivateKey, subject: str, **changes: Any) -> str:
    now = int(time.time())
    payload = {"iss": ISSUER, "aud": AUDIENCE, "sub": subject, "iat": now, "nbf": now, "exp": now + 300, **changes}
    return jwt.encode(payload, key, algorithm="EdDSA", headers={"kid": "k1"})


@pytest.mark.requirement("identity:agents-see-their-own-tools")
async def test_two_agents_with_different_tokens_see_different_tools(wall: Wall, tmp_path: Path) -> None:
    key = Ed25519PrivateKey.generate()
    with gateway(wall, identity=_identity(tmp_path, key)) as url:
        with anyio.fail_after(90):
            async with connect(url, token=_token(key, "reader")) as reader:
                reader_tools = {t.name for t in (await reader.list_tools()).tools}
                with pytest.raises(MCPError) as refused:
                    await reader.call_tool("notes__delete_note", {"name": "welcome"})
            async with connect(url, token=_token(key, "writer")) as writer:
                writer_tools = {t.name for t in (await writer.list_tools()).tools}
    assert reader_tools == {"notes__read_note", "notes__echo"}
    assert {"notes__delete_note", "notes__write_note"} <= writer_tools
    assert refused.value.error.data["violation"] == "ToolNotFound"


@pytest.mark.requirement("identity:invalid-tokens-refused")
def test_missing_forged_and_expired_tokens_get_401_and_nothing_is_forwarded(wall: Wall, tmp_path: Path) -> None:
    key, stranger = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    body = orjson.dumps(INIT)
    tokens = {
        "missing": None,
        "forged": _token(stranger, "writer"),
        "expired": _token(
            key, "writer", exp=int(time.time()) - 3600, iat=int(time.time()) - 7200, nbf=int(time.time()) - 7200
        ),
        "wrong-audience": _token(key, "writer", aud="someone-else"),
        "unmapped": _token(key, "nobody"),
    }
    with gateway(wall, identity=_identity(tmp_path, key)) as url:
        answers = {
            name: httpx.post(url, content=body, headers={"Authorization": f"Bearer {token}"} if token else {})
            for name, token in tokens.items()
        }
        good = httpx.post(url, content=body, headers={"Authorization": f"Bearer {_token(key, 'writer')}"})
    assert {name: answer.status_code for name, answer in answers.items()} == dict.fromkeys(tokens, 401)
    assert all(answer.json() == {"error": "authentication failed"} for answer in answers.values())
    assert good.status_code == 200


@pytest.mark.requirement("identity:envelope-replay-refused")
def test_signed_envelope_is_required_and_a_replay_is_refused(wall: Wall, tmp_path: Path) -> None:
    token_key, agent_key = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    public = encode_public_key(agent_key.public_key())
    identity = _identity(tmp_path, token_key, keys={"w-1": {"subject": "writer", "public_key": public}})
    body = orjson.dumps(INIT)
    bearer = {"Authorization": f"Bearer {_token(token_key, 'writer')}"}
    with gateway(wall, identity=identity) as url:
        unsigned = httpx.post(url, content=body, headers=bearer)
        signed = sign_request(agent_key, key_id="w-1", method="POST", path="/mcp", body=body)
        first = httpx.post(url, content=body, headers={**bearer, **signed})
        replay = httpx.post(url, content=body, headers={**bearer, **signed})
        tampered = httpx.post(
            url,
            content=body.replace(b"raw", b"rAw"),
            headers={**bearer, **sign_request(agent_key, key_id="w-1", method="POST", path="/mcp", body=body)},
        )
    assert (unsigned.status_code, first.status_code, replay.status_code, tampered.status_code) == (401, 200, 401, 401)


def _records(wall: Wall) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in wall.audit.read_bytes().splitlines() if line.strip()]


@pytest.mark.requirement("routing:pool-shared-across-sessions")
async def test_two_http_sessions_share_one_upstream_process(wall: Wall) -> None:
    with gateway(wall) as url:
        with anyio.fail_after(90):
            async with connect(url) as first, connect(url) as second:
                await first.list_tools()
                await second.list_tools()
                one = await first.call_tool("notes__echo", {"text": "one"})
                two = await second.call_tool("notes__echo", {"text": "two"})
    records = _records(wall)
    spawned = [r for r in records if r["type"] == "pool_server_started" and r["upstream"] == "notes"]
    attached = [r for r in records if r["type"] == "server_started" and r["server"] == "notes"]
    assert (_text(one), _text(two)) == ("one", "two")
    assert len(spawned) == 1
    assert len({r["session"] for r in attached}) == 2
    assert {r["pid"] for r in attached} == {spawned[0]["pid"]}
    assert sorted(str(c["arguments"]) for c in wall.received_calls()) == [str({"text": "one"}), str({"text": "two"})]


@pytest.mark.requirement("routing:pool-size-per-gateway")
async def test_pool_size_holds_across_http_sessions(wall: Wall) -> None:
    servers = {name: fixture_spec("wellbehaved") for name in ("a", "b")}
    with gateway(wall, servers=servers, routing={"pool_size": 1}) as url:
        with anyio.fail_after(120):
            async with connect(url) as first, connect(url) as second:
                await first.list_tools()
                await second.list_tools()
                answers = [
                    _text(await first.call_tool("a__echo", {"text": "a1"})),
                    _text(await second.call_tool("b__echo", {"text": "b1"})),
                    _text(await first.call_tool("a__echo", {"text": "a2"})),
                ]
    running: set[str] = set()
    most = 0
    for record in _records(wall):
        if record["type"] == "pool_server_started":
            running.add(record["upstream"])
        elif record["type"] == "pool_server_exited":
            running.discard(record["upstream"])
        most = max(most, len(running))
    assert answers == ["a1", "b1", "a2"]
    assert most == 1
    assert sum(r["type"] == "upstream_evicted" for r in _records(wall)) >= 2


async def test_an_unanswered_call_over_http_times_out_and_the_session_goes_on(wall: Wall) -> None:
    servers = {"slow": fixture_spec("slow")}
    with gateway(wall, servers=servers, routing={"call_timeout_seconds": 1}) as url:
        with anyio.fail_after(90):
            async with connect(url) as client:
                await unanswered_call_times_out_and_the_session_goes_on(client, wall.audit)


def test_an_idle_session_is_closed_and_its_id_then_refused(wall: Wall) -> None:
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    listing = orjson.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    with gateway(wall, http={"session_idle_seconds": 1}) as url:
        opened = httpx.post(url, content=orjson.dumps(INIT), headers=headers, timeout=30)
        session = {**headers, "Mcp-Session-Id": opened.headers["mcp-session-id"]}
        used = httpx.post(url, content=listing, headers=session, timeout=30)
        deadline = time.monotonic() + 20
        while not any(r["type"] == "session_expired" for r in _records(wall)) and time.monotonic() < deadline:
            time.sleep(0.2)
        stale = httpx.post(url, content=listing, headers=session, timeout=30)
    assert (opened.status_code, used.status_code, stale.status_code) == (200, 200, 404)
    expired = [r for r in _records(wall) if r["type"] == "session_expired"]
    assert [r["client_session"] for r in expired] == [opened.headers["mcp-session-id"]]


def test_a_chunked_body_is_read_only_up_to_the_limit(wall: Wall) -> None:
    def chunks() -> Iterator[bytes]:
        yield b"[" + b" " * 1024
        for _ in range(64):
            yield b" " * 1024
        yield b"]"

    with gateway(wall, http={"max_body_bytes": 4096}) as url:
        refused = httpx.post(url, content=chunks(), headers={"Content-Type": "application/json"}, timeout=30)
    assert refused.status_code == 413
    assert "content-length" not in {k.lower() for k in refused.request.headers}
    assert any(r["type"] == "http_refused" and r["status"] == 413 for r in _records(wall))
