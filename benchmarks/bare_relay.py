"""A relay with no policy: mcpwall's own stdio transports and line framing, forwarding every line.

The reference row of ``bench_relay.py``: what the relay architecture alone costs (event loop,
pipes, framing, batching), so that the rest of mcpwall's figure is what its checks and audit
trail cost. Not a product: it parses nothing and records nothing.

Run: ``python benchmarks/bare_relay.py -- COMMAND [ARGS...]``
"""

from __future__ import annotations

import asyncio
import sys

from mcpwall.transports.lines import LineReader
from mcpwall.transports.stdio import StdioUpstream, client_streams


async def _pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    lines = LineReader(source, 1 << 24)
    while (batch := await lines.batch()) is not None:
        sink.write(b"".join(line + b"\n" for line in batch if isinstance(line, bytes)))
        await sink.drain()


async def _relay(command: list[str]) -> None:
    upstream = StdioUpstream(command, {"PATH": "/usr/bin:/bin"})
    client_in, client_out = await client_streams()
    server_out, server_in = await upstream.start(1 << 20)
    pumps = [asyncio.create_task(_pump(client_in, server_in)), asyncio.create_task(_pump(server_out, client_out))]
    await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
    upstream.close_stdin()
    await upstream.wait()


def main() -> None:
    command = sys.argv[sys.argv.index("--") + 1 :]
    try:
        import uvloop

        uvloop.run(_relay(command))
    except ImportError:
        asyncio.run(_relay(command))


if __name__ == "__main__":
    main()
