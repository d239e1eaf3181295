"""Where mcpwall keeps its state: ``$XDG_STATE_HOME/mcpwall`` unless configured otherwise."""

from __future__ import annotations

import os
from pathlib import Path

AUDIT_FILE = "audit.jsonl"
DATABASE_FILE = "mcpwall.db"


def state_dir(configured: str | None = None) -> Path:
    """The state directory, created with mode 0700 when missing.

    Order: the config's ``state_dir``, ``$MCPWALL_STATE_DIR``, ``$XDG_STATE_HOME/mcpwall``,
    ``~/.local/state/mcpwall``.
    """
    if configured:
        path = Path(configured).expanduser()
    elif os.environ.get("MCPWALL_STATE_DIR"):
        path = Path(os.environ["MCPWALL_STATE_DIR"])
    else:
        base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        path = Path(base) / "mcpwall"
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path
