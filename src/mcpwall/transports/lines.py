"""Newline-delimited framing with a hard bound on line length.

A line longer than the limit is not buffered: its first bytes are kept (so the sender's id can
be sniffed) and the rest is discarded as it arrives, so memory stays bounded by the limit.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

CHUNK = 1 << 16
PREFIX_KEPT = 4096


@dataclass(frozen=True, slots=True)
class Oversized:
    """A line that exceeded the limit: its first bytes and its total size."""

    prefix: bytes
    size: int


class LineReader:
    """Reads newline-terminated lines from a stream, refusing to buffer more than ``max_line``.

    Args:
        stream: the asyncio stream to read.
        max_line: the largest line (without its newline) that is returned whole.
    """

    def __init__(self, stream: asyncio.StreamReader, max_line: int) -> None:
        self._stream = stream
        self._max = max_line
        self._buf = bytearray()
        self._eof = False

    async def batch(self) -> list[bytes | Oversized] | None:
        """Every whole line already received (waiting for at least one), or None at the end.

        Handling a batch at once lets the gateway write the audit records and forward the
        answers of many pipelined messages with one system call each.
        """
        first = await self.next()
        if first is None:
            return None
        lines: list[bytes | Oversized] = [first]
        while (cut := self._buf.find(b"\n")) >= 0 and cut <= self._max:
            lines.append(bytes(self._buf[:cut]))
            del self._buf[: cut + 1]
        return lines

    async def next(self) -> bytes | Oversized | None:
        """The next line (without newline), an `Oversized` marker, or None at end of stream.

        A final line without a newline is returned as a line.
        """
        scanned = 0
        while True:
            cut = self._buf.find(b"\n", scanned)
            if cut >= 0:
                if cut > self._max:
                    return self._oversized_in_buffer(cut)
                line = bytes(self._buf[:cut])
                del self._buf[: cut + 1]
                return line
            if len(self._buf) > self._max:
                return await self._skip_oversized()
            if self._eof:
                return self._drain_tail()
            scanned = len(self._buf)
            await self._fill()

    async def _fill(self) -> None:
        chunk = await self._stream.read(CHUNK)
        if chunk:
            self._buf += chunk
        else:
            self._eof = True

    def _drain_tail(self) -> bytes | None:
        if not self._buf:
            return None
        line = bytes(self._buf)
        self._buf.clear()
        return line

    def _oversized_in_buffer(self, cut: int) -> Oversized:
        prefix = bytes(self._buf[:PREFIX_KEPT])
        del self._buf[: cut + 1]
        return Oversized(prefix, cut)

    async def _skip_oversized(self) -> Oversized:
        prefix = bytes(self._buf[:PREFIX_KEPT])
        size = len(self._buf)
        self._buf.clear()
        while True:
            chunk = await self._stream.read(CHUNK)
            if not chunk:
                self._eof = True
                return Oversized(prefix, size)
            cut = chunk.find(b"\n")
            if cut >= 0:
                self._buf += chunk[cut + 1 :]
                return Oversized(prefix, size + cut)
            size += len(chunk)
