"""The errors of the xlsx package, one root for all of them.

`XlsxError` and its kinds tell why a workbook cannot be read or saved, each made from an
English template and its values; the workbook layer above says them in the workbook's
language as keizer_xl's own errors, so nothing here needs to know about those.

    XlsxError
    ├── WorkbookLocked      open in Excel or LibreOffice
    ├── WorkbookBusy        another keizer_xl run holds the writer lock
    │   └── SavedMeanwhile  another program saved the file after keizer_xl read it
    ├── NotAWorkbook        not a workbook keizer_xl can edit (damaged, hostile, foreign)
    │   ├── MissingSheet    no worksheet of that name
    │   └── SheetTooLarge   data past the reading limits
    └── EditRefused         an edit the writer will not make (also a ValueError)
        ├── OutsideSheet    a row or column past the sheet's edges
        ├── CopiedFormula   a cell holding a formula that other cells copy
        └── UnstorableValue a value Excel cannot store
            └── NotACellValue   a value of a type no cell holds (also a TypeError)

A failure of the system (a missing file, no permission) stays an `OSError`; one while
writing a file is a `NotWritten` (an OSError too) naming the file that was to be written,
never the temporary file beside it, with `ReadOnlyFolder` for a folder that cannot be
written in at all.
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


# said as a whole message; `reason` marks it for the catalogs
_SAVED_MEANWHILE = reason(
    "{file} was saved by another program while keizer-xl worked; nothing was written; run it again."
).template


class SavedMeanwhile(WorkbookBusy):
    """Another program (Excel, LibreOffice, a sync client) saved the file after keizer_xl
    read it: saving now would throw that save away, so nothing is written. Busy, as the
    file is being worked on elsewhere: running again reads the new file."""

    def __init__(self, file: str) -> None:
        super().__init__(_SAVED_MEANWHILE, file=file)


class SheetTooLarge(NotAWorkbook):
    """A sheet to be read has data beyond the limits; `far` lists (sheet, cell, why), and
    the message says each of them, then the limits (the template and its values)."""

    def __init__(
        self, far: list[tuple[str, str, Reason]], template: str, /, **values: object
    ) -> None:
        lines = [
            f"{sheet}!{cell}: the sheet's data reaches this cell ({why})"
            for sheet, cell, why in far
        ]
        super().__init__("\n".join([*lines, template.format(**values)]))
        self.template, self.values, self.far = template, values, far


class EditRefused(XlsxError, ValueError):
    """An edit the writer will not make; nothing is written. A ValueError too: like a bad
    argument, the fault is in what was asked."""


class OutsideSheet(EditRefused):
    """A row or column past the sheet's edges (or a `clear_below` that is no row number)."""


class CopiedFormula(EditRefused):
    """A cell to be overwritten holds a formula that other cells copy (a shared formula's
    master): overwriting it would break theirs."""


class UnstorableValue(EditRefused):
    """A value Excel cannot store in a cell: text too long, a number that is not finite."""


class NotACellValue(UnstorableValue, TypeError):
    """A value of a type no cell holds (a TypeError too)."""


class NotWritten(OSError):
    """A file could not be written (a full disk, no permission): the system's reason, and
    `filename` the file that was to be written, never a temporary or lock file beside it.
    Nothing was changed: the file is as it was."""


class WriteRefused(NotWritten, PermissionError):
    """The system refused the write: no permission, or another program holds the file."""


class ReadOnlyFolder(WriteRefused):
    """The folder of a file to be written cannot be written in: `filename` the file,
    `filename2` the folder."""
