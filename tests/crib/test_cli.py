"""The ``crib`` package: it assembles every package's subcommands, and bad input is one line."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from crib.cli import EXIT_BROKEN_PIPE, EXIT_USAGE, build_parser, main
from crib.engine import os_error_words


@pytest.mark.parametrize(
    "command", ["score", "discard", "peg", "stats", "read", "eval-vision", "serve", "settings"]
)
def test_every_subcommand_is_assembled(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The engine's, the reader's and the web trainer's subcommands are all there."""
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args([command, "--help"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: crib {command}")


def test_serve_help_documents_its_options_with_defaults() -> None:
    """``crib serve --help`` names --host, --port, --workers and --threads with their defaults."""
    out = subprocess.run(
        [sys.executable, "-m", "crib", "serve", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for option, default in (
        ("--host", "127.0.0.1"),
        ("--port", "8000"),
        ("--workers", "2"),
        ("--threads", "4"),
    ):
        assert option in out
        assert f"default: {default}" in out


def test_starting_crib_imports_neither_the_web_app_nor_the_reader() -> None:
    """``crib score`` stays quick: Flask, OpenCV and onnxruntime load only when needed."""
    code = (
        "import sys, crib.cli; crib.cli.build_parser(); "
        "print(sorted(m for m in ('flask', 'cv2', 'onnxruntime', 'gunicorn') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_bad_input_is_one_line_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    """A project error ends the command with status 2 and a single line naming the problem."""
    status = main(["score", "5H", "5D", "1C", "JS", "5S"], io.StringIO())
    err = capsys.readouterr().err
    assert status == EXIT_USAGE
    assert err == "crib score: error: unknown rank '1' in '1C' (use A,2-10,J,Q,K)\n"


@pytest.mark.slow
def test_a_closed_pipe_ends_quietly() -> None:
    """``crib stats | head -c 400``: the reader gone, the command stops without a word, as Unix
    tools do (here the pipe's reading end is closed before anything is written)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    with os.fdopen(write_end, "wb") as stdout:
        result = subprocess.run(
            [sys.executable, "-m", "crib", "stats"],
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert result.stderr == ""
    assert result.returncode == EXIT_BROKEN_PIPE


@pytest.mark.parametrize(
    "error, words",
    [
        (
            FileNotFoundError(2, "No such file or directory", "nosuch.txt"),
            "no such file: nosuch.txt",
        ),
        (IsADirectoryError(21, "Is a directory", "deals"), "deals is a folder, not a file"),
        (PermissionError(13, "Permission denied", "secret"), "permission denied: secret"),
        (OSError("could not write 'x.jpg'"), "could not write 'x.jpg'"),
    ],
)
def test_file_errors_are_said_in_words(error: OSError, words: str) -> None:
    """A file that cannot be read is named in words, never as ``[Errno 2]``."""
    assert os_error_words(error) == words
