"""Workbook files: read with python-calamine, write only keizer_xl's cells, atomically.

The file-level shell around the engine, used by the command line. `check`, `recalc` and
`pair` take one path: open the file with `keizer_xl.workbook.xlsx` (which refuses damaged,
hostile and foreign files, and reads only the sheets keizer_xl needs, with bounded memory,
through python-calamine), check it, plan, and (`recalc`, `pair`) save only keizer_xl's
cells, atomically, holding the workbook's writer lock from reading to saving.
"""

from __future__ import annotations

import contextlib
import errno
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple, TypeVar

from keizer_xl.core.checks import PLAYER_COLUMNS, ROUND_COLUMNS, find_columns
from keizer_xl.core.errors import KeizerXLError, Places, Problem
from keizer_xl.core.final import final_order
from keizer_xl.core.messages import Joined, Message, msg
from keizer_xl.core.round import Competition, NextRound
from keizer_xl.core.scoring import Standings
from keizer_xl.core.words import CellError
from keizer_xl.i18n.names import contract_headers, name_key, sheet_names
from keizer_xl.workbook.cells import SheetCells
from keizer_xl.workbook.layout import (
    SETTINGS_COLUMNS,
    BookError,
    Grid,
    Layout,
    board_notes,
    language_of,
    read_book,
)
from keizer_xl.workbook.pairings import pairings_edit
from keizer_xl.workbook.plans import (
    Unpaired,
    plan_pair,
    plan_recalc,
    plan_rename,
    plan_unpair,
    recalc_edits,
    refuse_gameless,
    with_cautions,
)
from keizer_xl.workbook.xlsx import (
    MAX_ROWS,
    NotWritten,
    ReadOnlyFolder,
    Reason,
    SheetEdit,
    SheetTooLarge,
    SheetValues,
    Workbook,
    XlsxError,
    column_letters,
    lock_files,
    one_writer,
)
from keizer_xl.workbook.xlsx import unlock as xlsx_unlock

SUFFIXES = (".xlsx", ".xlsm")
OTHER_KINDS = {
    ".xls": msg(
        "an old-style Excel file (.xls); open it in Excel or LibreOffice and save it "
        "as an Excel workbook (.xlsx, or .xlsm with the buttons)"
    ),
    ".xlsb": msg("a binary Excel workbook (.xlsb); open it in Excel and save it as .xlsx or .xlsm"),
    ".ods": msg(
        "an OpenDocument spreadsheet (.ods); open it in LibreOffice and save it as an "
        "Excel workbook (.xlsx, or .xlsm with the buttons)"
    ),
}
T = TypeVar("T")


class FileProblem(KeizerXLError):
    """The file itself cannot be used (missing, not a workbook, open in Excel)."""


UNSAVED = msg(
    "a formula whose value is not saved: open and save the workbook in Excel or "
    "LibreOffice, or type the value"
)
# the sheets keizer_xl reads, by every language's name (as matched), and their columns
COLUMNS = {
    name: columns
    for table, columns in (
        ("Players", PLAYER_COLUMNS),
        ("Rounds", ROUND_COLUMNS),
        ("Settings", SETTINGS_COLUMNS),
    )
    for name in sheet_names(table)
}
# The most rows of a sheet keizer_xl reads: what the largest season it is made for needs
# (10,000 players over 100 rounds, a Rounds row for every game, bye and absence), with room
# to spare; what is past them is refused before it costs memory. Other sheets: MAX_ROWS.
ROWS = {"Players": 20_000, "Rounds": 700_000}
_ROWS = {name: rows for table, rows in ROWS.items() for name in sheet_names(table)}


def most_rows(sheet: str) -> int:
    """The most rows keizer_xl reads of this sheet (by its name in any language)."""
    return _ROWS.get(name_key(sheet), MAX_ROWS)


def _open(path: Path, write: bool = False) -> tuple[Workbook, dict[str, Grid], list[Unsaved]]:
    """The workbook opened, the cell values of the sheets keizer_xl reads (row 0 = the
    sheet's row 1), and the cells it reads that hold a formula whose value was never saved.

    Opened to `write`, it is refused while Excel or LibreOffice has it open; only to read,
    it is read as last saved (see `open_elsewhere`).

    Other worksheets (Standings, which is rewritten whole, and the secretary's own) are
    listed with no cells: only their names matter, and reading them would cost time."""
    path = Path(path)
    if path.is_dir():
        raise FileProblem(msg("{file}: this is a folder, not a workbook", file=path))
    if not path.exists():
        raise FileProblem(msg("{file}: there is no such file", file=path))
    if path.suffix.lower() in OTHER_KINDS:
        raise FileProblem(_named(path, OTHER_KINDS[path.suffix.lower()]))
    if path.suffix.lower() not in SUFFIXES:
        raise FileProblem(msg("{file}: not an Excel workbook (.xlsx or .xlsm)", file=path))
    with as_file_problem(path):
        book = Workbook(path, write, rows=most_rows)
        names = book.worksheets()
        values = book.read([name for name in names if name_key(name) in COLUMNS])
    grids: dict[str, Grid] = {
        name: _with_errors(values[name]) if name in values else [] for name in names
    }
    return (
        book,
        grids,
        [cell for name, read in values.items() for cell in _unsaved(name, read.rows, read.unsaved)],
    )


Unsaved = tuple[str, int, int]  # a formula cell without a saved value: sheet, row, column


def _with_errors(read: SheetValues) -> Grid:
    """The sheet's values with each cell holding an error value as that error (`CellError`):
    the reader gives "" for them, which would pass for a blank."""
    if not read.errors:
        return read.rows
    rows = list(read.rows)
    for row, column, error in read.errors:
        rows.extend([] for _ in range(row - len(rows)))
        cells = list(rows[row - 1])
        cells.extend("" for _ in range(column - len(cells)))
        cells[column - 1] = CellError(error)
        rows[row - 1] = cells
    return rows


def _unsaved(sheet: str, rows: Grid, cells: list[tuple[int, int]]) -> list[Unsaved]:
    """The formula cells without a saved value in the columns keizer_xl reads (and in the
    header row, which says what the columns are)."""
    if not cells:
        return []
    header = contract_headers(list(rows[0]) if rows else [])
    read = {i + 1 for i in find_columns(header, COLUMNS[name_key(sheet)]).values()}
    return [(sheet, row, column) for row, column in sorted(cells) if row == 1 or column in read]


def _with_unsaved(cells: list[Unsaved], error: BookError | None = None) -> BookError:
    """A BookError naming these formula cells first, then `error`'s problems if any."""
    places = error.places if error is not None else Places()
    sheets, columns = dict(places.sheets), {t: dict(c) for t, c in places.columns.items()}
    problems = []
    for sheet, row, column in cells:
        table = f"{sheet} (formulas)"  # a place of its own: any column of the sheet
        sheets[table] = sheet
        columns.setdefault(table, {})[column_letters(column)] = column
        problems.append(Problem(UNSAVED, table, row, column_letters(column)))
    return BookError([*problems, *(error.problems if error else [])], Places(sheets, columns))


@contextlib.contextmanager
def as_file_problem(path: Path) -> Iterator[None]:
    """The writer's refusals and the system's errors as FileProblems naming the file; any
    other exception is a bug, and stays one."""
    try:
        yield
    except XlsxError as exc:
        raise FileProblem(_named(path, xlsx_message(exc))) from None
    except OSError as exc:
        raise FileProblem(system_message(exc, path)) from None


# The writer's own reasons for refusing a file (the system's are said as they come)
_REASONS = {
    str(m): m
    for m in (
        msg("the workbook is in use by another program; close it"),
        msg("cannot replace the backup; is it open?"),
        msg("the workbook is read-only; keizer_xl cannot save into it"),
        msg("there is no workbook at this place"),
    )
}
_FULL = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}


def system_message(error: OSError, path: Path | str | None = None) -> Message:
    """An error of the system as the secretary reads it, on every command: the file it was
    about as it was given (never a temporary or lock file beside it), what went wrong, and,
    when a file could not be written, that nothing was changed: `disk full while writing
    club_site/index.html; nothing was changed`. `path`: the file, when the error names none.
    """
    file = error.filename or path or ""
    reason = error.strerror or str(error)
    reason = f"{reason[:1].lower()}{reason[1:]}"
    if isinstance(error, ReadOnlyFolder):
        return msg(
            "the folder {folder} is read-only, so {file} cannot be written there; "
            "nothing was changed",
            folder=error.filename2,
            file=file,
        )
    if reason in _REASONS or not isinstance(error, NotWritten):
        return msg("{file}: {problem}", file=file, problem=_REASONS.get(reason, reason))
    if error.errno in _FULL:
        return msg("disk full while writing {file}; nothing was changed", file=file)
    if isinstance(error, PermissionError):
        return msg("no permission to write {file}; nothing was changed", file=file)
    return msg(
        "{file} could not be written ({problem}); nothing was changed", file=file, problem=reason
    )


def xlsx_message(error: XlsxError) -> Message:
    """The xlsx package's error as a message, to be said in the workbook's language."""

    def said(template: str, values: dict[str, object]) -> Message:
        return msg(
            template,
            **{
                key: said(*value) if isinstance(value, Reason) else value
                for key, value in values.items()
            },
        )

    message = said(error.template, error.values)
    if isinstance(error, SheetTooLarge):
        return Joined(
            "\n",
            [
                *(
                    msg(
                        "{sheet}!{cell}: the sheet's data reaches this cell ({why})",
                        sheet=sheet,
                        cell=cell,
                        why=said(*why),
                    )
                    for sheet, cell, why in error.far
                ),
                message,
            ],
        )
    return message


def _named(path: Path, message: str) -> str:
    """The message, starting with the file's name as given if it does not name it yet."""
    return (
        message
        if message.startswith((str(path), path.name))
        else msg("{file}: {problem}", file=path, problem=message)
    )


def list_sheets(path: Path) -> Iterator[tuple[str, Grid]]:
    """The worksheets of a workbook that is no club workbook (a member list), one at a time
    as they are asked for, each read within the Players sheet's limits, error values as
    `CellError`s (open in Excel is no matter: it is only read)."""
    with as_file_problem(path):
        book = Workbook(path, write=False, rows=lambda _: ROWS["Players"])
        names = book.worksheets()
    for name in names:
        with as_file_problem(path):
            rows = _with_errors(book.read([name])[name])
        yield name, rows


def read_grids(path: Path) -> dict[str, Grid]:
    """The cell values of the sheets keizer_xl reads, row 0 = the sheet's row 1 (other
    worksheets are listed with no cells); BookError for formulas without saved values."""
    _, grids, unsaved = _open(path)
    if unsaved:
        raise _with_unsaved(unsaved)
    return grids


class Outcome(NamedTuple):
    """What a command did to one file, for the command line to show (a NamedTuple, not a
    dataclass: see "Records" in docs/architecture.md)."""

    path: Path
    standings: Standings
    next_round: NextRound | None = None
    written: bool = False
    notes: Sequence[str] = ()


def load(path: Path) -> tuple[Competition, Layout]:
    """Read and check a workbook; BookError lists every problem with its cell."""
    _, grids, unsaved = _open(path)
    return _planned(read_book, grids, unsaved)


def _planned(
    plan: Callable[[dict[str, Grid]], T], grids: dict[str, Grid], unsaved: list[Unsaved]
) -> T:
    """`plan(grids)`, with the formulas without a saved value among its problems."""
    try:
        planned = plan(grids)
    except BookError as error:
        if not unsaved:
            raise
        raise _with_unsaved(unsaved, error) from None
    if unsaved:
        raise _with_unsaved(unsaved)
    return planned


def _edits(edits: list[SheetCells], grids: dict[str, Grid] | None = None) -> list[SheetEdit]:
    """The writer's edits; with `grids`, also the Pairings sheet's values as they are once
    these edits are made, so that any viewer shows the current round."""
    out = [
        SheetEdit(e.sheet, e.cells, clear_below=1 if e.clear else None, create=e.create)
        for e in edits
    ]
    if grids is not None:
        pairings = pairings_edit(grids, [e.cells for e in edits if e.table == "Rounds"])
        if pairings is not None:
            out.append(pairings)
    return out


def _planned_and_saved(
    path: Path, plan: Callable[[dict[str, Grid]], tuple[T, list[SheetCells]]], notes: bool = False
) -> tuple[T, list[SheetCells], list[str], bool]:
    """The one way a command changes a workbook: hold the writer lock, read, check and
    plan, then save the planned cells (and the Pairings values) atomically. With `notes`,
    also the boards used twice (`board_notes`), found before the sheets as read are let
    go: the writer's work on a large season needs that memory."""
    with one_writer_held(path):
        book, grids, unsaved = _open(path, write=True)
        planned, edits = _planned(plan, grids, unsaved)
        saved = _edits(edits, grids)
        found = board_notes(grids) if notes else []
        del grids
        with as_file_problem(path):
            written = book.save(saved)
    return planned, edits, found, written


def recalc(path: Path) -> Outcome:
    """Rewrite the Standings sheet after the last completed round."""
    standings, _, notes, written = _planned_and_saved(path, plan_recalc, notes=True)
    return Outcome(path, standings, None, written, _notes(standings) + notes)


def pair(path: Path) -> Outcome:
    """What the "Pair next round" button does: check, pair, append the round, standings."""
    next_round, _, found, written = _planned_and_saved(path, plan_pair, notes=True)
    notes = [*_notes(next_round.standings), *next_round.notes, *found]
    return Outcome(path, next_round.standings, next_round, written, notes)


def load_with_groups(path: Path) -> tuple[Competition, dict[str, str], tuple[str, ...]]:
    """Read and check a workbook, with each player's Group (the optional Players column)
    and the warnings, each with its cell."""
    from keizer_xl.workbook.layout import player_groups

    grids = read_grids(path)
    competition, layout = read_book(grids)
    return (
        competition,
        player_groups(competition.season, grids[layout.sheet["Players"]]),
        layout.warnings(competition),
    )


def unpair(path: Path, force: bool = False) -> Unpaired:
    """What the "Undo last pairing" button does: take back the last round."""
    return _planned_and_saved(path, lambda g: plan_unpair(g, force))[0]


def rename(path: Path, old: str, new: str) -> tuple[str, int]:
    """Rename a player in every row of Players and Rounds; (the old name, Rounds cells)."""
    was, edits, _, _ = _planned_and_saved(path, lambda g: plan_rename(g, old, new))
    return was, sum(len(e.cells) for e in edits if e.table == "Rounds")


def write_cells(path: Path, edits: list[SheetCells]) -> bool:
    """Write these cells and nothing else (refused while the workbook is open), atomically,
    keeping a backup, holding the writer lock; False when they already hold these values."""
    with one_writer_held(path), as_file_problem(path):
        return Workbook(path, rows=most_rows).save(_edits(edits))


def check(path: Path) -> Competition:
    """Only check: raises with every problem, writes nothing (see `inspect`)."""
    return inspect(path)[0]


def inspect(path: Path) -> tuple[Competition, Outcome]:
    """Check exactly as `recalc` and `pair` check before they write: the file, the package,
    every sheet keizer_xl reads, and the Standings it would write (made in memory only).
    Raises with every problem; gives the competition and what `recalc` would write and say
    (its standings with their warnings, the notes worth knowing: two games on one board, a
    workbook open elsewhere), writing nothing. A workbook open in Excel or LibreOffice is
    read as last saved there."""
    book, grids, unsaved = _open(path)
    competition, layout = _planned(read_book, grids, unsaved)
    standings, edits = recalc_edits(competition, layout, grids)
    saved = _edits(edits, grids)
    notes = [*open_elsewhere(path), *_notes(standings), *board_notes(grids)]
    del grids  # let go before the writer's work, as `recalc` does
    with as_file_problem(path):
        book.try_edits(saved)
    return competition, Outcome(path, standings, notes=notes)


def survey(path: Path) -> tuple[Competition, Outcome]:
    """Read and check a workbook for a command that only reads it (`publish`): the
    competition and what `inspect` says of it (the standings' warnings and the notes),
    without planning the sheets a recalculation would write, which nobody writes here."""
    _, grids, unsaved = _open(path)
    competition, layout = _planned(read_book, grids, unsaved)
    refuse_gameless(competition, layout)
    final = final_order(with_cautions(competition.standings(), competition, layout)).standings
    notes = [*open_elsewhere(path), *_notes(final), *board_notes(grids)]
    return competition, Outcome(path, final, notes=notes)


def open_elsewhere(path: Path) -> list[Message]:
    """A note when Excel or LibreOffice has the workbook open (their lock file is beside
    it): what is read is the workbook as last saved there, without changes made since."""
    return [
        msg(
            "{file} is open in {program}; read as last saved there (changes not saved "
            "yet are not included)",
            file=Path(path).name,
            program="Excel" if lock.name.startswith("~$") else "LibreOffice",
        )
        for lock in lock_files(Path(path))
        if lock.exists()
    ][:1]


@contextlib.contextmanager
def one_writer_held(path: Path) -> Iterator[None]:
    """Hold the workbook's writer lock from reading it to saving it."""
    with as_file_problem(path), one_writer(path):
        yield


def _notes(standings: Standings) -> list[str]:
    return [standings.note] if standings.note else []


def unlock(path: Path) -> list[str]:
    """Clear the locks that programs which have ended left on the workbook; who left them
    (`LibreOffice (Anna)`). Refused while it is really open or being changed."""
    with as_file_problem(path):
        return xlsx_unlock(path)


def language_of_file(path: Path) -> str | None:
    """The language a workbook file is written in (told by its sheet names); None when it
    cannot be opened (the work that follows will say why)."""
    try:
        return language_of({name: [] for name in Workbook(Path(path), write=False).worksheets()})
    except (XlsxError, OSError):  # not there, not a workbook: said by the command itself
        return None


def cautions(outcome: Outcome) -> list[str]:
    """What was allowed but probably not meant, each with its cell."""
    return list(outcome.standings.cautions)


__all__ = [
    "FileProblem",
    "Outcome",
    "Problem",
    "cautions",
    "check",
    "inspect",
    "language_of_file",
    "load",
    "open_elsewhere",
    "pair",
    "read_grids",
    "recalc",
    "survey",
    "unlock",
    "write_cells",
]
