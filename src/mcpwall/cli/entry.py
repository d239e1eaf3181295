"""The console script: a light path for ``mcpwall run``, typer for everything else."""

from __future__ import annotations

import logging
import os
import sys


def _is_run(argv: list[str]) -> bool:
    if argv[:1] != ["run"]:
        return False
    options = argv[1 : argv.index("--")] if "--" in argv else argv[1:]
    return not {"-h", "--help"} & set(options)


def main() -> None:
    """Entry point of the ``mcpwall`` console script and of ``python -m mcpwall``."""
    # No pydantic plugins: a plugin is code from whatever package declares the entry point, and
    # it would see every configuration mcpwall validates. Discovering them also costs start-up.
    os.environ["PYDANTIC_DISABLE_PLUGINS"] = "__all__"
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(message)s")
    if _is_run(sys.argv[1:]):
        from mcpwall.cli.run_cmd import run

        sys.exit(run(sys.argv[2:]))
    from mcpwall.cli.app import app

    app()
