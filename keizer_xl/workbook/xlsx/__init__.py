"""Editing cells inside an .xlsx/.xlsm package without disturbing anything else in it.

Knows nothing of Keizer: sheets by name, cells by (row, column), values to write. Everything
it does not edit is copied as it was, and every save is atomic.

This module is the package's face: outside it, import from here. The public modules hold
what the package offers: `book` (a file opened once to read, check and save: `Workbook`,
`save_edits`), `errors` (why a workbook is refused), `safety` (locks, backup, atomic
replace) and `typed` (a file's name as a suggested command types it). The private ones are
its machinery, one job each: `_zipcopy` (raw member copies), `_package` (members,
relationships), `_parts` (whole parts put in beside the workbook's own), `_xmltext` (XML as
text), `_sheet` (the sheet editor), `_cells` (values:
render, compare, check), `_strings` (the shared-string table, counted as it is unpacked),
`_scan` (a sheet, counted as it is unpacked), `_cellpatterns` (the patterns it finds cells
by), `_findings` (error values and unsaved formulas among its cells), `_reading` (values of a
few sheets, bounded) and `_snapshot` (a file as read).
"""

from keizer_xl.workbook.xlsx._cells import CellRows, CellValue, Formula
from keizer_xl.workbook.xlsx._parts import NewPart, Relationship
from keizer_xl.workbook.xlsx._reading import SheetValues
from keizer_xl.workbook.xlsx._scan import MAX_CELLS, MAX_COLUMNS, MAX_ROWS
from keizer_xl.workbook.xlsx._sheet import SheetEdit
from keizer_xl.workbook.xlsx._snapshot import Snapshot, read_with_snapshot
from keizer_xl.workbook.xlsx._xmltext import column_letters, column_number
from keizer_xl.workbook.xlsx.book import Workbook, save_edits
from keizer_xl.workbook.xlsx.errors import (
    CopiedFormula,
    EditRefused,
    MissingSheet,
    NotACellValue,
    NotAWorkbook,
    NotWritten,
    OutsideSheet,
    ReadOnlyFolder,
    Reason,
    SavedMeanwhile,
    SheetTooLarge,
    UnstorableValue,
    WorkbookBusy,
    WorkbookLocked,
    WriteRefused,
    XlsxError,
)
from keizer_xl.workbook.xlsx.safety import (
    backup_path,
    check_not_open,
    lock_files,
    one_writer,
    remove_stale_temps,
    unlock,
    write_atomically,
    write_bytes_atomically,
    write_files_atomically,
    writer_lock_path,
)
from keizer_xl.workbook.xlsx.typed import typed

__all__ = [
    "MAX_CELLS",
    "MAX_COLUMNS",
    "MAX_ROWS",
    "CellRows",
    "CellValue",
    "CopiedFormula",
    "EditRefused",
    "Formula",
    "MissingSheet",
    "NewPart",
    "NotACellValue",
    "NotAWorkbook",
    "NotWritten",
    "OutsideSheet",
    "ReadOnlyFolder",
    "Reason",
    "Relationship",
    "SavedMeanwhile",
    "SheetEdit",
    "SheetTooLarge",
    "SheetValues",
    "Snapshot",
    "UnstorableValue",
    "Workbook",
    "WorkbookBusy",
    "WorkbookLocked",
    "WriteRefused",
    "XlsxError",
    "backup_path",
    "check_not_open",
    "column_letters",
    "column_number",
    "lock_files",
    "one_writer",
    "read_with_snapshot",
    "remove_stale_temps",
    "save_edits",
    "typed",
    "unlock",
    "write_atomically",
    "write_bytes_atomically",
    "write_files_atomically",
    "writer_lock_path",
]
