"""What a sheet's cells say that a reader of values would miss: error values (`#N/A`, which
calamine reads as empty) and formulas whose value was never saved. Both are few, so they
are found by plain search over each piece the scan (`_scan`) reads."""

from __future__ import annotations

import functools
import re

from keizer_xl.workbook.xlsx._xmltext import CELL_REF, attr, column_number

ErrorCell = tuple[int, int, str]  # a cell holding an error value: row, column, the error


def damaged_shared(data: bytes, p: str, count: int) -> tuple[str, str] | None:
    """(cell, index) of the first cell of the shared-text type whose index is not a whole
    number below `count`, the table's size (`-1`, `1.9`: a reader would take the first
    text, or another cell's); None if there is none. Asked only where the scan's count
    of indexes tells there may be one."""
    for m in _shared_cell(p).finditer(data):
        tag, index = m.group(1).decode("utf-8", "replace"), m.group(2)
        if attr(tag, "t") != "s" or index is None:
            continue
        shown = index.decode("utf-8", "replace").strip()
        if not (shown.isascii() and shown.isdigit() and int(shown) < count):
            return attr(tag, "r") or "?", shown
    return None


@functools.cache
def _shared_cell(p: str) -> re.Pattern[bytes]:
    """A cell's start tag and, if it has one, its value (`<c r="B2" t="s"><v>3</v>`)."""
    e = re.escape(p.encode())
    return re.compile(rb"(<" + e + rb"c\s[^>]*?(?<!/)>)(?:\s*<" + e + rb"v>([^<]*)</)?")


def errors_in(data: bytes, p: str) -> list[ErrorCell]:
    """(row, column, error) of each cell holding an error value (`t="e"`); they are few,
    and most sheets have none, which a plain search or two tells (a `'` is rare)."""
    if b'"e"' not in data and (b"'" not in data or b"'e'" not in data):
        return []
    return _errors(data, p)


def _errors(data: bytes, p: str) -> list[ErrorCell]:
    found = []
    for m in _error_pattern(p).finditer(data):
        tag = m.group(0).decode("utf-8", "replace")
        ref = CELL_REF.fullmatch(attr(tag, "r") or "")
        if ref is None or attr(tag, "t") != "e":
            continue
        end = data.find(f"</{p}c>".encode(), m.end()) if not tag.endswith("/>") else m.end()
        found.append(
            (
                int(ref.group(2)),
                column_number(ref.group(1)),
                error_text(data[m.end() : max(end, m.end())].decode("utf-8", "replace"), p),
            )
        )
    return found


@functools.cache
def _error_pattern(p: str) -> re.Pattern[bytes]:
    """The start tag of a cell whose type is `e`."""
    e = re.escape(p.encode())
    return re.compile(rb"<" + e + rb"c\s[^>]*\bt\s*=\s*[\"']e[\"'][^>]*>")


@functools.cache
def formula_tag(p: str) -> re.Pattern[bytes]:
    """The start of a formula (`<f>`, `<f t="shared" .../>`): a sheet holding one asks to be
    recalculated on opening once it is edited (`Package._has_formulas`)."""
    return re.compile(rb"<" + re.escape(p.encode()) + rb"f[\s>/]")


def error_text(inside: str, p: str) -> str:
    """The error a cell shows, from its saved value (`#N/A` when it has none)."""
    v = re.search(rf"<{re.escape(p)}v(?:\s[^>]*)?>([^<]*)</{re.escape(p)}v>", inside)
    return v.group(1).strip() if v is not None and v.group(1).strip() else "#N/A"


def unsaved_in(data: bytes, p: str, first: int = 0) -> list[tuple[int, int]]:
    """(row, column) of each formula cell without a saved value; formulas are few, so
    they are found by plain search, from `first` on where the data has no formula before
    (as `formula_tag` finds them)."""
    found = []
    start, formula, close = (f"<{p}c".encode(), f"<{p}f".encode(), f"</{p}c>".encode())
    at = data.find(formula, first)
    while at >= 0:
        after = data[at + len(formula) : at + len(formula) + 1]
        if after in (b" ", b">", b"/", b"\t", b"\r", b"\n"):
            begin = max(data.rfind(start + b" ", 0, at), data.rfind(start + b">", 0, at))
            cell = data[begin : data.find(close, at)].decode("utf-8", "replace")
            tag = cell[: cell.find(">") + 1]
            ref = CELL_REF.fullmatch(attr(tag, "r") or "")
            if ref and not saved(cell, tag, p):
                found.append((int(ref.group(2)), column_number(ref.group(1))))
        at = data.find(formula, at + 1)
    return found


def saved(cell: str, tag: str, p: str) -> bool:
    """Does a formula cell hold its value? An empty `<v>` is a saved value only for a formula
    giving text (t="str"): Excel and LibreOffice write it so for ""; openpyxl and other
    writers write it, or no `<v>` at all, for a value never computed."""
    v = re.search(rf"<{re.escape(p)}v(?:\s[^>]*)?>([^<]*)</{re.escape(p)}v>", cell)
    if v is None:
        return False
    return bool(v.group(1)) or attr(tag, "t") == "str"
