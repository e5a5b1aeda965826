"""A workbook file opened once to read a few sheets and, perhaps, to save edits into it.

Checking a workbook and changing it must accept and refuse the same files, so both go
through `Workbook`: opening refuses what is open elsewhere, no zip package, an OpenDocument
or binary workbook and a damaged package; `read` gives the values of the sheets asked for
under the limits of `_scan`; `try_edits` makes every edit in memory with all of the
writer's checks; `save` does the same and replaces the file atomically (see `safety`).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Collection, Sequence
from pathlib import Path

from keizer_xl.workbook.xlsx._package import Package, WorkbookParts
from keizer_xl.workbook.xlsx._parts import NewPart, Relationship, put_parts
from keizer_xl.workbook.xlsx._reading import SheetValues, read_values
from keizer_xl.workbook.xlsx._scan import MAX_ROWS
from keizer_xl.workbook.xlsx._sheet import SheetEdit
from keizer_xl.workbook.xlsx._xmltext import Element, elements
from keizer_xl.workbook.xlsx.errors import NotAWorkbook, NotWritten, SavedMeanwhile
from keizer_xl.workbook.xlsx.safety import check_not_open, write_atomically


class Workbook:
    """An .xlsx/.xlsm file, its package read (parts unpacked only when needed).

    Opened to write (the default), it is refused while Excel or LibreOffice has it open,
    which would save over the edits later; opened only to read (`write=False`), it is read
    as last saved there, and `save` refuses instead. `rows`: the most rows of a sheet (by
    its name) that is read or edited (else `MAX_ROWS`)."""

    def __init__(self, path: Path, write: bool = True, rows: Callable[[str], int] | None = None):
        self.rows = rows or (lambda sheet: MAX_ROWS)
        self.path = Path(path)
        self.target = Path(os.path.realpath(self.path))
        if write:
            self._check_not_open()
        self.package = Package.read(self.target)
        self.parts = WorkbookParts(self.package)

    def _check_not_open(self) -> None:
        check_not_open(self.path)
        if self.target != self.path.absolute():
            check_not_open(self.target)

    def worksheets(self) -> list[str]:
        """The names of the ordinary worksheets, in the workbook's order."""
        kinds = self.parts.rels
        return [
            name
            for name, rid in self.parts.sheets.values()
            if kinds.get(rid, ("", ""))[0].endswith("/worksheet")
        ]

    def read(self, sheets: Collection[str]) -> dict[str, SheetValues]:
        """The values of these worksheets (exact names), each scanned as it is unpacked
        and checked as the writer would check a sheet it edits; SheetTooLarge names the
        first cell past the limits of each."""
        wanted = {name: self.parts.sheet_part(name) for name in sheets}
        package = self.package
        others = [
            self.parts.workbook,
            self.parts.rels_part,
            "_rels/.rels",
            "[Content_Types].xml",
            *(t for kind, t in self.parts.rels.values() if kind.endswith("/styles")),
        ]
        found = [
            real for name in others if (real := package.by_lower.get(name.lower())) is not None
        ]
        return read_values(
            package,
            wanted,
            list(dict.fromkeys(found)),
            self.parts.shared_strings,
            self.path.name,
            {name: self.rows(name) for name in wanted},
        )

    def try_edits(self, edits: Sequence[SheetEdit]) -> bool:
        """Make the edits in memory, with every check a save makes; True if a part changes.

        The edits stay made: `save` afterwards writes them without making them again."""
        changed = self.package.apply(edits, self.rows)
        if changed:
            self.package.check_writable()
        return changed

    def save(self, edits: Sequence[SheetEdit], backup: bool = True) -> bool:
        """Write `edits` into the file; False (and nothing written) if nothing changes.

        Raises as `save_edits` does; in every such case the file is left as it was."""
        if not self.package.apply(edits, self.rows):
            return False
        self._write(backup)
        return True

    def related(self, source: str, kind: str) -> list[str]:
        """The parts that `source`'s relationships of this type lead to ('' for the
        package's own), as they are in the package."""
        return [
            target
            for found, target in self.parts.relationships(source).values()
            if found == kind and target.lower() in self.package.by_lower
        ]

    def elements(self, part: str) -> list[Element]:
        """The elements of a small XML part, read as `_xmltext.elements` reads: what
        declares entities or refers to other files is refused (NotAWorkbook)."""
        try:
            return elements(self.package.part(part) or b"")
        except Exception as exc:  # expat's errors, and any other of what is no XML
            raise NotAWorkbook(
                "{file} is damaged (its part {part} is unreadable).", file=self.path.name, part=part
            ) from exc

    def save_parts(
        self, parts: Sequence[NewPart], relationships: Sequence[Relationship], backup: bool = True
    ) -> bool:
        """Put whole parts, their content types and the relationships leading to them into
        the file, every other part copied as it is; False (and nothing written) when they
        are there already. Atomic, and refused as `save` refuses."""
        if not put_parts(self.package, parts, relationships):
            return False
        self._write(backup)
        return True

    def _write(self, backup: bool) -> None:
        self.package.check_writable()  # as `try_edits` checks, before anything is written
        self._check_not_open()  # opened since it was read, or opened only to read
        target = self.target
        if not os.access(target, os.W_OK) or not os.stat(target).st_mode & stat.S_IWUSR:
            raise PermissionError(
                errno.EACCES,
                "The workbook is read-only; keizer_xl cannot save into it",
                str(self.path),
            )
        try:
            write_atomically(
                target,
                self.package.write,
                backup=backup,
                in_use=lambda exc: PermissionError(
                    exc.errno, "The workbook is in use by another program; close it", str(target)
                ),
                expect=self.package.snapshot,
            )
        except NotWritten as exc:  # named as the secretary gave it, not its real path
            exc.filename = str(self.path)
            raise
        except SavedMeanwhile:
            raise SavedMeanwhile(self.path.name) from None


def save_edits(path: Path, edits: Sequence[SheetEdit], backup: bool = True) -> bool:
    """Write `edits` into the workbook at `path`; False (and nothing written) if nothing changes.

    Raises WorkbookLocked when the workbook is open, SavedMeanwhile when another program
    saved it after it was read, FileNotFoundError when it is missing,
    NotAWorkbook (or MissingSheet) when it cannot be edited, EditRefused (OutsideSheet,
    UnstorableValue, CopiedFormula) for cells that cannot be written, PermissionError when it
    is read-only. In every one of these cases the workbook is left exactly as it was.
    """
    return Workbook(path).save(edits, backup)
