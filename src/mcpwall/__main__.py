"""``python -m mcpwall``."""

from mcpwall.cli.entry import main

main()
