"""Build the ``crib`` parser from each package's subcommands, run one, report bad input.

Bad input (a :class:`~trainer.errors.CribbageError`, or a file that cannot be read) gets one
line on standard error and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

import trainer.cli
import vision.cli
import web.cli
from trainer.errors import CribbageError

EXIT_USAGE = 2
"""Exit status for bad input, as argparse uses for a bad command line."""


def build_parser() -> argparse.ArgumentParser:
    """The ``crib`` argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="crib", description="Cribbage counting trainer.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for package in (trainer.cli, vision.cli, web.cli):
        package.add_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the ``crib`` command; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args, out or sys.stdout)
    except (CribbageError, OSError) as e:
        print(f"crib {args.command}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    return status
