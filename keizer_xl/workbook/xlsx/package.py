"""Save keizer_xl's cells into the secretary's .xlsx/.xlsm without disturbing anything else.

The workbook belongs to the secretary: VBA, buttons, shapes, pictures, charts, comments and
formatting must all survive a save. Libraries that load a workbook into objects and write it
back (openpyxl) drop what they do not model, so this module edits the zip package directly:
every part is copied unchanged except the worksheets being edited, and those are edited as
text, so only the `<sheetData>` rows that change and the `<dimension>` differ afterwards.

Two package-level side effects are deliberate and limited to what Excel needs:
- when the workbook has formulas, `fullCalcOnLoad` is set in the workbook part, so Excel
  recomputes formulas that read the new values instead of showing their stale results;
- when a formula cell is overwritten or cleared, the calculation chain (a cache Excel
  rebuilds) is dropped, because Excel reports an entry for a vanished formula as damage.

Saving is atomic: the new package goes to a hidden temporary file beside the workbook, is
flushed to disk and then renamed over the original, so a crash leaves the old or the new file,
never a mix. The previous version is kept as `<name>.backup<ext>` next to it.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import html
import io
import math
import os
import posixpath
import re
import shutil
import stat
import struct
import zipfile
import zlib
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO
from urllib.parse import unquote
from xml.etree.ElementTree import Element
from xml.parsers import expat

from defusedxml.ElementTree import fromstring as parse_xml

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = [
    "CellValue",
    "MissingSheet",
    "NotAWorkbook",
    "SheetEdit",
    "WorkbookLocked",
    "backup_path",
    "check_not_open",
    "lock_files",
    "save_edits",
]

CellValue = str | int | float | Fraction | None

MAX_ROW = 1_048_576
MAX_COLUMN = 16_384
MAX_TEXT = 32_767  # Excel's limit for the text of one cell
TEMP_SUFFIX = ".keizer-xl.tmp"


@dataclass
class SheetEdit:
    """The cells keizer_xl writes into one sheet.

    `cells` maps (row, column), both 1-based, to the new value; None empties the cell.
    `clear_below` removes every cell in rows at or below it that `cells` does not write
    (used to rewrite a whole sheet such as Standings); a written cell keeps its formatting.
    """

    sheet: str
    cells: dict[tuple[int, int], CellValue]
    clear_below: int | None = None


class XlsxError(Exception):
    """The root of this package's errors; the workbook layer turns them into keizer_xl's."""


class WorkbookLocked(XlsxError):
    """The workbook is open in Excel or LibreOffice, which would overwrite or refuse our save."""


class NotAWorkbook(XlsxError):
    """The file is not an .xlsx/.xlsm workbook keizer_xl can edit."""


class MissingSheet(NotAWorkbook):
    """The workbook has no worksheet of the name an edit asks for."""


# ----------------------------------------------------------------------------------------
# Lock files and backups


def lock_files(path: Path) -> list[Path]:
    """The lock files Excel (`~$name`) and LibreOffice (`.~lock.name#`) keep beside an open file."""
    return [path.with_name("~$" + path.name), path.with_name(f".~lock.{path.name}#")]


def check_not_open(path: Path) -> None:
    """Refuse to touch a workbook that is open: the program would overwrite our save later."""
    path = Path(path)
    for lock in lock_files(path):
        if lock.exists():
            program = "Excel" if lock.name.startswith("~$") else "LibreOffice"
            who = _lock_owner(lock)
            by = f" by {who}" if who else ""
            raise WorkbookLocked(
                f"{path.name} is open in {program}{by} (lock file {lock.name} is present). "
                f"Close it there and try again. If it is not open anywhere, "
                f"delete the leftover lock file {lock}."
            )


def _lock_owner(lock: Path) -> str:
    """Who has the file open, from LibreOffice's lock file (name, user, ...); '' if unknown."""
    if not lock.name.startswith(".~lock."):
        return ""
    try:
        fields = lock.read_text(encoding="utf-8", errors="replace").split(",")
    except OSError:
        return ""
    return next((f.strip() for f in fields[:2] if f.strip()), "")


def backup_path(path: Path) -> Path:
    """Where the previous version is kept: `club.xlsx` -> `club.backup.xlsx` (still opens)."""
    path = Path(path)
    return path.with_name(f"{path.stem}.backup{path.suffix}")


# ----------------------------------------------------------------------------------------
# Saving


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


def _temp_name(target: Path) -> Path:
    """A hidden name beside `target` for a file being written (cleaned by the next save)."""
    return target.with_name(f".{target.name}.{os.urandom(4).hex()}{TEMP_SUFFIX}")


def _remove_stale_temps(target: Path) -> None:
    """Delete temporary files a killed earlier save may have left beside the workbook."""
    prefix = f".{target.name}."
    with contextlib.suppress(OSError):
        for entry in os.scandir(target.parent):
            if entry.name.startswith(prefix) and entry.name.endswith(TEMP_SUFFIX):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def _replace_atomically(target: Path, write: Callable[[int], None], backup: bool) -> None:
    """Write a temp file beside `target`, keep the old version as backup, rename it into place."""
    temp = _temp_name(target)
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    try:
        write(fd)  # closes fd after fsync
        os.chmod(temp, stat.S_IMODE(os.stat(target).st_mode))
        if backup:
            _keep_backup(target)
        try:
            os.replace(temp, target)
        except PermissionError as exc:  # Windows: another program holds the file open
            raise PermissionError(
                exc.errno, "The workbook is in use by another program; close it", str(target)
            ) from exc
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _sync_folder(target.parent)


def _keep_backup(target: Path) -> None:
    """Make `backup_path(target)` the current (old) version, atomically.

    A hard link costs no copying and keeps the old file's dates; where links are not
    supported (FAT-formatted sticks, some network drives) the file is copied instead.
    """
    temp = _temp_name(target)
    try:
        try:
            os.link(target, temp)
        except OSError:
            shutil.copyfile(target, temp)
            shutil.copystat(target, temp)
            with open(temp, "rb+") as copy:
                os.fsync(copy.fileno())
        try:
            os.replace(temp, backup_path(target))
        except PermissionError as exc:  # Windows: the backup is open in Excel
            raise PermissionError(
                exc.errno, "Cannot replace the backup; is it open?", str(backup_path(target))
            ) from exc
    finally:
        # rename() does nothing when both names are links to the same file already
        with contextlib.suppress(OSError):
            os.unlink(temp)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); Windows has no directory handles for this."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# ----------------------------------------------------------------------------------------
# The package


_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ZIP64_EXTRA = 0x0001


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
        strings = _SharedStrings(self, book.shared_strings)
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
        with open(fd, "wb") as out:
            if _plain_zip(kept):
                _write_zip(out, kept, self.comment)
            else:  # zip64 sizes or a rare compression: zipfile writes it
                with zipfile.ZipFile(out, "w") as package:
                    package.comment = self.comment
                    for info, new, _ in kept:
                        entry = _same_entry(info)
                        package.writestr(entry, new)
                        entry.external_attr = info.external_attr  # zipfile fills in 0o600
            out.flush()
            os.fsync(out.fileno())


_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")
_CENTRAL_HEADER = struct.Struct("<4s4B4HL2L5H2L")
_END_RECORD = struct.Struct("<4s4H2LH")
_COPYABLE = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
_UTF8_NAME = 0x800


def _stored_data(blob: bytes, info: zipfile.ZipInfo) -> bytes | None:
    """A member's data as stored in the zip file `blob` (compressed), or None if it cannot
    be found as it should be."""
    at = info.header_offset
    if blob[at : at + 4] != b"PK\x03\x04":
        return None
    name_length, extra_length = struct.unpack_from("<2H", blob, at + 26)
    start = at + _LOCAL_HEADER.size + name_length + extra_length
    data = blob[start : start + info.compress_size]
    return data if len(data) == info.compress_size else None


_Member = tuple[zipfile.ZipInfo, bytes, tuple[bytes, int] | None]  # see `_write_zip`
_PACK_EARLY = 1 << 20  # bytes: a part this large is compressed in a second thread


def _plain_zip(members: Sequence[_Member]) -> bool:
    """Can `_write_zip` write these (no zip64 sizes, stored or deflated only)?"""
    size = sum(len(content) + len(packed[0] if packed else b"") + 1024
               for _, content, packed in members)
    return (len(members) < 0xFFFF and size < zipfile.ZIP64_LIMIT // 2
            and all(info.compress_type in _COPYABLE for info, _, _ in members))


def _deflate(content: bytes) -> tuple[bytes, int]:
    """A part's data compressed as zipfile does it (ZIP_DEFLATED), and its CRC."""
    packer = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
    return packer.compress(content) + packer.flush(), zlib.crc32(content)


def _write_zip(out: BinaryIO, members: Sequence[_Member], comment: bytes) -> None:
    """Write a zip package as zipfile writes one, taking stored data over where given.

    `members` are (original entry, content, (stored data, CRC) or None); a member without
    stored data is compressed here as zipfile does. Names, dates, compression, attributes,
    extra fields and comments are the original entries'."""
    directory: list[bytes] = []
    offset = 0
    for info, content, packed in members:
        if packed is not None:
            stored, crc = packed
        elif info.compress_type == zipfile.ZIP_DEFLATED:
            stored, crc = _deflate(content)
        else:
            stored, crc = content, zlib.crc32(content)
        try:
            name, flags = info.filename.encode("ascii"), 0
        except UnicodeEncodeError:
            name, flags = info.filename.encode("utf-8"), _UTF8_NAME
        extra = _without_zip64(info.extra)
        year, month, day, hour, minute, second = info.date_time
        date = (year - 1980) << 9 | month << 5 | day
        time = hour << 11 | minute << 5 | second // 2
        fields = (flags, info.compress_type, time, date, crc, len(stored), len(content),
                  len(name), len(extra))
        out.write(_LOCAL_HEADER.pack(b"PK\x03\x04", 20, 0, *fields) + name + extra)
        out.write(stored)
        directory.append(
            _CENTRAL_HEADER.pack(b"PK\x01\x02", info.create_version, info.create_system, 20, 0,
                                 *fields, len(info.comment), 0, info.internal_attr,
                                 info.external_attr, offset)
            + name + extra + info.comment)
        offset += _LOCAL_HEADER.size + len(name) + len(extra) + len(stored)
    central = b"".join(directory)
    out.write(central)
    out.write(_END_RECORD.pack(b"PK\x05\x06", 0, 0, len(members), len(members), len(central),
                               offset, len(comment)) + comment)


def _same_entry(info: zipfile.ZipInfo) -> zipfile.ZipInfo:
    """A fresh zip entry with the original's name, date, compression and attributes."""
    entry = zipfile.ZipInfo(info.filename, info.date_time)
    entry.compress_type = info.compress_type
    entry.comment = info.comment
    entry.extra = _without_zip64(info.extra)
    entry.create_system = info.create_system
    entry.create_version = info.create_version
    entry.external_attr = info.external_attr
    entry.internal_attr = info.internal_attr
    return entry


def _without_zip64(extra: bytes) -> bytes:
    """Drop zip64 size fields: zipfile writes its own, and stale ones would contradict them."""
    kept = b""
    i = 0
    while i + 4 <= len(extra):
        kind = int.from_bytes(extra[i : i + 2], "little")
        size = int.from_bytes(extra[i + 2 : i + 4], "little")
        if kind != _ZIP64_EXTRA:
            kept += extra[i : i + 4 + size]
        i += 4 + size
    return kept


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


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


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


class _SharedStrings:
    """The shared-string table, read only when a comparison needs it."""

    def __init__(self, package: _Package, part: str | None):
        self.package = package
        self.part = part
        self._items: list[str] | None = None

    def __getitem__(self, index: int) -> str | None:
        if self._items is None:
            self._items = self._load()
        return self._items[index] if 0 <= index < len(self._items) else None

    def _load(self) -> list[str]:
        data = self.package.part(self.part) if self.part else None
        if not data:
            return []
        try:
            root = parse_xml(data)
        except Exception:
            return []
        items = []
        for si in root:
            texts = []
            for child in si:
                if _local(child.tag) == "t":
                    texts.append(child.text or "")
                elif _local(child.tag) == "r":
                    texts += [t.text or "" for t in child if _local(t.tag) == "t"]
            items.append(_decode_escapes("".join(texts)))
        return items


# ----------------------------------------------------------------------------------------
# Worksheet XML as text


_TAG_REST = r"""(?=[\s/>])[^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*>"""
_ATTR_PAIR = re.compile(r"""([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_CELL_REF = re.compile(r"([A-Za-z]{1,3})([0-9]{1,7})")
_ESCAPED = re.compile(r"_x([0-9A-Fa-f]{4})_")
# what XML 1.0 forbids, spelled out: its complement takes Python long to compile
_FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\ud800-\udfff\ufffe\uffff]")


@functools.cache
def _start_tag(prefix: str, name: str) -> re.Pattern[str]:
    """A start or empty-element tag `<prefix:name ...>` (quoted `>` in values allowed)."""
    return re.compile("<" + re.escape(prefix + name) + _TAG_REST)


@functools.cache
def _attr_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"""\s{re.escape(name)}\s*=\s*(?:"([^"]*)"|'([^']*)')""")


def _attr(tag: str, name: str) -> str | None:
    """One attribute of a start tag, unescaped; None when absent."""
    m = _attr_pattern(name).search(tag)
    if m is None:
        return None
    value = m.group(1) if m.group(1) is not None else m.group(2)
    return html.unescape(value) if "&" in value else value


def _attributes(tag: str) -> dict[str, str]:
    found = {}
    for m in _ATTR_PAIR.finditer(tag):
        value = m.group(2) if m.group(2) is not None else m.group(3)
        found[m.group(1)] = html.unescape(value) if "&" in value else value
    return found


def _set_attr(tag: str, name: str, value: str | None) -> str:
    """The tag with attribute `name` set to `value` (appended if new) or removed (None)."""
    tag = _attr_pattern(name).sub("", tag)
    if value is None:
        return tag
    end = -2 if tag.endswith("/>") else -1
    return f'{tag[:end].rstrip()} {name}="{value}"{tag[end:]}'


def _root_prefix(text: str, local: str) -> str:
    """'x:' when the document writes `<x:worksheet>`, '' for the usual default namespace."""
    m = re.search(rf"<([A-Za-z_][\w.-]*:)?{local}[\s>/]", text)
    return (m.group(1) or "") if m else ""


def _remove_elements(text: str, name: str, match: Callable[[dict[str, str]], bool]) -> str:
    """Remove the empty elements `<name .../>` whose attributes satisfy `match`."""

    def keep(m: re.Match[str]) -> str:
        tag = m.group(0)
        return "" if tag.endswith("/>") and match(_attributes(tag)) else tag

    return _start_tag("", name).sub(keep, text)


def _well_formed(data: bytes) -> bool:
    """Is this XML well-formed, with its prefixes bound (and no DTD)?"""
    parser = expat.ParserCreate(namespace_separator="}")

    def refuse_dtd(*_: object) -> None:
        raise expat.ExpatError("DTD")

    parser.StartDoctypeDeclHandler = refuse_dtd
    try:
        parser.Parse(data, True)
    except expat.ExpatError:
        return False
    return True


@functools.cache
def column_letters(column: int) -> str:
    """1 -> A, 27 -> AA."""
    letters = ""
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


@functools.cache
def _column_number(letters: str) -> int:
    number = 0
    for ch in letters.upper():
        number = number * 26 + ord(ch) - 64
    return number


def _decode_escapes(text: str) -> str:
    """Undo Excel's `_xHHHH_` escapes in stored text."""
    return _ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), text)


def _clean_text(text: str) -> str:
    """The text as stored: line breaks as \n, characters XML 1.0 forbids removed."""
    return _FORBIDDEN.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


@dataclass
class _Cell:
    column: int
    markup: str  # the whole `<c>` element
    start: str  # its start tag


@dataclass
class _Row:
    number: int
    markup: str  # the whole `<row>` element
    start: str  # its start tag
    made: tuple[int, int] | None = None  # made by `_new_row`: its first and last column


class _Sheet:
    """A worksheet part edited as text: only `<sheetData>` rows and `<dimension>` change."""

    def __init__(self, data: bytes, where: str):
        self.where = where
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise NotAWorkbook(f"{where} is not stored as UTF-8 and cannot be edited.") from None
        p = self.p = _root_prefix(text, "worksheet")
        m = _start_tag(p, "sheetData").search(text)
        if m is None:
            raise NotAWorkbook(f"{where} is damaged (it has no cell data).")
        self.head, self.sheet_data_tag = text[: m.start()], m.group(0)
        if self.sheet_data_tag.endswith("/>"):
            body, self.tail = "", text[m.end() :]
        else:
            close = text.find(f"</{p}sheetData>", m.end())
            if close < 0:
                raise NotAWorkbook(f"{where} is damaged (its cell data is not closed).")
            body, self.tail = text[m.end() : close], text[close + len(f"</{p}sheetData>") :]
        self.body = body
        self._items: list[_Row | str] | None = None  # split into rows only when needed
        self.appended: str | None = None  # new rows after the last one (the common case)
        self.appended_rows: list[_Row] = []  # ... and those rows
        self.column_styles = [
            (int(a["min"]), int(a["max"]), a["style"])
            for a in map(_attributes, _start_tag(p, "col").findall(self.head))
            if a.get("style") and a.get("min", "").isdigit() and a.get("max", "").isdigit()
        ]
        self.formulas_removed = False
        self.shared_masters_removed: list[tuple[str, str]] = []  # (si, cell reference)
        self._cell_starts: dict[int, tuple[str, str]] = {}  # see `_cell_start`

    @property
    def items(self) -> list[_Row | str]:
        if self._items is None:
            self._items = self._split_rows(self.body)
        return self._items

    @items.setter
    def items(self, value: list[_Row | str]) -> None:
        self._items = value

    def _last_row_number(self) -> int | None:
        """The number of the last `<row>` (0 when there is none); None if it has no `r`."""
        at = self.body.rfind(f"<{self.p}row")
        while at >= 0 and self.body[at + len(self.p) + 4: at + len(self.p) + 5] not in " \t\r\n/>":
            at = self.body.rfind(f"<{self.p}row", 0, at)
        if at < 0:
            return 0 if not self.body.strip() else None
        m = _start_tag(self.p, "row").match(self.body, at)
        r = _attr(m.group(0), "r") if m else None
        return int(r) if r and r.isdigit() else None

    def _elements(self, text: str, name: str) -> Iterator[tuple[int, int, str]]:
        """(start, end, start tag) of each `<name>` element in text (they do not nest)."""
        close_tag = f"</{self.p}{name}>"
        pos = 0
        for m in _start_tag(self.p, name).finditer(text):
            if m.start() < pos:
                continue
            tag = m.group(0)
            if tag.endswith("/>"):
                pos = m.end()
            else:
                close = text.find(close_tag, m.end())
                if close < 0:
                    raise NotAWorkbook(f"{self.where} is damaged (a <{name}> is not closed).")
                pos = close + len(close_tag)
            yield m.start(), pos, tag

    def _split_rows(self, body: str) -> list[_Row | str]:
        """The rows in order; anything between them is kept as plain text."""
        items: list[_Row | str] = []
        pos = number = 0
        for start, end, tag in self._elements(body, "row"):
            if start > pos:
                items.append(body[pos:start])
            r = _attr(tag, "r")
            number = int(r) if r and r.isdigit() else number + 1
            items.append(_Row(number, body[start:end], tag))
            pos = end
        if pos < len(body):
            items.append(body[pos:])
        return items

    def _cells(self, row: _Row) -> tuple[list[_Cell], str]:
        """The cells of a row (each given its reference), and what follows them (extLst)."""
        inner = (
            "" if row.start.endswith("/>") else row.markup[len(row.start) : -len(f"</{self.p}row>")]
        )
        cells: list[_Cell] = []
        pos = column = 0
        for start, end, tag in self._elements(inner, "c"):
            ref = _CELL_REF.fullmatch(_attr(tag, "r") or "")
            column = _column_number(ref.group(1)) if ref else column + 1
            markup = inner[start:end]
            if not ref:
                new_tag = _set_attr(tag, "r", f"{column_letters(column)}{row.number}")
                markup, tag = new_tag + markup[len(tag) :], new_tag
            cells.append(_Cell(column, markup, tag))
            pos = end
        return cells, inner[pos:].strip()

    def apply(self, edit: SheetEdit, strings: _SharedStrings) -> bool:
        """Apply one edit to the rows; True when the sheet's text changes."""
        wanted: dict[int, dict[int, CellValue]] = {}
        for (row_no, column), value in edit.cells.items():
            # type() rather than isinstance(): True is no row number
            if not (type(row_no) is int and 1 <= row_no <= MAX_ROW):
                raise ValueError(f"{self.where}: row {row_no!r} is outside the sheet.")
            if not (type(column) is int and 1 <= column <= MAX_COLUMN):
                raise ValueError(f"{self.where}: column {column!r} is outside the sheet.")
            if type(value) not in _PLAIN_TYPES and not _plain_value(value):
                _check_value(value, f"{self.where}, cell {column_letters(column)}{row_no}")
            wanted.setdefault(row_no, {})[column] = value
        clear = edit.clear_below
        if clear is not None and (
            isinstance(clear, bool) or not isinstance(clear, int) or clear < 1
        ):
            raise ValueError(f"{self.where}: clear_below must be a row number (1 or more).")

        last = self._last_row_number()
        if last is not None and min(wanted, default=0) > last and (clear is None or clear > last):
            # rows appended below the last one: no need to take the sheet apart
            new = [made for number in sorted(wanted)
                   if isinstance(made := self._new_row(number, wanted[number]), _Row)]
            if not new:
                return False
            self.appended = "".join(made.markup for made in new)
            self.appended_rows = new
            return True
        existing = {item.number for item in self.items if isinstance(item, _Row)}
        new_rows = sorted(n for n in wanted if n not in existing)
        items: list[_Row | str] = []
        for item in self.items:
            if isinstance(item, _Row):
                while new_rows and new_rows[0] < item.number:
                    items.append(self._new_row(new_rows[0], wanted[new_rows.pop(0)]))
                if item.number in wanted or (clear is not None and item.number >= clear):
                    row = self._edit_row(item, wanted.get(item.number, {}), clear, strings)
                    if row is not None:
                        items.append(row)
                    continue
            items.append(item)
        items += [self._new_row(number, wanted[number]) for number in new_rows]
        if _markup(items) == _markup(self.items):
            return False
        self.items = items
        return True

    def _edit_row(
        self, row: _Row, values: dict[int, CellValue], clear: int | None, strings: _SharedStrings
    ) -> _Row | None:
        """The row with `values` written and, from row `clear` on, its other cells removed."""
        p = self.p
        clearing = clear is not None and row.number >= clear
        if clearing and (rewritten := self._rewritten(row, values)) is not None:
            return rewritten if isinstance(rewritten, _Row) else None  # '': nothing left
        cells, rest = self._cells(row)
        kept: list[_Cell] = []
        for cell in cells:
            if cell.column in values:
                value = values[cell.column]
                markup = _render_cell(p, row.number, cell.column, value, _attr(cell.start, "s"))
                if markup == cell.markup or _same_value(cell, value, strings, p):
                    kept.append(cell)
                    continue
                self._note_removed(cell)
                if markup:
                    kept.append(_Cell(cell.column, markup, ""))
            elif clearing:
                self._note_removed(cell)
            else:
                kept.append(cell)
        present = {cell.column for cell in cells}
        style = _attr(row.start, "s") if _attr(row.start, "customFormat") in ("1", "true") else None
        for column, value in values.items():
            if column not in present and not _empty(value):
                markup = _render_cell(p, row.number, column, value, style or self._style(column))
                kept.append(_Cell(column, markup, ""))
        if [c.markup for c in kept] == [c.markup for c in cells]:
            return row
        kept.sort(key=lambda c: c.column)
        start = _set_attr(row.start, "spans", None)  # a layout hint that may now be wrong
        if _attr(start, "r") is None:
            start = _set_attr(start, "r", str(row.number))
        if not kept and not rest and _plain_row(start):
            return None
        if start.endswith("/>"):
            start = start[:-2].rstrip() + ">"
        body = "".join(c.markup for c in kept) + rest
        return _Row(row.number, f"{start}{body}</{p}row>", start)

    def _rewritten(self, row: _Row, values: dict[int, CellValue]) -> _Row | str | None:
        """`_edit_row` of a row being cleared, the quick way, for a row just as `_new_row`
        writes it (a Standings row keizer_xl wrote before); None for any other row.

        Such a row has no styles, formulas or other attributes to keep, and it holds each
        value in the one way `_new_row` writes it, so a cell whose markup changes has a new
        value: `_edit_row` would give exactly the new row, which `_new_row` writes far more
        quickly. (Except whole numbers of 10^15 and more, which `_same_value` compares as
        floats: `_edit_row` handles those.)"""
        p = self.p
        if row.start != f'<{p}row r="{row.number}">' or any(
                type(v) is int and not -_BIG < v < _BIG for v in values.values()):
            return None
        inner = row.markup[len(row.start) : -len(f"</{p}row>")]
        old: dict[int, CellValue] = {}
        at = 0
        for m in _plain_cell(p).finditer(inner):
            if m.start() != at:
                return None
            letters, text, number = m.groups()
            try:
                old[_column_number(letters)] = (
                    text if number is None
                    else int(number) if number.isdigit() and len(number) < 16 else float(number))
            except ValueError:
                return None
            at = m.end()
        same = self._new_row(row.number, old) if at == len(inner) else None
        if not (isinstance(same, _Row) and same.markup == row.markup):
            return None
        return self._new_row(row.number, values)

    def _new_row(self, number: int, values: dict[int, CellValue]) -> _Row | str:
        """A row that was not there, its empty values left out ('' if all are).

        A Standings sheet is tens of thousands of these cells, nearly all whole numbers or
        plain text: those are written here directly (the same markup `_render_cell` makes,
        see tests/test_package.py), with the column's reference and style prepared once."""
        p, row = self.p, str(number)
        starts = self._cell_starts
        cells: list[str] = []
        written: list[int] = []
        for column in sorted(values):
            value = values[column]
            if type(value) is int:
                ref, style = starts.get(column) or self._cell_start(column)
                cells.append(f"{ref}{row}{style}><{p}v>{value}</{p}v></{p}c>")
            elif type(value) is float:
                ref, style = starts.get(column) or self._cell_start(column)
                cells.append(f"{ref}{row}{style}><{p}v>{_number_text(value)}</{p}v></{p}c>")
            elif type(value) is str and _plain_text(value):
                ref, style = starts.get(column) or self._cell_start(column)
                cells.append(f'{ref}{row}{style} t="inlineStr"><{p}is><{p}t>{value}</{p}t>'
                             f"</{p}is></{p}c>")
            elif not _empty(value):
                cells.append(_render_cell(p, number, column, value, self._style(column)))
            else:
                continue
            written.append(column)
        if not cells:
            return ""
        start = f'<{p}row r="{number}">'
        return _Row(number, f"{start}{''.join(cells)}</{p}row>", start, (written[0], written[-1]))

    def _cell_start(self, column: int) -> tuple[str, str]:
        """A new cell's markup in this column around its row number: `<c r="AB`, `" s="3"`."""
        found = self._cell_starts.get(column)
        if found is None:
            style = self._style(column)
            s = f' s="{style}"' if style is not None and style.isdigit() else ""
            found = self._cell_starts[column] = (
                f'<{self.p}c r="{column_letters(column)}', f'"{s}')
        return found

    def _style(self, column: int) -> str | None:
        """The style of the `<col>` range covering `column`, if any."""
        for low, high, style in self.column_styles:
            if low <= column <= high:
                return style
        return None

    def _note_removed(self, cell: _Cell) -> None:
        """Remember that a formula goes away, and which shared formulas lose their master."""
        if f"<{self.p}f" not in cell.markup:
            return
        f = _start_tag(self.p, "f").search(cell.markup)
        if f is None:
            return
        self.formulas_removed = True
        tag = f.group(0)
        if _attr(tag, "t") == "shared" and _attr(tag, "ref") is not None:
            self.shared_masters_removed.append(
                (_attr(tag, "si") or "", _attr(cell.start, "r") or "?")
            )

    def to_bytes(self) -> bytes:
        """The edited part; refuses to produce a sheet Excel would call damaged."""
        if self.appended is not None:
            return self._appended_bytes(self.appended)
        body = "".join(_markup(self.items))
        for si, ref in self.shared_masters_removed:
            for tag in _start_tag(self.p, "f").findall(body):
                if (
                    _attr(tag, "t") == "shared"
                    and _attr(tag, "si") == si
                    and _attr(tag, "ref") is None
                ):
                    raise ValueError(
                        f"{self.where}: cell {ref} holds a formula that other cells copy; "
                        "keizer_xl will not overwrite it. Move the formula elsewhere."
                    )
        head = self._with_dimension(*self._extent(self.items))
        # rows made by `_new_row` are well-formed by construction (see `_appended_bytes`)
        others = "".join(_markup([item for item in self.items
                                  if not (isinstance(item, _Row) and item.made)]))
        if not _well_formed((head + self._sheet_data(others) + self.tail).encode("utf-8")):
            raise NotAWorkbook(f"{self.where} has markup keizer_xl cannot edit safely.")
        return (head + self._sheet_data(body) + self.tail).encode("utf-8")

    def _sheet_data(self, body: str) -> str:
        """The `<sheetData>` element holding these rows."""
        if not body:
            return f"<{self.p}sheetData/>"
        open_tag = self.sheet_data_tag
        if open_tag.endswith("/>"):
            open_tag = open_tag[:-2].rstrip() + ">"
        return f"{open_tag}{body}</{self.p}sheetData>"

    def _extent(self, items: list[_Row | str]) -> tuple[set[int], set[int]]:
        """The columns of the cells in `items`, and the rows of the first and last cell
        (rows are in ascending order in sheetData, so those two give the rows)."""
        columns: set[int] = set()
        first = last = None
        for item in items:
            rows: tuple[int, ...]
            if isinstance(item, _Row) and item.made:
                columns.update(item.made)
                rows = (item.number,)
            else:
                refs = _cell_refs(self.p).findall(item.markup if isinstance(item, _Row) else item)
                columns.update(_column_number(letters) for letters in {c for c, _ in refs})
                rows = tuple(int(number) for _, number in refs[:1] + refs[-1:])
            if rows:
                first = rows[0] if first is None else first
                last = rows[-1]
        return columns, set() if first is None or last is None else {first, last}

    def _appended_bytes(self, appended: str) -> bytes:
        """The part with new rows after the last; the old dimension covers the rows above.

        The new rows need no well-formedness check: every bit of them was made by
        `_new_row` from checked values (text escaped, styles digits only)."""
        sheet_data = self._sheet_data(self.body + appended)
        m = _start_tag(self.p, "dimension").search(self.head)
        old = _CELL_REF.findall(_attr(m.group(0), "ref") or "") if m else []
        new = self.appended_rows
        columns = {column for row in new if row.made for column in row.made}
        columns.update(_column_number(letters) for letters, _ in old)
        head = self._with_dimension(columns, {new[0].number, new[-1].number,
                                              *(int(n) for _, n in old)})
        return (head + sheet_data + self.tail).encode("utf-8")

    def _with_dimension(self, columns: Collection[int], rows: Collection[int]) -> str:
        """The part before sheetData, with `<dimension ref>` spanning these columns and rows
        (A1 when there are none)."""
        m = _start_tag(self.p, "dimension").search(self.head)
        if m is None:
            return self.head
        ref = "A1"
        if columns and rows:
            first = f"{column_letters(min(columns))}{min(rows)}"
            last = f"{column_letters(max(columns))}{max(rows)}"
            ref = first if first == last else f"{first}:{last}"
        tag = _set_attr(m.group(0), "ref", ref)
        return self.head[: m.start()] + tag + self.head[m.end() :]


@functools.cache
def _plain_cell(p: str) -> re.Pattern[str]:
    """A cell without a style holding a number or inline text: (column, text, number)."""
    e = re.escape(p)
    return re.compile(rf'<{e}c r="([A-Z]{{1,3}})[0-9]{{1,7}}"(?: t="inlineStr"><{e}is><{e}t>'
                      rf"([^<]*)</{e}t></{e}is>|><{e}v>([^<]*)</{e}v>)</{e}c>")


@functools.cache
def _cell_refs(p: str) -> re.Pattern[str]:
    return re.compile(
        rf"""<{re.escape(p)}c\s(?:[^>]*?\s)?r\s*=\s*["']([A-Za-z]{{1,3}})([0-9]{{1,7}})["']"""
    )


def _empty(value: CellValue) -> bool:
    return value is None or (isinstance(value, str) and not _clean_text(value))


def _markup(items: list[_Row | str]) -> list[str]:
    return [item.markup if isinstance(item, _Row) else item for item in items]


def _plain_row(start: str) -> bool:
    """A row with nothing worth keeping once its cells are gone: no format, height or hiding."""
    a = _attributes(start)
    flags = ("customFormat", "customHeight", "hidden", "collapsed", "thickTop", "thickBot")
    return not any(a.get(k) in ("1", "true") for k in flags) and a.get("outlineLevel", "0") == "0"


_PLAIN_TYPES = frozenset({int, Fraction, type(None)})
_BIG = 10**15  # whole numbers from here on are written in full, but compared as floats
_TEXT_TO_ESCAPE = re.compile(r"[&<>]|_x|^ | $")


def _plain_value(value: object) -> bool:
    """Text or a number that `_check_value` would surely let through (the usual cells)."""
    if type(value) is str:
        return len(value) <= MAX_TEXT  # cleaning only makes text shorter
    return type(value) is float and math.isfinite(value)


def _plain_text(text: str) -> bool:
    """Text that a cell holds as it is: printable ASCII, not blank, nothing to escape or to
    mark as space-preserving (`_render_cell` would write it unchanged)."""
    return (text.isascii() and text.isprintable() and text != ""
            and _TEXT_TO_ESCAPE.search(text) is None)


def _check_value(value: object, place: str) -> None:
    """Refuse a value Excel cannot hold, before anything is written."""
    if isinstance(value, str):
        if len(_clean_text(value)) > MAX_TEXT:
            raise ValueError(f"{place}: text longer than Excel allows ({MAX_TEXT} characters).")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{place}: {value!r} is not a number Excel can store.")
    elif not isinstance(value, (int, Fraction)):
        raise TypeError(f"{place}: cannot write a {type(value).__name__} into a cell.")


def _number_text(value: int | float | Fraction) -> str:
    if isinstance(value, int):
        return str(int(value))  # also turns a bool into 1/0
    number = float(value)
    if number.is_integer() and abs(number) < 1e15:
        return str(int(number))
    return repr(number)


def _escape_text(text: str) -> str:
    """Text for a `<t>` element: XML-escaped, and a literal `_xHHHH_` kept from being decoded."""
    text = _ESCAPED.sub(lambda m: "_x005F" + m.group(0), text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _render_cell(p: str, row: int, column: int, value: CellValue, style: str | None) -> str:
    """The markup of a written cell ('' for an empty cell without a style)."""
    ref = f"{column_letters(column)}{row}"
    if style is not None and not style.isdigit():
        style = None  # a style is an index; anything else cannot be written back safely
    s = "" if style is None else f' s="{style}"'
    if isinstance(value, str):
        value = _clean_text(value)
        if not value:
            value = None
    if value is None:
        return "" if style is None else f'<{p}c r="{ref}"{s}/>'
    if isinstance(value, str):
        space = ' xml:space="preserve"' if value != value.strip() or "\n" in value else ""
        body = f"<{p}is><{p}t{space}>{_escape_text(value)}</{p}t></{p}is>"
        return f'<{p}c r="{ref}"{s} t="inlineStr">{body}</{p}c>'
    kind = ' t="b"' if isinstance(value, bool) else ""
    return f'<{p}c r="{ref}"{s}{kind}><{p}v>{_number_text(value)}</{p}v></{p}c>'


def _same_value(cell: _Cell, value: CellValue, strings: _SharedStrings, p: str) -> bool:
    """Does the cell already hold `value` as a constant (so it can stay as it is)?

    Excel stores text in its shared-string table when it saves, so a value keizer_xl wrote
    earlier looks different after the secretary saved in Excel; it is still the same value.
    """
    markup = cell.markup
    if f"<{p}f" in markup and _start_tag(p, "f").search(markup):
        return False
    kind = _attr(cell.start, "t") or "n"
    v = _value_pattern(p).search(markup)
    if isinstance(value, str):
        value = _clean_text(value) or None
    if value is None:
        return v is None and f"<{p}is" not in markup
    if isinstance(value, str):
        if kind == "inlineStr":
            texts = _text_pattern(p).findall(_phonetic_pattern(p).sub("", markup))
            return _decode_escapes(html.unescape("".join(texts))) == value
        if kind == "s" and v is not None and v.group(1).strip().isdigit():
            return strings[int(v.group(1))] == value
        return False
    if v is None or kind != ("b" if isinstance(value, bool) else "n"):
        return False
    try:
        return float(v.group(1)) == float(value)
    except ValueError:
        return False


@functools.cache
def _value_pattern(p: str) -> re.Pattern[str]:
    return re.compile(rf"<{re.escape(p)}v>([^<]*)</{re.escape(p)}v>")


@functools.cache
def _text_pattern(p: str) -> re.Pattern[str]:
    return re.compile(rf"<{re.escape(p)}t(?=[\s>])[^>]*>([^<]*)</{re.escape(p)}t>")


@functools.cache
def _phonetic_pattern(p: str) -> re.Pattern[str]:
    return re.compile(rf"<{re.escape(p)}rPh(?=[\s>]).*?</{re.escape(p)}rPh>", re.S)
