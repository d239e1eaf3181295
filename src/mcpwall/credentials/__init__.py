"""Credentials for spawned servers: references resolved at start, and the values kept out of sight.

A server's configured environment may name a credential instead of spelling it out. Each
reference kind has one resolver, chosen by the prefix (like a storage URL's scheme)::

    env:NAME               a variable of mcpwall's own environment
    file:PATH              a file's text, stripped (``~`` expands)
    keyring:SERVICE/NAME   an entry of the OS keyring, read with the ``keyring`` library
                           (Secret Service on Linux, Keychain on macOS, Credential Locker on Windows)

Any other value is a literal and is returned as it is. A reference that cannot be resolved is a
`ConfigError` that names the kind and where to look, never a value.

The resolved values go into the server's environment only. They are also recorded in a
`Secrets` registry, whose `Secrets.redact` replaces them (and their base64, percent-encoded and
JSON-escaped forms) with ``[mcpwall:redacted]`` wherever text leaves the gateway: results a server
echoes back, logs, audit records and error messages.
"""

from __future__ import annotations

from mcpwall.credentials.redaction import MIN_SECRET_LENGTH, REDACTED, Secrets
from mcpwall.credentials.references import is_reference, resolve_reference, resolve_settings

__all__ = ["MIN_SECRET_LENGTH", "REDACTED", "Secrets", "is_reference", "resolve_reference", "resolve_settings"]
