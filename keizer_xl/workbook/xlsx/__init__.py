"""Editing cells inside an .xlsx/.xlsm package without disturbing anything else in it.

Knows nothing of Keizer: sheets by name, cells by (row, column), values to write. Everything
it does not edit is copied as it was, and every save is atomic. The modules, one job each:
`errors`, `safety` (locks, backup, atomic replace), `zipcopy` (raw member copies),
`package` (members, relationships), `xmltext` (XML as text), `sheet` (the sheet editor),
`cells` (values: render, compare, check), `reading` (values of a few sheets, bounded) and
`book` (a file opened once to read, check and save: `Workbook`, `save_edits`).
"""

from keizer_xl.workbook.xlsx.book import Workbook, save_edits
from keizer_xl.workbook.xlsx.cells import CellValue, Formula
from keizer_xl.workbook.xlsx.errors import (
    MissingSheet,
    NotAWorkbook,
    Reason,
    SheetTooLarge,
    WorkbookBusy,
    WorkbookLocked,
    XlsxError,
)
from keizer_xl.workbook.xlsx.reading import MAX_CELLS, MAX_COLUMNS, MAX_ROWS, SheetValues
from keizer_xl.workbook.xlsx.safety import (
    backup_path,
    check_not_open,
    lock_files,
    one_writer,
    writer_lock_path,
)
from keizer_xl.workbook.xlsx.sheet import SheetEdit
from keizer_xl.workbook.xlsx.xmltext import column_letters

__all__ = [
    "MAX_CELLS",
    "MAX_COLUMNS",
    "MAX_ROWS",
    "CellValue",
    "Formula",
    "MissingSheet",
    "NotAWorkbook",
    "Reason",
    "SheetEdit",
    "SheetTooLarge",
    "SheetValues",
    "Workbook",
    "WorkbookBusy",
    "WorkbookLocked",
    "XlsxError",
    "backup_path",
    "check_not_open",
    "column_letters",
    "lock_files",
    "one_writer",
    "save_edits",
    "writer_lock_path",
]
