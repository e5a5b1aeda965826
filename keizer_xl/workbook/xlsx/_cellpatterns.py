"""The patterns the scan of a sheet (`_scan`) finds its cells by, as bytes: made once for
a prefix (`cell_patterns`), or for the farthest cells found so far (`beyond`), and what a
plain search can tell instead of a pattern made for one search (`first_cell`)."""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from keizer_xl.workbook.xlsx._xmltext import TAG_REST, column_letters, column_number

_HOLDING = rb'"[^>]*(?<!/)>'  # the rest of a start tag that is not empty (`<c .../>`)
_TRIES = 32  # look-alikes a plain search passes by before `first_cell` asks a pattern


class CellPatterns(NamedTuple):
    """A prefix's patterns for scanning a sheet, made once."""

    odd: re.Pattern[bytes]  # a cell whose start tag does not begin with its reference
    start: bytes  # how each cell the patterns below find begins
    cells: re.Pattern[bytes]  # a cell holding something: its column letters and row
    each_shared: re.Pattern[bytes]  # a cell of the shared-text type: its index, or b""
    nested: re.Pattern[bytes]  # a cell's start tag with a `<` in it
    inline: re.Pattern[bytes]  # a cell's own text
    sheet_data: re.Pattern[bytes]
    cell_end: bytes
    row_end: bytes
    data_end: bytes


def _shared_type(p: str) -> bytes:
    return rb"<" + re.escape(p.encode()) + rb"""c\s[^>]*?\bt\s*=\s*["']s["']"""


def _index(p: str) -> bytes:
    return rb"[^>]*>\s*<" + re.escape(p.encode()) + rb"v>\s*([0-9]{1,10})\s*</"


@functools.cache
def cell_patterns(p: str) -> CellPatterns:
    e = re.escape(p.encode())
    return CellPatterns(
        odd=re.compile(rb"<" + e + rb'c(?=[\s>/])(?! r=")'),
        start=b"<" + p.encode() + b'c r="',
        cells=re.compile(rb"<" + e + rb'c r="([A-Z]{1,3})([0-9]{1,7})' + _HOLDING),
        each_shared=re.compile(_shared_type(p) + rb"(?:(?=" + _index(p) + rb")|)"),
        nested=re.compile(rb"<" + e + rb"c\s[^<>]*<"),
        inline=re.compile(rb"<" + e + rb"is[\s>](.*?)</" + e + rb"is>", re.DOTALL),
        sheet_data=re.compile(rb"<" + e + rb"sheetData" + TAG_REST.encode()),
        cell_end=f"</{p}c>".encode(),
        row_end=f"</{p}row>".encode(),
        data_end=f"</{p}sheetData>".encode(),
    )


@functools.cache
def nested_shared(p: str) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    """A cell holding a shared text: its index; and any cell of the shared-text type: for
    pieces where a cell's start tag holds a `<` (few sheets: made when one comes)."""
    return re.compile(_shared_type(p) + _index(p)), re.compile(_shared_type(p))


def beyond(p: str, row: int, column: int) -> re.Pattern[bytes]:
    """A cell holding something in a row past `row` or in a column past `column` (and some
    other cells besides: it need only miss none of those)."""
    return re.compile(
        rb"<"
        + re.escape(p.encode())
        + rb'c r="(?:[A-Z]{1,3}0*(?:'
        + past(str(row), "0123456789", "1")
        + rb")|(?:"
        + past(column_letters(column), "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "A")
        + rb')[0-9]+)"[^>]*(?<!/)>'
    )


def past(value: str, digits: str, lowest: str) -> bytes:
    """A pattern for the numbers written with `digits` past `value`, the first digit
    `lowest` or above: longer ones, and those as long that are greater from some place on."""
    first, any_digit = f"[{lowest}-{digits[-1]}]", f"[{digits[0]}-{digits[-1]}]"
    ways = [f"{first}{any_digit}{{{len(value)},}}"]
    for i, digit in enumerate(value):
        if digit != digits[-1]:
            ways.append(
                value[:i]
                + f"[{digits[digits.index(digit) + 1]}-{digits[-1]}]"
                + any_digit * (len(value) - i - 1)
            )
    return "|".join(ways).encode()


def first_cell(
    piece: bytes, p: str, row: int | None = None, letters: str | None = None
) -> tuple[int, int] | None:
    """The first cell holding something in row `row` (however many zeros its number is
    written with), or else in the column written `letters`, as (row, column), as the
    pattern `in_row_or_column` finds it; None if there is none.

    Found by plain search for how its reference ends (`1329"`) or begins (`<c r="E`): a
    pattern made for the one search would cost more to compile than the search. Past
    `_TRIES` look-alikes (a sheet full of `s="1"` for row 1), the pattern is asked."""
    patterns = cell_patterns(p)
    start, cells = patterns.start, patterns.cells
    number = str(row).encode()
    needle = number + b'"' if row is not None else start + (letters or "").encode()
    at = piece.find(needle)
    for _ in range(_TRIES):
        if at < 0:
            return None
        if row is not None:  # `<c r="` + letters, zeros: at most 3 + 6 bytes before it
            begin = piece.rfind(start, max(0, at - len(start) - 9), at)
            found = cells.match(piece, begin) if begin >= 0 else None
            if (
                found is not None
                and found.end(2) == at + len(number)
                and int(found.group(2)) == row
            ):
                return row, column_number(found.group(1).decode())
        else:
            found = cells.match(piece, at)
            if found is not None and found.group(1) == needle[len(start) :]:
                return int(found.group(2)), column_number(found.group(1).decode())
        at = piece.find(needle, at + 1)
    found = in_row_or_column(p, row, letters).search(piece)
    if found is None:
        return None
    ref = cells.match(piece, found.start())
    assert ref is not None
    return int(ref.group(2)), column_number(ref.group(1).decode())


def in_row_or_column(p: str, row: int | None, letters: str | None) -> re.Pattern[bytes]:
    """A cell holding something in row `row`, or else in the column written `letters`."""
    ref = (
        rb'[A-Z]{1,3}(?=[0-9]{1,7}")0*' + str(row).encode()
        if row is not None
        else (letters or "").encode() + rb"[0-9]{1,7}"
    )
    return re.compile(rb"<" + re.escape(p.encode()) + rb'c r="' + ref + _HOLDING)
