"""The few exceptions mcpwall raises. A policy denial is never one of them: it is a `Verdict`.

::

    McpwallError
    ├── ConfigError      a configuration that does not load (carries the key path and line)
    ├── ProtocolError    bytes from a peer that are not a usable JSON-RPC message
    ├── AuditError       the audit trail cannot be written (the gateway stops: fail closed)
    ├── IdentityError    an agent's credentials do not verify (mcpwall.identity; HTTP 401)
    └── UpstreamError    the MCP server behind mcpwall failed
        ├── UpstreamStartError   it could not be started
        └── UpstreamExited       it exited while mcpwall was relaying

Third-party errors are translated at the edge with ``raise ... from``.
"""

from __future__ import annotations


class McpwallError(Exception):
    """Base of every error mcpwall raises on purpose."""


class ConfigError(McpwallError):
    """A configuration that does not load.

    Args:
        message: what is wrong.
        path: the key path (e.g. ``tools.deny[2]``), when known.
        line: the 1-based line in the YAML file, when known.
    """

    def __init__(self, message: str, *, path: str = "", line: int | None = None) -> None:
        where = path + (f" (line {line})" if line is not None else "")
        super().__init__(f"{where}: {message}" if where else message)
        self.path = path
        self.line = line


class ProtocolError(McpwallError):
    """Bytes that are not a usable JSON-RPC message.

    Args:
        message: the generic description sent back to the peer.
        code: the JSON-RPC error code to answer with.
    """

    def __init__(self, message: str, *, code: int) -> None:
        super().__init__(message)
        self.code = code


class UpstreamError(McpwallError):
    """The MCP server behind mcpwall failed."""


class UpstreamStartError(UpstreamError):
    """The server process could not be started."""


class UpstreamExited(UpstreamError):
    """The server process exited while mcpwall was relaying."""

    def __init__(self, returncode: int | None) -> None:
        super().__init__(f"MCP server exited with code {returncode}")
        self.returncode = returncode


class AuditError(McpwallError):
    """The audit trail cannot be written: the gateway stops rather than forward unrecorded."""
