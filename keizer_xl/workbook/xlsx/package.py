"""The package: a workbook's zip members, where its parts are, and saving edits into it.

The workbook belongs to the secretary: VBA, buttons, shapes, pictures, charts, comments and
formatting must all survive a save. Libraries that load a workbook into objects and write it
back (openpyxl) drop what they do not model, so this package edits the zip directly: every
part is copied unchanged except the worksheets being edited (see `sheet`). This module
reads the members, follows the relationships from the package to the workbook part and
its sheets, and makes the two package-level changes Excel needs: `fullCalcOnLoad` when the
workbook has formulas (so Excel recomputes those that read the new values), and dropping
the calculation chain when a formula cell is overwritten (Excel calls a stale entry
damage). `save_edits` ties it together with the atomic save of `safety`.
"""

from __future__ import annotations

import errno
import io
import os
import posixpath
import re
import stat
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote
from xml.etree.ElementTree import Element

from defusedxml.ElementTree import fromstring as parse_xml

from keizer_xl.workbook.xlsx.cells import _SharedStrings
from keizer_xl.workbook.xlsx.errors import MissingSheet, NotAWorkbook
from keizer_xl.workbook.xlsx.safety import (
    _remove_stale_temps,
    _replace_atomically,
    check_not_open,
)
from keizer_xl.workbook.xlsx.sheet import SheetEdit, _Sheet
from keizer_xl.workbook.xlsx.xmltext import (
    _attr,
    _local,
    _remove_elements,
    _root_prefix,
    _set_attr,
    _start_tag,
)
from keizer_xl.workbook.xlsx.zipcopy import (
    _PACK_EARLY,
    _deflate,
    _stored_data,
    write_members,
)

if TYPE_CHECKING:
    from concurrent.futures import Future


def save_edits(path: Path, edits: Sequence[SheetEdit], backup: bool = True) -> bool:
    """Write `edits` into the workbook at `path`; False (and nothing written) if nothing changes.

    Raises WorkbookLocked when the workbook is open, FileNotFoundError when it is missing,
    NotAWorkbook (or MissingSheet) when it cannot be edited, ValueError/TypeError for cells
    that cannot be written, PermissionError when it is read-only. In every one of these cases
    the workbook is left exactly as it was.
    """
    path = Path(path)
    check_not_open(path)
    target = Path(os.path.realpath(path))
    if target != path.absolute():
        check_not_open(target)
    _remove_stale_temps(target)
    package = _Package.read(target)
    if not package.apply(edits):
        return False
    if not os.access(target, os.W_OK) or not os.stat(target).st_mode & stat.S_IWUSR:
        raise PermissionError(
            errno.EACCES, "The workbook is read-only; keizer_xl cannot save into it", str(path)
        )
    _replace_atomically(target, package.write, backup)
    return True


_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


class _Package:
    """The members of the zip package in their original order, with their bytes."""

    def __init__(self, path: Path, members: list[tuple[zipfile.ZipInfo, bytes]], comment: bytes):
        self.path = path
        self.members = members
        self.comment = comment
        self.data = {info.filename: data for info, data in members}
        self.infos = {info.filename: info for info, _ in members}
        self.by_lower = {info.filename.lower(): info.filename for info, _ in members}
        self.changed: dict[str, bytes | None] = {}  # part name -> new bytes (None: drop it)
        self.stored: dict[str, bytes | None] = {}  # part name -> its data as stored in the zip
        self.packing: dict[str, tuple[bytes, Future[tuple[bytes, int]]]] = {}  # `_pack_early`

    @classmethod
    def read(cls, path: Path) -> _Package:
        name = path.name
        try:
            blob = path.read_bytes()
            with zipfile.ZipFile(io.BytesIO(blob)) as package:
                infos = package.infolist()
                if len({i.filename for i in infos}) != len(infos):
                    raise NotAWorkbook(f"{name} is damaged: it holds the same part twice.")
                members = [(info, package.read(info)) for info in infos]  # checks every CRC
                comment = package.comment
        except FileNotFoundError:
            raise FileNotFoundError(
                errno.ENOENT, "There is no workbook at this place", str(path)
            ) from None
        except IsADirectoryError:
            raise NotAWorkbook(f"{name} is a folder, not a workbook.") from None
        except zipfile.BadZipFile:
            raise NotAWorkbook(_not_a_zip_message(path)) from None
        except (NotImplementedError, RuntimeError, zipfile.LargeZipFile, EOFError, ValueError):
            raise NotAWorkbook(
                f"{name} is damaged or uses a packing keizer_xl cannot read."
            ) from None
        pkg = cls(path, members, comment)
        pkg.stored = {info.filename: _stored_data(blob, info) for info, _ in members}
        if "mimetype" in pkg.data and b"opendocument" in pkg.data["mimetype"]:
            raise NotAWorkbook(
                f"{name} is an OpenDocument spreadsheet; save it as an Excel workbook "
                "(.xlsx, or .xlsm with the buttons) and use that."
            )
        return pkg

    def part(self, name: str) -> bytes | None:
        """The current bytes of a part (edits applied), found case-insensitively like OPC does."""
        real = self.by_lower.get(name.lower())
        if real is None:
            return None
        return self.changed.get(real, self.data[real])

    def apply(self, edits: Sequence[SheetEdit]) -> bool:
        """Apply the edits in memory; True when some part really changes."""
        book = _WorkbookParts(self)
        strings = _SharedStrings(
            lambda: self.part(book.shared_strings) if book.shared_strings else None)
        formulas_removed = False
        for edit in edits:
            part = book.sheet_part(edit.sheet)
            sheet = _Sheet(self.part(part) or b"", f"{self.path.name}: sheet {edit.sheet!r}")
            if sheet.apply(edit, strings):
                self.changed[part] = sheet.to_bytes()
                self._pack_early(part)
            formulas_removed = formulas_removed or sheet.formulas_removed
        self.changed = {k: v for k, v in self.changed.items() if v != self.data[k]}
        if not self.changed:
            return False
        if formulas_removed and book.calc_chain:
            book.drop_calc_chain()
        if self._has_formulas(book):
            book.recalculate_on_load()
        return True

    def _has_formulas(self, book: _WorkbookParts) -> bool:
        """Does any worksheet hold a formula (whose cached value our edit may make stale)?"""
        for part in book.worksheet_parts():
            data = self.part(part) or b""
            p = _root_prefix(data[:4096].decode("utf-8", "replace"), "worksheet")
            if re.search(rb"<" + re.escape(p.encode()) + rb"f[\s>/]", data):
                return True
        return False

    def _pack_early(self, part: str) -> None:
        """Start compressing a large changed part in a second thread (zlib lets go of the
        interpreter while it works), so that a season's Rounds sheet is packed while its
        Standings sheet is still being written."""
        info = self.infos[part]
        content = self.changed[part]
        if (content is not None and len(content) >= _PACK_EARLY
                and info.compress_type == zipfile.ZIP_DEFLATED):
            from concurrent.futures import ThreadPoolExecutor

            packer = ThreadPoolExecutor(1)
            self.packing[part] = (content, packer.submit(_deflate, content))
            packer.shutdown(wait=False)  # the thread ends when it has done this

    def _packed(self, info: zipfile.ZipInfo, content: bytes) -> tuple[bytes, int] | None:
        """The stored data and CRC of a member when they can be taken over: an unchanged
        part's as they are, a changed one's if `_pack_early` packed this very content."""
        if info.filename not in self.changed:
            stored = self.stored.get(info.filename)
            return None if stored is None else (stored, info.CRC)
        early = self.packing.get(info.filename)
        return early[1].result() if early is not None and early[0] is content else None

    def write(self, fd: int) -> None:
        """Write the package (changed parts replaced) to `fd`, then flush it to disk.

        Unchanged parts keep their compressed data as stored: copying it is much quicker
        than compressing the content again, and the content is the same."""
        kept = [(info, new, self._packed(info, new)) for info, data in self.members
                if (new := self.changed.get(info.filename, data)) is not None]
        write_members(fd, kept, self.comment)


def _not_a_zip_message(path: Path) -> str:
    try:
        with open(path, "rb") as f:
            head = f.read(8)
    except OSError:
        head = b""
    if head == _OLE_MAGIC:
        return (
            f"{path.name} is an old-style Excel file (.xls) or is protected with a password. "
            "Open it in Excel, remove the password if any, and save it as .xlsx or .xlsm."
        )
    return f"{path.name} is not an Excel workbook (.xlsx or .xlsm), or it is damaged."


# ----------------------------------------------------------------------------------------
# Finding the parts: package relationships -> workbook -> sheets


def _rel_id(element: Element) -> str | None:
    """The r:id of an element, in either the transitional or the strict namespace."""
    for key, value in element.attrib.items():
        if key.startswith("{") and _local(key) == "id" and "relationships" in key:
            return value
    return None


class _WorkbookParts:
    """Where the workbook part, its sheets, shared strings and calculation chain live."""

    def __init__(self, package: _Package):
        self.package = package
        name = package.path.name
        root_rels = self._relationships("")
        office = [t for kind, t in root_rels.values() if kind.endswith("/officeDocument")]
        if not office or package.part(office[0]) is None:
            raise NotAWorkbook(f"{name} is not an Excel workbook (.xlsx or .xlsm).")
        self.workbook = office[0]
        if not self.workbook.lower().endswith(".xml"):
            raise NotAWorkbook(
                f"{name} is a binary workbook (.xlsb); save it as .xlsx or .xlsm and use that."
            )
        self.rels = self._relationships(self.workbook)
        self.rels_part = _rels_part_of(self.workbook)
        try:
            root = parse_xml(package.part(self.workbook))
        except Exception as exc:  # defusedxml/expat errors have no common base
            raise NotAWorkbook(f"{name} is damaged (its workbook part is unreadable).") from exc
        self.sheets: dict[str, tuple[str, str]] = {}  # casefolded name -> (name, rel id)
        for element in root.iter():
            if _local(element.tag) == "sheet":
                rid = _rel_id(element)
                sheet_name = element.get("name")
                if rid and sheet_name is not None:
                    self.sheets[sheet_name.casefold()] = (sheet_name, rid)
        self.shared_strings = self._target_of("/sharedStrings")
        self.calc_chain = self._target_of("/calcChain")
        self.calc_chain_rel = next(
            (rid for rid, (kind, _) in self.rels.items() if kind.endswith("/calcChain")), None
        )

    def _relationships(self, source: str) -> dict[str, tuple[str, str]]:
        """Relationship id -> (type, target part) for a part's relationships ('' = package)."""
        data = self.package.part(_rels_part_of(source))
        if data is None:
            return {}
        try:
            root = parse_xml(data)
        except Exception as exc:
            raise NotAWorkbook(f"{self.package.path.name} is damaged (bad relationships).") from exc
        base = posixpath.dirname(source)
        found = {}
        for rel in root:
            if _local(rel.tag) != "Relationship" or rel.get("TargetMode") == "External":
                continue
            target = unquote(rel.get("Target", ""))
            target = target.lstrip("/") if target.startswith("/") else posixpath.join(base, target)
            found[rel.get("Id", "")] = (rel.get("Type", ""), posixpath.normpath(target))
        return found

    def _target_of(self, kind: str) -> str | None:
        for rel_kind, target in self.rels.values():
            if rel_kind.endswith(kind) and self.package.part(target) is not None:
                return self.package.by_lower[target.lower()]
        return None

    def sheet_part(self, sheet: str) -> str:
        """The zip member holding the worksheet called `sheet` (case-insensitive)."""
        name = self.package.path.name
        found = self.sheets.get(sheet.casefold())
        if found is None:
            known = ", ".join(repr(n) for n, _ in self.sheets.values())
            raise MissingSheet(f"{name} has no sheet called {sheet!r} (it has {known}).")
        real_name, rid = found
        kind, target = self.rels.get(rid, ("", ""))
        if not kind.endswith("/worksheet"):
            raise MissingSheet(f"{real_name!r} in {name} is not an ordinary worksheet.")
        part = self.package.by_lower.get(target.lower())
        if part is None:
            raise NotAWorkbook(f"{name} is damaged: sheet {real_name!r} is missing.")
        return part

    def worksheet_parts(self) -> Iterator[str]:
        for kind, target in self.rels.values():
            if kind.endswith("/worksheet") and target.lower() in self.package.by_lower:
                yield self.package.by_lower[target.lower()]

    def drop_calc_chain(self) -> None:
        """Remove the calculation chain, its relationship and its content-type entry."""
        assert self.calc_chain is not None
        package = self.package
        package.changed[self.calc_chain] = None
        rels_part = package.by_lower[self.rels_part.lower()]
        rels = (package.part(rels_part) or b"").decode("utf-8")
        rels = _remove_elements(rels, "Relationship", lambda a: a.get("Id") == self.calc_chain_rel)
        package.changed[rels_part] = rels.encode("utf-8")
        types_part = package.by_lower.get("[content_types].xml")
        if types_part is not None:
            types = (package.part(types_part) or b"").decode("utf-8")
            wanted = "/" + self.calc_chain.lower()
            types = _remove_elements(
                types, "Override", lambda a: a.get("PartName", "").lower() == wanted
            )
            package.changed[types_part] = types.encode("utf-8")

    def recalculate_on_load(self) -> None:
        """Ask Excel/LibreOffice to recompute formulas on opening (set `fullCalcOnLoad`)."""
        package = self.package
        part = package.by_lower[self.workbook.lower()]
        text = (package.part(part) or b"").decode("utf-8")
        p = _root_prefix(text, "workbook")
        calc = _start_tag(p, "calcPr").search(text)
        if calc is not None:
            if _attr(calc.group(0), "fullCalcOnLoad") in ("1", "true"):
                return
            tag = _set_attr(calc.group(0), "fullCalcOnLoad", "1")
            text = text[: calc.start()] + tag + text[calc.end() :]
        else:
            sheets_end = text.find(f"</{p}sheets>")
            later = re.compile(
                rf"<{re.escape(p)}(?:oleSize|customWorkbookViews|pivotCaches|smartTagPr|"
                rf"smartTagTypes|webPublishing|fileRecoveryPr|webPublishObjects|extLst)[\s/>]"
                rf"|</{re.escape(p)}workbook>"
            )
            at = later.search(text, max(sheets_end, 0))
            if at is None:
                return
            text = text[: at.start()] + f'<{p}calcPr fullCalcOnLoad="1"/>' + text[at.start() :]
        package.changed[part] = text.encode("utf-8")


def _rels_part_of(part: str) -> str:
    folder, base = posixpath.split(part)
    return posixpath.join(folder, "_rels", base + ".rels")
