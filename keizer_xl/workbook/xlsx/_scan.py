"""Counting what a sheet holds as it is unpacked, keeping nothing of it, so that the limits
of what keizer_xl reads and edits are known before anything is allocated for them.

A reader that builds a sheet as a rectangle from A1 to its farthest value allocates for
every empty cell in between: one value typed at XFD1048576 asks for seventeen billion; one
long text of the shared-string table used by a million cells becomes a million copies; a
table declaring two billion texts makes calamine reserve room for them; a sheet the writer
takes apart row by row costs some hundred bytes a row. So a sheet is scanned piece by piece
(`scan_sheet`): which cells hold something and how far they reach, how much text they hold
(a shared text counted at every cell that uses it), whether the markup around the cells is
sound, which formulas have no saved value and which cells an error value (calamine reads
those as empty; `_findings` finds them), and whether it is mostly filler. A sheet past a
limit is refused, naming its first cell past it, and the rest of it is not even unpacked.
A sheet about to be edited is counted by `check_editable`; the shared-string table by
`_strings`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from xml.parsers import expat

from keizer_xl.workbook.xlsx._cellpatterns import (
    CellPatterns,
    beyond,
    cell_patterns,
    first_cell,
    nested_shared,
)
from keizer_xl.workbook.xlsx._cells import Row
from keizer_xl.workbook.xlsx._findings import ErrorCell as ErrorCell  # `Scan.errors`, read on
from keizer_xl.workbook.xlsx._findings import (
    damaged_shared,
    error_text,
    errors_in,
    formula_tag,
    saved,
    unsaved_in,
)
from keizer_xl.workbook.xlsx._sheet import elements, row_cells
from keizer_xl.workbook.xlsx._strings import StringTable
from keizer_xl.workbook.xlsx._xmltext import (
    NOT_XML,
    attr,
    column_letters,
    column_number,
    root_prefix,
    unfinished,
)
from keizer_xl.workbook.xlsx.errors import NotAWorkbook, Reason, SheetTooLarge, reason

MAX_ROWS = 100_000  # rows of a sheet, unless the reader asks for another limit
MAX_COLUMNS = 1_000
MAX_CELLS = 4_000_000  # the rectangles from A1 to the farthest values, all sheets together
MAX_TEXT = 128 << 20  # bytes of text in the cells read, a shared text counted at every use
_LONG_PIECE = 4 << 20  # bytes without a cell's end: the piece is cut after any tag
_LONG_ROW = 64 << 20  # bytes of one row, past which a row-by-row scan refuses the sheet
_LOOSE, _PER_TAG = 64 << 20, 512  # a sheet's bytes: see `_Markup`
_LAST_CELLS = 16  # cells looked at from a piece's end for the farthest (see `_in_order`)
_SMALL = 64 << 10  # bytes of a piece whose cells are all read: quicker than `_in_order`'s pattern


class Scan:
    """What a sheet's XML says before it is read: its farthest cells that hold something,
    as (row, column), its formulas without a saved value and cells holding an error value
    (`#N/A`, which calamine reads as empty), the bytes of text its cells hold, and (sheet,
    cell, why) for each limit it passes; whether it holds a formula at all."""

    def __init__(self) -> None:
        self.bottom, self.right = (0, 0), (0, 0)  # a cell in the last row, and column
        self.unsaved: list[tuple[int, int]] = []
        self.errors: list[ErrorCell] = []
        self.text, self.formulas = 0, False
        self.far: list[tuple[str, str, Reason]] = []

    @property
    def cells(self) -> int:
        """The rectangle from A1 to the farthest values: what a reader allocates."""
        return self.bottom[0] * self.right[1]


def _ref(cell: tuple[int, int]) -> str:
    return f"{column_letters(cell[1])}{cell[0]}" if cell[0] and cell[1] else "A1"


# -- scanning a sheet ------------------------------------------------------------------------


class _Outside:
    """The markup around the cells, parsed as it streams by (the cells themselves are
    calamine's to parse): the sheet as the writer checks it, with `<sheetData/>` empty."""

    def __init__(self, p: str, patterns: CellPatterns):
        self.p, self.patterns = p, patterns
        self.parser = expat.ParserCreate(namespace_separator="}")
        self.parser.StartDoctypeDeclHandler = self._refuse_dtd
        self.state = "head"
        self.sound = True

    @staticmethod
    def _refuse_dtd(*_: object) -> None:
        raise expat.ExpatError("DTD")

    def feed(self, piece: bytes) -> None:
        if self.state == "head":
            found = self.patterns.sheet_data.search(piece)
            if found is None:
                self._parse(piece)
                return
            self._parse(piece[: found.start()] + f"<{self.p}sheetData/>".encode())
            self.state = "tail" if found.group(0).endswith(b"/>") else "body"
            piece = piece[found.end() :]
        if self.state == "body":
            end = piece.find(self.patterns.data_end)
            if end < 0:
                return
            self.state = "tail"
            piece = piece[end + len(self.patterns.data_end) :]
        self._parse(piece)

    def _parse(self, data: bytes, last: bool = False) -> None:
        if self.sound:
            try:
                self.parser.Parse(data, last)
            except NOT_XML:
                self.sound = False

    def problem(self, file: str, sheet: str, where: str) -> NotAWorkbook | None:
        """Why the sheet cannot be read, once it has all been fed; None if it can."""
        if self.state == "head":
            return NotAWorkbook("{where} is damaged (it has no cell data).", where=where)
        if self.state == "body":
            return NotAWorkbook("{where} is damaged (its cell data is not closed).", where=where)
        self._parse(b"", last=True)
        if not self.sound:
            return NotAWorkbook(
                "{file}: the sheet '{sheet}' is damaged (its markup is broken).",
                file=file,
                sheet=sheet,
            )
        return None


class Budget:
    """What the sheets read may still hold, shared by all of them: cells (the rectangles
    from A1) and bytes of text."""

    def __init__(self, cells: int = MAX_CELLS, text: int = MAX_TEXT):
        self.cells, self.text = cells, text


class _Markup:
    """A sheet's bytes against its tags, counted as they are unpacked: past `_LOOSE` bytes,
    a sheet of more than `_PER_TAG` bytes a tag on average (text its cells hold, counted
    against `MAX_TEXT`, aside) is mostly filler, which would cost its size several times
    over when it is edited."""

    def __init__(self, where: str):
        self.where = where
        self.size = self.tags = 0

    def count(self, data: bytes) -> None:
        self.size += len(data)
        self.tags += data.count(b">")

    def check(self, text: int = 0) -> None:
        if self.size - text > _LOOSE + _PER_TAG * self.tags:
            raise NotAWorkbook(
                "{where} is damaged or hostile: more than {most} MB of it is not cells.",
                where=self.where,
                most=_LOOSE >> 20,
            )


class _SheetScan:
    """One sheet scanned as it is unpacked: `feed` each piece, then `finish`.

    Pieces are cut after the end of a cell or a row, so that no cell is split. Most sheets
    write every cell as `<c r="B7" ...>`: their cells are found by a few patterns run in C
    over each piece. A sheet with a cell written otherwise (no reference, or the reference
    not first) is scanned again from the start, taken apart row by row (`closely`)."""

    def __init__(
        self,
        sheet: str,
        file: str,
        rows: int,
        budget: Budget,
        strings: StringTable | None,
        closely: bool = False,
        size: int | None = None,
    ):
        self.sheet, self.file, self.most_rows = sheet, file, rows
        self.size = size or 0  # the sheet's bytes (unpacked), as its package says
        # bytes passed by without counting their own text (None: each piece's is counted)
        self.passed: int | None = 0 if size is not None else None
        self.where = f"{file}: sheet {sheet!r}"
        self.budget, self.strings, self.closely = budget, strings, closely
        self.result = Scan()
        self.rest = b""
        self.p = ""
        self.patterns: CellPatterns | None = None
        self.outside: _Outside | None = None
        self.markup = _Markup(self.where)
        self.where_bottom: bytes | None = None  # the piece with the farthest row
        self.where_right: bytes | None = None  # ... and the farthest column
        self.row = 0  # the row being read (`closely`)
        self.odd = False  # a cell written otherwise: to be scanned `closely`
        self.done = False  # a limit is passed: the rest need not be read

    def feed(self, data: bytes) -> None:
        if self.patterns is None:
            self.p = root_prefix(data[:4096].decode("utf-8", "replace"), "worksheet")
            self.patterns = cell_patterns(self.p)
            self.outside = _Outside(self.p, self.patterns)
        self.markup.count(data)
        buf = self.rest + data if self.rest else data
        cut = self._cut(buf)
        self.rest = buf[cut:]
        if cut:
            self._piece(buf[:cut])
        elif len(buf) >= _LONG_PIECE and not self.closely:  # no tag at all: not kept
            self.rest = unfinished(buf, 0)
            passed = buf[: len(buf) - len(self.rest)]
            self.result.formulas = self.result.formulas or bool(formula_tag(self.p).search(passed))
            if not passed.isspace():  # a cell's text, perhaps
                self._count_text(len(passed))
            self.markup.check(self.result.text)

    def _cut(self, buf: bytes) -> int:
        """Where the piece ends: after its last row (`closely`), else its last cell or
        row; 0 to wait for more."""
        assert self.patterns is not None
        ends = (
            [self.patterns.row_end]
            if self.closely
            else [self.patterns.cell_end, self.patterns.row_end]
        )
        cut = max((at + len(end) for end in ends if (at := buf.rfind(end)) >= 0), default=0)
        if cut or len(buf) < _LONG_PIECE:
            return cut
        if self.closely:
            if len(buf) > _LONG_ROW:
                raise NotAWorkbook(
                    "{where} is damaged or hostile: one of its rows is more than {most} MB.",
                    where=self.where,
                    most=_LONG_ROW >> 20,
                )
            return 0
        return buf.rfind(b">") + 1  # a long stretch without cells: cut after any tag

    def finish(self) -> Scan:
        if self.rest and not self.done:
            self._piece(self.rest)
        self._settle()
        if self.outside is None:  # an empty part
            raise NotAWorkbook("{where} is damaged (it has no cell data).", where=self.where)
        if not self.done:
            problem = self.outside.problem(self.file, self.sheet, self.where)
            if problem is not None:
                raise problem
        return self.result

    def _piece(self, piece: bytes) -> None:
        assert self.outside is not None and self.patterns is not None
        self.outside.feed(piece)
        formula = formula_tag(self.p).search(piece)
        self.result.formulas = self.result.formulas or formula is not None
        if self.closely:
            self._rows(piece)
        elif self.patterns.odd.search(piece):
            self.odd = self.done = True
        else:
            self._cells(piece, formula.start() if formula is not None else -1)
            if not self.done:
                self._text(piece)
        if not self.done:
            self.markup.check(self.result.text)

    # -- most sheets: patterns over the piece ---------------------------------------------

    def _cells(self, piece: bytes, formula: int) -> None:
        """Count the piece's cells; `formula`: where its first formula begins (-1: none)."""
        patterns, result = self.patterns, self.result
        assert patterns is not None
        reach = (self._in_order(piece) if len(piece) > _SMALL else None) or self._reach(piece)
        if reach:
            last, widest = reach
            bottom, right = result.bottom, result.right
            if last > bottom[0]:  # its column is found at the end (`_settle`)
                bottom = (last, 0)
            if widest > right[1]:
                right = (0, widest)
            if self._within(bottom, right):
                if bottom != result.bottom:
                    self.where_bottom = piece
                if right != result.right:
                    self.where_right = piece
                result.bottom, result.right = bottom, right
            else:  # find the first cell past a limit, in the order of the sheet
                self._settle()
                for letters, number in patterns.cells.findall(piece):
                    if not self._take((int(number), column_number(letters.decode()))):
                        return
        if formula >= 0:
            result.unsaved += unsaved_in(piece, self.p, formula)
        result.errors += errors_in(piece, self.p)

    def _reach(self, piece: bytes) -> tuple[int, int] | None:
        """The farthest row and column of the piece's cells holding something, from all of
        them; None if none does."""
        assert self.patterns is not None
        found = self.patterns.cells.findall(piece)
        if not found:
            return None
        letters, rows = zip(*found, strict=True)  # one pass in C, then taken apart
        widest = max(set(letters), key=lambda c: (len(c), c))
        return max(map(int, rows)), column_number(widest.decode())

    def _in_order(self, piece: bytes) -> tuple[int, int] | None:
        """`_reach` for a piece whose cells come in order, as in sane sheets, told by a
        search or two in C: its last cell holding something is in its farthest row, and no
        cell lies past that row, or past the columns of its last few cells and of the
        pieces before (the farthest column is then among them: `_cells` keeps the farther).
        None when that does not hold or cannot be told so cheaply: `_reach` reads them all."""
        assert self.patterns is not None
        start, at = self.patterns.start, len(piece)
        last, right = None, self.result.right[1]
        for _ in range(_LAST_CELLS):
            at = piece.rfind(start, 0, at)
            found = self.patterns.cells.match(piece, at) if at >= 0 else None
            if found is None:
                if at < 0:
                    break
                continue
            # one of the cells the patterns find, not a look-alike inside another's tag
            if piece.find(start, piece.rfind(b">", 0, at) + 1, at) >= 0:
                return None
            last = int(found.group(2)) if last is None else last
            right = max(right, column_number(found.group(1).decode()))
        if last is None or beyond(self.p, last, right).search(piece):
            return None
        return last, right

    def _settle(self) -> None:
        """The farthest cells found in the pieces that held them (kept until now): the first
        cell holding something in the last row, and in the last column."""
        result = self.result
        if self.where_bottom is not None:
            cell = first_cell(self.where_bottom, self.p, row=result.bottom[0])
            assert cell is not None
            result.bottom = cell
        if self.where_right is not None:
            cell = first_cell(self.where_right, self.p, letters=column_letters(result.right[1]))
            assert cell is not None
            result.right = cell
        self.where_bottom = self.where_right = None

    def _within(self, bottom: tuple[int, int], right: tuple[int, int]) -> bool:
        return (
            bottom[0] <= self.most_rows
            and right[1] <= MAX_COLUMNS
            and bottom[0] * right[1] <= self.budget.cells
        )

    def _take(self, here: tuple[int, int]) -> bool:
        """Count a cell holding something; False (and the sheet done) once it is past a
        limit, which is then named with it."""
        result = self.result
        bottom = here if here[0] > result.bottom[0] else result.bottom
        right = here if here[1] > result.right[1] else result.right
        if self._within(bottom, right):
            result.bottom, result.right = bottom, right
            return True
        ref = _ref(here)
        rows, columns = bottom[0], right[1]
        if here[0] > self.most_rows:
            result.far.append(
                (
                    self.sheet,
                    ref,
                    reason(
                        "row {row}, past {most} rows",
                        row=f"{here[0]:,}",
                        most=f"{self.most_rows:,}",
                    ),
                )
            )
        if here[1] > MAX_COLUMNS:
            result.far.append(
                (
                    self.sheet,
                    ref,
                    reason(
                        "column {column}, past {most} columns",
                        column=column_letters(here[1]),
                        most=f"{MAX_COLUMNS:,}",
                    ),
                )
            )
        if not result.far and rows * columns > MAX_CELLS:
            result.far.append(
                (
                    self.sheet,
                    ref,
                    reason(
                        "{area} is {cells} cells, past {most}",
                        area=f"A1:{column_letters(columns)}{rows}",
                        cells=f"{rows * columns:,}",
                        most=f"{MAX_CELLS:,}",
                    ),
                )
            )
        elif not result.far:
            result.far.append(
                (
                    self.sheet,
                    ref,
                    reason(
                        "the sheets read hold {cells} cells from A1 together, past {most}",
                        cells=f"{MAX_CELLS - self.budget.cells + rows * columns:,}",
                        most=f"{MAX_CELLS:,}",
                    ),
                )
            )
        self.done = True
        return False

    def _text(self, piece: bytes) -> None:
        """Count the text the piece's cells hold: a shared text at every cell that uses it
        (one whose index cannot be read as the longest), a cell's own text as its markup."""
        patterns, strings = self.patterns, self.strings
        assert patterns is not None
        text = 0
        span = _shared_span(piece) if strings is not None and strings.lengths else None
        if strings is not None and span is not None:
            shared, cells = self._shared(piece, span)
            text += strings.text(shared) + strings.longest * (cells - len(shared))
            if cells > len(shared) or strings.beyond:  # an index not read, or past the end
                self._damaged(piece, len(strings.lengths))
        if b"is>" in piece and self._inline_counts(len(piece)):
            text += sum(map(len, patterns.inline.findall(piece)))
        self._count_text(text)

    def _shared(self, piece: bytes, span: tuple[int, int]) -> tuple[list[bytes], int]:
        """The indexes of the shared texts that cells in this span of the piece hold, and how
        many cells of the shared-text type it has, as `shared` and `any_shared` find them:
        in one pass where no cell's start tag holds a `<` (then no cell the one finds lies
        inside another found by the other)."""
        patterns = self.patterns
        assert patterns is not None
        if patterns.nested.search(piece, *span):
            shared, any_shared = nested_shared(self.p)
            return shared.findall(piece, *span), len(any_shared.findall(piece, *span))
        each = patterns.each_shared.findall(piece, *span)
        return list(filter(None, each)), len(each)

    def _inline_counts(self, piece: int) -> bool:
        """Must the cells' own text in this piece be counted? Not while all the sheet's
        bytes (`size`, a bound of its own text) fit in what is left of the budget: then the
        pieces passed by are counted by their size, should counting start later."""
        if self.passed is None:
            return True
        if self.result.text + self.size <= self.budget.text:
            self.passed += piece
            return False
        self._count_text(self.passed)
        self.passed = None
        return True

    def _count_text(self, text: int) -> None:
        self.result.text += text
        if self.result.text > self.budget.text:
            self._settle()
            self.result.far.append(
                (
                    self.sheet,
                    _ref(self.result.bottom),
                    reason(
                        "the cells read up to here hold more than {most} MB of text (a text of the "
                        "shared table counted at every cell that uses it)",
                        most=f"{MAX_TEXT >> 20:,}",
                    ),
                )
            )
            self.done = True

    # -- cells written otherwise: row by row ----------------------------------------------

    def _rows(self, piece: bytes) -> None:
        p, where = self.p, self.where
        text = piece.decode("utf-8", "replace")
        for start, end, tag in elements(text, p, "row", where):
            r = attr(tag, "r")
            self.row = int(r) if r and r.isdigit() else self.row + 1
            cells, _ = row_cells(Row(self.row, text[start:end], tag), p, where)
            for cell in cells:
                if cell.start.endswith("/>"):
                    continue
                here = (self.row, cell.column)
                if not self._take(here):
                    return
                markup = cell.markup
                if attr(cell.start, "t") == "e":
                    self.result.errors.append((*here, error_text(markup, p)))
                if (
                    f"<{p}f" in markup
                    and re.search(rf"<{re.escape(p)}f[\s>/]", markup)
                    and not saved(markup, cell.start, p)
                ):
                    self.result.unsaved.append(here)
                self._count_text(self._cell_text(cell.start, markup))
                if self.done:
                    return

    def _damaged(self, piece: bytes, count: int) -> None:
        """Refuse a cell whose shared-text index is not a whole number in the table's range:
        a reader would show the first text there (or another cell's), without a word."""
        found = damaged_shared(piece, self.p, count)
        if found is not None:
            raise NotAWorkbook(
                "{where}, cell {cell}: the number of its text in the table "
                "of texts, '{index}', is damaged (it must be a whole number "
                "below {count}). Type the cell again in Excel or LibreOffice "
                "and save.",
                where=self.where,
                cell=found[0],
                index=found[1],
                count=f"{count:,}",
            )

    def _cell_text(self, start: str, markup: str) -> int:
        if attr(start, "t") == "s" and self.strings is not None:
            self._damaged(f"{start}{markup}".encode(), len(self.strings.lengths))
            v = re.search(rf"<{re.escape(self.p)}v>\s*([0-9]{{1,10}})\s*<", markup)
            return self.strings.text([v.group(1).encode()]) if v else self.strings.longest
        return len(markup) if f"<{self.p}is" in markup else 0


_SHARED_TYPE = (b'"s"', b"'s'")  # how a cell of the shared-text type says so
_ODD_SHARED_TYPE = (b"\"s'", b"'s\"")  # ... and quotes the patterns take too


def _shared_span(piece: bytes) -> tuple[int, int] | None:
    """Where in the piece the cells of the shared-text type are (the patterns find the same
    ones there as in all of it): from the last tag's end before the first `"s"` (or `'s'`)
    to the end of the value after the last, so that a few such cells, as at the top of a
    sheet of inline texts, cost no pass over the rest; None if there are none."""
    # without a `'` in the piece (most: a search for one byte), `"s"` is all there can be
    kinds, odd = (_SHARED_TYPE, _ODD_SHARED_TYPE) if b"'" in piece else (_SHARED_TYPE[:1], ())
    found = [at for quoted in kinds if (at := piece.find(quoted)) >= 0]
    if not found:
        return None
    first = min(found)
    last = max(piece.rfind(quoted) for quoted in kinds)
    for quoted in odd:
        if (at := piece.find(quoted, 0, first + 2)) >= 0:
            first = at
        last = max(last, piece.rfind(quoted, last + 1))
    # a match ends at one of these, its start tag's rest, `<v>`, the index and `</`
    close = piece.find(b">", last + 3)
    value = piece.find(b"<", close) if close >= 0 else -1
    end = piece.find(b"</", value + 1) if value >= 0 else -1
    return piece.rfind(b">", 0, first) + 1, end + 2 if end >= 0 else len(piece)


def scan_sheet(
    pieces: Callable[[], Iterable[bytes]],
    sheet: str,
    file: str,
    rows: int = MAX_ROWS,
    budget: Budget | None = None,
    strings: StringTable | None = None,
    size: int | None = None,
) -> Scan:
    """Scan the sheet `sheet` of the workbook `file` as `pieces()` unpacks it (called again
    if it must be read closely), `size` bytes at most where that is known; stops at the
    first limit it passes (see `Scan.far`). NotAWorkbook for a damaged one."""
    budget = budget or Budget()
    scanner = _SheetScan(sheet, file, rows, budget, strings, size=size)
    for piece in pieces():
        scanner.feed(piece)
        if scanner.done:
            break
    if scanner.odd:
        scanner = _SheetScan(sheet, file, rows, budget, strings, closely=True, size=size)
        for piece in pieces():
            scanner.feed(piece)
            if scanner.done:
                break
    found = scanner.finish()
    if not found.far:  # a sheet refused is not read: what it holds costs nothing
        budget.cells -= found.cells
        budget.text -= found.text + (scanner.passed or 0)  # own texts passed by: by size
    return found


@functools.cache
def _row_start(p: str) -> re.Pattern[bytes]:
    return re.compile(rb"<" + re.escape(p.encode()) + rb"row(?=[\s>/])[^>]*>")


def check_editable(
    pieces: Callable[[], Iterable[bytes]], sheet: str, file: str, rows: int = MAX_ROWS
) -> None:
    """Before the writer takes a sheet apart row by row (at some hundred bytes a row),
    count its rows as it is unpacked: SheetTooLarge at the first row past `rows`, however
    far the rows reach (the writer's cost is the rows there are, not where they are);
    NotAWorkbook for a sheet that is mostly filler."""
    where = f"{file}: sheet {sheet!r}"
    markup = _Markup(where)
    starts: re.Pattern[bytes] | None = None
    count = 0
    rest = b""
    for data in pieces():
        if starts is None:
            starts = _row_start(root_prefix(data[:4096].decode("utf-8", "replace"), "worksheet"))
        markup.count(data)
        markup.check()
        buf = rest + data
        cut = buf.rfind(b">") + 1  # a start tag is never cut in two
        found = starts.findall(buf, 0, cut)
        rest = unfinished(buf, cut)
        if count + len(found) > rows:
            r = attr(found[rows - count].decode("utf-8", "replace"), "r") or ""
            number = int(r) if r.isdigit() else rows + 1
            raise SheetTooLarge(
                [
                    (
                        sheet,
                        f"{number}:{number}",
                        reason("row {row}, past {most} rows", row=f"{number:,}", most=f"{rows:,}"),
                    )
                ],
                "keizer_xl reads at most {rows} rows, {columns} columns and {cells} cells of "
                "a sheet. Clear what is there (and any formatting) and try again.",
                rows=f"{rows:,}",
                columns=f"{MAX_COLUMNS:,}",
                cells=f"{MAX_CELLS:,}",
            )
        count += len(found)


def scan(data: bytes, sheet: str, rows: int = MAX_ROWS) -> Scan:
    """`scan_sheet` of a sheet's whole XML."""
    return scan_sheet(lambda: [data], sheet, "?", rows, size=len(data))
