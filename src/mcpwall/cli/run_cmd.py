"""``mcpwall run``: kept free of the CLI framework so that start-up stays short.

A client starts one ``mcpwall run`` per server, often at every launch: its start-up is on the
user's path. Parsing these few options with argparse avoids importing typer and rich.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from mcpwall.config import Config, load_config
from mcpwall.errors import ConfigError, UpstreamStartError

EXIT_USAGE = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcpwall run",
        description="Run one stdio MCP server behind mcpwall.",
        usage="%(prog)s [OPTIONS] -- COMMAND [ARGS]...",
    )
    parser.add_argument("--config", "-c", type=Path, help="mcpwall YAML configuration")
    parser.add_argument("--name", help="server name: its config entry and its identity for pins and audit")
    parser.add_argument(
        "--profile",
        action="append",
        default=[],
        help="activate a gatekeeper profile (repeatable; default: the config's)",
    )
    return parser


def _split(argv: list[str]) -> tuple[list[str], list[str]]:
    if "--" in argv:
        cut = argv.index("--")
        return argv[:cut], argv[cut + 1 :]
    return argv, []


def run(argv: list[str]) -> int:
    """Run the gateway; the process exit code."""
    options, command = _split(argv)
    args = _parser().parse_args(options)
    try:
        config = load_config(args.config) if args.config else Config()
    except ConfigError as exc:
        sys.stderr.write(f"mcpwall: config error: {exc}\n")
        return EXIT_USAGE
    if not command and args.name not in config.servers:
        sys.stderr.write("mcpwall: no server command given (mcpwall run -- COMMAND [ARGS])\n")
        return EXIT_USAGE
    from mcpwall.launch import prepare_upstream

    try:
        upstream, identity, spec = prepare_upstream(config, args.name, command)
        upstream.spawn()  # the server boots while mcpwall imports and builds the rest
    except (ConfigError, UpstreamStartError) as exc:
        sys.stderr.write(f"mcpwall: {exc}\n")
        return EXIT_USAGE
    from mcpwall.assembly import build_stdio_gateway

    try:
        gateway = build_stdio_gateway(config, upstream, identity, spec, args.profile)
    except ConfigError as exc:
        sys.stderr.write(f"mcpwall: {exc}\n")
        return EXIT_USAGE
    try:
        return _event_loop_run(gateway)
    except UpstreamStartError as exc:
        sys.stderr.write(f"mcpwall: {exc}\n")
        return EXIT_USAGE
    finally:
        gateway.audit.close()


def _event_loop_run(gateway: object) -> int:
    from mcpwall.gateway import StdioGateway

    assert isinstance(gateway, StdioGateway)  # noqa: S101 -- narrow for mypy
    try:
        import uvloop

        return uvloop.run(gateway.run()).exit_code
    except ImportError:
        return asyncio.run(gateway.run()).exit_code
