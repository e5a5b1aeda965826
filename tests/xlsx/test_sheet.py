"""The sheet editor: clearing rows, prefixed and reference-less markup, formulas other
cells copy, and the quick append path giving what taking the sheet apart gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from keizer_xl.workbook.xlsx import (
    SheetEdit,
    save_edits,
)
from keizer_xl.workbook.xlsx._sheet import Sheet
from tests.helpers_package import (
    WORKBOOKS,
    copy_fixture,
    hand_made_workbook,
    members,
    sheet_parts,
)
from tests.xlsx.grids import calamine_grid, openpyxl_grid

# openpyxl, used here only to read, says it would drop LibreOffice's extensions; we do not
pytestmark = pytest.mark.filterwarnings("ignore:.*extension is not supported:UserWarning")


def test_clear_below_removes_old_rows_and_shrinks_the_dimension(tmp_path: Path) -> None:
    club = copy_fixture("club.xlsm", tmp_path)
    header = {(1, c): h for c, h in enumerate(["Rank", "Name"], start=1)}
    rows = {(r, c): v for r in (2, 3) for c, v in ((1, r - 1), (2, f"P{r}"))}
    save_edits(club, [SheetEdit("Standings", {**header, **rows}, clear_below=2)])
    grid = calamine_grid(club, "Standings")
    assert {k for k in grid if k[0] >= 2} == set(rows)
    sheet = members(club)[sheet_parts(club)["Standings"]]
    # row 1 keeps the old header beyond column B, and the merged "Note" in R1:T1
    assert b'<dimension ref="A1:T3"/>' in sheet
    assert grid[(1, 3)] == "Score"


def test_prefixed_markup_and_cells_without_references(tmp_path: Path) -> None:
    """Some generators write `<x:row>` and leave out the optional r attributes."""
    path = hand_made_workbook(
        tmp_path / "made.xlsx",
        '<x:row><x:c t="inlineStr"><x:is><x:t>Rank</x:t></x:is></x:c>'
        '<x:c t="inlineStr"><x:is><x:t>Name</x:t></x:is></x:c><x:c><x:v>9</x:v></x:c></x:row>'
        "<x:row><x:c><x:v>1</x:v></x:c></x:row>",
        prefix="x",
    )
    save_edits(path, [SheetEdit("Standings", {(1, 2): "Naam", (2, 2): "Anna", (4, 1): 3})])
    want = {(1, 1): "Rank", (1, 2): "Naam", (1, 3): 9.0, (2, 1): 1.0, (2, 2): "Anna", (4, 1): 3.0}
    assert calamine_grid(path, "Standings") == want
    assert openpyxl_grid(path, "Standings") == want
    sheet = members(path)["xl/worksheets/sheet1.xml"]
    assert b'<x:dimension ref="A1:C4"/>' in sheet and b"<c " not in sheet


def test_shared_formula_source_is_not_overwritten(tmp_path: Path) -> None:
    path = hand_made_workbook(
        tmp_path / "made.xlsx",
        '<row r="1"><c r="A1"><f t="shared" ref="A1:A2" si="0">ROW()</f><v>1</v></c></row>'
        '<row r="2"><c r="A2"><f t="shared" si="0"/><v>2</v></c></row>',
    )
    original = path.read_bytes()
    with pytest.raises(ValueError, match="A1 holds a formula that other cells copy"):
        save_edits(path, [SheetEdit("Standings", {(1, 1): "Rank"})])
    assert path.read_bytes() == original
    # clearing the whole range is fine: no cell is left depending on it
    assert save_edits(path, [SheetEdit("Standings", {(1, 1): "Rank"}, clear_below=1)])


@pytest.mark.parametrize("name", WORKBOOKS)
def test_appending_rows_quickly_gives_the_same_package_as_taking_the_sheet_apart(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows added below the last one skip splitting the sheet; the result must not differ."""
    (tmp_path / "quick").mkdir()
    (tmp_path / "slow").mkdir()
    quick, slow = copy_fixture(name, tmp_path / "quick"), copy_fixture(name, tmp_path / "slow")
    edits = [
        SheetEdit("Rounds", {(40, 1): 3, (40, 3): "Anna", (41, 1): 3, (41, 5): "bye", (45, 2): 7})
    ]
    assert save_edits(quick, edits, backup=False)
    monkeypatch.setattr(Sheet, "_last_row_number", lambda self: None)
    assert save_edits(slow, edits, backup=False)
    assert members(quick) == members(slow)
