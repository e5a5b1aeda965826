"""Bounded reading: the scan that finds a sheet's farthest values and its formulas without
a saved value, before any reader allocates for the sheet."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from keizer_xl.workbook.xlsx import (
    MAX_CELLS,
    NotAWorkbook,
    SheetEdit,
    SheetTooLarge,
    Workbook,
    save_edits,
)
from keizer_xl.workbook.xlsx._scan import Budget, scan, scan_sheet
from keizer_xl.workbook.xlsx._strings import MAX_STRINGS
from tests.helpers_package import hand_made_workbook
from tests.seasons import make_book


def sheet(rows: str, prefix: str = "") -> bytes:
    p = f"{prefix}:" if prefix else ""
    space = f' xmlns:{prefix}="urn:x"' if prefix else ' xmlns="urn:x"'
    return f"<{p}worksheet{space}><{p}sheetData>{rows}</{p}sheetData></{p}worksheet>".encode()


@pytest.mark.parametrize("prefix", ["", "x"])
def test_the_far_cells_are_those_that_hold_something(prefix: str) -> None:
    p = f"{prefix}:" if prefix else ""
    rows = (
        f'<{p}row r="2"><{p}c r="B2"><{p}v>1</{p}v></{p}c><{p}c r="ZZ2" s="3"/></{p}row>'
        f'<{p}row r="9"><{p}c r="D9" t="inlineStr"><{p}is><{p}t>x</{p}t></{p}is></{p}c>'
        f"</{p}row>"
        f'<{p}row r="70000"><{p}c r="A70000" s="1"/></{p}row>'
    )
    found = scan(sheet(rows, prefix), "test")
    assert (found.bottom, found.right, found.unsaved) == ((9, 4), (9, 4), [])


def test_cells_without_references_are_counted_in_place() -> None:
    rows = "<row><c><v>1</v></c><c/><c><v>3</v></c></row><row><c><f>1+1</f></c></row>"
    found = scan(sheet(rows), "test")
    assert found.bottom == (2, 1) and found.right == (1, 3)
    assert found.unsaved == [(2, 1)]


@pytest.mark.parametrize(
    ("cell", "unsaved"),
    [
        ('<c r="C3"><f>A1*2</f></c>', True),
        ('<c r="C3"><f>A1*2</f><v /></c>', True),  # as openpyxl writes it
        ('<c r="C3"><f>A1*2</f><v></v></c>', True),
        ('<c r="C3"><f>A1*2</f><v>4</v></c>', False),
        ('<c r="C3" t="str"><f>IF(A1,"","x")</f><v></v></c>', False),  # a saved ""
        ('<c r="C3" t="s"><v>2</v></c>', False),
    ],
)
def test_formulas_without_a_saved_value(cell: str, unsaved: bool) -> None:
    found = scan(sheet(f'<row r="3"><c r="A3"><v>1</v></c>{cell}</row>'), "test")
    assert found.unsaved == ([(3, 3)] if unsaved else [])


@pytest.mark.parametrize(
    ("ref", "why"),
    [
        ("XFD1048576", "row 1,048,576, past 100,000 rows"),
        ("ALM2", "column ALM, past 1,000 columns"),
        ("ZZ9000", f"is 6,318,000 cells, past {MAX_CELLS:,}"),
    ],
)
def test_a_sheet_past_the_limits_is_refused_naming_the_cell(
    tmp_path: Path, ref: str, why: str
) -> None:
    row = int("".join(ch for ch in ref if ch.isdigit()))
    path = hand_made_workbook(
        tmp_path / "far.xlsx",
        f'<row r="1"><c r="A1"><v>1</v></c></row><row r="{row}"><c r="{ref}"><v>2</v></c></row>',
    )
    with pytest.raises(SheetTooLarge, match=f"Standings!{ref}: .*{why}") as refused:
        Workbook(path).read(["Standings"])
    assert refused.value.far[0][:2] == ("Standings", ref)


def test_values_are_read_through_calamine_within_the_limits(tmp_path: Path) -> None:
    path = hand_made_workbook(
        tmp_path / "near.xlsx",
        '<row r="1"><c r="A1"><v>1</v></c><c r="C1"><f>A1*2</f><v>2</v>'
        '</c></row><row r="3"><c r="B3" t="inlineStr"><is><t>x</t></is>'
        "</c></row>",
    )
    values = Workbook(path).read(["Standings"])["Standings"]
    assert values.rows == [[1.0, "", 2.0], ["", "", ""], ["", "x", ""]]
    assert values.unsaved == []


# -- what a workbook declares or repeats ---------------------------------------------------


def rewritten(source: Path, path: Path, change: dict[str, Callable[[bytes], bytes]]) -> Path:
    """A copy of the workbook `source` with some parts changed."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = old.read(info)
            new.writestr(info.filename, change.get(info.filename, lambda d: d)(data))
    return path


def with_texts(extra: bytes, declared: int | None = None) -> Callable[[bytes], bytes]:
    """The shared-string table with `extra` texts after its own (and declaring a count)."""

    def change(table: bytes) -> bytes:
        if declared is not None:
            table = re.sub(rb'uniqueCount="\d+"', b'uniqueCount="%d"' % declared, table)
        return table.replace(b"</sst>", extra + b"</sst>")

    return change


def with_rows(rows: bytes) -> Callable[[bytes], bytes]:
    return lambda sheet: sheet.replace(b"</sheetData>", rows + b"</sheetData>")


PLAYERS_PART = "xl/worksheets/sheet1.xml"
TABLE_PART = "xl/sharedStrings.xml"


@pytest.fixture
def season(tmp_path: Path) -> Path:
    return make_book(
        tmp_path / "plain.xlsx", [{"Name": f"Player {i}", "Rating": 1500} for i in range(1, 7)]
    )


def test_a_table_of_more_texts_than_a_workbook_needs_is_refused_as_it_is_counted(
    season: Path, tmp_path: Path
) -> None:
    path = rewritten(
        season, tmp_path / "club.xlsx", {TABLE_PART: with_texts(b"<si/>" * MAX_STRINGS)}
    )
    far = f"holds more than {MAX_STRINGS:,} texts"
    with pytest.raises(
        NotAWorkbook, match=f"club.xlsx is damaged or hostile: its part {TABLE_PART} {far}"
    ):
        Workbook(path).read(["Players"])
    # the writer counts it too before comparing a cell with it (A1 holds a shared text)
    with pytest.raises(NotAWorkbook, match=far):
        save_edits(path, [SheetEdit("Players", {(1, 1): "Naam"})], backup=False)


def test_a_table_claiming_more_texts_than_it_holds_is_read_as_it_is(
    season: Path, tmp_path: Path
) -> None:
    """Calamine would reserve room for two billion texts (and abort)."""
    path = rewritten(
        season, tmp_path / "club.xlsx", {TABLE_PART: with_texts(b"", declared=2_000_000_000)}
    )
    rows = Workbook(path).read(["Players"])["Players"].rows
    assert [row[0] for row in rows[:3]] == ["Name", "Player 1", "Player 2"]


@pytest.mark.parametrize("reference", [True, False])
def test_one_long_text_used_by_many_cells_is_counted_at_every_use(
    season: Path, tmp_path: Path, reference: bool
) -> None:
    """A 30,000-character text of the table in 5,000 cells would be 150 MB of copies;
    refused before any are made, whether the cells give their reference or not."""
    long = b"<si><t>" + b"x" * 30_000 + b"</t></si>"
    with zipfile.ZipFile(season) as package:
        count = package.read(TABLE_PART).count(b"<si>")
    cell = (b'<c r="H%d" t="s"><v>' if reference else b'<c t="s"><v>') + b"%d</v></c>" % count
    rows = b"".join(
        b'<row r="%d">' % r + (cell % r if reference else cell) * 10 + b"</row>"
        for r in range(10, 510)
    )
    path = rewritten(
        season,
        tmp_path / "club.xlsx",
        {TABLE_PART: with_texts(long), PLAYERS_PART: with_rows(rows)},
    )
    with pytest.raises(SheetTooLarge, match=r"Players!.*hold more than 128 MB of text"):
        Workbook(path).read(["Players"])
    # a tenth of them is read as usual
    few = b"".join(
        b'<row r="%d">' % r + (cell % r if reference else cell) + b"</row>" for r in range(10, 510)
    )
    path = rewritten(
        season, tmp_path / "few.xlsx", {TABLE_PART: with_texts(long), PLAYERS_PART: with_rows(few)}
    )
    rows_read = Workbook(path).read(["Players"])["Players"].rows
    assert rows_read[-1][7 if reference else 0] == "x" * 30_000


def test_the_own_text_of_cells_is_counted_too(tmp_path: Path) -> None:
    cell = '<c r="A%d" t="inlineStr"><is><t>' + "y" * 30_000 + "</t></is></c>"
    path = hand_made_workbook(
        tmp_path / "own.xlsx", "".join(f'<row r="{r}">{cell % r}</row>' for r in range(1, 4600))
    )
    with pytest.raises(SheetTooLarge, match=r"Standings!A4.*hold more than 128 MB of text"):
        Workbook(path).read(["Standings"])


def test_own_texts_passed_by_uncounted_still_count_against_the_next_sheet() -> None:
    """A sheet whose whole size fits in what is left of the text budget is not counted
    text by text; what it may hold must still leave that much less for the next sheet, or
    two sheets could each hold almost the whole budget."""
    cell = '<c r="A%d" t="inlineStr"><is><t>' + "z" * 500 + "</t></is></c>"
    data = sheet("".join(f'<row r="{r}">{cell % r}</row>' for r in range(1, 11)))
    budget = Budget(text=len(data) + 100)  # each sheet alone fits, two do not
    first = scan_sheet(lambda: [data], "Players", "club.xlsx", budget=budget, size=len(data))
    assert not first.far
    second = scan_sheet(lambda: [data], "Rounds", "club.xlsx", budget=budget, size=len(data))
    assert second.far and second.far[0][0] == "Rounds"
    assert "more than" in str(second.far[0][2])


def test_a_sheet_is_scanned_piece_by_piece(tmp_path: Path) -> None:
    """Far more than one piece of XML: its cells, far cells and formulas are found in
    whichever piece they are."""
    rows = "".join(
        f'<row r="{r}"><c r="A{r}"><v>{r}</v></c><c r="B{r}" t="inlineStr"><is>'
        f"<t>a name long enough to fill pieces</t></is></c></row>"
        for r in range(1, 60_000)
    )
    data = sheet(rows + '<row r="60000"><c r="C60000"><f>A1*2</f></c></row>')
    assert len(data) > 5 << 20
    found = scan(data, "Players")
    assert (found.bottom, found.right, found.unsaved) == ((60000, 3), (60000, 3), [(60000, 3)])
    refused = scan(data, "Players", rows=50_000)
    assert refused.far[0][:2] == ("Players", "A50001")


def test_the_markup_around_the_cells_must_be_sound(tmp_path: Path) -> None:
    path = hand_made_workbook(
        tmp_path / "broken.xlsx",
        '<row r="1"><c r="A1"><v>1</v></c></row></sheetData><oops></worksheet><sheetData>',
    )
    with pytest.raises(NotAWorkbook, match="sheet 'Standings' is damaged"):
        Workbook(path).read(["Standings"])


@pytest.mark.parametrize("encoding", ["UUTF-8", "utf-32"])
def test_a_sheet_in_an_encoding_expat_cannot_read_is_damaged(encoding: str) -> None:
    data = (
        f'<?xml version="1.0" encoding="{encoding}"?><worksheet xmlns="urn:x"><sheetData>'
        '<row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>'
    ).encode()
    with pytest.raises(NotAWorkbook, match="sheet 'S' is damaged"):
        scan(data, "S")
