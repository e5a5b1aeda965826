"""Bounded reading: the scan that finds a sheet's farthest values and its formulas without
a saved value, before any reader allocates for the sheet."""

from __future__ import annotations

from pathlib import Path

import pytest

from keizer_xl.workbook.xlsx import MAX_CELLS, SheetTooLarge, Workbook
from keizer_xl.workbook.xlsx._reading import scan
from tests.helpers_package import hand_made_workbook


def sheet(rows: str, prefix: str = "") -> bytes:
    p = f"{prefix}:" if prefix else ""
    space = f' xmlns:{prefix}="urn:x"' if prefix else ' xmlns="urn:x"'
    return f"<{p}worksheet{space}><{p}sheetData>{rows}</{p}sheetData></{p}worksheet>".encode()


@pytest.mark.parametrize("prefix", ["", "x"])
def test_the_far_cells_are_those_that_hold_something(prefix: str) -> None:
    p = f"{prefix}:" if prefix else ""
    rows = (f'<{p}row r="2"><{p}c r="B2"><{p}v>1</{p}v></{p}c><{p}c r="ZZ2" s="3"/></{p}row>'
            f'<{p}row r="9"><{p}c r="D9" t="inlineStr"><{p}is><{p}t>x</{p}t></{p}is></{p}c>'
            f"</{p}row>"
            f'<{p}row r="70000"><{p}c r="A70000" s="1"/></{p}row>')
    found = scan(sheet(rows, prefix), "test")
    assert (found.bottom, found.right, found.unsaved) == ((9, 4), (9, 4), [])


def test_cells_without_references_are_counted_in_place() -> None:
    rows = '<row><c><v>1</v></c><c/><c><v>3</v></c></row><row><c><f>1+1</f></c></row>'
    found = scan(sheet(rows), "test")
    assert found.bottom == (2, 1) and found.right == (1, 3)
    assert found.unsaved == [(2, 1)]


@pytest.mark.parametrize(("cell", "unsaved"), [
    ('<c r="C3"><f>A1*2</f></c>', True),
    ('<c r="C3"><f>A1*2</f><v /></c>', True),  # as openpyxl writes it
    ('<c r="C3"><f>A1*2</f><v></v></c>', True),
    ('<c r="C3"><f>A1*2</f><v>4</v></c>', False),
    ('<c r="C3" t="str"><f>IF(A1,"","x")</f><v></v></c>', False),  # a saved ""
    ('<c r="C3" t="s"><v>2</v></c>', False),
])
def test_formulas_without_a_saved_value(cell: str, unsaved: bool) -> None:
    found = scan(sheet(f'<row r="3"><c r="A3"><v>1</v></c>{cell}</row>'), "test")
    assert found.unsaved == ([(3, 3)] if unsaved else [])


@pytest.mark.parametrize(("ref", "why"), [
    ("XFD1048576", "row 1,048,576, past 100,000 rows"),
    ("ALM2", "column ALM, past 1,000 columns"),
    ("ZZ9000", f"is 6,318,000 cells, past {MAX_CELLS:,}"),
])
def test_a_sheet_past_the_limits_is_refused_naming_the_cell(
        tmp_path: Path, ref: str, why: str) -> None:
    row = int("".join(ch for ch in ref if ch.isdigit()))
    path = hand_made_workbook(tmp_path / "far.xlsx",
                              f'<row r="1"><c r="A1"><v>1</v></c></row>'
                              f'<row r="{row}"><c r="{ref}"><v>2</v></c></row>')
    with pytest.raises(SheetTooLarge, match=f"Standings!{ref}: .*{why}") as refused:
        Workbook(path).read(["Standings"])
    assert refused.value.far[0][:2] == ("Standings", ref)


def test_values_are_read_through_calamine_within_the_limits(tmp_path: Path) -> None:
    path = hand_made_workbook(tmp_path / "near.xlsx",
                              '<row r="1"><c r="A1"><v>1</v></c><c r="C1"><f>A1*2</f><v>2</v>'
                              '</c></row><row r="3"><c r="B3" t="inlineStr"><is><t>x</t></is>'
                              "</c></row>")
    values = Workbook(path).read(["Standings"])["Standings"]
    assert values.rows == [[1.0, "", 2.0], ["", "", ""], ["", "x", ""]]
    assert values.unsaved == []
