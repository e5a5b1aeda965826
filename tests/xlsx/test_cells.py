"""Values written into cells: styles taken from the column or row, text escaped and
cleaned, numbers and empty cells, and values Excel cannot hold refused; cells handed over
row by row written as the same cells one by one."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from openpyxl import load_workbook

from keizer_xl.workbook.xlsx import (
    CellValue,
    Formula,
    SheetEdit,
    save_edits,
)
from tests.helpers_package import (
    FIXTURES,
    Grid,
    cell_xml,
    column_style,
    copy_fixture,
    members,
    product_edits,
)
from tests.xlsx.grids import calamine_grid, openpyxl_grid

# openpyxl, used here only to read, says it would drop LibreOffice's extensions; we do not
pytestmark = pytest.mark.filterwarnings("ignore:.*extension is not supported:UserWarning")


class Rows:
    """Cells kept row by row, as the writer takes them too (`CellRows`): None, no cell."""

    def __init__(self, cells: Grid):
        self.rows: dict[int, list[CellValue]] = {}
        for (row, column), value in cells.items():
            values = self.rows.setdefault(row, [])
            values += [None] * (column - len(values))
            values[column - 1] = value


@pytest.mark.parametrize("by_rows", [False, True])
@pytest.mark.parametrize(
    ("cells", "error", "words"),
    [
        ({(2, 3): float("nan")}, ValueError, "C2.*not a number"),
        ({(2, 3): float("inf")}, ValueError, "not a number"),
        ({(2, 3): object()}, TypeError, "cannot write a object"),
        ({(0, 3): 1}, ValueError, "row 0"),
        ({(2, 16385): 1}, ValueError, "column 16385"),
        ({(2, 2): "x" * 32768}, ValueError, "longer than Excel allows"),
        ({(2, 2): "x" * 32768, (2, 3): object()}, ValueError, "B2: text longer"),
        ({(2, 16385): object(), (3, 0): 1}, ValueError, "column 16385"),
        ({(2, 1): 1, (3, 2): object(), (1_048_577, 1): 1}, TypeError, "B3"),
        ({(2, 1): Formula("B2", 3), (2, 4): Formula("B2", float("inf"))}, ValueError, "D2"),
        ({(4, 1): Formula("B2", "x" * 32768)}, ValueError, "A4: text longer"),
    ],
)
def test_values_excel_cannot_hold_are_refused(
    tmp_path: Path, cells: Grid, error: type[Exception], words: str, by_rows: bool
) -> None:
    club = copy_fixture("club.xlsm", tmp_path)
    original = club.read_bytes()
    if by_rows and (3, 0) in cells:  # no column 0 in a row of values from column 1
        cells = {k: v for k, v in cells.items() if k != (3, 0)}
    with pytest.raises(error, match=words):
        save_edits(
            club, [*product_edits(), SheetEdit("Standings", Rows(cells) if by_rows else cells)]
        )
    assert club.read_bytes() == original


@pytest.mark.parametrize("clear", [None, 1, 3])
def test_cells_by_rows_are_written_as_the_same_cells_one_by_one(
    tmp_path: Path, clear: int | None
) -> None:
    """None in a row is no cell: it leaves the cell there as it is, where None given one
    by one empties it."""
    cells: Grid = {
        (1, 2): "Player",
        (2, 1): None,
        (2, 2): "Zoë & co",
        (2, 4): 7.5,
        (4, 1): None,
        (4, 3): Fraction(1, 3),
        (6, 30): 12,
        (7, 1): None,
    }
    written = {}
    for by_rows in (False, True):
        (tmp_path / str(by_rows)).mkdir()
        club = copy_fixture("club.xlsm", tmp_path / str(by_rows))
        given = {k: v for k, v in cells.items() if v is not None}
        save_edits(
            club, [SheetEdit("Standings", Rows(cells) if by_rows else given, clear_below=clear)]
        )
        written[by_rows] = members(club)
    assert written[True] == written[False]


def test_new_cells_take_the_column_style_and_old_cells_keep_theirs(tmp_path: Path) -> None:
    club = copy_fixture("club.xlsm", tmp_path)
    score_style = cell_xml(club, "Standings", "C2")["s"]  # type: ignore[index]
    save_edits(club, product_edits())
    # Rounds: columns A, B and E are centred by <col style>; C and D have no style
    centred = column_style(club, "Rounds", 1)
    assert centred is not None
    assert cell_xml(club, "Rounds", "A5")["s"] == centred  # type: ignore[index]
    assert cell_xml(club, "Rounds", "E7")["s"] == centred  # type: ignore[index]
    assert "s" not in cell_xml(club, "Rounds", "C5")  # type: ignore[operator]
    # Standings: C2 had the score format and keeps it while its value changes
    assert cell_xml(club, "Standings", "C2")["s"] == score_style  # type: ignore[index]
    book = load_workbook(club)
    assert book["Standings"]["C2"].number_format == "0.00"
    assert book["Standings"]["C2"].value == pytest.approx(184 / 3)
    assert book["Rounds"]["E7"].alignment.horizontal == "center"
    assert book["Rounds"]["E7"].value == "excused"


def test_cell_in_a_formatted_row_takes_the_row_style(tmp_path: Path) -> None:
    club = copy_fixture("club.xlsm", tmp_path)
    save_edits(club, [SheetEdit("Settings", {(12, 1): "Notes", (12, 2): "kept green"})])
    book = load_workbook(club)
    assert book["Settings"]["A12"].fill.fgColor.rgb == "FFE2EFDA"
    assert book["Settings"]["B12"].fill.fgColor.rgb == "FFE2EFDA"
    assert book["Settings"].row_dimensions[12].height == 20.25


def test_text_is_escaped_and_cleaned(tmp_path: Path) -> None:
    club = copy_fixture("club.xlsm", tmp_path)
    texts: Grid = {
        (2, 2): "Smit & Zn <senior>",
        (3, 2): "½-½ ♞ Zoë",
        (4, 2): "  padded  ",
        (5, 2): "two\r\nlines",
        (6, 2): "bell\x07 and \x00null\ud800",
        (7, 2): "=1+1",
        (8, 2): "x_x0041_y",
        (9, 2): "]]> and \"quotes\" 'single'",
    }
    save_edits(club, [SheetEdit("Standings", texts)])
    want = {
        (2, 2): "Smit & Zn <senior>",
        (3, 2): "½-½ ♞ Zoë",
        (4, 2): "  padded  ",
        (5, 2): "two\nlines",
        (6, 2): "bell and null",
        (7, 2): "=1+1",
        (8, 2): "x_x0041_y",
        (9, 2): "]]> and \"quotes\" 'single'",
    }
    grid = calamine_grid(club, "Standings")
    assert {k: grid.get(k) for k in want} == want
    # openpyxl does not undo Excel's `_x005F_` escape (Excel, LibreOffice and calamine do)
    grid = openpyxl_grid(club, "Standings")
    del want[(8, 2)]
    assert {k: grid.get(k) for k in want} == want
    shared = "xl/sharedStrings.xml"
    assert members(club)[shared] == members(FIXTURES / "club.xlsm")[shared]


def test_numbers_and_emptying(tmp_path: Path) -> None:
    club = copy_fixture("club.xlsm", tmp_path)
    values: Grid = {
        (2, 3): Fraction(2, 3),
        (3, 3): 0.1,
        (4, 3): -7,
        (5, 3): 1e20,
        (6, 3): Fraction(10, 2),
        (2, 1): None,  # empty an existing cell
    }
    save_edits(club, [SheetEdit("Standings", values)])
    grid = calamine_grid(club, "Standings")
    assert grid[(2, 3)] == 2 / 3 and grid[(3, 3)] == 0.1 and grid[(4, 3)] == -7.0
    assert grid[(5, 3)] == 1e20 and grid[(6, 3)] == 5.0
    assert (2, 1) not in grid
