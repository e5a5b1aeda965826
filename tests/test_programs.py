"""The one policy for a program the tests drive: found, it is used; missing, the test fails
in CI and is skipped elsewhere, saying which package brings it."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests import programs


def test_a_program_found_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    found = {"libreoffice": "/opt/office/libreoffice"}
    monkeypatch.setattr(shutil, "which", found.get)
    assert programs.need("soffice") == "/opt/office/libreoffice"  # by its other name


@pytest.mark.parametrize("ci", ["", "false"])
def test_a_missing_program_skips_outside_ci(monkeypatch: pytest.MonkeyPatch, ci: str) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.skip.Exception, match=r"needs chromium .*package chromium"):
        programs.need("chromium")


@pytest.mark.parametrize("ci", ["true", "1"])
def test_a_missing_program_fails_in_ci(monkeypatch: pytest.MonkeyPatch, ci: str) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", ci)
    with pytest.raises(pytest.fail.Exception, match=r"needs pdftoppm .*poppler-utils"):
        programs.need("pdftoppm")


@pytest.mark.programs  # it starts one, to see it noticed
def test_a_process_started_is_noticed() -> None:
    """What makes a test that starts a process without the `programs` mark fail."""
    from tests.conftest import STARTED

    assert STARTED == []
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    assert [event.split()[0] for event in STARTED] == ["subprocess.Popen"]
