"""The errors of the xlsx package, one root for all of them.

`XlsxError` and its kinds tell why a workbook cannot be saved (open elsewhere, not a
workbook, no such sheet); the workbook layer above turns them into keizer_xl's own errors,
so nothing here needs to know about those.
"""

from __future__ import annotations

from typing import NamedTuple


class Reason(NamedTuple):
    """Part of a message, kept as its English template and values (see `reason`)."""

    template: str
    values: dict[str, object]

    def __str__(self) -> str:
        return self.template.format(**self.values)


def reason(template: str, /, **values: object) -> Reason:
    """A reason inside an error's message, said in the workbook's language by the layer
    above like the error itself."""
    return Reason(template, values)


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
    """A sheet to be read has data beyond the limits; `far` lists (sheet, cell, why), and
    the message says each of them, then the limits (the template and its values)."""

    def __init__(self, far: list[tuple[str, str, Reason]], template: str,
                 /, **values: object) -> None:
        lines = [f"{sheet}!{cell}: the sheet's data reaches this cell ({why})"
                 for sheet, cell, why in far]
        super().__init__("\n".join([*lines, template.format(**values)]))
        self.template, self.values, self.far = template, values, far
