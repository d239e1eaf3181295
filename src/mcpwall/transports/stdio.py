"""stdio on both sides: the client's stdin/stdout, and a spawned server's pipes.

The server runs in its own process group so that a wrapper such as ``npx`` is stopped with its
children. Its stderr is mcpwall's stderr: never stdout, which carries protocol bytes only.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import signal
import stat
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from typing import IO, BinaryIO

from mcpwall.credentials import Secrets
from mcpwall.errors import UpstreamStartError

KILL_AFTER_TERM = 2.0


class StdioUpstream:
    """A spawned MCP server and its stdin/stdout pipes.

    The process is started synchronously (`spawn`), so that ``mcpwall run`` can start it before
    importing the rest of itself: the server's start-up and mcpwall's overlap. `connect` then
    wraps its pipes in asyncio streams.

    Args:
        argv: the command and its arguments.
        env: the complete environment it gets.
        cwd: its working directory.
    """

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], cwd: str | None = None) -> None:
        self.argv = list(argv)
        self.env = dict(env)
        self.cwd = cwd
        self.proc: subprocess.Popen[bytes] | None = None
        self._writer: asyncio.StreamWriter | None = None
        self.secrets = Secrets()
        """The credentials resolved into ``env``: replaced by a marker if the server echoes them."""

    def spawn(self) -> None:
        """Start the server process, unless it is already running (a dead one is started again).

        Raises:
            UpstreamStartError: when the command cannot be started.
        """
        if self.proc is not None and self.proc.poll() is None:
            return
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=sys.stderr.fileno(),
                env=self.env,
                cwd=self.cwd,
                start_new_session=True,
                bufsize=0,
            )
        except OSError as exc:
            raise UpstreamStartError(f"cannot start {self.argv[0]!r}: {exc.strerror or exc}") from exc

    async def start(
        self, stdout_limit: int, *, respawn: bool = True
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """Spawn the server if not yet, and return asyncio streams over its stdout and stdin.

        Args:
            stdout_limit: the stream reader's buffer limit.
            respawn: start the server again if it already exited. Without it, a server that
                died after `spawn` is connected as it is: its stdout reads as ended at once, so
                the caller sees the death instead of a silent second start.

        Raises:
            UpstreamStartError: when the command cannot be started.
        """
        if self.proc is None or respawn:
            self.spawn()
        assert self.proc is not None  # noqa: S101 -- spawn() set it or raised
        assert self.proc.stdin is not None  # noqa: S101 -- PIPE was asked for
        assert self.proc.stdout is not None  # noqa: S101 -- PIPE was asked for
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=stdout_limit)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), _handed_over(self.proc.stdout))
        transport, protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, _handed_over(self.proc.stdin)
        )
        self._writer = asyncio.StreamWriter(transport, protocol, None, loop)
        return reader, self._writer

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    async def wait(self) -> int | None:
        """Wait for the process to exit; its exit code (negative: killed by that signal)."""
        if self.proc is None:
            return None
        return await asyncio.get_running_loop().run_in_executor(None, self.proc.wait)

    def close_stdin(self) -> None:
        """Tell the server no more requests are coming."""
        if self._writer is not None and not self._writer.is_closing():
            self._writer.close()

    async def stop(self, grace: float) -> int | None:
        """Close stdin, give the server ``grace`` seconds, then SIGTERM, then SIGKILL its group."""
        if self.proc is None:
            return None
        self.close_stdin()
        for sig, wait in ((None, grace), (signal.SIGTERM, KILL_AFTER_TERM), (signal.SIGKILL, None)):
            if sig is not None:
                self._signal_group(sig)
            with contextlib.suppress(TimeoutError):
                return await asyncio.wait_for(self.wait(), wait)
        return self.proc.returncode

    def abandon(self) -> None:
        """Kill a server that was spawned but will never be relayed to (mcpwall failed to start)."""
        if self.proc is not None and self.proc.poll() is None:
            self._signal_group(signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=KILL_AFTER_TERM)

    def _signal_group(self, sig: signal.Signals) -> None:
        assert self.proc is not None  # noqa: S101 -- only called after start
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, sig)


def _handed_over(pipe: IO[bytes]) -> IO[bytes]:
    """A pipe for the event loop to own: a duplicate of its descriptor, the original closed.

    uvloop closes a pipe's descriptor itself without closing the file object; the `Popen`'s file
    object would close that number again when collected, by then perhaps a restarted server's pipe.
    """
    duplicate: IO[bytes] = os.fdopen(os.dup(pipe.fileno()), pipe.mode, buffering=0)
    pipe.close()
    return duplicate


async def client_streams() -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Asyncio streams over this process's stdin and stdout (pipes, sockets, ttys, devices or files).

    Only pipes and sockets are handed to the event loop: it cannot watch regular files, and
    uvloop aborts the whole process on character devices such as ``/dev/null``. Anything else is
    read in a thread and written with plain blocking writes.
    """
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 20)
    stdin = sys.stdin.buffer
    if not _watchable(stdin.fileno()):
        _feed_from_thread(loop, reader, stdin.fileno())
    else:
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stdin)
    stdout = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    if not _watchable(stdout.fileno()):
        return reader, _FileWriter(stdout)  # type: ignore[return-value] # the StreamWriter subset the gateway uses
    transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, stdout)
    writer = asyncio.StreamWriter(transport, protocol, None, loop)
    return reader, writer


def _watchable(fd: int) -> bool:
    """Whether the event loop can watch this descriptor (a pipe or a socket)."""
    mode = os.fstat(fd).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class _FileWriter:
    """stdout redirected to a file or a device, which the event loop cannot watch: plain writes."""

    def __init__(self, file: io.FileIO | BinaryIO) -> None:
        self._file = file

    def write(self, data: bytes) -> None:
        self._file.write(data)

    async def drain(self) -> None:
        return None

    def is_closing(self) -> bool:
        return self._file.closed

    def close(self) -> None:
        self._file.close()


def _feed_from_thread(loop: asyncio.AbstractEventLoop, reader: asyncio.StreamReader, fd: int) -> None:
    """Files and devices cannot be watched by the event loop: read them in a thread."""

    def pump() -> None:
        while chunk := os.read(fd, 1 << 16):
            loop.call_soon_threadsafe(reader.feed_data, chunk)
        loop.call_soon_threadsafe(reader.feed_eof)

    threading.Thread(target=pump, daemon=True, name="mcpwall-stdin").start()
