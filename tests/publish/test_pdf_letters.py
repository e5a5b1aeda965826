"""Names whose letters DejaVu Sans lacks in the notice-board PDFs: taken from a font of the
system that has them, or named to the secretary, never left to a warning of fpdf2, through
`keizer-xl publish --pdf` in English and Dutch."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from keizer_xl.publish import pdf
from tests.conftest import run_cli
from tests.publish.books import season_workbook
from tests.seasons import club_season

NAMES = ("Anna de Vries", "李小龙", "Bram Bakker", "Cor Jansen", "Dirk Smit", "Eva Visser")
NO_FONT = {
    "en": "no font on this computer has every letter of 李小龙",
    "nl": "geen lettertype op deze computer heeft elke letter van 李小龙",
}


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_name_no_font_can_print_is_named_without_a_library_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, language: str
) -> None:
    monkeypatch.setattr(pdf, "FALLBACK_FONTS", (tmp_path / "none.ttf",))
    book = season_workbook(tmp_path / "club.xlsx", club_season(NAMES, 3, seed=2), language)
    caplog.set_level(logging.WARNING)
    done = run_cli("publish", book, "--pdf", "--out", tmp_path / "site")
    assert done.exit_code == 0, done.output
    assert NO_FONT[language] in " ".join(done.output.split())
    assert "missing the following glyphs" not in done.output + caplog.text
    assert (tmp_path / "site" / "standings.pdf").stat().st_size > 0


def test_a_font_of_the_system_with_the_letters_is_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DejaVu Sans has no mathematical bold 𝗔 (U+1D5D4); its bold cut, shipped beside it,
    has: standing in for a system's font with the letters, it is taken, and no name is
    left unprintable."""
    bold = pdf.FONTS / "DejaVuSans-Bold.ttf"
    name = "Anna 𝗔"
    monkeypatch.setattr(pdf, "FALLBACK_FONTS", (tmp_path / "none.ttf",))
    assert pdf.fallbacks([name, "Bram"]) == ([], [name])
    monkeypatch.setattr(pdf, "FALLBACK_FONTS", (tmp_path / "none.ttf", bold))
    assert pdf.fallbacks([name, "Bram"]) == ([bold], [])
    season = club_season(("Bram Bakker", name, "Cor Jansen", "Dirk Smit"), 2, seed=2)
    book = season_workbook(tmp_path / "club.xlsx", season, "en")
    done = run_cli("publish", book, "--pdf", "--out", tmp_path / "site")
    assert done.exit_code == 0, done.output
    assert "no font on this computer" not in done.output
