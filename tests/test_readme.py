"""README.md's examples run as written: its ``python`` blocks as doctests, and every ``$``
command of its ``console`` blocks in bash, its printed output compared with what follows it.

``crib`` runs as ``python -m crib`` from this checkout. ``...`` in an expected output stands for
any text (doctest's ELLIPSIS), as the README uses it for long output. A decimal number the
README shows (a reader's confidence, a box's corner) may differ by one in its last digit: the
classifier's floating point rounds a little differently on another CPU's instructions (AVX2,
AVX-512, ARM), and a number on a rounding boundary prints one digit apart; the cards, the
scores and every other character must match. The camera examples read
``photo.jpg`` and ``photo2.jpg``: shared real photos (the first is the one they were taken from),
linked into the command's folder. Blank lines after an output only separate examples.

The quick start's photo, ``docs/sample-hand.jpg``, ships in the repository so that a player can
try ``crib read`` without ``../shared``. It is a synthetic scene from the project's generator,
``vision.training.synth.scene.make_scene(numpy.random.default_rng(107), load_decks(),
size=(1024, 768))`` (camera effects on, the cached "anglo" deck), written as a JPEG of quality 85.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tests.shared import shared_path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

PHOTOS = {
    "photo.jpg": "data/real-cards/images/edje_train_IMG_2611.jpg",
    "photo2.jpg": "data/real-cards/images/edje_train_IMG_2612.jpg",
}
"""Files the examples name, as paths under ../shared."""

SAMPLE = "docs/sample-hand.jpg"
"""The photo the quick start reads, in the repository."""

SAMPLE_MAX_BYTES = 200_000
"""The sample photo stays small: every clone carries it."""

FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
"""A fenced block: its language and its text."""


class Example(NamedTuple):
    """One README command and the output printed under it."""

    line: int
    command: str
    output: str


def fenced_blocks(language: str) -> list[tuple[int, str]]:
    """The README's fenced blocks in ``language``: the line each text starts on, and the text."""
    text = README.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, match.start(2)) + 1, match.group(2))
        for match in FENCE.finditer(text)
        if match.group(1) == language
    ]


def console_examples() -> list[Example]:
    """Each ``$ command`` of the console blocks with the lines up to the next command."""
    examples: list[Example] = []
    for start, text in fenced_blocks("console"):
        for offset, line in enumerate(text.splitlines()):
            if line.startswith("$ "):
                examples.append(Example(start + offset, line[2:], ""))
            elif not examples or examples[-1].line < start:
                raise AssertionError(f"README.md:{start + offset}: output before any command")
            else:
                examples[-1] = examples[-1]._replace(output=examples[-1].output + line + "\n")
    return [
        e._replace(output=e.output.rstrip("\n") + "\n" if e.output.strip() else "")
        for e in examples
    ]


EXAMPLES = console_examples()
CHECKER = doctest.OutputChecker()
DECIMAL = re.compile(r"-?\d+\.\d+")
"""A decimal number in an expected output."""


def shows(expected: str, printed: str) -> bool:
    """Whether ``printed`` is what the README shows as ``expected``: exactly, ``...`` standing for
    any text, but that each decimal number of ``expected`` may be one off in its last digit
    (the module's docstring says why).

    Examples:
        >>> shows("4D 0.99  box [131.3, 417.7] ...", "4D 1.00  box [131.2, 417.7] and more")
        True
        >>> shows("4D 0.99  total 9", "4D 0.97  total 9")
        False
        >>> shows("4D 0.99  total 9", "4H 0.99  total 9")
        False
    """
    if CHECKER.check_output(expected, printed, doctest.ELLIPSIS):
        return True
    pattern, numbers = "", []
    for part in re.split(r"(\.\.\.|-?\d+\.\d+)", expected):
        if part == "...":
            pattern += ".*?"
        elif DECIMAL.fullmatch(part):
            pattern += f"({DECIMAL.pattern})"
            numbers.append(part)
        else:
            pattern += re.escape(part)
    match = re.fullmatch(pattern, printed, re.DOTALL)
    return match is not None and all(
        abs(float(got) - float(want)) <= 10.0 ** -len(want.split(".")[1]) + 1e-9
        for want, got in zip(numbers, match.groups(), strict=True)
    )


def marked(example: Example) -> Any:
    """``example`` as a test parameter, marked ``slow`` when it runs the camera reader on a
    photo (seconds each: the model loads in a new process)."""
    if any(name in example.command for name in [*PHOTOS, SAMPLE]):
        return pytest.param(example, marks=pytest.mark.slow)
    return example


def test_readme_has_examples() -> None:
    """The parsing above finds the README's commands (so the tests below are not vacuous)."""
    commands = [example.command.split()[0] for example in EXAMPLES]
    assert len(commands) >= 10 and set(commands) <= {"crib", "printf"}
    assert len(fenced_blocks("python")) >= 1


@pytest.mark.parametrize(
    "example", [marked(e) for e in EXAMPLES], ids=lambda e: f"README.md:{e.line}"
)
@pytest.mark.slow
def test_console_example(example: Example, tmp_path: Path) -> None:
    """The command prints what the README shows under it (standard error included)."""
    for name, photo in PHOTOS.items():
        if name in example.command:
            (tmp_path / name).symlink_to(shared_path(photo))
    if SAMPLE in example.command:
        (tmp_path / SAMPLE).parent.mkdir(parents=True)
        (tmp_path / SAMPLE).symlink_to(ROOT / SAMPLE)
    script = f'crib() {{ "{sys.executable}" -m crib "$@"; }}\n{example.command}\n'
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        ["bash", "-c", script],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in result.stdout, result.stdout
    if example.output:
        assert shows(example.output, result.stdout), (
            f"README.md:{example.line}: $ {example.command}\n"
            f"--- README shows:\n{example.output}--- the command printed:\n{result.stdout}"
        )
    else:  # shown without output: it must at least succeed and print something
        assert result.returncode == 0 and result.stdout, result.stdout


@pytest.mark.parametrize(
    "start, text",
    fenced_blocks("python"),
    ids=lambda v: f"README.md:{v}" if isinstance(v, int) else "",
)
def test_python_example(start: int, text: str) -> None:
    """A ``python`` block runs as a doctest."""
    test = doctest.DocTestParser().get_doctest(text, {}, "README.md", str(README), start - 1)
    assert test.examples, f"README.md:{start}: a python block without >>> examples"
    reports: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=reports.append)
    assert runner.failures == 0, "".join(reports)


def test_quick_start_reads_the_sample_photo() -> None:
    """README's quick start reads the photo the repository ships, to a hand, its starter and a
    total (``test_console_example`` runs it and compares the cards and the score); the photo is
    small enough for every clone to carry."""
    example = next((e for e in EXAMPLES if e.command == f"crib read {SAMPLE}"), None)
    assert example is not None, f"README.md shows no '$ crib read {SAMPLE}'"
    card_line = example.output.splitlines()[0]
    assert card_line.startswith(f"{SAMPLE}: ") and "(starter)" in card_line, card_line
    assert re.search(r"^total \d+ \(hand, six-card\)$", example.output, re.MULTILINE)
    assert (ROOT / SAMPLE).stat().st_size < SAMPLE_MAX_BYTES


def ci_command() -> str:
    """What ``.ci/run`` runs after moving to the checkout, its commands joined by ``&&``."""
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    commands = [
        line for line in lines if line.strip() and not line.startswith(("#", "set ", "cd "))
    ]
    return " && ".join(commands)


def test_readme_test_command_is_what_ci_runs() -> None:
    """The test command README gives is the one CI runs, and both of README's set-up commands
    install at the lock's versions, as ``scripts/install-test-deps`` does."""
    commands = [text.strip() for _, text in fenced_blocks("sh")]
    assert ci_command() in commands, f"README.md has no sh block '{ci_command()}'"
    installs = [c for c in commands if "pip install" in c and "-e ." in c]
    assert installs and all("-c constraints.txt" in c for c in installs), installs
    assert "-c constraints.txt" in (ROOT / "scripts" / "install-test-deps").read_text()


LINK = re.compile(r"\]\(([^)\s]+)\)|<img src=\"([^\"]+)\"")
"""A Markdown link's or an image tag's target."""

DOCUMENTS = [README, *sorted((ROOT / "docs").glob("*.md")), ROOT / "tests" / "README.md"]
"""The Markdown pages whose links are checked."""


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the headings of ``page``: lower case, punctuation dropped,
    spaces as hyphens."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    headings = re.findall(r"^#+ (.+)$", text, re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


@pytest.mark.parametrize("page", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_lead_somewhere(page: Path) -> None:
    """Every relative link of the page names a file of the checkout, and a heading of it where
    the link names one."""
    broken = []
    for match in LINK.finditer(FENCE.sub("", page.read_text(encoding="utf-8"))):
        target = match.group(1) or match.group(2)
        if target.startswith(("http://", "https://")):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists() or (anchor and anchor not in anchors(file)):
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)}: broken links {broken}"
