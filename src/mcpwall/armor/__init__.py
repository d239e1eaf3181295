"""Armor: argument, rate and output policy applied to every tools/call, as pure fast functions.

Nothing here performs I/O beyond filesystem lookups to resolve symlinks (and the rate-limit
storage), and nothing raises to say "no": every rule returns a :class:`Violation` value.

Modules:

- :mod:`~mcpwall.armor.violations`: the ``Violation`` value and the table of its types.
- :mod:`~mcpwall.armor.settings`: ``ArmorSettings`` / ``RateLimitSettings`` (pydantic).
- :mod:`~mcpwall.armor.ceiling`: ``apply_ceiling``: nothing may allow more than the gateway.
- :mod:`~mcpwall.armor.arguments`: where the paths, URLs and hosts are in the arguments.
- :mod:`~mcpwall.armor.paths`: ``check_path``: traversal and root boundaries, symlinks followed.
- :mod:`~mcpwall.armor.hosts` and :mod:`~mcpwall.armor.network`: ``check_network``: strict URL and
  host reading, private addresses, domain allowlists.
- :mod:`~mcpwall.armor.command_line` and :mod:`~mcpwall.armor.commands`: ``check_command``:
  base command, subcommand, metacharacters, interpreter wrappers.
- :mod:`~mcpwall.armor.check`: ``check_arguments``: all of the above for one call.
- :mod:`~mcpwall.armor.rate_limits`: ``RateLimiter`` (``limits`` library, memory or redis).
- :mod:`~mcpwall.armor.output`: ``cap_result``: bound the size of a tool result.

Import from the submodules; this package imports nothing, so loading one module (e.g. the tool
lists) does not load pydantic models and storages it does not need.
"""
