"""Workbooks made before the Crosstable and Progress sheets existed get them on the next
run, named in the workbook's language, with the engine's figures, and lose nothing.

The fixtures `club.xlsm` (saved by Excel) and `club_libreoffice.xlsm` are such workbooks
(Players, Rounds, Standings, Settings, the secretary's own sheet, VBA and buttons);
openpyxl makes an English and a Dutch one as Excel-like programs write them.
`test_preservation` checks every other part byte for byte; here: the sheets, their values,
LibreOffice opening them, the VBA project.
"""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

import pytest

from keizer_xl.core.report import build_report
from keizer_xl.i18n.names import local_name
from keizer_xl.workbook.cells import crosstable_cells, progress_cells
from keizer_xl.workbook.files import load
from keizer_xl.workbook.xlsx import SheetEdit, save_edits
from tests.cli.week import openpyxl_book, sheet
from tests.conftest import run_cli
from tests.helpers_package import WORKBOOKS, copy_fixture, csv_filter, libreoffice_convert

PLAYERS = [
    {"Name": n, "Rating": r, "Present": "x"}
    for n, r in [("Anna", 2000), ("Bram", 1900), ("Cor", 1800), ("Dirk", 1700), ("Eva", 1600)]
]
ROUNDS = [
    [1, 1, "Anna", "Bram", "1-0"],
    [1, 2, "Cor", "Dirk", "½-½"],
    [1, None, "Eva", None, "bye"],
    [2, 1, "Eva", "Anna", "0-1"],
    [2, 2, "Bram", "Cor", "1-0"],
    [2, None, "Dirk", None, "excused"],
]


def _names(path: Path) -> list[str]:
    from python_calamine import CalamineWorkbook

    return list(CalamineWorkbook.from_path(str(path)).sheet_names)


def _expected(path: Path) -> tuple[dict[tuple[int, int], object], dict[tuple[int, int], object]]:
    competition, layout = load(path)
    report = build_report(competition.season, competition.standings())
    return (crosstable_cells(report, layout.language), progress_cells(report, layout.language))


def _grid_cells(rows: list[list[object]]) -> dict[tuple[int, int], object]:
    return {
        (r, c): (int(v) if isinstance(v, float) and v.is_integer() else v)
        for r, row in enumerate(rows, start=1)
        for c, v in enumerate(row, start=1)
        if v not in ("", None)
    }


@pytest.mark.parametrize("language", ["en", "nl"])
def test_an_old_workbook_gets_both_sheets_with_the_engines_figures(
    tmp_path: Path, language: str
) -> None:
    path = tmp_path / "club.xlsx"
    if language == "en":
        openpyxl_book(path, PLAYERS, ROUNDS)
    else:
        _dutch_book(path)
    before = _names(path)
    result = run_cli("recalc", path)
    assert result.exit_code == 0, result.output
    crosstable, progress = (local_name(n, language) for n in ("Crosstable", "Progress"))
    assert _names(path) == [*before, crosstable, progress]
    cross, prog = _expected(path)
    assert _grid_cells(sheet(path, crosstable)) == cross
    assert _grid_cells(sheet(path, progress)) == prog
    again = path.read_bytes()
    assert run_cli("recalc", path).exit_code == 0  # once added, kept: no second copy
    assert path.read_bytes() == again and _names(path) == [*before, crosstable, progress]
    assert run_cli("pair", path).exit_code == 0
    assert _names(path) == [*before, crosstable, progress]


def _dutch_book(path: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    players = book.active
    assert players is not None
    players.title = "Spelers"
    players.append(["Naam", "Rating", "Vanaf ronde", "Tot ronde", "Aanwezig"])
    for p in PLAYERS:
        players.append([p["Name"], p["Rating"], None, None, "ja"])
    rounds = book.create_sheet("Ronden")
    rounds.append(["Ronde", "Bord", "Wit", "Zwart", "Uitslag"])
    words = {"bye": "vrij", "excused": "afgemeld"}
    for row in ROUNDS:
        rounds.append([*row[:4], words.get(str(row[4]), row[4])])
    book.create_sheet("Stand")
    book.create_sheet("Instellingen").append(["Instelling", "Waarde"])
    book.save(path)


@pytest.mark.libreoffice
@pytest.mark.usefixtures("soffice_installed")
@pytest.mark.parametrize("name", WORKBOOKS)
def test_the_fixture_workbooks_of_version_0_1(tmp_path: Path, name: str) -> None:
    path = copy_fixture(name, tmp_path)
    save_edits(
        path,
        [
            SheetEdit("Settings", {(8, 1): None}),  # as test_preservation readies
            SheetEdit("Players", {(5, 3): None}),
        ],
        backup=False,
    )  # them
    with zipfile.ZipFile(path) as package:
        vba = {n: package.read(n) for n in package.namelist() if "vbaProject" in n}
    before = _names(path)
    assert "Crosstable" not in before and "Progress" not in before
    result = run_cli("recalc", path)
    assert result.exit_code == 0, result.output
    names = _names(path)
    assert names == [*before, "Crosstable", "Progress"]
    with zipfile.ZipFile(path) as package:
        assert {n: package.read(n) for n in package.namelist() if "vbaProject" in n} == vba
    cross, _ = _expected(path)
    # LibreOffice opens the workbook and reads the new sheet as keizer_xl wrote it
    out = tmp_path / "csv"
    out.mkdir()
    done = libreoffice_convert(
        path, csv_filter(names.index("Crosstable") + 1), out, tmp_path / "profile"
    )
    made = list(out.glob("*.csv"))
    assert done.returncode == 0 and made, done.stdout + done.stderr
    rows = list(csv.reader(io.StringIO(made[0].read_text(encoding="utf-8"))))
    assert rows[0][:2] == ["Rank", "Name"]
    assert [r[1] for r in rows[1:] if len(r) > 1 and r[0].isdigit()] == [
        v for (r, c), v in sorted(cross.items()) if c == 2 and r > 1
    ]
