"""One ``send(2)`` per response of the HTTP front, instead of uvicorn's two.

uvicorn writes a response's status line and headers, then its body, each straight to the socket:
two segments on the wire, and on loopback two wake-ups of the client, for every answer. Here the
writes are joined and leave together when the response is complete, or else (streams) at the
end of the event loop's turn, or at once past `FLUSH_BYTES` (so that a long stream still meets
the socket's flow control).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

FLUSH_BYTES = 64 * 1024


class CorkedTransport(asyncio.Transport):
    """A socket transport whose writes leave together at the end of the loop's turn.

    Args:
        inner: the connection's transport.
    """

    def __init__(self, inner: asyncio.Transport) -> None:
        super().__init__()
        self._inner = inner
        self._pending: list[bytes] = []
        self._size = 0

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not self._pending:
            asyncio.get_running_loop().call_soon(self.flush)
        self._pending.append(bytes(data))
        self._size += len(data)
        if self._size >= FLUSH_BYTES:
            self.flush()

    def writelines(self, list_of_data: Any) -> None:
        for data in list_of_data:
            self.write(data)

    def flush(self) -> None:
        """Write what is pending (dropped when the connection is already closing)."""
        if not self._pending:
            return
        data = b"".join(self._pending)
        self._pending.clear()
        self._size = 0
        if not self._inner.is_closing():
            self._inner.write(data)

    def close(self) -> None:
        self.flush()
        self._inner.close()

    def abort(self) -> None:
        self._pending.clear()
        self._size = 0
        self._inner.abort()

    def write_eof(self) -> None:
        self.flush()
        self._inner.write_eof()

    def can_write_eof(self) -> bool:
        return self._inner.can_write_eof()

    def is_closing(self) -> bool:
        return self._inner.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._inner.get_extra_info(name, default)

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.flush()
        self._inner.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._inner.get_protocol()

    def is_reading(self) -> bool:
        return self._inner.is_reading()

    def pause_reading(self) -> None:
        self._inner.pause_reading()

    def resume_reading(self) -> None:
        self._inner.resume_reading()

    def get_write_buffer_size(self) -> int:
        return self._inner.get_write_buffer_size() + self._size

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._inner.get_write_buffer_limits()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._inner.set_write_buffer_limits(high, low)


class CorkedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, writing through a `CorkedTransport`; a complete response
    leaves at once."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override] # as uvicorn's
        self.corked = CorkedTransport(transport)
        super().connection_made(self.corked)

    def on_response_complete(self) -> None:
        self.corked.flush()
        super().on_response_complete()
