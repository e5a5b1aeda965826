"""Editing cells inside an .xlsx/.xlsm package without disturbing anything else in it.

Knows nothing of Keizer: sheets by name, cells by (row, column), values to write. Everything
it does not edit is copied as it was, and every save is atomic. The modules, one job each:
`errors`, `safety` (locks, backup, atomic replace), `zipcopy` (raw member copies),
`package` (members, relationships, `save_edits`), `xmltext` (XML as text), `sheet` (the
sheet editor) and `cells` (values: render, compare, check).
"""

from keizer_xl.workbook.xlsx.cells import CellValue
from keizer_xl.workbook.xlsx.errors import MissingSheet, NotAWorkbook, WorkbookLocked, XlsxError
from keizer_xl.workbook.xlsx.package import save_edits
from keizer_xl.workbook.xlsx.safety import backup_path, check_not_open, lock_files
from keizer_xl.workbook.xlsx.sheet import SheetEdit
from keizer_xl.workbook.xlsx.xmltext import column_letters

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
