"""What an approval is bound to."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

import orjson


def call_binding(server: str, tool: str, definition_hash: str, arguments: Mapping[str, object], policy: str) -> str:
    """SHA-256 over (server, tool, definition hash, canonical arguments, policy revision)."""
    material = [server, tool, definition_hash, arguments, policy]
    return hashlib.sha256(orjson.dumps(material, option=orjson.OPT_SORT_KEYS)).hexdigest()
