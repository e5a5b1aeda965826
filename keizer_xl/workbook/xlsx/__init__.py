"""Editing cells inside an .xlsx/.xlsm package without disturbing anything else in it.

Knows nothing of Keizer: sheets by name, cells by (row, column), values to write. Everything
it does not edit is copied as it was, and every save is atomic.
"""

from keizer_xl.workbook.xlsx.package import (
    CellValue,
    MissingSheet,
    NotAWorkbook,
    SheetEdit,
    WorkbookLocked,
    XlsxError,
    backup_path,
    check_not_open,
    column_letters,
    lock_files,
    save_edits,
)

__all__ = [
    "CellValue",
    "MissingSheet",
    "NotAWorkbook",
    "SheetEdit",
    "WorkbookLocked",
    "XlsxError",
    "backup_path",
    "check_not_open",
    "column_letters",
    "lock_files",
    "save_edits",
]
