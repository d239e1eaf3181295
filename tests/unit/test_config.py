"""Configuration: the example loads; unknown keys, bad values and duplicates name key and line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from mcpwall.config import load_config, parse_config
from mcpwall.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]


def test_example_config_loads_and_denies_convert_time() -> None:
    config = load_config(ROOT / "examples" / "mcpwall.yaml")
    assert config.tools.deny == ["convert_time"]
    assert config.servers["time"].command == "mcp-server-time"
    assert config.approvals.channel == "hold"
    assert config.gatekeeper.trusts_annotations("time")


@pytest.mark.parametrize(
    ("text", "path", "line"),
    [
        ("tools:\n  deny: [a]\n  denny: [b]\n", "tools.denny", 3),
        ("wire:\n  max_line_bytes: 5\n", "wire.max_line_bytes", 2),
        ("servers:\n  x:\n    command: a\n    args: 3\n", "servers.x.args", 4),
        ("tools: {}\ntools: {}\n", "", 2),
        ("- a\n", "", 1),
        ("tools: [\n", "", 2),
    ],
)
def test_bad_config_names_key_path_and_line(text: str, path: str, line: int) -> None:
    with pytest.raises(ConfigError) as error:
        parse_config(text)
    assert error.value.path == path
    assert error.value.line == line


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcpwall", *args], capture_output=True, text=True, timeout=60, check=False
    )


def test_config_check_accepts_example_and_rejects_typo(tmp_path: Path) -> None:
    assert _cli("config", "check", str(ROOT / "examples" / "mcpwall.yaml")).returncode == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text("tools:\n  alow: ['*']\n", encoding="utf-8")
    result = _cli("config", "check", str(bad))
    assert result.returncode == 2
    assert "tools.alow (line 2)" in result.stderr


def test_config_schema_is_json_schema_with_descriptions() -> None:
    schema = orjson.loads(_cli("config", "schema").stdout)
    assert schema["additionalProperties"] is False
    assert "glob" in str(schema).lower()


def test_run_with_broken_config_fails_closed_with_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("tools:\n  deny: 7\n", encoding="utf-8")
    result = _cli("run", "--config", str(bad), "--", sys.executable, "-c", "print('never')")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "tools.deny" in result.stderr


def test_every_readme_config_example_loads() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [part.split("```", 1)[0] for part in readme.split("```yaml\n")[1:]]
    configs = [parse_config(block) for block in blocks]
    assert len(configs) >= 2
    main = next(c for c in configs if "careful" in c.gatekeeper.profiles)
    assert main.gatekeeper.profiles["careful"].confirm == ["*/delete_*"]
    assert main.armor.allowed_domains == ["*.github.com", "pypi.org"]
    assert any(c.identity is not None for c in configs)
