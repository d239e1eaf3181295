"""``mcpwall serve --http HOST:PORT``: the Streamable HTTP front under uvicorn."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
import sys

import uvicorn

from mcpwall.config.models import Config
from mcpwall.errors import ConfigError
from mcpwall.inspection.catalog import builtin_rules, warm_up
from mcpwall.inspection.review import prepare_detector
from mcpwall.transports.http_cork import CorkedHttpToolsProtocol
from mcpwall.transports.http_front import HttpFront


def parse_address(text: str, allow_remote: bool) -> tuple[str, int]:
    """``HOST:PORT`` as a (host, port) pair; a non-loopback host needs ``allow_remote``. Port 0 asks
    the system for a free port (the address served is printed on stderr once it listens).

    Raises:
        ConfigError: when the address is malformed, or not loopback without ``allow_remote``.
    """
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 <= int(port) < 65536:
        raise ConfigError(f"not a HOST:PORT address: {text!r}", path="--http")
    loopback = host == "localhost" or _is_loopback(host)
    if not loopback and not allow_remote:
        raise ConfigError("the HTTP front listens on loopback only, unless --allow-remote is given", path="--http")
    return host, int(port)


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


async def serve_http(config: Config, address: tuple[str, int]) -> int:
    """Serve until interrupted; every session's servers are stopped on the way out."""
    front = HttpFront(config, address)
    server = AnnouncingServer(
        uvicorn.Config(
            front.app(),
            host=address[0],
            port=address[1],
            log_level="warning",
            lifespan="off",
            http=CorkedHttpToolsProtocol,  # httptools, one send(2) per response
            access_log=False,
            interface="asgi3",
            proxy_headers=False,  # nothing here reads the client's address: no X-Forwarded-* rewriting
            server_header=False,
            date_header=False,
        ),
        front,
    )
    upkeep = asyncio.create_task(front.upkeep.run())
    rules = builtin_rules()
    # the detector's rules compile before the first listings arrive, then the prefilter's long lists decode
    warm_up(rules, then=lambda: prepare_detector(rules))
    try:
        await server.serve()
    finally:
        upkeep.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await upkeep
        await front.shutdown()
    return 0


class AnnouncingServer(uvicorn.Server):
    """uvicorn's server that, once it listens, gives the port it got (for ``HOST:0``) to the
    front's Host check and prints the URL served on stderr, for the operator and for whatever
    started the gateway."""

    def __init__(self, config: uvicorn.Config, front: HttpFront) -> None:
        super().__init__(config)
        self.front = front

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.should_exit:
            return  # the bind failed: uvicorn has said why and stops
        port = next(sock.getsockname()[1] for listener in self.servers for sock in listener.sockets)
        self.front.bound(int(port))
        host = self.front.listening[0]
        shown = f"[{host}]" if ":" in host else host
        sys.stderr.write(f"mcpwall: serving MCP on http://{shown}:{port}/mcp\n")
        sys.stderr.flush()
