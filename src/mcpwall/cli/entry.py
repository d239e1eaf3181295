"""The console script: a light path for ``mcpwall run``, typer for everything else."""

from __future__ import annotations

import logging
import sys


def _is_run(argv: list[str]) -> bool:
    if argv[:1] != ["run"]:
        return False
    options = argv[1 : argv.index("--")] if "--" in argv else argv[1:]
    return not {"-h", "--help"} & set(options)


def main() -> None:
    """Entry point of the ``mcpwall`` console script and of ``python -m mcpwall``."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(message)s")
    if _is_run(sys.argv[1:]):
        from mcpwall.cli.run_cmd import run

        sys.exit(run(sys.argv[2:]))
    from mcpwall.cli.app import app

    app()
