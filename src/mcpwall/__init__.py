"""mcpwall: a security gateway for the Model Context Protocol."""
