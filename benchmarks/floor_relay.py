"""The least a relay must do per call to meet issue 2's wire and audit rules, and nothing else.

A reference row of ``bench_relay.py``, like ``bare_relay.py``, but each line is parsed once with
orjson and what is forwarded is the serialization of the parsed object (the wire discipline),
and each tools/call leaves three hash-chained audit lines (requested, allowed, completed), one
write per batch. No checks, no error handling, no state database: it shows the floor that
Python's per-message work puts under mcpwall's pipelined throughput. Not a product.

Run: ``python benchmarks/floor_relay.py AUDIT_FILE -- COMMAND [ARGS...]``
"""

from __future__ import annotations

import asyncio
import hashlib
import sys
from typing import IO, Any

import orjson

from mcpwall.transports.lines import LineReader
from mcpwall.transports.stdio import StdioUpstream, client_streams


class Chain:
    """A SHA-256 chain of JSONL records, appended one write per batch."""

    def __init__(self, sink: IO[bytes]) -> None:
        self.sink = sink
        self.seq = 0
        self.prev = "0" * 64

    def record(self, event: str, message_id: Any, out: list[bytes]) -> None:
        self.seq += 1
        body = orjson.dumps({"seq": self.seq, "event": event, "id": message_id, "prev_hash": self.prev})
        self.prev = hashlib.sha256(body).hexdigest()
        out.append(body[:-1] + b',"hash":"' + self.prev.encode() + b'"}\n')


def _relay_batch(batch: list[bytes], chain: Chain, requests: bool) -> bytes:
    records: list[bytes] = []
    forwarded: list[bytes] = []
    for line in batch:
        message = orjson.loads(line)
        if requests and message.get("method") == "tools/call":
            chain.record("tool_call_requested", message["id"], records)
            chain.record("tool_call_allowed", message["id"], records)
        elif not requests and "id" in message and "method" not in message:
            chain.record("tool_call_completed", message["id"], records)
        forwarded.append(orjson.dumps(message) + b"\n")
    if records:
        chain.sink.write(b"".join(records))
    return b"".join(forwarded)


async def _pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter, chain: Chain, requests: bool) -> None:
    lines = LineReader(source, 1 << 24)
    while (batch := await lines.batch()) is not None:
        sink.write(_relay_batch([line for line in batch if isinstance(line, bytes)], chain, requests))
        await sink.drain()


async def _relay(chain: Chain, command: list[str]) -> None:
    upstream = StdioUpstream(command, {"PATH": "/usr/bin:/bin"})
    client_in, client_out = await client_streams()
    server_out, server_in = await upstream.start(1 << 20)
    pumps = [
        asyncio.create_task(_pump(client_in, server_in, chain, requests=True)),
        asyncio.create_task(_pump(server_out, client_out, chain, requests=False)),
    ]
    await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
    upstream.close_stdin()
    await upstream.wait()


def main() -> None:
    split = sys.argv.index("--")
    audit, command = sys.argv[1], sys.argv[split + 1 :]
    with open(audit, "ab", buffering=0) as sink:
        chain = Chain(sink)
        try:
            import uvloop

            uvloop.run(_relay(chain, command))
        except ImportError:
            asyncio.run(_relay(chain, command))


if __name__ == "__main__":
    main()
