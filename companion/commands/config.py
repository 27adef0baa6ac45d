"""``companion config example|path``: the commented example table.toml, and which file is used.

``companion config example > ~/.config/companion/table.toml`` starts a table's own file;
``companion config path`` says which file a command would read and why (the discovery
order is in :mod:`companion.table.config`).
"""

from __future__ import annotations

import argparse
import sys

from companion.commands.errors import CommandError
from companion.table.config import example_table_config_text, find_table_config


def run_example(args: argparse.Namespace) -> int:
    sys.stdout.write(example_table_config_text())
    return 0


def run_path(args: argparse.Namespace) -> int:
    choice = find_table_config(args.config)
    if choice.path is not None and not choice.path.is_file():
        raise CommandError(f"{choice.describe()}: no such file")
    print(choice.describe())
    return 0
