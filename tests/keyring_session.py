"""A real Secret Service for tests: a private D-Bus session bus with ``gnome-keyring-daemon`` on it.

A helper module, not a conftest (a second ``conftest`` module name would clash for mypy); a test
module wraps :func:`running_secret_service` in a fixture that points ``DBUS_SESSION_BUS_ADDRESS``
at the bus and selects ``keyring.backends.SecretService.Keyring`` explicitly, so that no fallback
backend can answer in the daemon's place.

Both daemons run in the foreground as children of the test, each in its own process group, in a
temporary ``HOME`` with its own XDG directories (the keyring files land there, never in the real
home). The bus is ready when it prints its address; the keyring is ready when
``org.freedesktop.secrets`` has an owner and the ``default`` alias names a collection: the
``login`` collection that ``--unlock`` creates with the password it reads from stdin. Every wait
has a deadline; both process groups are killed in ``finally``. Missing daemons fail the test with
the install command (``scripts/keyring-deps.txt`` lists the Debian packages).
"""

from __future__ import annotations

import os
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest

# jeepney ships no types; it is what SecretStorage (and so keyring) speaks D-Bus with.
from jeepney import DBusAddress, new_method_call  # type: ignore[import-untyped]
from jeepney.bus_messages import message_bus  # type: ignore[import-untyped]
from jeepney.io.blocking import open_dbus_connection  # type: ignore[import-untyped]

START_TIMEOUT = 15.0
"""Seconds each daemon may take to become ready."""
STOP_TIMEOUT = 5.0
"""Seconds a daemon may take to exit after SIGTERM before its process group is killed."""
PASSWORD = "mcpwall-test-keyring"
"""The password of the temporary ``login`` keyring."""
SECRETS_BUS_NAME = "org.freedesktop.secrets"
SECRETS_SERVICE = DBusAddress(
    "/org/freedesktop/secrets", bus_name=SECRETS_BUS_NAME, interface="org.freedesktop.Secret.Service"
)
INSTALL_HINT = "apt-get install -y dbus gnome-keyring (scripts/keyring-deps.txt)"


@dataclass(frozen=True)
class SecretService:
    """A running private Secret Service.

    Attributes:
        address: the session bus address, for ``DBUS_SESSION_BUS_ADDRESS``.
        home: the temporary home directory of both daemons.
    """

    address: str
    home: Path


def _binary(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed: {INSTALL_HINT}")
    return path


def _environment(home: Path) -> dict[str, str]:
    runtime = home / "run"
    runtime.mkdir(mode=0o700)
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    env["XDG_RUNTIME_DIR"] = str(runtime)
    env.update({f"XDG_{kind}_HOME": str(home / kind.lower()) for kind in ("DATA", "CONFIG", "CACHE")})
    return env


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=STOP_TIMEOUT)
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            stream.close()


def _start(stack: ExitStack, argv: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as errors:
        process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, env=env, start_new_session=True
        )
    stack.callback(_stop, process)
    return process


def _first_line(stream: IO[bytes], what: str, log: Path) -> str:
    with selectors.DefaultSelector() as selector:
        selector.register(stream, selectors.EVENT_READ)
        if not selector.select(timeout=START_TIMEOUT):
            raise TimeoutError(f"{what} printed nothing within {START_TIMEOUT} s")
    line = stream.readline().decode("utf-8").strip()
    if not line:
        raise RuntimeError(f"{what} exited while starting: {log.read_text(encoding='utf-8', errors='replace')}")
    return line


def _start_bus(stack: ExitStack, env: dict[str, str], home: Path) -> str:
    argv = [_binary("dbus-daemon"), "--session", "--nofork", "--nosyslog", "--print-address=1"]
    argv.append(f"--address=unix:path={home / 'bus'}")
    process = _start(stack, argv, env, home / "dbus.log")
    assert process.stdout is not None
    return _first_line(process.stdout, "dbus-daemon", home / "dbus.log")


def _keyring_ready(address: str) -> bool:
    with open_dbus_connection(bus=address) as connection:
        owned = connection.send_and_get_reply(message_bus.NameHasOwner(SECRETS_BUS_NAME), timeout=START_TIMEOUT)
        if not owned.body[0]:
            return False
        alias = new_method_call(SECRETS_SERVICE, "ReadAlias", "s", ("default",))
        return bool(connection.send_and_get_reply(alias, timeout=START_TIMEOUT).body[0] != "/")


def _start_keyring(stack: ExitStack, env: dict[str, str], home: Path) -> None:
    argv = [_binary("gnome-keyring-daemon"), "--foreground", "--components=secrets", "--unlock"]
    argv.append(f"--control-directory={env['XDG_RUNTIME_DIR']}/keyring")
    process = _start(stack, argv, env, home / "keyring.log")
    assert process.stdin is not None
    process.stdin.write(PASSWORD.encode("utf-8"))
    process.stdin.close()  # --unlock reads the password up to end of file
    deadline = time.monotonic() + START_TIMEOUT
    while not _keyring_ready(env["DBUS_SESSION_BUS_ADDRESS"]):
        if process.poll() is not None:
            output = (home / "keyring.log").read_text(encoding="utf-8", errors="replace")
            raise RuntimeError(f"gnome-keyring-daemon exited with {process.returncode}: {output}")
        if time.monotonic() > deadline:
            raise TimeoutError(f"gnome-keyring-daemon offered no default collection within {START_TIMEOUT} s")
        time.sleep(0.02)  # polling interval, bounded by the deadline above


@contextmanager
def running_secret_service() -> Iterator[SecretService]:
    """Start a private session bus and a Secret Service on it; yield where to find them.

    The caller's environment is left alone: point ``DBUS_SESSION_BUS_ADDRESS`` at
    `SecretService.address` for the test.

    Raises:
        TimeoutError: a daemon did not become ready in time.
        RuntimeError: a daemon exited while starting.
    """
    with tempfile.TemporaryDirectory(prefix="mcpwall-keyring-") as workdir, ExitStack() as stack:
        home = Path(workdir)
        env = _environment(home)
        env["DBUS_SESSION_BUS_ADDRESS"] = _start_bus(stack, env, home)
        _start_keyring(stack, env, home)
        yield SecretService(address=env["DBUS_SESSION_BUS_ADDRESS"], home=home)
