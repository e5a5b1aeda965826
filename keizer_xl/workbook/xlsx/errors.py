"""The errors of the xlsx package, one root for all of them.

`XlsxError` and its kinds tell why a workbook cannot be saved (open elsewhere, not a
workbook, no such sheet); the workbook layer above turns them into keizer_xl's own errors,
so nothing here needs to know about those.
"""

from __future__ import annotations


class XlsxError(Exception):
    """The root of this package's errors; the workbook layer turns them into keizer_xl's.

    Made from an English template and its values (`str(error)` reads the template filled
    in), so the layer above can say it in the workbook's language."""

    def __init__(self, template: str, /, **values: object) -> None:
        super().__init__(template.format(**values) if values else template)
        self.template, self.values = template, values



class WorkbookLocked(XlsxError):
    """The workbook is open in Excel or LibreOffice, which would overwrite or refuse our save."""


class NotAWorkbook(XlsxError):
    """The file is not an .xlsx/.xlsm workbook keizer_xl can edit."""


class MissingSheet(NotAWorkbook):
    """The workbook has no worksheet of the name an edit asks for."""


class WorkbookBusy(XlsxError):
    """Another keizer_xl run holds the workbook's writer lock and did not finish in time."""


class SheetTooLarge(NotAWorkbook):
    """A sheet to be read has data beyond the limits; `far` lists (sheet, cell, why)."""

    def __init__(self, message: str, far: list[tuple[str, str, str]]):
        super().__init__(message)
        self.far = far
