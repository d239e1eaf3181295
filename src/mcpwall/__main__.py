"""``python -m mcpwall``."""

from mcpwall.cli import main

main()
