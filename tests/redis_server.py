"""A real ``redis-server`` for tests: started on a free loopback port, killed in ``finally``.

A helper module, not a conftest (a second ``conftest`` module name would clash for mypy); a
test module wraps :func:`running_redis` in a fixture. The server keeps nothing on disk
(``--save ""``, ``--appendonly no``), works in a temporary directory and logs there. Readiness is a PING answered within a deadline; ``redis-server`` missing from PATH
fails the test with the install command (``scripts/test`` installs it).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

START_TIMEOUT = 10.0
"""Seconds the server may take to answer its first PING."""
STOP_TIMEOUT = 5.0
"""Seconds the server may take to exit after SIGTERM before it is killed."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def _wait_until_ready(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while not _answers_ping(port):
        if process.poll() is not None:
            output = log.read_text(encoding="utf-8", errors="replace")
            raise RuntimeError(f"redis-server exited with {process.returncode}: {output}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"redis-server did not answer PING on port {port} within {START_TIMEOUT} s")
        time.sleep(0.02)  # polling interval, bounded by the deadline above


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=STOP_TIMEOUT)


@contextmanager
def running_redis() -> Iterator[str]:
    """Start a private redis-server and yield its URI (``redis://127.0.0.1:PORT``).

    Raises:
        TimeoutError: the server did not answer PING in time.
        RuntimeError: the server exited while starting.
    """
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("redis-server is not installed: apt-get install -y redis-server (scripts/test does)")
    with tempfile.TemporaryDirectory(prefix="mcpwall-redis-") as workdir:
        port = free_port()
        argv = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        argv += ["--dir", workdir]
        log = Path(workdir) / "redis.log"
        with log.open("wb") as output:
            process = subprocess.Popen(argv, stdout=output, stderr=subprocess.STDOUT, cwd=workdir)
        try:
            _wait_until_ready(process, port, log)
            yield f"redis://127.0.0.1:{port}"
        finally:
            _stop(process)
