"""The webhook sink end to end: a gateway run POSTs its audit records to a real local receiver."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import anyio
import pytest
from mcp import Client

from conftest import Wall, fixture_server

pytestmark = pytest.mark.anyio


class _Receiver(BaseHTTPRequestHandler):
    received: ClassVar[list[dict[str, object]]] = []

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        self.received.append(json.loads(self.rfile.read(length)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def receiver() -> Iterator[tuple[str, list[dict[str, object]]]]:
    _Receiver.received = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/audit", _Receiver.received
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


async def test_audit_records_reach_the_webhook(wall: Wall, receiver: tuple[str, list[dict[str, object]]]) -> None:
    url, received = receiver
    config = wall.write_config({"audit": {"webhook": {"url": url, "types": ["tool_call_completed", "session_ended"]}}})
    with anyio.fail_after(60):
        async with Client(wall.params(fixture_server("wellbehaved"), config=config), mode="legacy") as client:
            await client.list_tools()
            await client.call_tool("echo", {"text": "hooked"})
    types = [r["type"] for r in received]
    assert types == ["tool_call_completed", "session_ended"]
    assert all(isinstance(r.get("hash"), str) for r in received)
