"""The settings table: every setting documented, listed, and refused when bad, in one line."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from crib.cli import EXIT_USAGE, main
from web import create_app, settings
from web.settings import SETTINGS, SettingError

ROOT = Path(__file__).resolve().parents[2]


def test_every_setting_is_documented_and_nothing_else() -> None:
    table = (ROOT / "docs" / "deployment.md").read_text()
    documented = set(re.findall(r"^\| `(CRIB_[A-Z_]+)` \|", table, flags=re.MULTILINE))
    assert documented == {setting.variable for setting in SETTINGS}


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda setting: setting.name)
def test_a_bad_value_stops_the_start_in_one_line_naming_it(
    setting: settings.Setting, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("flask.Flask.auto_find_instance_path", lambda self: str(tmp_path))
    for other in SETTINGS:
        monkeypatch.delenv(other.variable, raising=False)
    monkeypatch.setenv(setting.variable, setting.bad)
    with pytest.raises(SettingError) as refused:
        create_app()
    message = str(refused.value)
    assert message.startswith(f"{setting.variable}") and "\n" not in message


def test_the_environment_wins_over_the_config_file_and_values_are_parsed() -> None:
    environ = {"CRIB_DEALS_PER_MINUTE": " 30 ", "CRIB_RATELIMIT_ENABLED": "no"}
    config_file = {"DEALS_PER_MINUTE": 10, "TRUSTED_PROXIES": 1, "UNRELATED": "x"}
    assert settings.read(config_file, environ) == {
        "DEALS_PER_MINUTE": 30,
        "RATELIMIT_ENABLED": False,
        "TRUSTED_PROXIES": 1,
    }
    assert settings.value("TRUSTED_PROXIES", {}) == 0


def test_crib_settings_lists_each_with_its_value_and_refuses_a_bad_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for setting in SETTINGS:
        monkeypatch.delenv(setting.variable, raising=False)
    monkeypatch.setenv("CRIB_DEALS_PER_MINUTE", "12")
    out = io.StringIO()
    assert main(["settings"], out) == 0
    listing = out.getvalue()
    assert all(f"{setting.variable} = " in listing for setting in SETTINGS)
    assert "CRIB_DEALS_PER_MINUTE = 12 (set)" in listing
    assert "CRIB_TRUSTED_PROXIES = 0 (default)" in listing
    monkeypatch.setenv("CRIB_TRUSTED_PROXIES", "two")
    assert main(["settings"], io.StringIO()) == EXIT_USAGE
    assert "CRIB_TRUSTED_PROXIES: 'two' is not" in capsys.readouterr().err


def test_a_bad_reader_setting_is_one_line_from_any_command() -> None:
    """The reader reads its settings as it loads, before any command runs: a bad one is one
    line and exit status 2, not a traceback."""
    result = subprocess.run(
        [sys.executable, "-m", "crib", "score", "5H", "5D", "5C", "JS", "5S"],
        env={**os.environ, "CRIB_VISION_MODELS": ""},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == EXIT_USAGE
    assert (
        result.stderr
        == "crib: error: CRIB_VISION_MODELS is empty: leave it unset for its default\n"
    )
