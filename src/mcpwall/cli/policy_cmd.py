"""``mcpwall policy explain``: the decision a hypothetical call would get, check by check.

No server is started and no state is read: the checks come from the configuration alone (see
`mcpwall.explain`). The exit code is 0 whenever the call could be explained, whatever its
level (the level is data); 2 for a configuration or usage error.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import orjson
import typer

from mcpwall.cli.store_cmds import JsonOption, fail
from mcpwall.config import Config, load_config
from mcpwall.errors import ConfigError
from mcpwall.explain import RATE_LIMITS_NOTE, CheckOutcome, Explanation, explain_call

app = typer.Typer(no_args_is_help=True, help="Explain what the policy does with a call.")

EXIT_USAGE = 2


@app.command()
def explain(
    server: Annotated[str, typer.Option("--server", help="The server's name (its servers.NAME settings apply).")],
    tool: Annotated[str, typer.Option("--tool", help="The tool called.")],
    args: Annotated[str, typer.Option("--args", help="The call's arguments, a JSON object.")] = "{}",
    profile: Annotated[
        list[str] | None,
        typer.Option("--profile", help="Activate a gatekeeper profile (repeatable; default: the config's)."),
    ] = None,
    config: Annotated[Path | None, typer.Option("--config", "-c", help="mcpwall YAML configuration.")] = None,
    definition: Annotated[
        Path | None,
        typer.Option("--definition", help="The tool's definition, a JSON object (annotations, inputSchema)."),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Print every check's verdict on a hypothetical call, and the final level (strictest wins)."""
    arguments = _json_object(args, "--args")
    tool_definition = _definition(definition, tool) if definition is not None else None
    try:
        loaded = load_config(config) if config is not None else Config()
        explanation = explain_call(loaded, server, tool, arguments, profile or (), tool_definition)
    except ConfigError as exc:
        fail(f"config error: {exc}", code=EXIT_USAGE)
    if as_json:
        typer.echo(orjson.dumps(explanation.to_dict(), option=orjson.OPT_INDENT_2, default=str).decode())
        return
    typer.echo("\n".join(render(explanation)))


def _json_object(text: str, option: str) -> dict[str, Any]:
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        fail(f"{option}: not JSON: {exc}", code=EXIT_USAGE)
    if not isinstance(value, dict):
        fail(f"{option}: expected a JSON object", code=EXIT_USAGE)
    return value


def _definition(path: Path, tool: str) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"--definition: cannot read {path}: {exc}", code=EXIT_USAGE)
    found = _json_object(text, "--definition")
    name = found.get("name", tool)
    if name != tool:
        fail(f"--definition: the definition is of tool {name!r}, not {tool!r}", code=EXIT_USAGE)
    return found


def render(explanation: Explanation) -> list[str]:
    """The explanation as text lines: one block per check, then rate limits and the level.

    Args:
        explanation: what `mcpwall.explain.explain_call` found.

    Returns:
        The lines to print.
    """
    arguments = orjson.dumps(explanation.arguments, default=str).decode()
    lines = [
        f"call: {explanation.server}/{explanation.tool} {arguments}",
        f"settings: {explanation.settings}",
        f"profiles: {', '.join(explanation.profiles) or '(none)'}",
        "",
    ]
    for number, outcome in enumerate(explanation.outcomes, start=1):
        lines += _outcome_lines(number, outcome)
    decisive = explanation.decision.decisive
    why = "nothing objected" if decisive is None else f"{decisive.check}: {decisive.rule}"
    lines += [
        f"rate limits: {RATE_LIMITS_NOTE}",
        f"final level: {explanation.level.name} ({why})",
    ]
    return lines


def _outcome_lines(number: int, outcome: CheckOutcome) -> list[str]:
    verdict = outcome.verdict
    if verdict is None:
        return [f"{number}. {outcome.check}: no objection"]
    lines = [f"{number}. {outcome.check}: {verdict.level.name} ({verdict.rule})"]
    if "kind" in verdict.detail:
        return lines + [f"     {line}" for line in _resolution_lines(verdict.detail)]
    listed = verdict.detail.get("violations")
    if isinstance(listed, list):
        return lines + [f"     {item.get('type')}: {item.get('reason')}" for item in listed if isinstance(item, dict)]
    return [*lines, f"     {verdict.violation or 'reason'}: {verdict.reason}"]


def _resolution_lines(resolution: Mapping[str, object]) -> list[str]:
    """The gatekeeper's resolution: kind and source, default level, profiles, conflicts, level."""
    elevatable = "elevatable" if resolution.get("elevatable") else "not elevatable"
    lines = [
        f"kind: {resolution.get('kind')} (from {resolution.get('kind_source')}: {resolution.get('rationale')})",
        f"default level: {resolution.get('default_level')} ({elevatable})",
    ]
    risk = resolution.get("command_risk")
    if isinstance(risk, dict):
        lines.append(f"command risk: {risk.get('risk')} ({'; '.join(map(str, risk.get('reasons', [])))})")
    lines += [_effect_line(effect) for effect in _dicts(resolution.get("effects"))]
    lines += [
        f"conflict: {c.get('list')} {c.get('pattern')!r} in profile {c.get('profile')!r} lost to {c.get('lost_to')}"
        for c in _dicts(resolution.get("conflicts"))
    ]
    read_only = resolution.get("read_only_by")
    if read_only:
        lines.append(f"read-only session (by {', '.join(map(str, _items(read_only)))}): confirmations are denied")
    decided = resolution.get("decided_by")
    by = f"{decided.get('list')} in profile {decided.get('profile')!r}" if isinstance(decided, dict) else "default"
    lines.append(f"level: {resolution.get('level')} (decided by {by})")
    return lines


def _effect_line(effect: Mapping[str, object]) -> str:
    said = "no match" if effect.get("list") is None else f"{effect.get('list')} {effect.get('pattern')!r}"
    read_only = ", makes the session read-only" if effect.get("read_only") else ""
    return f"profile {effect.get('profile')}: {said}{read_only}"


def _items(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []


def _dicts(value: object) -> list[Mapping[str, object]]:
    return [item for item in _items(value) if isinstance(item, dict)]
