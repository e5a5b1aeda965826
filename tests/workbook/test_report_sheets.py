"""The Crosstable and Progress sheets and the new Standings columns: written by `pair` and
`recalc` with the engine's numbers, and opened by LibreOffice with the Progress chart."""

from __future__ import annotations

import csv
import io
import subprocess
import zipfile
from pathlib import Path

import numpy as np
import pytest
from python_calamine import CalamineWorkbook

from keizer_xl.core.report import build_report
from keizer_xl.core.scoring import compute_standings
from keizer_xl.core.settings import Settings
from keizer_xl.workbook.cells import PROGRESS_HEADER_ROW
from keizer_xl.workbook.template import SHEETS
from tests.conftest import run_cli
from tests.helpers_package import csv_filter, libreoffice_convert
from tests.seasons import club_season, season_book

NAMES = [f"Speler {chr(65 + i)}" for i in range(14)]


def report_book(path: Path, rounds: int = 6, present: bool = False) -> tuple[Path, object]:
    season = club_season(NAMES, rounds, seed=9, late=12, typed=1.0 if present else 0.7)
    return season_book(path, season, present=1.0 if present else None), season


def sheet(path: Path, name: str) -> list[list[object]]:
    return (
        CalamineWorkbook.from_path(str(path))
        .get_sheet_by_name(name)
        .to_python(skip_empty_area=False)
    )


def test_recalc_fills_crosstable_and_progress_with_the_engine_figures(tmp_path: Path) -> None:
    path, season = report_book(tmp_path / "club.xlsx")
    assert run_cli("recalc", path).exit_code == 0
    report = build_report(season, compute_standings(season, Settings()))  # type: ignore[arg-type]
    rounds = report.after_round
    cross = sheet(path, "Crosstable")
    assert cross[0][:2] == ["Rank", "Name"] and cross[0][2 : 2 + rounds] == list(
        range(1, rounds + 1)
    )
    for row, p in zip(cross[1:], report.players, strict=False):
        assert row[:2] == [p.standing.rank, p.name]
        marks = [
            line.short(report.rank(line.opponent) if line.opponent else None) for line in p.rounds
        ]
        assert row[2 : 2 + rounds] == marks
    progress = sheet(path, "Progress")
    header = progress[PROGRESS_HEADER_ROW - 1]
    assert header[: 2 + rounds] == ["Rank", "Name", *range(1, rounds + 1)]
    body = progress[PROGRESS_HEADER_ROW : PROGRESS_HEADER_ROW + len(report.players)]
    for row, p in zip(body, report.players, strict=True):
        assert row[1] == p.name
        assert [None if x == "" else x for x in row[2 : 2 + rounds]] == list(p.ranks)
    assert all(all(c == "" for c in row) for row in progress[: PROGRESS_HEADER_ROW - 1])
    standings = sheet(path, "Standings")
    head = standings[0]
    at = {h: i for i, h in enumerate(head)}
    for row, p in zip(standings[1:], report.players, strict=False):
        assert row[at["Game points"]] == float(p.game_points)
        if p.percentage is not None:
            assert row[at["Percentage"]] == round(float(p.percentage), 1)
        assert row[at["Colour balance"]] == p.colour_balance
        assert (row[at["Change"]] or None) == (p.change or None)


def test_pair_keeps_them_current_and_the_chart_stays(tmp_path: Path) -> None:
    path, season = report_book(tmp_path / "club.xlsx", rounds=3, present=True)
    with zipfile.ZipFile(path) as z:
        chart = z.read("xl/charts/chart1.xml")
    result = run_cli("pair", path)
    assert result.exit_code == 0, result.output
    report = build_report(season, compute_standings(season, Settings()))  # type: ignore[arg-type]
    progress = sheet(path, "Progress")
    assert [row[1] for row in progress[PROGRESS_HEADER_ROW:]][: len(report.players)] == [
        p.name for p in report.players
    ]  # the standings round 4 was paired from
    cross = sheet(path, "Crosstable")
    assert cross[0][-1] == "Score" and cross[0][2:5] == [1, 2, 3]
    with zipfile.ZipFile(path) as z:
        assert z.read("xl/charts/chart1.xml") == chart  # the template's chart, untouched
        assert "xl/drawings/drawing1.xml" in z.namelist()


@pytest.mark.libreoffice
@pytest.mark.usefixtures("soffice_installed", "pdftoppm_installed")
def test_libreoffice_draws_the_progress_chart(tmp_path: Path) -> None:
    from PIL import Image

    path, season = report_book(tmp_path / "club.xlsx", rounds=7)
    assert run_cli("recalc", path).exit_code == 0
    report = build_report(season, compute_standings(season, Settings()))  # type: ignore[arg-type]
    profile = tmp_path / "profile"
    # LibreOffice reads the engine's ranks back from the Progress sheet
    out = tmp_path / "csv"
    out.mkdir()
    number = SHEETS.index("Progress") + 1
    done = libreoffice_convert(path, csv_filter(number), out, profile)
    assert done.returncode == 0, done.stderr
    exported = next(out.glob("*.csv")).read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(exported)))
    top = rows[PROGRESS_HEADER_ROW : PROGRESS_HEADER_ROW + 3]
    for row, p in zip(top, report.players, strict=False):
        assert row[1] == p.name
        assert [int(x) for x in row[2 : 2 + report.after_round]] == list(p.ranks)
    # and prints the sheet with its chart: the page with the chart's title has coloured lines
    done = libreoffice_convert(path, "pdf", tmp_path, profile)
    pdf = tmp_path / "club.pdf"
    assert done.returncode == 0 and pdf.exists(), done.stderr
    pages = int(
        next(
            line.split()[-1]
            for line in subprocess.run(
                ["pdfinfo", str(pdf)], capture_output=True, text=True, check=True
            ).stdout.splitlines()
            if line.startswith("Pages:")
        )
    )
    found = None
    for page in range(1, pages + 1):
        text = subprocess.run(
            ["pdftotext", "-f", str(page), "-l", str(page), str(pdf), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        if "Rank after each round" in text:
            found = page
            break
    assert found is not None, "no page shows the Progress chart"
    picture = tmp_path / "progress"
    subprocess.run(
        [
            "pdftoppm",
            "-f",
            str(found),
            "-l",
            str(found),
            "-r",
            "50",
            "-png",
            "-singlefile",
            str(pdf),
            str(picture),
        ],
        check=True,
    )
    with Image.open(picture.with_suffix(".png")) as image:
        pixels = np.asarray(image.convert("RGB")).astype(int)
        coloured = int(((pixels.max(axis=2) - pixels.min(axis=2)) > 80).sum())
    assert coloured > 300, "the chart's lines are missing"


def test_sheet_rows_answer_get_as_the_dict_of_their_cells() -> None:
    """`SheetRows.get` skips Mapping's KeyError path (for speed); it must answer as the
    plain dict of the same cells, inside a row, past its end, in an empty row or column."""
    from keizer_xl.workbook.cells import SheetRows

    rows = SheetRows()
    rows.put(2, ["a", None, 3])
    rows.put(4, [0.5], column=3)
    plain = dict(rows.items())
    assert plain == {(2, 1): "a", (2, 3): 3, (4, 3): 0.5}
    for cell in [(r, c) for r in range(6) for c in range(6)]:
        assert rows.get(cell) == plain.get(cell), cell
        assert rows.get(cell, "empty") == plain.get(cell, "empty"), cell
