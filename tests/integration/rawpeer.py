"""A raw JSON-RPC peer for wire tests: writes exact bytes to ``mcpwall run`` and reads lines back.

Used where the SDK client would refuse to send what the test needs (invalid JSON, duplicate
keys, batches, oversized lines, unsolicited responses).
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import orjson
from anyio.abc import Process

HANDSHAKE_INIT = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
}


class RawPeer:
    """One mcpwall process driven line by line."""

    def __init__(self, process: Process, stderr: Path) -> None:
        self.process = process
        self.stderr_path = stderr
        self._buf = b""
        self.stdout_bytes = b""

    @classmethod
    async def start(cls, argv: Sequence[str], env: dict[str, str], workdir: Path) -> RawPeer:
        stderr = workdir / "mcpwall.stderr"
        handle = stderr.open("wb")
        process = await anyio.open_process(list(argv), env=env, stderr=handle, start_new_session=True)
        handle.close()
        return cls(process, stderr)

    async def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        await self.process.stdin.send(data)

    async def send_json(self, obj: Any) -> None:
        await self.send(orjson.dumps(obj) + b"\n")

    async def recv(self, within: float = 15) -> dict[str, Any]:
        """The next line mcpwall writes to stdout, parsed (it must be one JSON object)."""
        assert self.process.stdout is not None
        with anyio.fail_after(within):
            while b"\n" not in self._buf:
                chunk = await self.process.stdout.receive()
                self.stdout_bytes += chunk
                self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        message = orjson.loads(line)
        assert isinstance(message, dict)
        return message

    async def recv_id(self, request_id: Any, within: float = 15) -> dict[str, Any]:
        """Skip notifications until the response with this id arrives."""
        while True:
            message = await self.recv(within)
            if message.get("id") == request_id and "method" not in message:
                return message

    async def request(self, request_id: Any, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            body["params"] = params
        await self.send_json(body)
        return await self.recv_id(request_id)

    async def handshake(self) -> dict[str, Any]:
        params: dict[str, Any] = HANDSHAKE_INIT["params"]  # type: ignore[assignment] # a literal dict above
        result = await self.request("init", "initialize", params)
        await self.send_json({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return result

    async def close_stdin(self) -> None:
        assert self.process.stdin is not None
        await self.process.stdin.aclose()

    async def wait(self, within: float = 20) -> int:
        """Wait for mcpwall to exit, collecting the rest of its stdout."""
        assert self.process.stdout is not None
        with anyio.fail_after(within):
            async for chunk in self.process.stdout:
                self.stdout_bytes += chunk
            return await self.process.wait()

    async def aclose(self) -> None:
        """Kill mcpwall and its server (its process group) and release the pipes."""
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
        with anyio.fail_after(10):
            await self.process.aclose()

    @property
    def stderr(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")
