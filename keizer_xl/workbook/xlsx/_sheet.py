"""The sheet editor: one worksheet part, edited as text, row by row.

`Sheet` takes a worksheet's XML and a `SheetEdit`, and changes only the `<sheetData>`
rows the edit touches and the `<dimension>`: new rows are written directly, existing rows
are edited cell by cell (keeping styles and anything else it does not write), rows below
`clear_below` are emptied. New rows below the last one (a new round) are appended without
taking the sheet apart. The result is checked to be well-formed before it is given back.
"""

from __future__ import annotations

import codecs
import functools
import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import NamedTuple

from keizer_xl.workbook.xlsx._cells import (
    BIG,
    Cell,
    CellRows,
    CellValue,
    Formula,
    Row,
    SharedStrings,
    by_row,
    empty,
    left_alone,
    number_text,
    plain_text,
    render_cell,
    same_value,
    with_formula_value,
    with_formula_values,
)
from keizer_xl.workbook.xlsx._xmltext import (
    CELL_REF,
    TAG_REST,
    attr,
    attributes,
    column_letters,
    column_number,
    root_prefix,
    set_attr,
    start_tag,
    tags,
    well_formed,
)
from keizer_xl.workbook.xlsx.errors import CopiedFormula, NotAWorkbook, OutsideSheet


class SheetEdit(NamedTuple):
    """The cells keizer_xl writes into one sheet.

    `cells` maps (row, column), both 1-based, to the new value; None empties the cell. Or
    it holds them row by row (`CellRows`), where None is no cell: it empties none.
    `clear_below` removes every cell in rows at or below it that `cells` does not write
    (used to rewrite a whole sheet such as Standings); a written cell keeps its formatting.
    `create`: a workbook without this sheet gets it, empty, after its other sheets.
    """

    sheet: str
    cells: Mapping[tuple[int, int], CellValue] | CellRows
    clear_below: int | None = None
    create: bool = False


class Sheet:
    """A worksheet part edited as text: only `<sheetData>` rows and `<dimension>` change."""

    def __init__(self, data: bytes, where: str):
        self.where = where
        # the rows stay the part's bytes until they are taken apart (`body`): new rows after
        # the last (a new round) are written after them as they are, so that a season's
        # Rounds sheet is neither decoded whole nor copied
        self.data = data
        found = _around_rows(data)
        if found is None:
            raise NotAWorkbook("{where} is not stored as UTF-8 and cannot be edited.", where=where)
        self.p, self.head, self.sheet_data_tag, self.tail, self.rows_at = found
        p = self.p
        if not self.sheet_data_tag:
            raise NotAWorkbook("{where} is damaged (it has no cell data).", where=where)
        if self.rows_at[1] < 0:
            raise NotAWorkbook("{where} is damaged (its cell data is not closed).", where=where)
        self._body: str | None = None
        self._items: list[Row | str] | None = None  # split into rows only when needed
        self.appended: list[Row] | None = None  # new rows after the last one (the common case)
        self.column_styles = [
            (int(a["min"]), int(a["max"]), a["style"])
            for a in (attributes(tag) for _, tag in tags(self.head, p, "col"))
            if a.get("style") and a.get("min", "").isdigit() and a.get("max", "").isdigit()
        ]
        self.formulas_removed = False
        self.shared_masters_removed: list[tuple[str, str]] = []  # (si, cell reference)
        self._pieces: dict[int, tuple[str, str, str]] = {}  # see `_cell_pieces`

    @property
    def body(self) -> str:
        """The text inside `<sheetData>`, decoded when first needed."""
        if self._body is None:
            self._body = self.data[self.rows_at[0] : self.rows_at[1]].decode("utf-8")
        return self._body

    @property
    def items(self) -> list[Row | str]:
        if self._items is None:
            self._items = self._split_rows(self.body)
        return self._items

    @items.setter
    def items(self, value: list[Row | str]) -> None:
        self._items = value

    def _last_row_number(self) -> int | None:
        """The number of the last `<row>` (0 when there is none); None if it has no `r`.
        Found in the part's bytes, of which only the last row is decoded."""
        data, (start, end) = self.data, self.rows_at
        tag = f"<{self.p}row".encode()
        at = data.rfind(tag, start, end)
        while at >= 0 and data[at + len(tag) : at + len(tag) + 1] not in b" \t\r\n/>":
            at = data.rfind(tag, start, at)
        if at < 0:
            return 0 if not self.body.strip() else None
        m = start_tag(self.p, "row").match(data[at:end].decode("utf-8"))
        r = attr(m.group(0), "r") if m else None
        return int(r) if r and r.isdigit() else None

    def _elements(self, text: str, name: str) -> Iterator[tuple[int, int, str]]:
        return elements(text, self.p, name, self.where)

    def _split_rows(self, body: str) -> list[Row | str]:
        """The rows in order; anything between them is kept as plain text."""
        items: list[Row | str] = []
        pos = number = 0
        for start, end, tag in self._elements(body, "row"):
            if start > pos:
                items.append(body[pos:start])
            r = attr(tag, "r")
            number = int(r) if r and r.isdigit() else number + 1
            items.append(Row(number, body[start:end], tag))
            pos = end
        if pos < len(body):
            items.append(body[pos:])
        return items

    def row_cells(self, row: Row) -> tuple[list[Cell], str]:
        """The cells of a row (each given its reference), and what follows them (extLst)."""
        return row_cells(row, self.p, self.where)

    def apply(self, edit: SheetEdit, strings: SharedStrings) -> bool:
        """Apply one edit to the rows; True when the sheet's text changes."""
        wanted = by_row(edit.cells, self.where)
        clear = edit.clear_below
        if clear is not None and (
            isinstance(clear, bool) or not isinstance(clear, int) or clear < 1
        ):
            raise OutsideSheet(
                "{where}: clear_below must be a row number (1 or more).", where=self.where
            )

        last = self._last_row_number()
        if last is not None and min(wanted, default=0) > last and (clear is None or clear > last):
            # rows appended below the last one: no need to take the sheet apart
            new = [
                made
                for number in sorted(wanted)
                if isinstance(made := self._new_row(number, wanted[number]), Row)
            ]
            if not new:
                return False
            self.appended = new
            return True
        existing = {item.number for item in self.items if isinstance(item, Row)}
        new_rows = sorted(n for n in wanted if n not in existing)
        items: list[Row | str] = []
        for item in self.items:
            if isinstance(item, Row):
                while new_rows and new_rows[0] < item.number:
                    items.append(self._new_row(new_rows[0], wanted[new_rows.pop(0)]))
                if item.number in wanted or (clear is not None and item.number >= clear):
                    row = self._edit_row(item, wanted.get(item.number, {}), clear, strings)
                    if row is not None:
                        items.append(row)
                    continue
            items.append(item)
        items += [self._new_row(number, wanted[number]) for number in new_rows]
        if _markup(items) == _markup(self.items):
            return False
        self.items = items
        return True

    def _edit_row(
        self, row: Row, values: dict[int, CellValue], clear: int | None, strings: SharedStrings
    ) -> Row | None:
        """The row with `values` written and, from row `clear` on, its other cells removed."""
        p = self.p
        clearing = clear is not None and row.number >= clear
        if clearing and (rewritten := self._rewritten(row, values)) is not None:
            return rewritten if isinstance(rewritten, Row) else None  # '': nothing left
        quick = None if clearing else with_formula_values(row, p, values)
        if quick is not None:
            (cells, kept), rest = quick, ""
        else:
            cells, rest = self.row_cells(row)
            kept = self._kept_cells(row, cells, values, clearing, strings)
        if [c.markup for c in kept] == [c.markup for c in cells]:
            return row
        kept.sort(key=lambda c: c.column)
        start = set_attr(row.start, "spans", None)  # a layout hint that may now be wrong
        if attr(start, "r") is None:
            start = set_attr(start, "r", str(row.number))
        if not kept and not rest and _plain_row(start):
            return None
        if start.endswith("/>"):
            start = start[:-2].rstrip() + ">"
        body = "".join(c.markup for c in kept) + rest
        return Row(row.number, f"{start}{body}</{p}row>", start)

    def _kept_cells(
        self,
        row: Row,
        cells: list[Cell],
        values: dict[int, CellValue],
        clearing: bool,
        strings: SharedStrings,
    ) -> list[Cell]:
        """The row's cells with `values` written (some emptied, some new)."""
        p = self.p
        kept: list[Cell] = []
        for cell in cells:
            if cell.column in values:
                value = values[cell.column]
                if isinstance(value, Formula):
                    kept_formula = with_formula_value(cell, value, p)
                    if kept_formula is not None or not value.restore:
                        # the formula stays and only its value changes; or no formula
                        # there, and the cell is to be left as it is
                        kept.append(
                            cell
                            if kept_formula in (None, cell.markup)
                            else Cell(cell.column, kept_formula or "", "")
                        )
                        continue
                markup = render_cell(p, row.number, cell.column, value, attr(cell.start, "s"))
                if markup == cell.markup or same_value(cell, value, strings, p):
                    kept.append(cell)
                    continue
                self._note_removed(cell)
                if markup:
                    kept.append(Cell(cell.column, markup, ""))
            elif clearing:
                self._note_removed(cell)
            else:
                kept.append(cell)
        present = {cell.column for cell in cells}
        style = attr(row.start, "s") if attr(row.start, "customFormat") in ("1", "true") else None
        for column, value in values.items():
            if column not in present and not empty(value) and not left_alone(value):
                markup = render_cell(p, row.number, column, value, style or self._style(column))
                kept.append(Cell(column, markup, ""))
        return kept

    def _rewritten(self, row: Row, values: dict[int, CellValue]) -> Row | str | None:
        """`_edit_row` of a row being cleared, the quick way, for a row just as `_new_row`
        writes it (a Standings or Crosstable row keizer_xl wrote before); None for any
        other row.

        Such a row has no styles but its columns', no formulas or other attributes to
        keep (which `_edit_row` would keep the same way), and it holds each
        value in the one way `_new_row` writes it, so a cell whose markup changes has a new
        value: `_edit_row` would give exactly the new row, which `_new_row` writes far more
        quickly. (Except whole numbers of 10^15 and more, which `same_value` compares as
        floats: `_edit_row` handles those.)"""
        p = self.p
        if row.start != f'<{p}row r="{row.number}">' or any(
            (type(v) is int and not -BIG < v < BIG) or isinstance(v, Formula)
            for v in values.values()
        ):
            return None
        inner = row.markup[len(row.start) : -len(f"</{p}row>")]
        old: dict[int, CellValue] = {}
        at = 0
        for m in _plain_cell(p).finditer(inner):
            if m.start() != at:
                return None
            letters, text, number = m.groups()
            try:
                old[column_number(letters)] = (
                    text
                    if number is None
                    else int(number)
                    if number.isdigit() and len(number) < 16
                    else float(number)
                )
            except ValueError:
                return None
            at = m.end()
        same = self._new_row(row.number, old) if at == len(inner) else None
        if not (isinstance(same, Row) and same.markup == row.markup):
            return None
        return self._new_row(row.number, values)

    def _new_row(self, number: int, values: dict[int, CellValue]) -> Row | str:
        """A row that was not there, its empty values left out ('' if all are).

        A Standings sheet is tens of thousands of these cells, nearly all whole numbers or
        plain text: those are written here directly (the same markup `render_cell` makes,
        see tests/workbook/test_fast_paths.py), from the column's pieces of markup
        prepared once (`_cell_pieces`)."""
        p, row = self.p, str(number)
        pieces = self._pieces
        number_end, text_end = f"</{p}v></{p}c>", f"</{p}t></{p}is></{p}c>"
        cells: list[str] = []
        written: list[int] = []
        for column in sorted(values):
            value = values[column]
            kind = type(value)
            plain = kind is str and plain_text(value)  # type: ignore[arg-type]
            if kind is int or kind is float or plain:
                ref, number_start, text_start = pieces.get(column) or self._cell_pieces(column)
                if kind is str:
                    cells.append(f"{ref}{row}{text_start}{value}{text_end}")
                else:
                    shown = value if kind is int else number_text(value)  # type: ignore[arg-type]
                    cells.append(f"{ref}{row}{number_start}{shown}{number_end}")
            elif not empty(value) and not left_alone(value):
                cells.append(render_cell(p, number, column, value, self._style(column)))
            else:
                continue
            written.append(column)
        if not cells:
            return ""
        start = f'<{p}row r="{number}">'
        return Row(number, f"{start}{''.join(cells)}</{p}row>", start, (written[0], written[-1]))

    def _cell_pieces(self, column: int) -> tuple[str, str, str]:
        """A new cell's markup in this column, up to its row number (`<c r="AB`) and after
        it up to a number or a text: `" s="3"><v>`, `" s="3" t="inlineStr"><is><t>`."""
        found = self._pieces.get(column)
        if found is None:
            p, style = self.p, self._style(column)
            s = f' s="{style}"' if style is not None and style.isdigit() else ""
            found = self._pieces[column] = (
                f'<{p}c r="{column_letters(column)}',
                f'"{s}><{p}v>',
                f'"{s} t="inlineStr"><{p}is><{p}t>',
            )
        return found

    def _style(self, column: int) -> str | None:
        """The style of the `<col>` range covering `column`, if any."""
        for low, high, style in self.column_styles:
            if low <= column <= high:
                return style
        return None

    def _note_removed(self, cell: Cell) -> None:
        """Remember that a formula goes away, and which shared formulas lose their master."""
        if f"<{self.p}f" not in cell.markup:
            return
        f = next(tags(cell.markup, self.p, "f"), None)
        if f is None:
            return
        self.formulas_removed = True
        tag = f[1]
        if attr(tag, "t") == "shared" and attr(tag, "ref") is not None:
            self.shared_masters_removed.append(
                (attr(tag, "si") or "", attr(cell.start, "r") or "?")
            )

    def to_bytes(self) -> bytes:
        """The edited part; refuses to produce a sheet Excel would call damaged.

        Encoded row by row (see `_encoded`)."""
        if self.appended is not None:
            return self._appended_bytes(self.appended)
        markups = _markup(self.items)
        body = "".join(markups) if self.shared_masters_removed else ""
        for si, ref in self.shared_masters_removed:
            for _, tag in tags(body, self.p, "f"):
                if (
                    attr(tag, "t") == "shared"
                    and attr(tag, "si") == si
                    and attr(tag, "ref") is None
                ):
                    raise CopiedFormula(
                        "{where}: cell {cell} holds a formula that other cells copy; "
                        "keizer_xl will not overwrite it. Move the formula elsewhere.",
                        where=self.where,
                        cell=ref,
                    )
        head = self._with_dimension(*self._extent(self.items))
        # rows made by `_new_row` are well-formed by construction (see `_appended_bytes`)
        others = "".join(
            _markup([item for item in self.items if not (isinstance(item, Row) and item.made)])
        )
        if not well_formed((head + self._sheet_data(others) + self.tail).encode("utf-8")):
            raise NotAWorkbook("{where} has markup keizer_xl cannot edit safely.", where=self.where)
        return _encoded([head, *self._sheet_data_pieces(markups), self.tail])

    def _sheet_data(self, body: str) -> str:
        """The `<sheetData>` element holding these rows."""
        if not body:
            return f"<{self.p}sheetData/>"
        return f"{self._open_sheet_data()}{body}</{self.p}sheetData>"

    def _sheet_data_pieces(self, markups: Sequence[str | memoryview]) -> list[str | memoryview]:
        """`_sheet_data` of the rows' markups, in pieces."""
        if not any(markups):
            return [f"<{self.p}sheetData/>"]
        return [self._open_sheet_data(), *markups, f"</{self.p}sheetData>"]

    def _open_sheet_data(self) -> str:
        open_tag = self.sheet_data_tag
        return open_tag[:-2].rstrip() + ">" if open_tag.endswith("/>") else open_tag

    def _extent(self, items: list[Row | str]) -> tuple[set[int], set[int]]:
        """The columns of the cells in `items`, and the rows of the first and last cell
        (rows are in ascending order in sheetData, so those two give the rows)."""
        columns: set[int] = set()
        first = last = None
        for item in items:
            rows: tuple[int, ...]
            if isinstance(item, Row) and item.made:
                columns.update(item.made)
                rows = (item.number,)
            else:
                refs = _cell_refs(self.p).findall(item.markup if isinstance(item, Row) else item)
                columns.update(column_number(letters) for letters in {c for c, _ in refs})
                rows = tuple(int(number) for _, number in refs[:1] + refs[-1:])
            if rows:
                first = rows[0] if first is None else first
                last = rows[-1]
        return columns, set() if first is None or last is None else {first, last}

    def _appended_bytes(self, new: list[Row]) -> bytes:
        """The part with new rows after the last; the old dimension covers the rows above.

        The new rows need no well-formedness check: every bit of them was made by
        `_new_row` from checked values (text escaped, styles digits only)."""
        start, end = self.rows_at
        sheet_data = self._sheet_data_pieces(
            [memoryview(self.data)[start:end], *(row.markup for row in new)]
        )
        m = next(tags(self.head, self.p, "dimension"), None)
        old = CELL_REF.findall(attr(m[1], "ref") or "") if m else []
        columns = {column for row in new if row.made for column in row.made}
        columns.update(column_number(letters) for letters, _ in old)
        head = self._with_dimension(
            columns, {new[0].number, new[-1].number, *(int(n) for _, n in old)}
        )
        return _encoded([head, *sheet_data, self.tail])

    def _with_dimension(self, columns: Collection[int], rows: Collection[int]) -> str:
        """The part before sheetData, with `<dimension ref>` spanning these columns and rows
        (A1 when there are none)."""
        m = next(tags(self.head, self.p, "dimension"), None)
        if m is None:
            return self.head
        ref = "A1"
        if columns and rows:
            first = f"{column_letters(min(columns))}{min(rows)}"
            last = f"{column_letters(max(columns))}{max(rows)}"
            ref = first if first == last else f"{first}:{last}"
        at, old_tag = m
        return self.head[:at] + set_attr(old_tag, "ref", ref) + self.head[at + len(old_tag) :]


def elements(text: str, p: str, name: str, where: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, start tag) of each `<name>` element in text (they do not nest)."""
    close_tag = f"</{p}{name}>"
    pos = 0
    for m in start_tag(p, name).finditer(text):
        if m.start() < pos:
            continue
        tag = m.group(0)
        if tag.endswith("/>"):
            pos = m.end()
        else:
            close = text.find(close_tag, m.end())
            if close < 0:
                raise NotAWorkbook(
                    "{where} is damaged (a <{tag}> is not closed).", where=where, tag=name
                )
            pos = close + len(close_tag)
        yield m.start(), pos, tag


def row_cells(row: Row, p: str, where: str) -> tuple[list[Cell], str]:
    """The cells of a row (each given its reference), and what follows them (extLst)."""
    inner = "" if row.start.endswith("/>") else row.markup[len(row.start) : -len(f"</{p}row>")]
    cells: list[Cell] = []
    pos = column = 0
    for start, end, tag in elements(inner, p, "c", where):
        ref = CELL_REF.fullmatch(attr(tag, "r") or "")
        column = column_number(ref.group(1)) if ref else column + 1
        markup = inner[start:end]
        if not ref:
            new_tag = set_attr(tag, "r", f"{column_letters(column)}{row.number}")
            markup, tag = new_tag + markup[len(tag) :], new_tag
        cells.append(Cell(column, markup, tag))
        pos = end
    return cells, inner[pos:].strip()


@functools.cache
def _plain_cell(p: str) -> re.Pattern[str]:
    """A cell holding a number or inline text, with at most a style (its column's, as
    `_new_row` writes it: the caller compares): (column, text, number)."""
    e = re.escape(p)
    return re.compile(
        rf'<{e}c r="([A-Z]{{1,3}})[0-9]{{1,7}}"(?: s="[0-9]+")?'
        rf'(?: t="inlineStr"><{e}is><{e}t>'
        rf"([^<]*)</{e}t></{e}is>|><{e}v>([^<]*)</{e}v>)</{e}c>"
    )


@functools.cache
def _cell_refs(p: str) -> re.Pattern[str]:
    return re.compile(
        rf"""<{re.escape(p)}c\s(?:[^>]*?\s)?r\s*=\s*["']([A-Za-z]{{1,3}})([0-9]{{1,7}})["']"""
    )


Around = tuple[str, str, str, str, tuple[int, int]]  # see `_around_rows`


def _around_rows(data: bytes) -> Around | None:
    """The sheet's prefix, the text before `<sheetData>`, its start tag ('' when there is
    none), the text after it, and where its rows are in `data` (their end -1 when it is not
    closed); None when the part is not UTF-8.

    Found in the bytes, where only the text around the rows is decoded (the rows are
    checked to be UTF-8 piece by piece): a season's Rounds sheet is a hundred MB, and
    decoded whole it is that again, or twice that while a late `½` widens it."""
    root = _ROOT.search(data)
    p = root.group(1).decode() if root is not None and root.group(1) else ""
    m = _sheet_data_start(p).search(data)
    try:
        head = data[: m.end()].decode("utf-8") if m is not None else ""
        same = (
            m is not None
            and root_prefix(head, "worksheet") == p
            and (head.find(f"<{p}sheetData") == len(head) - len(m.group(0).decode("utf-8")))
        )
        if m is None or not same:  # found otherwise in the text: it decides
            return _around_decoded(data.decode("utf-8"), data)
        tag = m.group(0).decode("utf-8")
        close = -1 if tag.endswith("/>") else data.find(f"</{p}sheetData>".encode(), m.end())
        end = m.end() if tag.endswith("/>") else close
        tail = (
            ""
            if end < 0
            else data[end + (0 if tag.endswith("/>") else len(f"</{p}sheetData>")) :].decode(
                "utf-8"
            )
        )
        decoder = codecs.getincrementaldecoder("utf-8")()
        rows = memoryview(data)[m.end() : max(end, m.end()) if end >= 0 else len(data)]
        for at in range(0, len(rows), 1 << 20):
            decoder.decode(rows[at : at + (1 << 20)])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return None
    return p, head[: len(head) - len(tag)], tag, tail, (m.end(), end)


def _around_decoded(text: str, data: bytes) -> Around:
    """`_around_rows` of a sheet whose text is decoded whole (an odd one)."""
    p = root_prefix(text, "worksheet")
    m = start_tag(p, "sheetData").search(text)
    if m is None:
        return p, "", "", "", (0, 0)
    start = len(text[: m.end()].encode("utf-8"))
    if m.group(0).endswith("/>"):
        return p, text[: m.start()], m.group(0), text[m.end() :], (start, start)
    close = text.find(f"</{p}sheetData>", m.end())
    if close < 0:
        return p, text[: m.start()], m.group(0), "", (start, -1)
    return (
        p,
        text[: m.start()],
        m.group(0),
        text[close + len(f"</{p}sheetData>") :],
        (start, data.find(f"</{p}sheetData>".encode(), start)),
    )


_ROOT = re.compile(rb"<([A-Za-z_][\w.-]*:)?worksheet[\s>/]")


@functools.cache
def _sheet_data_start(p: str) -> re.Pattern[bytes]:
    return re.compile(rb"<" + re.escape(p.encode()) + rb"sheetData" + TAG_REST.encode())


def _encoded(pieces: list[str | memoryview]) -> bytes:
    """The pieces of a part's text as UTF-8 (those of the part as it was, as they are),
    encoded one by one: a sheet of a million cells is tens of MB of text, twice that as
    one Python string once it holds a character past Latin-1 (the Crosstable's `—`), and
    joined whole it would be copied again and again."""
    return b"".join(
        [piece.encode("utf-8") if isinstance(piece, str) else piece for piece in pieces]
    )


def _markup(items: list[Row | str]) -> list[str]:
    return [item.markup if isinstance(item, Row) else item for item in items]


def _plain_row(start: str) -> bool:
    """A row with nothing worth keeping once its cells are gone: no format, height or hiding."""
    a = attributes(start)
    flags = ("customFormat", "customHeight", "hidden", "collapsed", "thickTop", "thickBot")
    return not any(a.get(k) in ("1", "true") for k in flags) and a.get("outlineLevel", "0") == "0"
