"""The command line: thin commands over the packages.

`mcpwall.cli.entry.main` is the console script. ``mcpwall run`` takes a light path (argparse,
`run_cmd`) because clients start it at every launch; every other command is a typer app
(`app`). Output goes to stderr except where a command's purpose is to print; never during
``run``, whose stdout is the protocol.
"""
