"""Reading the values of a few sheets with bounded memory, and what a value hides.

A reader that builds a sheet as a rectangle from A1 to its farthest value allocates for
every empty cell in between: one value typed at XFD1048576 asks for seventeen billion.
So the sheet's XML is scanned first, cheaply, for the cells that hold something; a sheet
reaching past the limits is refused with that far cell, and only a sheet within them is
handed to python-calamine, inside a small package of just the parts it needs (all of them
unpacked under `MAX_PART`, so calamine never unpacks anything unchecked). The same scan
finds formulas whose value was never saved and cells holding an error value (`#N/A`),
which calamine reads as empty too.
"""

from __future__ import annotations

import functools
import io
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field

from keizer_xl.workbook.xlsx._sheet import Sheet
from keizer_xl.workbook.xlsx._xmltext import (
    CELL_REF,
    attr,
    column_letters,
    column_number,
    root_prefix,
)
from keizer_xl.workbook.xlsx.errors import NotAWorkbook, Reason, SheetTooLarge, reason

MAX_ROWS = 100_000
MAX_COLUMNS = 1_000
MAX_CELLS = 1_000_000  # the rectangles from A1 to the farthest values, all sheets together


ErrorCell = tuple[int, int, str]  # a cell holding an error value: row, column, the error


@dataclass
class SheetValues:
    """One sheet's values (row 0 = sheet row 1, column 0 = column A, "" for empty), the
    cells holding a formula whose value was never saved, as (row, column), 1-based, and the
    cells holding an error value (also "" among the values)."""

    rows: Sequence[Sequence[object]]
    unsaved: list[tuple[int, int]] = field(default_factory=list)
    errors: list[ErrorCell] = field(default_factory=list)


@dataclass
class Scan:
    """What a sheet's XML says before it is read: its farthest cells that hold something,
    as (row, column), and its formulas without a saved value."""

    bottom: tuple[int, int] = (0, 0)  # a cell in the last row
    right: tuple[int, int] = (0, 0)  # a cell in the last column
    unsaved: list[tuple[int, int]] = field(default_factory=list)
    errors: list[ErrorCell] = field(default_factory=list)

    def too_far(self, sheet: str) -> list[tuple[str, str, Reason]]:
        """(sheet, cell, why) for each limit the sheet's data passes."""
        rows, columns = self.bottom[0], self.right[1]
        found = []
        if rows > MAX_ROWS:
            found.append((sheet, _ref(self.bottom), reason(
                "row {row}, past {most} rows", row=f"{rows:,}", most=f"{MAX_ROWS:,}")))
        if columns > MAX_COLUMNS:
            found.append((sheet, _ref(self.right), reason(
                "column {column}, past {most} columns", column=column_letters(columns),
                most=f"{MAX_COLUMNS:,}")))
        if not found and rows * columns > MAX_CELLS:
            found.append((sheet, _ref(self.bottom), reason(
                "{area} is {cells} cells, past {most}",
                area=f"A1:{column_letters(columns)}{rows}", cells=f"{rows * columns:,}",
                most=f"{MAX_CELLS:,}")))
        return found


def _ref(cell: tuple[int, int]) -> str:
    return f"{column_letters(cell[1])}{cell[0]}"


@functools.cache
def _patterns(p: str) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    """For a prefix: every cell start tag, giving its row when `r` comes first (b"" when
    not); and the columns of the cells whose `r` comes first."""
    e = re.escape(p.encode())
    return (re.compile(rb"<" + e + rb'c(?: r="[A-Z]{1,3}([0-9]{1,7})")?[\s>/]'),
            re.compile(rb"<" + e + rb'c r="([A-Z]{1,3})'))


def scan(data: bytes, where: str) -> Scan:
    """Where the cells that hold something end, and which formulas have no saved value.

    Most sheets write every cell as `<c r="B7" ...>`: their farthest cells, empty or not,
    are found by two patterns and a few passes in C, quickly. Only when those reach past
    the limits, or cells are written otherwise, is the sheet taken apart row by row to
    tell the cells that hold something from those that only carry a format."""
    p = root_prefix(data[:4096].decode("utf-8", "replace"), "worksheet")
    cells, columns = _patterns(p)
    rows = cells.findall(data)
    if b"" in rows:
        return _scan_rows(data, where)
    result = Scan()
    if rows:
        last = max(map(int, rows))
        widest = max(set(columns.findall(data)), key=lambda c: (len(c), c))
        result.bottom, result.right = (last, 0), (0, column_number(widest.decode()))
        if result.too_far("?"):  # perhaps only formatted cells out there: look closely
            return _scan_rows(data, where)
    result.unsaved = _unsaved(data, p)
    result.errors = _errors(data, p)
    return result


def _errors(data: bytes, p: str) -> list[ErrorCell]:
    """(row, column, error) of each cell holding an error value (`t="e"`); they are few,
    and most sheets have none, which one plain search tells."""
    if b'"e"' not in data and b"'e'" not in data:
        return []
    found = []
    for m in _error_pattern(p).finditer(data):
        tag = m.group(0).decode("utf-8", "replace")
        ref = CELL_REF.fullmatch(attr(tag, "r") or "")
        if ref is None or attr(tag, "t") != "e":
            continue
        end = data.find(f"</{p}c>".encode(), m.end()) if not tag.endswith("/>") else m.end()
        found.append((int(ref.group(2)), column_number(ref.group(1)),
                      _error_text(data[m.end():max(end, m.end())].decode("utf-8", "replace"),
                                  p)))
    return found


@functools.cache
def _error_pattern(p: str) -> re.Pattern[bytes]:
    """The start tag of a cell whose type is `e`."""
    e = re.escape(p.encode())
    return re.compile(rb"<" + e + rb"c\s[^>]*\bt\s*=\s*[\"']e[\"'][^>]*>")


def _error_text(inside: str, p: str) -> str:
    """The error a cell shows, from its saved value (`#N/A` when it has none)."""
    v = re.search(rf"<{re.escape(p)}v(?:\s[^>]*)?>([^<]*)</{re.escape(p)}v>", inside)
    return v.group(1).strip() if v is not None and v.group(1).strip() else "#N/A"


def _unsaved(data: bytes, p: str) -> list[tuple[int, int]]:
    """(row, column) of each formula cell without a saved value; formulas are few, so
    they are found by plain search."""
    found = []
    start, formula, close = (f"<{p}c".encode(), f"<{p}f".encode(), f"</{p}c>".encode())
    at = data.find(formula)
    while at >= 0:
        after = data[at + len(formula) : at + len(formula) + 1]
        if after in (b" ", b">", b"/", b"\t", b"\r", b"\n"):
            begin = max(data.rfind(start + b" ", 0, at), data.rfind(start + b">", 0, at))
            cell = data[begin : data.find(close, at)].decode("utf-8", "replace")
            tag = cell[: cell.find(">") + 1]
            ref = CELL_REF.fullmatch(attr(tag, "r") or "")
            if ref and not _saved(cell, tag, p):
                found.append((int(ref.group(2)), column_number(ref.group(1))))
        at = data.find(formula, at + 1)
    return found


def _saved(cell: str, tag: str, p: str) -> bool:
    """Does a formula cell hold its value? An empty `<v>` is a saved value only for a formula
    giving text (t="str"): Excel and LibreOffice write it so for ""; openpyxl and other
    writers write it, or no `<v>` at all, for a value never computed."""
    v = re.search(rf"<{re.escape(p)}v(?:\s[^>]*)?>([^<]*)</{re.escape(p)}v>", cell)
    if v is None:
        return False
    return bool(v.group(1)) or attr(tag, "t") == "str"


def _scan_rows(data: bytes, where: str) -> Scan:
    """`scan` for any markup, through the sheet editor's own reading of rows and cells."""
    sheet = Sheet(data, where)
    result = Scan()
    for item in sheet.items:
        if isinstance(item, str):
            continue
        cells, _ = sheet.row_cells(item)
        for cell in cells:
            if cell.start.endswith("/>"):
                continue
            here = (item.number, cell.column)
            if here[0] > result.bottom[0]:
                result.bottom = here
            if here[1] > result.right[1]:
                result.right = here
            if attr(cell.start, "t") == "e":
                result.errors.append((*here, _error_text(cell.markup, sheet.p)))
            if f"<{sheet.p}f" in cell.markup and re.search(
                    rf"<{re.escape(sheet.p)}f[\s>/]", cell.markup) and not _saved(
                    cell.markup, cell.start, sheet.p):
                result.unsaved.append(here)
    return result


def read_values(parts: dict[str, bytes], wanted: dict[str, str],
                where: str) -> dict[str, SheetValues]:
    """The values of the sheets `wanted` (sheet name -> its part) of a package whose parts
    calamine needs are given, unpacked, in `parts` (part name -> bytes).

    Each sheet is scanned first; sheets past the limits raise SheetTooLarge naming every
    far cell. Calamine then reads a package holding only `parts`, never the original file.
    """
    scans: dict[str, Scan] = {}
    far: list[tuple[str, str, Reason]] = []
    for name, part in wanted.items():
        scans[name] = scan(parts[part], f"{where}: sheet {name!r}")
        far += scans[name].too_far(name)
    total = sum(s.bottom[0] * s.right[1] for s in scans.values())
    if not far and total > MAX_CELLS:
        name, most = max(scans.items(), key=lambda item: item[1].bottom[0] * item[1].right[1])
        corner = (most.bottom[0], most.right[1])
        far.append((name, _ref(corner), reason(
            "the sheets read hold {cells} cells from A1 together, past {most}",
            cells=f"{total:,}", most=f"{MAX_CELLS:,}")))
    if far:
        raise SheetTooLarge(far, "keizer_xl reads at most {rows} rows, {columns} columns and "
                            "{cells} cells of a sheet. Clear what is there (and any "
                            "formatting) and try again.", rows=f"{MAX_ROWS:,}",
                            columns=f"{MAX_COLUMNS:,}", cells=f"{MAX_CELLS:,}")
    small = io.BytesIO()
    with zipfile.ZipFile(small, "w", zipfile.ZIP_STORED) as package:
        for name, data in parts.items():
            package.writestr(name, data)
    small.seek(0)
    try:
        from python_calamine import CalamineWorkbook

        book = CalamineWorkbook.from_filelike(small)
        return {name: SheetValues(book.get_sheet_by_name(name).to_python(
                    skip_empty_area=False), scans[name].unsaved, scans[name].errors)
                for name in wanted}
    except Exception as exc:  # calamine raises its own types for damaged parts
        raise NotAWorkbook("{where} could not be read as a workbook ({reason}).",
                           where=where, reason=exc) from None

