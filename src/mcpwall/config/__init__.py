"""Configuration: pydantic models (unknown keys refused) loaded from YAML.

`load_config` reads a file; errors are `ConfigError` naming the key path and the line.
"""

from mcpwall.config.loader import load_config, parse_config
from mcpwall.config.models import Config, ServerSpec

__all__ = ["Config", "ServerSpec", "load_config", "parse_config"]
