"""The workbook's buttons in a running Excel, through xlwings.

"Pair next round" and "Recalculate" do the same work as the command line (`sheets.plan_pair`,
`sheets.plan_recalc`), on values read from and written to the open workbook instead of the
file. Every click starts a fresh Python, so the heavy imports wait inside the functions;
and every call into Excel is a round trip between processes, so there is one read per
contract sheet and one write per block of cells. Whatever goes wrong ends in a message box
in plain words, never a Python traceback, and nothing is written unless the whole
computation succeeded. The work itself (`pair_in`, `recalc_in`, `unpair_in`) is shared with
the buttons of xlwings Lite (`keizer_xl.lite`), which say what came of it in their own way.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from keizer_xl.core.errors import KeizerXLError
from keizer_xl.core.messages import msg
from keizer_xl.i18n import say, translate
from keizer_xl.i18n.names import local_name

if TYPE_CHECKING:
    from keizer_xl.workbook.cells import Cell, CellValue, SheetCells
    from keizer_xl.workbook.layout import Grid

MAX_LINES = 20  # problems listed in one message box; a taller box runs off the screen

Block = tuple[tuple[int, int], list[list[Any]]]  # top-left cell (1-based), rows of values


def pair_next_round(book: Any = None) -> None:
    """The "Pair next round" button: pair, append the round, rewrite the Standings."""
    _run(book, _pair, "Pair next round")


def recalculate(book: Any = None) -> None:
    """The "Recalculate" button: rewrite the Standings after the last completed round."""
    _run(book, _recalc, "Recalculate")


def undo_last_pairing(book: Any = None) -> None:
    """The "Undo last pairing" button: take back the last round while it has no results."""
    _run(book, _unpair, "Undo last pairing")


def publish_site(book: Any = None) -> None:
    """The "Publish" button: the site beside the workbook, in `<name>_site`."""
    _run(book, _publish, "Publish")


class _WriteFailed(KeizerXLError):
    """Excel (or LibreOffice: the cause's `program`) refused a write; the secretary must
    know whether earlier ones went through."""


def _run(book: Any, work: Callable[[Any, str], None], button: str) -> None:
    if book is None:  # a click in Excel: xlwings knows the workbook (imported only then)
        import xlwings

        try:
            book = xlwings.Book.caller()
        except Exception as exc:  # no Excel behind us: there is no message box to show
            raise RuntimeError(
                f"{button}: this is run by the workbook's button in Excel; from Python, "
                "pass the workbook, e.g. `keizer_xl.recalculate(xlwings.Book('club.xlsm'))`"
            ) from exc
    language = book_language(book)
    try:
        with _one_writer(book):
            work(book, language)
    except Exception as exc:  # every failure becomes a message box, never a traceback
        _alert(book, failure_message(exc, button, language), button, language)


def book_language(book: Any) -> str:
    """The language to speak: the workbook's (told by its sheet names), unless the
    environment asks for another (see `i18n.choose`)."""
    from keizer_xl.i18n import choose
    from keizer_xl.workbook.layout import language_of

    try:
        return choose(None, language_of({sheet.name: [] for sheet in book.sheets}))
    except Exception:  # a book that cannot list its sheets will say so in the work
        return choose(None)


@contextlib.contextmanager
def _one_writer(book: Any) -> Iterator[None]:
    """While a button works on a workbook saved on this computer, `keizer-xl` waits (and
    the other way round): both hold the workbook's writer lock."""
    from pathlib import Path

    from keizer_xl.workbook.files import FileProblem, xlsx_message
    from keizer_xl.workbook.xlsx import XlsxError, one_writer

    try:
        path = Path(str(book.fullname))
        saved = path.is_absolute() and path.is_file()
    except Exception:  # a book never saved, or an engine that cannot tell
        saved = False
    with contextlib.ExitStack() as held:
        if saved:
            try:
                held.enter_context(one_writer(path))
            except XlsxError as exc:
                raise FileProblem(xlsx_message(exc)) from None
        yield


def _pair(book: Any, language: str) -> None:
    written = pair_in(book)
    _show(book, written.shown)
    if written.notes:
        _note(
            book,
            "\n\n".join(
                [
                    translate("Round {round} is paired. Please note:", language).format(
                        round=written.round
                    ),
                    *(say(note, language) for note in written.notes),
                ]
            ),
            "Pair next round",
            language,
        )


def _unpair(book: Any, language: str) -> None:
    written = unpair_in(book)
    _show(book, written.shown)
    _note(book, taken_back(written.round, language), "Undo last pairing", language)


def taken_back(round_no: int, language: str) -> str:
    """What Undo last pairing says it did."""
    return translate(
        "Round {round} is taken back: its rows are gone from the Rounds sheet "
        "and the Standings are as before it was paired.",
        language,
    ).format(round=round_no)


def _publish(book: Any, language: str) -> None:
    """Write the web pages of the standings after the last completed round; the workbook
    is only read (a saved workbook is needed: the pages go beside it)."""
    from pathlib import Path

    from keizer_xl.publish.book import competition_report, default_folder
    from keizer_xl.publish.site import build_site, write_site
    from keizer_xl.workbook.layout import read_book
    from keizer_xl.workbook.plans import refuse_gameless

    try:
        path = Path(str(book.fullname))
        saved = path.is_absolute() and path.parent.is_dir()
    except Exception:  # a book never saved, or an engine that cannot tell
        saved = False
    if not saved:
        raise _NotSaved(
            msg(
                "Save the workbook first: the web pages are written in a folder "
                "beside it, named after it."
            )
        )
    competition, layout = read_book(read_grids(book))  # BookError names the cells
    refuse_gameless(competition, layout)
    report, titles = competition_report(competition, language)
    folder = default_folder(path)
    pages = build_site(report, titles)
    write_site(pages, folder)
    _note(
        book,
        translate(
            "The web pages are written to the folder {folder}. Open index.html "
            "there to look at them, or copy the whole folder to the club's "
            "website.",
            language,
        ).format(folder=folder),
        "Publish",
        language,
    )


class _NotSaved(KeizerXLError):
    """The Publish button needs to know where the workbook is."""


def _recalc(book: Any, language: str) -> None:
    written = recalc_in(book)
    _show(book, written.shown)
    if written.notes:
        _note(
            book,
            "\n\n".join(say(note, language) for note in written.notes),
            "Recalculate",
            language,
        )


# -- the work, shared with the buttons of xlwings Lite (`keizer_xl.lite`) ------------------


@dataclass(frozen=True)
class Written:
    """What a button wrote into the open workbook: the edit to bring into view (the new
    round's rows, the Standings), the round it is about, and what there is to know about
    it (messages, to say in the workbook's language)."""

    shown: SheetCells
    round: int
    notes: list[Any]


def pair_in(book: Any) -> Written:
    """Pair next round in the open workbook: read, plan (`plans.plan_pair`), write."""
    from keizer_xl.workbook.layout import board_notes
    from keizer_xl.workbook.plans import plan_pair

    grids = read_grids(book)
    next_round, edits = plan_pair(grids)
    write(book, edits)
    notes = [
        *([next_round.standings.note] if next_round.standings.note else []),
        *next_round.notes,
        *_warnings(next_round.standings),
        *board_notes(grids),
    ]
    return Written(next(e for e in edits if e.table == "Rounds"), next_round.round, notes)


def recalc_in(book: Any) -> Written:
    """Recalculate in the open workbook: read, plan (`plans.plan_recalc`), write."""
    from keizer_xl.workbook.layout import board_notes
    from keizer_xl.workbook.plans import plan_recalc

    grids = read_grids(book)
    standings, edits = plan_recalc(grids)
    write(book, edits)
    notes = [
        *([standings.note] if standings.note else []),
        *_warnings(standings),
        *board_notes(grids),
    ]
    return Written(edits[0], standings.after_round, notes)


def unpair_in(book: Any) -> Written:
    """Undo last pairing in the open workbook: read, plan (`plans.plan_unpair`), write."""
    from keizer_xl.workbook.plans import plan_unpair

    unpaired, edits = plan_unpair(read_grids(book))
    write(book, edits)
    return Written(edits[-1], unpaired.round, [])


def _warnings(standings: Any) -> list[str]:
    """Things allowed but probably not meant: said after the work, which is done."""
    return [msg("Warning: {caution}", caution=line) for line in standings.cautions]


# -- reading --------------------------------------------------------------------------------


def read_grids(book: Any) -> dict[str, Grid]:
    """The values of the contract's sheets, row 0 = sheet row 1 and column 0 = column A.

    Other sheets are listed by name only (the reader's messages name them) and not read.
    """
    from keizer_xl.i18n.names import sheet_names
    from keizer_xl.workbook.layout import SHEETS

    wanted = {name for sheet in SHEETS for name in sheet_names(sheet)}
    grids: dict[str, Grid] = {}
    for sheet in book.sheets:
        name = sheet.name
        grids[name] = _grid(sheet) if " ".join(name.split()).casefold() in wanted else []
    return grids


def _grid(sheet: Any) -> list[list[object]]:
    """The sheet's values from A1 to the end of its used range; a used range past the
    limits (one value typed far away) is refused before Excel is asked for its values."""
    from keizer_xl.core.words import ERROR_VALUES, CellError
    from keizer_xl.workbook.files import FileProblem, most_rows
    from keizer_xl.workbook.xlsx import MAX_CELLS, MAX_COLUMNS, column_letters

    used = sheet.used_range
    address = used.address.split("!")[-1]
    top, left = _top_left(address)
    bottom, right = _top_left(address.split(":")[-1])
    rows = most_rows(sheet.name)
    if bottom > rows or right > MAX_COLUMNS or bottom * right > MAX_CELLS:
        raise FileProblem(
            msg(
                "{sheet}!{cell}: the sheet's used range reaches this cell; keizer_xl reads at most "
                "{rows} rows, {columns} columns and {cells} cells of a sheet. Clear what is there "
                "(and any formatting) and try again.",
                sheet=sheet.name,
                cell=f"{column_letters(right)}{bottom}",
                rows=f"{rows:,}",
                columns=f"{MAX_COLUMNS:,}",
                cells=f"{MAX_CELLS:,}",
            )
        )
    values = _values(used)
    grid: list[list[object]] = [[] for _ in range(top - 1)]
    pad: list[object] = [None] * (left - 1)
    grid.extend(
        [*pad, *(CellError(v) if type(v) is str and v in ERROR_VALUES else v for v in row)]
        for row in values
    )
    _no_collections(grid, sheet.name)
    return grid


def _values(used: Any) -> list[list[object]]:
    """The range's values, error values (#N/A) as the words Excel shows, not as blanks: the
    checks name them. In xlwings Lite (the remote engine) they come from the add-in's JSON,
    from which xlwings' reading only makes "" into None and a date's ISO text into a
    datetime, one cell at a time through its converters: a sixth of a click. Where no text
    could be a date, that is done here in one go; otherwise xlwings reads them."""
    if used.sheet.book.app.engine.name == "remote":
        raw = used.raw_value
        if all(isinstance(row, (list, tuple)) for row in raw) and not any(
            type(v) is str and (v[:1].isdigit() or v[:1] == "-") and "T" in v
            for row in raw
            for v in row
        ):
            return [[None if v == "" else v for v in row] for row in raw]
    values: list[list[object]] = used.options(ndim=2, err_to_str=True).value
    return values


def _no_collections(grid: list[list[object]], sheet: str) -> None:
    """Refuse a cell whose value came as a list or a record (an xlwings client may send
    what Excel holds for a linked data type or an array as one): named by its cell, as
    any other value keizer_xl cannot read, not failing deep inside the checks."""
    from keizer_xl.workbook.files import FileProblem
    from keizer_xl.workbook.xlsx import column_letters

    for r, row in enumerate(grid, start=1):
        for c, value in enumerate(row, start=1):
            if isinstance(value, list | tuple | dict | set):
                raise FileProblem(
                    msg(
                        "{sheet}!{cell}: this cell holds a list or a record, not a value "
                        "keizer_xl can read; type a number or a word in it",
                        sheet=sheet,
                        cell=f"{column_letters(c)}{r}",
                    )
                )


_ADDRESS = re.compile(r"\$?([A-Za-z]+)\$?(\d+)")


def _top_left(address: str) -> tuple[int, int]:
    """'$C$5:$H$40' -> (5, 3): the used range need not start at A1."""
    match = _ADDRESS.match(address.split("!")[-1])
    if match is None:  # pragma: no cover - Excel always gives a cell address here
        return 1, 1
    from keizer_xl.workbook.xlsx import column_number

    letters, row = match.groups()
    return int(row), column_number(letters)


# -- writing --------------------------------------------------------------------------------


def write(book: Any, edits: list[SheetCells]) -> None:
    """Write the planned cells, in their order, each block of cells in one go."""
    changed = False
    for edit in edits:
        try:
            if edit.create and edit.sheet.casefold() not in {
                s.name.casefold() for s in book.sheets
            }:  # made by version 0.1
                book.sheets.add(edit.sheet, after=book.sheets[len(book.sheets) - 1])
            sheet = book.sheets[edit.sheet]
            if edit.clear:
                sheet.clear_contents()
                changed = True
            for (row, column), values in blocks(edit.cells, fill_gaps=edit.clear):
                _set_values(sheet, row, column, values)
                changed = True
        except Exception as exc:
            raise _WriteFailed(edit.sheet, changed, exc) from exc


_PLAIN = (str, int, float)  # what a cell holds that every engine writes as it is


def _set_values(sheet: Any, row: int, column: int, values: list[list[Any]]) -> None:
    """`range.value = values` for the block whose top left is (row, column), the same
    write. In xlwings Lite (the remote engine) the values go straight into the action:
    xlwings' conversion pipeline, which checks every cell and recomputes the range from the
    whole sheet's values, took half of a click there. Each value is what that pipeline would
    send: None as "", anything but plain text and numbers through xlwings' own cleaning."""
    if sheet.book.app.engine.name != "remote":
        sheet.range((row, column)).value = values
        return
    clean = sheet.book.app.engine.impl.prepare_xl_data_element
    rows = [
        [v if type(v) in _PLAIN and v == v else "" if v is None else clean(v, {}) for v in line]
        for line in values
    ]
    bottom, right = row + len(rows) - 1, column + len(rows[0]) - 1
    sheet.range((row, column), (bottom, right)).raw_value = rows


def blocks(cells: Mapping[Cell, CellValue], fill_gaps: bool = False) -> list[Block]:
    """The cells as rectangles, each written in one go, that cover no other column.

    A rectangle spans runs of adjacent columns that have written cells and, within them,
    runs of adjacent rows; a cell inside it that is not written is emptied (the new round's
    Board of a bye, its Black and Result of a game). A column nothing is written in is never
    touched, so a club's own columns between ours keep their contents and formulas. With
    `fill_gaps` (a sheet just cleared) one rectangle covers everything.
    """
    if not cells:
        return []
    rows_of: dict[int, set[int]] = {}  # column -> the rows written in it
    for r, c in cells:
        rows_of.setdefault(c, set()).add(r)
    if fill_gaps:
        rows = set[int]().union(*rows_of.values())
        rectangles = [(min(rows), min(rows_of), max(rows), max(rows_of))]
    else:
        rectangles = []
        for cols in _runs(set(rows_of)):
            for run in _runs(set[int]().union(*(rows_of[c] for c in cols))):
                rectangles.append((run[0], cols[0], run[-1], cols[-1]))
    from keizer_xl.workbook.cells import SheetRows

    if isinstance(cells, SheetRows):  # its rows are lists already: a slice of each

        def line(r: int, left: int, right: int) -> list[Any]:
            part = cells.rows.get(r, [])[left - 1 : right]
            return part + [None] * (right - left + 1 - len(part))
    else:

        def line(r: int, left: int, right: int) -> list[Any]:
            return [cells.get((r, c)) for c in range(left, right + 1)]

    return [
        ((top, left), [line(r, left, right) for r in range(top, bottom + 1)])
        for top, left, bottom, right in rectangles
    ]


def _runs(numbers: set[int]) -> list[list[int]]:
    """{1, 2, 3, 5, 6} -> [[1, 2, 3], [5, 6]]."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return runs


def _show(book: Any, edit: SheetCells) -> None:
    """Bring what was written into view: the sheet, with the new round's rows selected.

    Only a courtesy: the work is done, so a failure here is not worth a message.
    """
    with contextlib.suppress(Exception):
        sheet = book.sheets[edit.sheet]
        sheet.activate()
        if edit.table == "Rounds" and edit.cells:
            rows = [r for r, _ in edit.cells]
            cols = [c for _, c in edit.cells]
            sheet.range((min(rows), min(cols)), (max(rows), max(cols))).select()


# -- telling the secretary ------------------------------------------------------------------


def failure_message(exc: BaseException, button: str, language: str = "en") -> str:
    """What went wrong, in the secretary's words (and language), with each problem's cell."""
    if isinstance(exc, _WriteFailed):
        sheet, changed, cause = exc.args
        partly = (
            translate(
                "Some cells were already written: check the Rounds and Standings "
                "sheets, or close the workbook without saving to go back to the "
                "last saved version.",
                language,
            )
            if changed
            else translate("Nothing was changed.", language)
        )
        return (
            translate(
                "{program} did not accept the new values for the sheet '{sheet}' "
                "({cause}). Is the sheet protected, or a cell being edited?",
                language,
            ).format(program=getattr(cause, "program", "Excel"), sheet=sheet, cause=_plain(cause))
            + f"\n\n{partly}"
        )
    if isinstance(exc, KeizerXLError):
        return _problems([say(line, language) for line in exc.lines()], button, language)
    return (
        translate(
            "Something went wrong inside keizer_xl ({cause}). Nothing was changed.", language
        ).format(cause=_plain(exc))
        + "\n\n"
        + translate(
            "Please report this, with a copy of the workbook, to whoever looks after keizer_xl "
            "at your club.",
            language,
        )
    )


def _problems(lines: list[str], button: str, language: str) -> str:
    n = len(lines)
    head = (
        translate("One problem in the workbook; nothing was changed. Please fix:", language)
        if n == 1
        else translate(
            "{count} problems in the workbook; nothing was changed. Please fix:", language
        ).format(count=n)
    )
    shown = (
        lines
        if n <= MAX_LINES
        else [
            *lines[: MAX_LINES - 1],
            translate("... and {count} more.", language).format(count=n - MAX_LINES + 1),
        ]
    )
    return "\n\n".join(
        [
            head,
            "\n".join(shown),
            translate("Then click '{button}' again.", language).format(
                button=local_name(button, language)
            ),
        ]
    )


def _plain(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _title(button: str, language: str) -> str:
    return translate("Keizer competition", language) + ": " + local_name(button, language)


def _alert(book: Any, text: str, button: str, language: str = "en") -> None:
    """The message box for a failure. If even that fails, the text goes to Excel's own
    error box (as an exception) rather than being lost."""
    try:
        book.app.alert(text, title=_title(button, language), buttons="ok", mode="critical")
    except Exception:
        raise RuntimeError(text) from None


def _note(book: Any, text: str, button: str, language: str = "en") -> None:
    """A message box with something to know after a success; the work is done either way."""
    with contextlib.suppress(Exception):
        book.app.alert(text, title=_title(button, language), buttons="ok", mode="info")
