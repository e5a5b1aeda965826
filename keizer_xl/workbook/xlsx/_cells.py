"""Cell values: what a cell may hold, how it is written, and whether it already holds it.

A value keizer_xl writes (text, a whole number, a float, a Fraction, or None for empty)
is checked against what Excel can store, rendered as a `<c>` element, and compared with
the cell's current markup (including text in the shared-string table) so that a cell
already holding the value is left byte for byte as it was. `Cell` and `Row` are the
pieces of sheet text the sheet editor moves around.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import NamedTuple, NoReturn, Protocol, runtime_checkable
from xml.parsers import expat

from keizer_xl.workbook.xlsx._xmltext import (
    NOT_XML,
    attr,
    clean_text,
    column_letters,
    column_number,
    decode_escapes,
    escape_text,
    local,
    set_attr,
    tags,
    unescape,
)
from keizer_xl.workbook.xlsx.errors import NotACellValue, OutsideSheet, UnstorableValue


class Formula(NamedTuple):
    """A cell that computes `text` (without the leading `=`) and shows `value`.

    Written into a cell that already holds a formula, only the saved value changes (the
    formula stays as the workbook has it, shared or not): viewers that do not recalculate
    on opening (LibreOffice by default, phone previews, pandas) then show the current
    value. Written into a cell without a formula (one typed over), the formula comes back;
    with `restore` False such a cell (or an empty one) is left as it is.
    """

    text: str
    value: str | int | float | None = None
    restore: bool = True


def left_alone(value: object) -> bool:
    """A formula's value meant only for a cell that holds a formula, for a cell without."""
    return isinstance(value, Formula) and not value.restore


CellValue = str | int | float | Fraction | Formula | None

MAX_TEXT = 32_767  # Excel's limit for the text of one cell
MAX_ROW = 1_048_576
MAX_COLUMN = 16_384


@runtime_checkable
class CellRows(Protocol):
    """Cells kept row by row: each row's values from column 1, None where the row has no
    cell (so None empties no cell here). A sheet of many cells (a season's Standings) is
    handed over this way, not as a cell-by-cell mapping taken apart again by row."""

    @property
    def rows(self) -> Mapping[int, Sequence[CellValue]]: ...


class Cell(NamedTuple):
    """A cell's markup in a row being edited."""

    column: int
    markup: str  # the whole `<c>` element
    start: str  # its start tag


class Row(NamedTuple):
    """A row's markup in a sheet being edited."""

    number: int
    markup: str  # the whole `<row>` element
    start: str  # its start tag
    made: tuple[int, int] | None = None  # made by `_new_row`: its first and last column


class SharedStrings:
    """The shared-string table, read only when a comparison needs it.

    `load` gives the table's bytes (None when the workbook has none); it is called at most
    once, and only when a cell stored as shared text is compared."""

    def __init__(self, load: Callable[[], bytes | None]):
        self.load = load
        self._items: list[str] | None = None

    def __getitem__(self, index: int) -> str | None:
        if self._items is None:
            self._items = self._load()
        return self._items[index] if 0 <= index < len(self._items) else None

    def _load(self) -> list[str]:
        """The texts, parsed as they stream by (a tree of the table would cost a hundred
        bytes and more for each of its texts); none when the table cannot be parsed."""
        data = self.load()
        if not data:
            return []
        items: list[str] = []
        texts: list[str] = []
        path: list[str] = []

        def start(name: str, _: object) -> None:
            path.append(local(name))
            if len(path) == 2:
                texts.clear()

        def end(_: str) -> None:
            if len(path) == 2 and path[1] == "si":
                items.append(decode_escapes("".join(texts)))
            path.pop()

        def text(data: str) -> None:
            if path[-1] == "t" and (len(path) == 3 or (len(path) == 4 and path[2] == "r")):
                texts.append(data)

        def refuse_dtd(*_: object) -> None:
            raise expat.ExpatError("DTD")

        parser = expat.ParserCreate(namespace_separator="}")
        parser.StartElementHandler, parser.EndElementHandler = start, end
        parser.CharacterDataHandler = text
        parser.StartDoctypeDeclHandler = refuse_dtd
        try:
            parser.Parse(data, True)
        except NOT_XML:
            return []
        return items


def by_row(
    cells: Mapping[tuple[int, int], CellValue] | CellRows, where: str
) -> dict[int, dict[int, CellValue]]:
    """The cells by row number, each checked first: inside the sheet, and a value that a
    cell can hold (OutsideSheet, UnstorableValue or NotACellValue otherwise).

    A row's cells mostly come one after another: its number is checked and its cells
    found once. type() rather than isinstance(): True is no row number."""
    if isinstance(cells, CellRows):
        return _rows_checked(cells.rows, where)
    wanted: dict[int, dict[int, CellValue]] = {}
    row_no: object = None
    row: dict[int, CellValue] = {}
    for (number, column), value in cells.items():
        if number != row_no or type(number) is not int:
            _check_row(number, where)
            row_no, found = number, wanted.get(number)
            row = wanted[number] = {} if found is None else found
        if not (type(column) is int and 1 <= column <= MAX_COLUMN):
            _outside_column(column, where)
        if type(value) not in PLAIN_TYPES and not plain_value(value):
            check_value(value, where, f"{column_letters(column)}{number}")
        row[column] = value
    return wanted


def _rows_checked(
    rows: Mapping[int, Sequence[CellValue]], where: str
) -> dict[int, dict[int, CellValue]]:
    """`by_row` of cells kept row by row, checked the same way, in the same order."""
    wanted: dict[int, dict[int, CellValue]] = {}
    for number, values in rows.items():
        row: dict[int, CellValue] = {
            column: value for column, value in enumerate(values, 1) if value is not None
        }
        if not row:
            continue
        _check_row(number, where)
        for column, value in row.items():
            if column > MAX_COLUMN:
                _outside_column(column, where)
            if type(value) not in PLAIN_TYPES and not plain_value(value):
                check_value(value, where, f"{column_letters(column)}{number}")
        wanted[number] = row
    return wanted


def _outside_column(column: object, where: str) -> NoReturn:
    raise OutsideSheet(
        "{where}: column {column} is outside the sheet.", where=where, column=repr(column)
    )


def _check_row(number: object, where: str) -> None:
    if not (type(number) is int and 1 <= number <= MAX_ROW):
        raise OutsideSheet(
            "{where}: row {row} is outside the sheet.", where=where, row=repr(number)
        )


def empty(value: CellValue) -> bool:
    return value is None or (isinstance(value, str) and not clean_text(value))


PLAIN_TYPES = frozenset({int, Fraction, type(None)})
BIG = 10**15  # whole numbers from here on are written in full, but compared as floats


def plain_value(value: object) -> bool:
    """Text or a number that `check_value` would surely let through (the usual cells), or
    a formula showing one."""
    if type(value) is Formula:
        value = value.value
        if value is None or type(value) in PLAIN_TYPES:
            return True
    if type(value) is str:
        return len(value) <= MAX_TEXT  # cleaning only makes text shorter
    return type(value) is float and math.isfinite(value)


def plain_text(text: str) -> bool:
    """Text that a cell holds as it is: printable, not blank, nothing to escape or to mark
    as space-preserving (`render_cell` would write it unchanged). Printable text has none
    of the characters `clean_text` removes, no line break and no space but ASCII's, so
    `12w½`, `—` and `Zoë` qualify. (Tested with `in`, a few times quicker than a pattern.)"""
    return (
        text.isprintable()
        and text != ""
        and text[0] != " "
        and text[-1] != " "
        and "&" not in text
        and "<" not in text
        and ">" not in text
        and "_x" not in text
    )


def check_value(value: object, where: str, cell: str) -> None:
    """Refuse a value Excel cannot hold, before anything is written."""
    if isinstance(value, str):
        if len(clean_text(value)) > MAX_TEXT:
            raise UnstorableValue(
                "{where}, cell {cell}: text longer than Excel allows ({most} characters).",
                where=where,
                cell=cell,
                most=MAX_TEXT,
            )
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise UnstorableValue(
                "{where}, cell {cell}: {value} is not a number Excel can store.",
                where=where,
                cell=cell,
                value=repr(value),
            )
    elif isinstance(value, Formula):
        check_value(value.value if value.value is not None else "", where, cell)
    elif not isinstance(value, (int, Fraction)):
        raise NotACellValue(
            "{where}, cell {cell}: cannot write a {kind} into a cell.",
            where=where,
            cell=cell,
            kind=type(value).__name__,
        )


def number_text(value: int | float | Fraction) -> str:
    if isinstance(value, int):
        return str(int(value))  # also turns a bool into 1/0
    number = float(value)
    if number.is_integer() and abs(number) < 1e15:
        return str(int(number))
    return repr(number)


def render_cell(p: str, row: int, column: int, value: CellValue, style: str | None) -> str:
    """The markup of a written cell ('' for an empty cell without a style)."""
    ref = f"{column_letters(column)}{row}"
    if style is not None and not style.isdigit():
        style = None  # a style is an index; anything else cannot be written back safely
    s = "" if style is None else f' s="{style}"'
    if isinstance(value, Formula):
        kind = _formula_type(value)
        t = f' t="{kind}"' if kind else ""
        return (
            f'<{p}c r="{ref}"{s}{t}><{p}f>{escape_text(value.text)}</{p}f>'
            f"{_formula_value(p, value)}</{p}c>"
        )
    if isinstance(value, str):
        value = clean_text(value)
        if not value:
            value = None
    if value is None:
        return "" if style is None else f'<{p}c r="{ref}"{s}/>'
    if isinstance(value, str):
        space = ' xml:space="preserve"' if value != value.strip() or "\n" in value else ""
        body = f"<{p}is><{p}t{space}>{escape_text(value)}</{p}t></{p}is>"
        return f'<{p}c r="{ref}"{s} t="inlineStr">{body}</{p}c>'
    kind = ' t="b"' if isinstance(value, bool) else ""
    return f'<{p}c r="{ref}"{s}{kind}><{p}v>{number_text(value)}</{p}v></{p}c>'


def _formula_type(formula: Formula) -> str | None:
    """The cell's `t` for a formula's value: `str` for text, none for a number."""
    number = isinstance(formula.value, int | float) and not isinstance(formula.value, bool)
    return None if number else "str"


def _formula_value(p: str, formula: Formula) -> str:
    value = formula.value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"<{p}v>{number_text(value)}</{p}v>"
    return f"<{p}v>{escape_text(clean_text(str(value) if value else ''))}</{p}v>"


def with_formula_value(cell: Cell, formula: Formula, p: str) -> str | None:
    """The cell's markup with its formula kept and `formula.value` as its saved value; None
    when the cell holds no formula."""
    markup = cell.markup
    f = next(tags(markup, p, "f"), None) if f"<{p}f" in markup else None
    if f is None:
        return None
    at, tag = f
    after = at + len(tag)
    end = after if tag.endswith("/>") else markup.find(f"</{p}f>", after) + len(f"</{p}f>")
    start = set_attr(cell.start, "t", _formula_type(formula))
    return (
        start
        + markup[len(cell.start) : at]
        + tag
        + markup[after:end]
        + _formula_value(p, formula)
        + f"</{p}c>"
    )


def with_formula_values(
    row: Row, p: str, values: Mapping[int, CellValue]
) -> tuple[list[Cell], list[Cell]] | None:
    """The cells of a row, and them with `values` written, the quick way, for a row of
    formula cells as Excel writes them (`<c r="B5" s="12" t="str"><f>…</f><v>…</v></c>`,
    nothing else) and a formula in `values` for some of them; None for any other row,
    which the general editor takes apart.

    Those cells are exactly what the sheet editor's `row_cells` finds, and each written
    one is what `with_formula_value` makes of it (its formula kept, its value saved): a
    season's Pairings sheet is rows of these."""
    inner = "" if row.start.endswith("/>") else row.markup[len(row.start) : -len(f"</{p}row>")]
    cells: list[Cell] = []
    kept: list[Cell] = []
    at = found = column = 0
    for m in _formula_cell(p).finditer(inner):
        start, letters, formula = m.groups()
        if m.start() != at or column >= (column := column_number(letters)):
            return None  # (cells in order, each column once)
        cell = Cell(column, m.group(0), start)
        cells.append(cell)
        at = m.end()
        if cell.column not in values:
            kept.append(cell)
            continue
        value = values[cell.column]
        if type(value) is not Formula:
            return None
        found += 1
        kind, shown = _formula_type(value), _formula_value(p, value)
        markup = f"{set_attr(start, 't', kind)}{formula}{shown}</{p}c>"
        kept.append(cell if markup == cell.markup else Cell(cell.column, markup, ""))
    if at != len(inner) or found != len(values):  # a value for a cell not in the row
        return None
    return cells, kept


@functools.cache
def _formula_cell(p: str) -> re.Pattern[str]:
    """A formula cell as Excel writes it: (its start tag, its column, its `<f>` element)."""
    e = re.escape(p)
    return re.compile(
        rf'(<{e}c r="([A-Za-z]{{1,3}})[0-9]{{1,7}}"(?: s="[0-9]+")?'
        rf'(?: t="[a-z]+")?>)(<{e}f>[^<]*</{e}f>)(?:<{e}v>[^<]*</{e}v>)?</{e}c>'
    )


def same_value(cell: Cell, value: CellValue, strings: SharedStrings, p: str) -> bool:
    """Does the cell already hold `value` as a constant (so it can stay as it is)?

    Excel stores text in its shared-string table when it saves, so a value keizer_xl wrote
    earlier looks different after the secretary saved in Excel; it is still the same value.
    """
    markup = cell.markup
    if isinstance(value, Formula) or (f"<{p}f" in markup and next(tags(markup, p, "f"), None)):
        return False
    kind = attr(cell.start, "t") or "n"
    v = _value_pattern(p).search(markup)
    if isinstance(value, str):
        value = clean_text(value) or None
    if value is None:
        return v is None and f"<{p}is" not in markup
    if isinstance(value, str):
        if kind == "inlineStr":
            texts = _text_pattern(p).findall(_phonetic_pattern(p).sub("", markup))
            return decode_escapes(unescape("".join(texts))) == value
        if kind == "s" and v is not None and v.group(1).strip().isdigit():
            return strings[int(v.group(1))] == value
        return False
    if v is None or kind != ("b" if isinstance(value, bool) else "n"):
        return False
    try:
        return float(v.group(1)) == float(value)
    except ValueError:
        return False


@functools.cache
def _value_pattern(p: str) -> re.Pattern[str]:
    return re.compile(rf"<{re.escape(p)}v>([^<]*)</{re.escape(p)}v>")


@functools.cache
def _text_pattern(p: str) -> re.Pattern[str]:
    return re.compile(rf"<{re.escape(p)}t(?=[\s>])[^>]*>([^<]*)</{re.escape(p)}t>")


@functools.cache
def _phonetic_pattern(p: str) -> re.Pattern[str]:
    return re.compile(rf"<{re.escape(p)}rPh(?=[\s>]).*?</{re.escape(p)}rPh>", re.S)
