"""The notice-board PDFs: A4 portrait, 60 players on a page, every character as typed.

poppler (installed by .ci/system-packages) reads them back: pdftotext for the words,
pdfinfo for the paper, pdftoppm for a picture that must show ink."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import keizer_xl
from keizer_xl.core.report import build_report
from keizer_xl.core.scoring import compute_standings
from keizer_xl.core.settings import Settings
from keizer_xl.i18n.numbers import number
from keizer_xl.publish.book import workbook_report
from keizer_xl.publish.pdf import font_files, write_pdfs
from keizer_xl.publish.site import Titles
from tests.conftest import run_cli
from tests.seasons import club_season

pytestmark = pytest.mark.programs("pdftotext", "pdfinfo", "pdftoppm")

NAMES = [
    "O'Brien & <Zoë>",
    "Ünal Şahin",
    "Émile Zola",
    "Łukasz Čapek",
    *(f"Speler {i:02d} van der Berg" for i in range(56)),
]

# The letters beyond a-z that Dutch, German and Italian names are written with (ĳ is one
# letter in Dutch), and a club's names that carry every one of them between them.
LETTERS = "àáäèéëìíïòóöùúüßĳÀÁÄÈÉËÌÍÏÒÓÖÙÚÜẞĲ"
EUROPEAN = [
    "Bjørn Ødegård",
    "Jürgen Groß",
    "Niccolò Càrdenas",
    "Çağlar",
    "Zoë Ĳsselmeer",
    "Marĳke Éngels-Noël",
    "Ärne Übelhör-Öztürk",
    "Käthe Loïs Brüggemann",
    "Ìlario Òrsini dell'Ùmbria",
    "Èrcole Àlberti da Forlì",
    "Ángel Sánchez Martínez",
    "Úna Ó Dálaigh",
    "Íde Ní Bhriain",
    "Ramón Núñez Gesù",
    "Ëlla Ïda GROẞ",
    "Désirée Tèrmini",
]


def pdf_text(path: Path) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


def pdf_info(path: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    return {
        k.strip(): v.strip()
        for k, v in (line.split(":", 1) for line in out.splitlines() if ":" in line)
    }


def test_sixty_players_on_one_a4_page(tmp_path: Path) -> None:
    season = club_season(NAMES, 9, seed=2, open_last=True)
    report = build_report(season, compute_standings(season, Settings()))
    standings, pairings = write_pdfs(report, Titles("SC De Toren", "Keizer 2025–26"), tmp_path)
    for path in (standings, pairings):
        info = pdf_info(path)
        assert info["Pages"] == "1"
        assert info["Page size"].startswith("595.28 x 841.89")  # A4 portrait, in points
    text = pdf_text(standings)
    assert "SC De Toren · Keizer 2025–26" in text
    assert f"Standings after round {report.after_round}" in text
    lines = text.splitlines()
    for p in report.players:  # each player's line: rank, name, score as the engine has it
        row = p.standing
        line = next(line for line in lines if f" {row.name} " in f" {line} ")
        assert line.split()[0] == str(row.rank)
        assert number(row.score) in line.split()
    assert "▲" in text and "▼" in text and "½" in text
    ranks = [p for p in report.players if p.change]
    assert ranks
    words = pdf_text(pairings)
    assert f"Round {report.season.last_round}: pairings" in words
    assert "O'Brien & <Zoë>" in words + text and "Łukasz Čapek" in words + text


def test_every_letter_of_a_dutch_german_or_italian_name_prints(tmp_path: Path) -> None:
    """The embedded font has a glyph for each letter: pdftotext reads every name back as
    it was typed, in the standings and in the round's pairings (everybody absent is named
    there with a reason)."""
    assert set(LETTERS) <= set("".join(EUROPEAN))
    season = club_season(EUROPEAN, 4, seed=3, typed=1.0)
    report = build_report(season, compute_standings(season, Settings()))
    standings, pairings = write_pdfs(report, Titles("Schachclub Köln", "Ĳsselcup"), tmp_path)
    for path in (standings, pairings):
        text = " ".join(pdf_text(path).split())  # a long line of absentees wraps
        assert "Schachclub Köln · Ĳsselcup" in text
        missing = [name for name in EUROPEAN if name not in text]
        assert not missing, (path.name, missing)


def test_the_font_comes_with_keizer_xl() -> None:
    """Not from another package or the computer: the files and their licence ship inside
    keizer_xl (the wheel carries them)."""
    package = Path(keizer_xl.__file__).resolve().parent
    files = font_files()
    assert sorted(files) == ["", "B"]
    for path in files.values():
        assert path.is_relative_to(package) and path.stat().st_size > 100_000
        assert (path.parent / "LICENSE").read_text(encoding="utf-8").count("DejaVu") >= 1


def test_pdf_pages_show_ink(tmp_path: Path) -> None:
    from PIL import Image

    season = club_season(NAMES[:12], 4, seed=3)
    report = build_report(season, compute_standings(season, Settings()))
    standings, _ = write_pdfs(report, Titles(), tmp_path)
    subprocess.run(
        ["pdftoppm", "-r", "60", "-png", "-singlefile", str(standings), str(tmp_path / "page")],
        check=True,
    )
    with Image.open(tmp_path / "page.png") as image:
        grey = image.convert("L")
        width, height = grey.size
        assert abs(width / height - 210 / 297) < 0.01
        dark = sum(grey.histogram()[:128])
        assert dark > 0.003 * width * height  # a table, not an empty page
        top = grey.crop((0, 0, width, height // 8))
        assert sum(top.histogram()[:128]) > 0  # the heading


def test_publish_pdf_command(demo_book: Path, tmp_path: Path) -> None:
    result = run_cli("publish", demo_book, "--pdf", "--out", tmp_path / "board")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "board").iterdir()) == [
        "pairings.pdf",
        "standings.pdf",
    ]
    text = pdf_text(tmp_path / "board" / "standings.pdf")
    report, _ = workbook_report(demo_book)
    assert [line.split()[:3] for line in text.splitlines() if "Harrison" in line] == [
        ["1", "▲1", "Harrison"]
    ]
    assert "141" in next(line for line in text.splitlines() if "Harrison" in line)
    assert report.players[0].name == "Harrison"
