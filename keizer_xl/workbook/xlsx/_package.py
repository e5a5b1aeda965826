"""The package: a workbook's zip members, where its parts are, and saving edits into it.

The workbook belongs to the secretary: VBA, buttons, shapes, pictures, charts, comments and
formatting must all survive a save. Libraries that load a workbook into objects and write it
back (openpyxl) drop what they do not model, so this package edits the zip directly: every
part is copied unchanged except the worksheets being edited (see `_sheet`). This module
reads the members, follows the relationships from the package to the workbook part and
its sheets, and makes the two package-level changes Excel needs: `fullCalcOnLoad` when the
workbook has formulas (so Excel recomputes those that read the new values), and dropping
the calculation chain when a formula cell is overwritten (Excel calls a stale entry
damage).
"""

from __future__ import annotations

import errno
import functools
import io
import posixpath
import re
import zipfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote

from keizer_xl.workbook.xlsx._cells import SharedStrings
from keizer_xl.workbook.xlsx._findings import formula_tag
from keizer_xl.workbook.xlsx._sheet import Sheet, SheetEdit
from keizer_xl.workbook.xlsx._snapshot import Snapshot, read_with_snapshot
from keizer_xl.workbook.xlsx._xmltext import (
    Element,
    attr,
    elements,
    escape_attr,
    local,
    remove_elements,
    root_prefix,
    set_attr,
    tags,
)
from keizer_xl.workbook.xlsx._zipcopy import (
    PACK_EARLY,
    Member,
    Packed,
    deflate,
    inflated,
    new_entry_like,
    refuse_unpacking,
    stored_data,
    write_members,
)
from keizer_xl.workbook.xlsx.errors import MissingSheet, NotAWorkbook

if TYPE_CHECKING:
    from concurrent.futures import Future


_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
# bytes: the most one part may unpack to (the Rounds sheet of 10,000 players over 100
# rounds is about 150 MB); a sheet that is only read is counted piece by piece, never kept
MAX_PART = 256 << 20
# What unpacking a damaged or hostile member raises, whichever way it is read
_UNPACK_ERRORS = (
    zipfile.BadZipFile,
    EOFError,
    OSError,
    NotImplementedError,
    RuntimeError,
    ValueError,
    zlib.error,
)
PIECE = 1 << 20  # bytes unpacked at a time
# bytes: a changed part this large is kept as packed once it is (see `_let_go`); a smaller
# one stays unpacked, as reading it again (`mentions`) would cost more than it holds
LET_GO = 16 << 20


class Package:
    """The members of the zip package in their original order.

    A part is unpacked only when it is needed (the sheets keizer_xl reads or edits and the
    few parts that say where they are), and never beyond `MAX_PART`; every other part is
    copied as stored, so a part that would unpack to gigabytes is never unpacked."""

    def __init__(
        self, path: Path, blob: bytes, package: zipfile.ZipFile, snapshot: Snapshot | None = None
    ):  # the file as read: a save replaces it
        self.path, self.blob, self.zip, self.snapshot = path, blob, package, snapshot
        self.members, self.comment = package.infolist(), package.comment
        self.infos = {info.filename: info for info in self.members}
        self.by_lower = {info.filename.lower(): info.filename for info in self.members}
        self.data: dict[str, bytes] = {}  # part name -> its unpacked bytes, once needed
        self.scanned: dict[str, bool] = {}  # sheets counted (`apply`): may they hold formulas?
        # part name -> new bytes (None: drop it), or as packed once a large one is (`_let_go`)
        self.changed: dict[str, bytes | Packed | None] = {}
        self.packing: dict[str, tuple[bytes, Future[Packed]]] = {}  # `_pack_early`

    @classmethod
    def read(cls, path: Path) -> Package:
        name = path.name
        try:
            blob, snapshot = read_with_snapshot(path)
            package = zipfile.ZipFile(io.BytesIO(blob))
            if len(package.NameToInfo) != len(package.infolist()):
                raise NotAWorkbook("{file} is damaged: it holds the same part twice.", file=name)
        except FileNotFoundError:
            raise FileNotFoundError(
                errno.ENOENT, "There is no workbook at this place", str(path)
            ) from None
        except IsADirectoryError:
            raise NotAWorkbook("{file} is a folder, not a workbook.", file=name) from None
        except zipfile.BadZipFile:
            raise _not_a_zip(path) from None
        except (NotImplementedError, RuntimeError, zipfile.LargeZipFile, EOFError, ValueError):
            raise NotAWorkbook(
                "{file} is damaged or uses a packing keizer_xl cannot read.", file=name
            ) from None
        pkg = cls(path, blob, package, snapshot)
        if "mimetype" in pkg.infos and b"opendocument" in pkg.content("mimetype"):
            raise NotAWorkbook(
                "{file} is an OpenDocument spreadsheet (.ods); save it as an Excel workbook "
                "(.xlsx, or .xlsm with the buttons) and use that.",
                file=name,
            )
        return pkg

    def content(self, name: str, most: int = MAX_PART) -> bytes:
        """The unpacked bytes of the member called `name` (its CRC checked), unpacked once,
        and never beyond `most` bytes."""
        found = self.data.get(name)
        if found is not None:
            return found
        data = b"".join(self.stream(name, most))
        self.data[name] = data
        return data

    def stream(self, name: str, most: int = MAX_PART) -> Iterator[bytes]:
        """The member called `name` unpacked piece by piece (its CRC checked at the end), so
        that a reader can count what it holds before anything is kept; NotAWorkbook once
        it passes `most` bytes, or when it cannot be unpacked."""
        found = self.data.get(name)
        if found is not None:
            yield found
            return
        info = self.infos[name]
        where = {"file": self.path.name, "part": name}
        if info.file_size > most:
            raise NotAWorkbook(
                "{file} is damaged or hostile: its part {part} would unpack to "
                "{size} MB; keizer_xl unpacks at most {most} MB of one part.",
                size=info.file_size >> 20,
                most=most >> 20,
                **where,
            )
        seen = 0
        try:
            with self.zip.open(info) as member:
                while piece := member.read(PIECE):  # to the end, where zipfile checks the CRC
                    seen += len(piece)
                    if seen > most:
                        raise NotAWorkbook(
                            "{file} is damaged or hostile: its part {part} "
                            "unpacks to more than {most} MB.",
                            most=most >> 20,
                            **where,
                        )
                    yield piece
        except _UNPACK_ERRORS as exc:
            raise NotAWorkbook(
                "{file} is damaged or hostile: its part {part} cannot be unpacked ({reason}).",
                reason=exc,
                **where,
            ) from None

    def mentions(self, name: str, pattern: re.Pattern[bytes], limit: int = MAX_PART) -> bool:
        """Does the member's content match `pattern` (a short one)? Read in pieces, without
        keeping the part; True also when it is longer than `limit` or cannot be read."""
        current = self.changed.get(name)
        if name in self.data or (name in self.changed and not isinstance(current, Packed)):
            return pattern.search(self.part(name) or b"") is not None
        tail, seen = b"", 0
        try:
            for piece in inflated(current) if isinstance(current, Packed) else self._pieces(name):
                if pattern.search(tail + piece):
                    return True
                tail = piece[-64:]
                seen += len(piece)
                if seen > limit:
                    return True
        except _UNPACK_ERRORS:
            return True
        return False

    def _pieces(self, name: str) -> Iterator[bytes]:
        """The member unpacked a MB at a time (see `mentions`)."""
        with self.zip.open(self.infos[name]) as member:
            while piece := member.read(1 << 20):
                yield piece

    def part(self, name: str) -> bytes | None:
        """The current bytes of a part (edits applied), found case-insensitively like OPC does."""
        real = self.by_lower.get(name.lower())
        if real is None:
            return None
        if real in self.changed:
            current = self.changed[real]
            return b"".join(inflated(current)) if isinstance(current, Packed) else current
        return self.content(real)

    def text(self, name: str) -> str:
        """The current text of a package-level part (an XML part edited as text)."""
        try:
            return (self.part(name) or b"").decode("utf-8")
        except UnicodeDecodeError:
            raise NotAWorkbook(
                "{file}: its part {part} is not stored as UTF-8 and cannot be edited.",
                file=self.path.name,
                part=name,
            ) from None

    def apply(self, edits: Sequence[SheetEdit], rows: Callable[[str], int] | None = None) -> bool:
        """Apply the edits in memory; True when some part really changes.

        A sheet is counted as it is unpacked before it is taken apart (see
        `check_editable`), `rows(sheet)` its most rows."""
        from keizer_xl.workbook.xlsx._scan import MAX_ROWS, check_editable

        book = WorkbookParts(self)
        strings = SharedStrings(
            lambda: self._strings(book.shared_strings) if book.shared_strings else None
        )
        formulas_removed = False
        earlier: list[str] = []
        for edit in edits:
            for part in earlier:  # packed while the sheet after it was made: let go of it
                self._let_go(part)
            earlier = self._large_packings()
            if edit.create and edit.sheet.casefold() not in book.sheets:
                book.add_sheet(edit.sheet)
            part = book.sheet_part(edit.sheet)
            if part in self.infos and part not in self.scanned and part not in self.data:
                check_editable(
                    functools.partial(self.stream, part),
                    edit.sheet,
                    self.path.name,
                    rows(edit.sheet) if rows else MAX_ROWS,
                )
                self.scanned[part] = True
            sheet = Sheet(self._unkept(part), f"{self.path.name}: sheet {edit.sheet!r}")
            if sheet.apply(edit, strings):
                self.changed[part] = sheet.to_bytes()
                self._pack_early(part)
            formulas_removed = formulas_removed or sheet.formulas_removed
            del sheet  # its rows taken apart let go before the next sheet's
        for part in self._large_packings():
            self._let_go(part)
        self.changed = {
            k: v
            for k, v in self.changed.items()
            if k not in self.infos or not self._unchanged(k, v)
        }
        if not self.changed:
            return False
        if formulas_removed and book.calc_chain:
            book.drop_calc_chain()
        if self._has_formulas(book):
            book.recalculate_on_load()
        return True

    def _unkept(self, part: str) -> bytes:
        """A sheet's current bytes, unpacked without keeping them (`content` keeps a part):
        a season's Rounds sheet is a hundred MB, and the edited sheet is kept instead."""
        if part in self.changed or part in self.data or part not in self.infos:
            return self.part(part) or b""
        info = self.infos[part]
        stored = (
            stored_data(self.blob, info)
            if part in self.scanned
            and info.file_size
            and info.compress_type == zipfile.ZIP_DEFLATED
            else None
        )
        if stored is not None:  # unpacked whole before (sound, of its size): into one piece
            data = zlib.decompress(stored, -15, info.file_size)
            if len(data) == info.file_size and zlib.crc32(data) == info.CRC:
                return data
        return b"".join(self.stream(part))

    def _unchanged(self, part: str, content: bytes | Packed | None) -> bool:
        """Is this the part's content as stored? Told by its size and CRC where they differ,
        without unpacking the part again (a packed part was told when it was packed)."""
        info = self.infos[part]
        if (
            content is None
            or isinstance(content, Packed)
            or len(content) != info.file_size
            or zlib.crc32(content) != info.CRC
        ):
            return False
        return content == self.content(part)

    def _strings(self, part: str) -> bytes | None:
        """The shared-string table, once its texts are counted (see `count_strings`)."""
        from keizer_xl.workbook.xlsx._strings import MAX_TABLE, count_strings

        if part not in self.data and part not in self.changed:
            count_strings(self.stream(part, MAX_TABLE), self.path.name, part)
        return self.part(part)

    def _has_formulas(self, book: WorkbookParts) -> bool:
        """Does any worksheet hold a formula (whose cached value our edit may make stale)?"""
        for part in book.worksheet_parts():
            if part not in self.infos or (
                self.scanned.get(part) is False and part not in self.changed
            ):
                continue  # added by this save (its formulas are ours), or read: none there
            with self.zip.open(self.infos[part]) as member:
                p = root_prefix(member.read(4096).decode("utf-8", "replace"), "worksheet")
            if self.mentions(part, formula_tag(p)):
                return True
        return False

    def _pack_early(self, part: str) -> None:
        """Start compressing a large changed part in a second thread (zlib lets go of the
        interpreter while it works), so that a season's Rounds sheet is packed while its
        Standings sheet is still being written."""
        info = self.infos.get(part)
        content = self.changed[part]
        if (
            info is not None
            and isinstance(content, bytes)
            and len(content) >= PACK_EARLY
            and info.compress_type == zipfile.ZIP_DEFLATED
        ):
            from concurrent.futures import ThreadPoolExecutor

            packer = ThreadPoolExecutor(1)
            self.packing[part] = (content, packer.submit(deflate, content))
            packer.shutdown(wait=False)  # the thread ends when it has done this

    def _large_packings(self) -> list[str]:
        return [part for part, (content, _) in self.packing.items() if len(content) >= LET_GO]

    def _let_go(self, part: str) -> None:
        """Keep a large changed part as `_pack_early` packed it, and let go of its bytes
        (a season's Rounds sheet is a hundred MB unpacked, a tenth of that packed), once
        it is known to differ from the part as stored (else it is no change)."""
        content, packing = self.packing.pop(part)
        packed = packing.result()
        if self.changed.get(part) is not content:  # edited again since: packed in vain
            return
        info = self.infos[part]
        if (
            packed.size == info.file_size
            and packed.crc == info.CRC
            and content == self.content(part)
        ):
            del self.changed[part]
        else:
            self.changed[part] = packed

    def _packed(self, info: zipfile.ZipInfo) -> Packed | None:
        """The stored data of a member when it can be taken over: an unchanged part's as
        it is, a changed one's once `_pack_early` packed this very content."""
        if info.filename not in self.changed:
            stored = stored_data(self.blob, info)
            return None if stored is None else Packed(stored, info.CRC, info.file_size)
        content = self.changed[info.filename]
        if isinstance(content, Packed):
            return content
        early = self.packing.get(info.filename)
        return early[1].result() if early is not None and early[0] is content else None

    def _new_entry(self, name: str) -> zipfile.ZipInfo:
        folder = posixpath.dirname(name).lower()
        return new_entry_like(
            name,
            next(
                (
                    info
                    for info in self.members
                    if posixpath.dirname(info.filename).lower() == folder
                ),
                None,
            ),
        )

    def add(self, name: str, content: bytes) -> None:
        """A new part, written after the others on saving."""
        self.by_lower[name.lower()] = name
        self.changed[name] = content

    def write(self, path: Path) -> None:
        """Write the package (changed parts replaced) into the file at `path`.

        Unchanged parts keep their compressed data as stored: copying it is much quicker
        than compressing the content again, the content is the same, and a part that
        would unpack to far more than it takes on disk is never unpacked (nor kept)."""
        write_members(path, self._to_write(), self.comment, lambda i: self._unkept(i.filename))

    def check_writable(self) -> None:
        """Refuse what could be written only by unpacking a part past `MAX_PART`, before
        writing: `check` refuses what `recalc` and `pair` would, within the same memory."""
        refuse_unpacking(self._to_write(), MAX_PART, self.path.name)

    def _to_write(self) -> list[Member]:
        """The members of the package to write, each with its content or stored data."""
        kept: list[Member] = []
        for info in self.members:
            if info.filename in self.changed:
                new = self.changed[info.filename]
                if new is not None:
                    kept.append(
                        (info, None if isinstance(new, Packed) else new, self._packed(info))
                    )
            else:
                packed = self._packed(info)
                kept.append((info, None if packed else self.content(info.filename), packed))
        for name, content in self.changed.items():
            if name not in self.infos and isinstance(content, bytes):  # added by this save
                kept.append((self._new_entry(name), content, None))
        return kept


def _not_a_zip(path: Path) -> NotAWorkbook:
    """Why a file that is no zip package is not a workbook keizer_xl can use."""
    try:
        with open(path, "rb") as f:
            head = f.read(8)
            rest = f.read(64 << 20) if head == _OLE_MAGIC else b""  # its directory
    except OSError:
        head = rest = b""
    if head == _OLE_MAGIC and "EncryptedPackage".encode("utf-16-le") in rest:
        return NotAWorkbook(
            "{file} is protected with a password, so keizer_xl cannot read it. Open it in "
            "Excel, remove the password (File > Info > Protect Workbook), save, and try again.",
            file=path.name,
        )
    if head == _OLE_MAGIC:
        return NotAWorkbook(
            "{file} is an old-style Excel file (.xls). Open it in Excel or LibreOffice and "
            "save it as an Excel workbook (.xlsx, or .xlsm with the buttons).",
            file=path.name,
        )
    return NotAWorkbook(
        "{file} is not an Excel workbook (.xlsx or .xlsm), or it is damaged.", file=path.name
    )


def _rel_id(element: Element) -> str | None:
    """The r:id of an element, in either the transitional or the strict namespace."""
    for key, value in element[2].items():
        if "}" in key and local(key) == "id" and "relationships" in key:
            return value
    return None


class WorkbookParts:
    """Where the workbook part, its sheets, shared strings and calculation chain live."""

    def __init__(self, package: Package):
        self.package = package
        name = package.path.name
        root_rels = self.relationships("")
        office = [t for kind, t in root_rels.values() if kind.endswith("/officeDocument")]
        if not office or package.part(office[0]) is None:
            raise NotAWorkbook("{file} is not an Excel workbook (.xlsx or .xlsm).", file=name)
        self.workbook = office[0]
        if not self.workbook.lower().endswith(".xml"):
            raise NotAWorkbook(
                "{file} is a binary workbook (.xlsb); save it as .xlsx or .xlsm and use that.",
                file=name,
            )

        self.rels = self.relationships(self.workbook)
        self.rels_part = rels_part_of(self.workbook)
        try:
            found = elements(package.part(self.workbook) or b"")
        except Exception as exc:  # expat's errors, and any other of what is no XML
            raise NotAWorkbook(
                "{file} is damaged (its workbook part is unreadable).", file=name
            ) from exc
        self.sheets: dict[str, tuple[str, str]] = {}  # casefolded name -> (name, rel id)
        for element in found:
            if local(element[1]) == "sheet":
                rid = _rel_id(element)
                sheet_name = element[2].get("name")
                if rid and sheet_name is not None:
                    self.sheets[sheet_name.casefold()] = (sheet_name, rid)
        self.shared_strings = self._target_of("/sharedStrings")
        self.calc_chain = self._target_of("/calcChain")
        self.calc_chain_rel = next(
            (rid for rid, (kind, _) in self.rels.items() if kind.endswith("/calcChain")), None
        )

    def relationships(self, source: str) -> dict[str, tuple[str, str]]:
        """Relationship id -> (type, target part) for a part's relationships ('' = package)."""
        data = self.package.part(rels_part_of(source))
        if data is None:
            return {}
        try:
            rels = [
                attributes
                for depth, name, attributes in elements(data)
                if depth == 1 and local(name) == "Relationship"
            ]
        except Exception as exc:
            raise NotAWorkbook(
                "{file} is damaged (bad relationships).", file=self.package.path.name
            ) from exc
        base = posixpath.dirname(source)
        found = {}
        for rel in rels:
            if rel.get("TargetMode") == "External":
                continue
            target = unquote(rel.get("Target", ""))
            target = target.lstrip("/") if target.startswith("/") else posixpath.join(base, target)
            found[rel.get("Id", "")] = (rel.get("Type", ""), posixpath.normpath(target))
        return found

    def _target_of(self, kind: str) -> str | None:
        """The part of this kind the workbook refers to, if it is there (not unpacked)."""
        for rel_kind, target in self.rels.values():
            if rel_kind.endswith(kind) and target.lower() in self.package.by_lower:
                return self.package.by_lower[target.lower()]
        return None

    def sheet_part(self, sheet: str) -> str:
        """The zip member holding the worksheet called `sheet` (case-insensitive)."""
        name = self.package.path.name
        found = self.sheets.get(sheet.casefold())
        if found is None:
            known = ", ".join(repr(n) for n, _ in self.sheets.values())
            raise MissingSheet(
                "{file} has no sheet called '{sheet}' (it has {sheets}).",
                file=name,
                sheet=sheet,
                sheets=known,
            )
        real_name, rid = found
        kind, target = self.rels.get(rid, ("", ""))
        if not kind.endswith("/worksheet"):
            raise MissingSheet(
                "'{sheet}' in {file} is not an ordinary worksheet.", sheet=real_name, file=name
            )
        part = self.package.by_lower.get(target.lower())
        if part is None:
            raise NotAWorkbook(
                "{file} is damaged: sheet '{sheet}' is missing.", file=name, sheet=real_name
            )
        return part

    def add_sheet(self, sheet: str) -> None:
        """Add an empty worksheet called `sheet` after the others: its part, its entry in
        the workbook, its relationship and its content type (the rest stays as it is)."""
        package = self.package
        existing = list(self.worksheet_parts())
        folder = (
            posixpath.dirname(existing[0])
            if existing
            else posixpath.join(posixpath.dirname(self.workbook), "worksheets")
        )
        number = 1
        while posixpath.join(folder, f"sheet{number}.xml").lower() in package.by_lower:
            number += 1
        part = posixpath.join(folder, f"sheet{number}.xml")
        workbook_part = package.by_lower[self.workbook.lower()]
        text = package.text(workbook_part)
        p = root_prefix(text, "workbook")
        main = _namespace(text, p.rstrip(":"))
        package.add(
            part,
            (
                '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                f'<worksheet xmlns="{main}"><sheetData/></worksheet>'
            ).encode(),
        )
        kind = next((k for k, t in self.rels.values() if k.endswith("/worksheet")), _WORKSHEET_REL)
        rid = next(f"rId{n}" for n in range(1, len(self.rels) + 2) if f"rId{n}" not in self.rels)
        sheet_tags = [tag for _, tag in tags(text, p, "sheet")]
        ids = [int(i) for tag in sheet_tags if (i := attr(tag, "sheetId") or "").isdigit()]
        r = next((m.group(1) for tag in sheet_tags if (m := _REL_ID.search(tag))), None)
        if r is None:
            r = "r"
            declared = f'<{p}workbook xmlns:r="{_rel_namespace(kind)}"'
            text = text.replace(f"<{p}workbook", declared, 1)
        end = text.find(f"</{p}sheets>")
        if end < 0:
            raise NotAWorkbook(
                "{file} is damaged (its sheet list is not closed).", file=package.path.name
            )
        entry = (
            f'<{p}sheet name="{escape_attr(sheet)}" sheetId="{max(ids, default=0) + 1}" '
            f'{r}:id="{rid}"/>'
        )
        package.changed[workbook_part] = (text[:end] + entry + text[end:]).encode("utf-8")
        rels_part = package.by_lower[self.rels_part.lower()]
        rels = package.text(rels_part)
        target = posixpath.relpath(part, posixpath.dirname(self.workbook) or ".")
        close = rels.rfind("</")
        package.changed[rels_part] = (
            rels[:close] + f'<Relationship Id="{rid}" Type="{kind}" '
            f'Target="{target}"/>' + rels[close:]
        ).encode("utf-8")
        types_part = package.by_lower.get("[content_types].xml")
        if types_part is not None:
            types = package.text(types_part)
            close = types.rfind("</")
            package.changed[types_part] = (
                types[:close]
                + f'<Override PartName="/{part}" ContentType="{_WORKSHEET_TYPE}"/>'
                + types[close:]
            ).encode("utf-8")
        self.sheets[sheet.casefold()] = (sheet, rid)
        self.rels[rid] = (kind, part)

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
        rels = package.text(rels_part)
        rels = remove_elements(rels, "Relationship", lambda a: a.get("Id") == self.calc_chain_rel)
        package.changed[rels_part] = rels.encode("utf-8")
        types_part = package.by_lower.get("[content_types].xml")
        if types_part is not None:
            types = package.text(types_part)
            wanted = "/" + self.calc_chain.lower()
            types = remove_elements(
                types, "Override", lambda a: a.get("PartName", "").lower() == wanted
            )
            package.changed[types_part] = types.encode("utf-8")

    def recalculate_on_load(self) -> None:
        """Ask Excel/LibreOffice to recompute formulas on opening (set `fullCalcOnLoad`)."""
        package = self.package
        part = package.by_lower[self.workbook.lower()]
        text = package.text(part)
        p = root_prefix(text, "workbook")
        calc = next(tags(text, p, "calcPr"), None)
        if calc is not None:
            start, tag = calc
            if attr(tag, "fullCalcOnLoad") in ("1", "true"):
                return
            text = text[:start] + set_attr(tag, "fullCalcOnLoad", "1") + text[start + len(tag) :]
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


_WORKSHEET_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"
_WORKSHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
_REL_ID = re.compile(r"\s([\w.-]+):id=")


def _namespace(text: str, prefix: str) -> str:
    """The namespace a root element's prefix ('' for the default) stands for."""
    attribute = f"xmlns:{prefix}" if prefix else "xmlns"
    found = re.search(rf'\s{re.escape(attribute)}="([^"]*)"', text)
    return found.group(1) if found else "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def _rel_namespace(kind: str) -> str:
    """The relationships namespace of a relationship type (strict or transitional)."""
    return kind.rsplit("/", 1)[0]


def rels_part_of(part: str) -> str:
    folder, base = posixpath.split(part)
    return posixpath.join(folder, "_rels", base + ".rels")
