"""Zip-level copying: a package written member by member, untouched members copied raw.

Compressing a workbook's parts again costs far more than saving them, and the content
would be the same; so a member that did not change keeps its compressed bytes exactly as
they were stored, found in the original file by its local header. Changed members are
deflated here (a large one early, in a second thread) and the zip is written with the
original entries' names, dates, compression and attributes. Packages this writer cannot
copy (zip64 sizes, rare compressions) are written by `zipfile` instead.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO, NamedTuple

from keizer_xl.workbook.xlsx.errors import NotAWorkbook

_ZIP64_EXTRA = 0x0001
_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")
_CENTRAL_HEADER = struct.Struct("<4s4B4HL2L5H2L")
_END_RECORD = struct.Struct("<4s4H2LH")
_COPYABLE = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
_UTF8_NAME = 0x800
# zlib's quickest level for the parts written again: a season's sheets (megabytes of XML
# each) are packed in a third of the time of zipfile's default level, a quarter larger
PACK_LEVEL = 1


def stored_data(blob: bytes, info: zipfile.ZipInfo) -> bytes | None:
    """A member's data as stored in the zip file `blob` (compressed), or None if it cannot
    be found as it should be."""
    at = info.header_offset
    if blob[at : at + 4] != b"PK\x03\x04":
        return None
    name_length, extra_length = struct.unpack_from("<2H", blob, at + 26)
    start = at + _LOCAL_HEADER.size + name_length + extra_length
    data = blob[start : start + info.compress_size]
    return data if len(data) == info.compress_size else None


class Packed(NamedTuple):
    """A member's data as stored (compressed), with its CRC and unpacked size: all a zip
    entry needs, so that a large part written again need not be kept unpacked."""

    data: bytes
    crc: int
    size: int


# (original entry, content or None when only copied, its stored data or None): `_write_zip`
Member = tuple[zipfile.ZipInfo, bytes | None, Packed | None]
PACK_EARLY = 1 << 20  # bytes: a part this large is compressed in a second thread


def plain_zip(members: Sequence[Member]) -> bool:
    """Can `_write_zip` write these (no zip64 sizes or offsets, stored or deflated only)?

    The file's offsets count stored bytes, which a member copied as stored keeps few of
    even when it unpacks to a lot (it is never unpacked here)."""
    stored = sum(
        len(packed.data) if packed else _size(info, content, packed) + 1024
        for info, content, packed in members
    )
    return (
        len(members) < 0xFFFF
        and stored < zipfile.ZIP64_LIMIT // 2
        and all(
            _size(info, content, packed) < zipfile.ZIP64_LIMIT and info.compress_type in _COPYABLE
            for info, content, packed in members
        )
    )


def refuse_unpacking(members: Sequence[Member], most: int, file: str) -> None:
    """Refuse, before anything is written, a package that could be written again only by
    unpacking a part of more than `most` bytes: one `plain_zip` cannot copy (a part
    declared at gigabytes needs zip64 sizes) goes to `zipfile`, which unpacks every part.
    Told by the sizes the package declares, so nothing is unpacked to tell it."""
    if plain_zip(members):
        return
    for info, content, _ in members:
        if content is None and info.file_size > most:
            raise NotAWorkbook(
                "{file} is damaged or hostile: its part {part} would unpack to "
                "{size} MB; keizer_xl unpacks at most {most} MB of one part.",
                file=file,
                part=info.filename,
                size=info.file_size >> 20,
                most=most >> 20,
            )


def new_entry_like(name: str, model: zipfile.ZipInfo | None) -> zipfile.ZipInfo:
    """A zip entry for a new part, dated and flagged like a part of the same kind."""
    entry = zipfile.ZipInfo(name, model.date_time if model else (1980, 1, 1, 0, 0, 0))
    entry.compress_type = zipfile.ZIP_DEFLATED
    if model is not None:
        entry.create_system, entry.external_attr = model.create_system, model.external_attr
    return entry


def _size(info: zipfile.ZipInfo, content: bytes | None, packed: Packed | None) -> int:
    """A member's unpacked size: its content's, or its stored data's."""
    return len(content) if content is not None else packed.size if packed else info.file_size


def deflate(content: bytes) -> Packed:
    """A part's data compressed as zipfile does it (ZIP_DEFLATED, at `PACK_LEVEL`)."""
    packer = zlib.compressobj(PACK_LEVEL, zlib.DEFLATED, -15)
    return Packed(packer.compress(content) + packer.flush(), zlib.crc32(content), len(content))


def inflated(packed: Packed, piece: int = 1 << 20) -> Iterator[bytes]:
    """The content of deflated stored data, `piece` bytes at a time."""
    unpacker = zlib.decompressobj(-15)
    data = packed.data
    while data:
        yield unpacker.decompress(data, piece)
        data = unpacker.unconsumed_tail
    if rest := unpacker.flush():
        yield rest


def _write_zip(out: BinaryIO, members: Sequence[Member], comment: bytes) -> None:
    """Write a zip package as zipfile writes one, taking stored data over where given.

    `members` are (original entry, content, (stored data, CRC) or None); a member without
    stored data is compressed here as zipfile does, one with stored data is copied as it is
    (its content then need not be given). Names, dates, compression, attributes,
    extra fields and comments are the original entries'."""
    directory: list[bytes] = []
    offset = 0
    for info, content, packed in members:
        if packed is not None:
            stored, crc = packed.data, packed.crc
        else:
            assert content is not None, f"{info.filename}: neither content nor stored data"
            if info.compress_type == zipfile.ZIP_DEFLATED:
                stored, crc, _ = deflate(content)
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
        fields = (
            flags,
            info.compress_type,
            time,
            date,
            crc,
            len(stored),
            _size(info, content, packed),
            len(name),
            len(extra),
        )
        out.write(_LOCAL_HEADER.pack(b"PK\x03\x04", 20, 0, *fields) + name + extra)
        out.write(stored)
        directory.append(
            _CENTRAL_HEADER.pack(
                b"PK\x01\x02",
                info.create_version,
                info.create_system,
                20,
                0,
                *fields,
                len(info.comment),
                0,
                info.internal_attr,
                info.external_attr,
                offset,
            )
            + name
            + extra
            + info.comment
        )
        offset += _LOCAL_HEADER.size + len(name) + len(extra) + len(stored)
    central = b"".join(directory)
    out.write(central)
    out.write(
        _END_RECORD.pack(
            b"PK\x05\x06", 0, 0, len(members), len(members), len(central), offset, len(comment)
        )
        + comment
    )


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


def write_members(
    path: Path, members: Sequence[Member], comment: bytes, load: Callable[[zipfile.ZipInfo], bytes]
) -> None:
    """Write a package of `members` into the file at `path`; `load` gives the content of a
    member given without it, should zipfile have to write the package."""
    with open(path, "wb") as out:
        write_members_to(out, members, load, comment)


def write_members_to(
    out: BinaryIO,
    members: Sequence[Member],
    load: Callable[[zipfile.ZipInfo], bytes],
    comment: bytes = b"",
) -> None:
    """`write_members` into an open file (or a file in memory)."""
    if plain_zip(members):
        _write_zip(out, members, comment)
    else:  # zip64 sizes or a rare compression: zipfile writes it
        with zipfile.ZipFile(out, "w") as package:
            package.comment = comment
            for info, content, _ in members:
                entry = _same_entry(info)
                package.writestr(
                    entry, load(info) if content is None else content, compresslevel=PACK_LEVEL
                )
                entry.external_attr = info.external_attr  # zipfile fills in 0o600
