"""Workbook files: read with python-calamine, write only keizer_xl's cells, atomically.

The file-level shell around the engine, used by the command line. Reading goes through
python-calamine (several times faster than openpyxl); writing goes through
`keizer_xl.workbook.xlsx`, which edits only the sheet parts that change and leaves every other
byte of the file as it was.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from keizer_xl.core.errors import KeizerXLError, Problem
from keizer_xl.core.round import Competition, NextRound
from keizer_xl.core.scoring import Standings
from keizer_xl.workbook.contract import (
    Grid,
    Layout,
    SheetCells,
    plan_pair,
    plan_recalc,
    read_book,
    sheet_names,
)
from keizer_xl.workbook.xlsx import NotAWorkbook, SheetEdit, check_not_open, save_edits

SUFFIXES = (".xlsx", ".xlsm")
READ = {name for sheet in ("Players", "Rounds", "Settings") for name in sheet_names(sheet)}


class FileProblem(KeizerXLError):
    """The file itself cannot be used (missing, not a workbook, open in Excel)."""


def read_grids(path: Path) -> dict[str, Grid]:
    """The cell values of the sheets keizer_xl reads, row 0 = the sheet's row 1.

    Other worksheets (Standings, which is rewritten whole, and the secretary's own) are
    listed with no cells: only their names matter, and reading them would cost time."""
    from python_calamine import CalamineWorkbook

    if not path.exists():
        raise FileProblem(f"{path}: there is no such file")
    if path.is_dir():
        raise FileProblem(f"{path}: this is a folder, not a workbook")
    if path.suffix.lower() not in SUFFIXES:
        raise FileProblem(f"{path}: not an Excel workbook (.xlsx or .xlsm)")
    if not zipfile.is_zipfile(path):
        raise FileProblem(f"{path}: not an Excel workbook (the file is damaged or of "
                          "another kind)")
    try:
        book = CalamineWorkbook.from_path(str(path))
        grids: dict[str, Grid] = {}
        for meta in book.sheets_metadata:
            if str(meta.typ).endswith("WorkSheet"):
                wanted = " ".join(meta.name.split()).casefold() in READ
                grids[meta.name] = book.get_sheet_by_name(meta.name).to_python(
                    skip_empty_area=False) if wanted else []
        return grids
    except Exception as exc:  # calamine raises its own types for damaged packages
        raise FileProblem(f"{path}: could not be read as a workbook ({exc})") from None


@dataclass
class Outcome:
    """What a command did to one file, for the command line to show."""

    path: Path
    standings: Standings
    next_round: NextRound | None = None
    written: bool = False
    notes: list[str] = field(default_factory=list)


def load(path: Path) -> tuple[Competition, Layout]:
    """Read and check a workbook; BookError lists every problem with its cell."""
    return read_book(read_grids(path))


def _save(path: Path, edits: list[SheetCells]) -> bool:
    sheet_edits = [SheetEdit(e.sheet, dict(e.cells), clear_below=1 if e.clear else None)
                   for e in edits]
    try:
        return save_edits(path, sheet_edits)
    except NotAWorkbook as exc:
        raise FileProblem(str(exc)) from None


def recalc(path: Path) -> Outcome:
    """Rewrite the Standings sheet after the last completed round."""
    _refuse_if_open(path)
    standings, edits = plan_recalc(read_grids(path))
    written = _save(path, edits)
    return Outcome(path, standings, None, written, _notes(standings))


def pair(path: Path) -> Outcome:
    """What the "Pair next round" button does: check, pair, append the round, standings."""
    _refuse_if_open(path)
    next_round, edits = plan_pair(read_grids(path))
    written = _save(path, edits)
    notes = [*_notes(next_round.standings), *next_round.notes]
    return Outcome(path, next_round.standings, next_round, written, notes)


def load_with_groups(path: Path) -> tuple[Competition, dict[str, str]]:
    """Read and check a workbook, with each player's Group (the optional Players column)."""
    from keizer_xl.workbook.contract import player_groups

    grids = read_grids(path)
    competition, layout = read_book(grids)
    return competition, player_groups(competition.season, grids[layout.sheet["Players"]])


def write_cells(path: Path, edits: list[SheetCells]) -> bool:
    """Write these cells and nothing else (refused while the workbook is open), atomically,
    keeping a backup; False when they already hold these values."""
    _refuse_if_open(path)
    return _save(path, edits)


def check(path: Path) -> Competition:
    """Only check: raises with every problem, writes nothing."""
    competition, _ = load(path)
    return competition


def _notes(standings: Standings) -> list[str]:
    return [standings.note] if standings.note else []


def cautions(outcome: Outcome) -> list[str]:
    """What was allowed but probably not meant, each with its cell."""
    return list(outcome.standings.cautions)


def _refuse_if_open(path: Path) -> None:
    from keizer_xl.workbook.xlsx import WorkbookLocked

    try:
        check_not_open(path)
    except WorkbookLocked as exc:
        raise FileProblem(str(exc)) from None


__all__ = ["FileProblem", "Outcome", "Problem", "check", "load", "pair", "read_grids",
           "recalc", "write_cells"]
