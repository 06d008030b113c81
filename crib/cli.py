"""Build the ``crib`` parser from each package's subcommands, run one, report bad input.

Bad input (a :class:`~trainer.errors.CribbageError`, or a file that cannot be read) gets one
line on standard error and exit status 2, never a traceback. Output to a pipe whose reader has
gone (``crib stats | head``) ends the command quietly, as Unix tools do; so does Ctrl-C
(status 130, the shell's for SIGINT), whatever the command was doing.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence
from typing import TextIO

from web import settings

from .interrupt import held

EXIT_USAGE = 2
"""Exit status for bad input, as argparse uses for a bad command line."""
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE
"""Exit status when the reader of standard output has gone, as the shell reports a tool that
SIGPIPE stopped."""
EXIT_INTERRUPTED = 128 + signal.SIGINT
"""Exit status after Ctrl-C, as the shell reports a tool that SIGINT stopped."""


def build_parser() -> argparse.ArgumentParser:
    """The ``crib`` argument parser with every subcommand.

    Raises:
        web.settings.SettingError: a setting the reader reads as it loads is bad.
    """
    from . import drill, engine, play, read, serve

    parser = argparse.ArgumentParser(prog="crib", description="Cribbage counting trainer.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for package in (engine, read, serve, drill, play):
        package.add_commands(commands)
    parser.set_defaults(vision_models=settings.value("VISION_MODELS"), held=held)
    listing = commands.add_parser(
        "settings",
        help="list the trainer's settings and the values in force",
        description="Every setting (CRIB_<NAME> in the environment), its value and what it does;"
        " exit status 2 when one is bad.",
    )
    listing.set_defaults(run=_settings)
    return parser


def _settings(_args: argparse.Namespace, out: TextIO) -> int:
    """``crib settings``: each setting, its value from the environment (or its default), its help.

    A bad value is named on standard error too, and the exit status is 2.
    """
    status = 0
    for setting in settings.SETTINGS:
        raw = os.environ.get(setting.variable)
        if raw is None:
            shown = f"{setting.default} (default)"
        else:
            try:
                shown = f"{setting.value(raw)} (set)"
            except settings.SettingError as error:
                print(f"crib settings: error: {error}", file=sys.stderr)
                shown, status = f"{raw!r} (refused: {error})", EXIT_USAGE
        print(f"{setting.variable} = {shown}\n    {setting.help}", file=out)
    return status


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the ``crib`` command; returns the exit status (130 after Ctrl-C, said nothing)."""
    try:
        return _main(argv, out)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


def _main(argv: Sequence[str] | None, out: TextIO | None) -> int:
    try:
        with held():  # the libraries' threads start as the commands load (crib.interrupt)
            parser = build_parser()
    except settings.SettingError as error:
        print(f"crib: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    from trainer.errors import CribbageError

    from .engine import os_error_words

    args = parser.parse_args(argv)
    out = out or sys.stdout
    try:
        status: int = args.run(args, out)
        out.flush()  # a closed pipe is found here, not at exit
    except BrokenPipeError:
        _discard_stdout()
        return EXIT_BROKEN_PIPE
    except CribbageError as e:
        print(f"crib {args.command}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as e:
        print(f"crib {args.command}: error: {os_error_words(e)}", file=sys.stderr)
        return EXIT_USAGE
    return status


def _discard_stdout() -> None:
    """Point standard output at the null device, so the flush at exit finds no closed pipe."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
