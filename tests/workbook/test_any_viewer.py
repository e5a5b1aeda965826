"""Any viewer shows the truth: the Pairings sheet's saved values follow every command.

LibreOffice does not recalculate an Excel workbook when it opens one (its default), and
pandas, phone previews and Google's importer show what was saved. So after `pair` the
Pairings sheet must hold round 2's boards as values, even when LibreOffice saved round 1's
values last, and even where the secretary typed over the round number.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import openpyxl
import pandas as pd
import pytest

from keizer_xl.i18n.names import local_name
from keizer_xl.workbook.pairings import BOARDS, ROUNDS_SCAN, TOP, formulas, values
from keizer_xl.workbook.xlsx import SheetEdit, save_edits
from tests.cli.week import libreoffice_resave, sheet
from tests.conftest import run_cli
from tests.helpers_package import csv_filter, libreoffice_convert

PLAYERS = [("Anna", 2000), ("Bram", 1900), ("Cor", 1800), ("Dirk", 1700), ("Eva", 1600)]
PAIRINGS_SHEET = 5  # the template's fifth sheet (1-based), as LibreOffice's CSV filter counts
RESULT = {"en": "1-0", "nl": "1-0"}


def _new(folder: Path, language: str, suffix: str = ".xlsx") -> Path:
    members = folder / "players.csv"
    members.write_text(
        "Name,Rating,Present\n" + "".join(f"{name},{rating},x\n" for name, rating in PLAYERS),
        encoding="utf-8",
    )
    path = folder / f"club{suffix}"
    result = run_cli("new", path, "--players", members, "--lang", language)
    assert result.exit_code == 0, result.output
    return path


def _type_results(path: Path, language: str) -> None:
    """Type a result on every board of the last round, as the secretary does."""
    rounds = sheet(path, local_name("Rounds", language))
    cells = {
        (r, 5): "½-½" for r, row in enumerate(rounds, start=1) if r > 1 and row[3] not in ("", None)
    }
    assert cells
    save_edits(path, [SheetEdit(local_name("Rounds", language), cells)], backup=False)


def _boards(rows: list[list[object]]) -> list[tuple[object, ...]]:
    """(board, white, black) of each board line shown on a Pairings sheet."""
    return [
        tuple(row[:3])
        for row in rows[TOP - 1 : TOP - 1 + BOARDS]
        if len(row) > 2 and row[1] not in ("", None)
    ]


def _round_games(path: Path, language: str, number: int) -> list[tuple[object, ...]]:
    rounds = sheet(path, local_name("Rounds", language))
    return [
        (int(row[1]), row[2], row[3])
        for row in rounds[1:]
        if row and row[0] == number and row[3] not in ("", None)
    ]


def _libreoffice_csv(path: Path, profile: Path, sheet_number: int) -> list[list[str]]:
    out = path.parent / "csv"
    out.mkdir(exist_ok=True)
    done = libreoffice_convert(path, csv_filter(sheet_number), out, profile)
    made = sorted(out.glob("*.csv"))
    assert done.returncode == 0 and made, done.stdout + done.stderr
    text = made[-1].read_text(encoding="utf-8")
    for f in made:
        f.unlink()
    return list(csv.reader(io.StringIO(text)))


@pytest.fixture(scope="module")
def profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("lo-profile")


@pytest.mark.libreoffice
@pytest.mark.usefixtures("soffice_installed")
@pytest.mark.parametrize("language", ["en", "nl"])
def test_libreoffice_saved_round_1_then_pair_shows_round_2(
    tmp_path: Path, profile: Path, language: str
) -> None:
    path = _new(tmp_path, language)
    assert run_cli("pair", path).exit_code == 0
    _type_results(path, language)
    libreoffice_resave(path, profile)  # LibreOffice saves round 1's values with the formulas
    shown = _libreoffice_csv(path, profile, PAIRINGS_SHEET)
    assert _boards(shown) == [(str(b), w, k) for b, w, k in _round_games(path, language, 1)]

    result = run_cli("pair", path)
    assert result.exit_code == 0, result.output
    round_2 = _round_games(path, language, 2)
    assert round_2 and round_2 != _round_games(path, language, 1)
    shown = _libreoffice_csv(path, profile, PAIRINGS_SHEET)
    assert shown[0][:2] == [local_name("Round", language), "2"]
    assert _boards(shown) == [(str(b), w, k) for b, w, k in round_2]
    bye = [row for row in shown if row and row[0] == local_name("Bye", language)]
    assert len(bye) == 1 and bye[0][1] in {name for name, _ in PLAYERS}


@pytest.mark.parametrize("language", ["en", "nl"])
def test_pandas_and_openpyxl_read_the_round_right_after_pair(tmp_path: Path, language: str) -> None:
    path = _new(tmp_path, language)
    assert run_cli("pair", path).exit_code == 0
    games = _round_games(path, language, 1)
    frame = pd.read_excel(
        path, sheet_name=local_name("Pairings", language), header=None, engine="openpyxl"
    )
    rows = frame.where(frame.notna(), None).values.tolist()
    assert rows[0][1] == 1
    assert [(int(b), w, k) for b, w, k in _boards(rows)] == games
    book = openpyxl.load_workbook(path, data_only=True)
    grid = [list(r) for r in book[local_name("Pairings", language)].iter_rows(values_only=True)]
    assert [(int(b), w, k) for b, w, k in _boards(grid)] == games  # type: ignore[call-overload]
    book.close()
    assert run_cli("unpair", path).exit_code == 0  # taken back: the sheet is empty again
    assert _boards(sheet(path, local_name("Pairings", language))) == []


def test_pair_puts_back_a_round_number_typed_over(tmp_path: Path) -> None:
    path = _new(tmp_path, "en")
    assert run_cli("pair", path).exit_code == 0
    _type_results(path, "en")
    save_edits(path, [SheetEdit("Pairings", {(1, 2): 1})], backup=False)  # typed: 1
    assert run_cli("pair", path).exit_code == 0
    book = openpyxl.load_workbook(path)
    typed = book["Pairings"]["B1"].value
    book.close()
    assert isinstance(typed, str) and typed.startswith("=IF(COUNT(Rounds!")  # formula again
    shown = sheet(path, "Pairings")
    assert shown[0][1] == 2
    assert [(int(b), w, k) for b, w, k in _boards(shown)] == _round_games(path, "en", 2)


def test_recalc_leaves_a_current_pairings_sheet_byte_for_byte(tmp_path: Path) -> None:
    path = _new(tmp_path, "en")
    assert run_cli("pair", path).exit_code == 0
    assert run_cli("recalc", path).exit_code == 0
    before = path.read_bytes()
    assert run_cli("recalc", path).exit_code == 0
    assert path.read_bytes() == before  # nothing to change: not even a rewrite


@pytest.mark.libreoffice
@pytest.mark.usefixtures("soffice_installed")
@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_values_are_what_libreoffice_computes(tmp_path: Path, language: str) -> None:
    """LibreOffice told to recalculate on loading computes the same as `values` does: a
    season with a bye, a double game on one board, a text round number and results."""
    recalculating = tmp_path / "lo-recalc"
    user = recalculating / "user"
    user.mkdir(parents=True)
    (user / "registrymodifications.xcu").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<oor:items xmlns:oor="http://openoffice.org/2001/registry" '
        'xmlns:xs="http://www.w3.org/2001/XMLSchema" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
        '<item oor:path="/org.openoffice.Office.Calc/Formula/Load">'
        '<prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>\n'
        "</oor:items>\n",
        encoding="utf-8",
    )
    path = _new(tmp_path, language)
    rounds = local_name("Rounds", language)
    bye = "vrij" if language == "nl" else "bye"
    rows = [
        [1, 1, "Anna", "Bram", "1-0"],
        [1, 2, "Cor", "Dirk", "½-½"],
        [1, None, "Eva", None, bye.upper()],
        [2, 1, "Eva", "Anna", None],
        [2, 2, "Bram", "Cor", "0-1"],
        [2, 2, "Dirk", "Anna", None],
        ["2", 3, "X", "Y", None],
        [2, 3.0, "Dirk", "Cor", 1],
    ]
    cells = {
        (r, c): v
        for r, row in enumerate(rows, start=2)
        for c, v in enumerate(row, start=1)
        if v is not None
    }
    save_edits(path, [SheetEdit(rounds, cells)], backup=False)
    grid = [["Round", "Board", "White", "Black", "Result"], *rows]
    ours = values(grid, language)
    computed = _libreoffice_csv(path, recalculating, PAIRINGS_SHEET)
    for (row, col), value in ours.items():
        got = (
            computed[row - 1][col - 1]
            if row <= len(computed) and col <= len(computed[row - 1])
            else ""
        )
        assert got == (str(value) if value != "" else ""), (row, col, value, got)
    assert ours[(TOP, 2)] == "Eva" and ours[(TOP + 2, 4)] == "1"
    assert len(formulas(language)) == len(ours) == 4 + 5 * BOARDS
    assert len(rows) <= ROUNDS_SCAN


def test_cells_the_secretary_changed_stay_as_they_are(tmp_path: Path) -> None:
    """A club that made the sheet its own (a heading typed over the bye line, board 50's
    formulas cleared) keeps that; the formulas still there get their values."""
    path = _new(tmp_path, "en")
    last = TOP + BOARDS - 1
    save_edits(
        path,
        [
            SheetEdit(
                "Pairings",
                {(2, 1): "Tonight at De Toren", **{(last, c): None for c in range(1, 6)}},
            )
        ],
        backup=False,
    )
    assert run_cli("pair", path).exit_code == 0
    book = openpyxl.load_workbook(path)
    sheet_ = book["Pairings"]
    assert sheet_["A2"].value == "Tonight at De Toren"
    assert all(sheet_.cell(last, c).value is None for c in range(1, 6))
    assert str(sheet_["B5"].value).startswith("=IF(")  # a formula still, with its value
    book.close()
    shown = sheet(path, "Pairings")
    assert [(int(b), w, k) for b, w, k in _boards(shown)] == _round_games(path, "en", 1)
    assert shown[1][0] == "Tonight at De Toren"
