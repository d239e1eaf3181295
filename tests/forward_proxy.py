"""A real forward proxy for tests: `proxy.py` (PyPI) on a free loopback port, killed in ``finally``.

A helper module, not a conftest. The proxy logs one access line per connection it carries (its
first request: ``POST host:port/path`` in absolute form, or ``CONNECT host:port`` for a tunnel)
to a file the test reads back, so a test proves what went through it.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio

from conftest import free_port, stop_process, wait_for_port

_ACCESS = re.compile(r"access_log:\d+ - \S+ - (.+?) - ")


class ForwardProxy:
    """A running proxy: its URL (``http://[user:password@]127.0.0.1:port``) and its log."""

    def __init__(self, port: int, log: Path, credentials: str | None) -> None:
        self.port = port
        self.log = log
        self.url = f"http://{credentials + '@' if credentials else ''}127.0.0.1:{port}"

    def carried(self) -> list[str]:
        """The requests it carried, as its access log names them (``CONNECT host:port``, ``POST host:port/path``)."""
        text = self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""
        return _ACCESS.findall(text)

    async def saw(self, request: str, within: float = 10.0) -> bool:
        """Whether it logs carrying ``request`` within ``within`` seconds (it logs a keep-alive
        connection's requests when that connection closes)."""
        deadline = time.monotonic() + within
        while request not in self.carried():
            if time.monotonic() > deadline:
                return False
            await anyio.sleep(0.05)
        return True


@contextmanager
def forward_proxy(workdir: Path, credentials: str | None = None) -> Iterator[ForwardProxy]:
    """``proxy.py`` listening on 127.0.0.1 (asking for ``user:password`` when ``credentials``)."""
    port = free_port()
    log = workdir / f"proxy-{port}.log"
    argv = [sys.executable, "-m", "proxy", "--hostname", "127.0.0.1", "--port", str(port)]
    argv += ["--num-workers", "1", "--num-acceptors", "1", "--log-file", str(log)]
    if credentials:
        argv += ["--basic-auth", credentials]
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=workdir)
    try:
        wait_for_port(port)
        yield ForwardProxy(port, log, credentials)
    finally:
        stop_process(process, 10)
