"""The shared-string table, counted as it is unpacked: how many texts it holds and how
long each one is at most, before anything else reads it.

A table of twelve million empty texts fits in a few kilobytes of a file and would cost a
reader gigabytes; one that claims two billion texts makes calamine reserve room for them
(and abort). So the table is counted first (`count_strings`), refused past `MAX_STRINGS`,
and told its true size where it claims more (`told_its_size`); what each text's length is
at most lets the scan of a sheet count the text its cells take from the table
(`StringTable.text`).
"""

from __future__ import annotations

import functools
import re
from array import array
from collections.abc import Iterable, Sequence

from keizer_xl.workbook.xlsx._xmltext import TAG_REST, attr, root_prefix, unfinished
from keizer_xl.workbook.xlsx.errors import NotAWorkbook

MAX_STRINGS = 1_000_000  # texts in the shared-string table
MAX_TABLE = 64 << 20  # bytes the shared-string table may unpack to


class StringTable:
    """The shared-string table as counted while it was unpacked: for each text the length
    of its markup (its text is no longer), and how many texts the table claims to hold."""

    def __init__(self) -> None:
        self.lengths: array[int] = array("q")
        self.declared: int | None = None  # its uniqueCount, if it gives one
        self.longest = 0
        self.beyond = False  # a cell was found whose index is past the table's end

    @property
    def honest(self) -> bool:
        """Does it claim no more texts than it holds (a reader may reserve room for them)?"""
        return self.declared is None or self.declared <= len(self.lengths)

    def text(self, indexes: Sequence[bytes]) -> int:
        """The bytes of text at most that cells referring to these entries hold."""
        if not indexes:
            return 0
        import numpy as np

        found = np.fromiter(map(int, indexes), dtype=np.int64, count=len(indexes))
        lengths = (
            np.frombuffer(self.lengths, dtype=np.int64)
            if self.lengths
            else np.zeros(0, dtype=np.int64)
        )
        within = found < len(lengths)
        self.beyond = self.beyond or not within.all()
        return int(lengths[found[within]].sum())


@functools.cache
def _string_patterns(p: str) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    """For a prefix: the start of each text of the table, and the table's start tag."""
    e = re.escape(p.encode())
    return (
        re.compile(rb"<" + e + rb"si(?=[\s>/])"),
        re.compile(rb"<" + e + rb"sst" + TAG_REST.encode()),
    )


def count_strings(pieces: Iterable[bytes], file: str, part: str) -> StringTable:
    """Count the texts of a shared-string table as it is unpacked: NotAWorkbook as soon as
    there are more than `MAX_STRINGS` (the caller unpacks it under `MAX_TABLE`)."""
    table = StringTable()
    starts, head = None, None
    offset = last = 0
    rest = b""
    for data in pieces:
        if starts is None:
            p = root_prefix(data[:4096].decode("utf-8", "replace"), "sst")
            starts, head = _string_patterns(p)
            found = head.search(data[:4096])
            declared = (
                attr(found.group(0).decode("utf-8", "replace"), "uniqueCount") if found else None
            )
            table.declared = int(declared) if declared and declared.isdigit() else None
        buf = rest + data
        cut = buf.rfind(b">") + 1  # a start tag is never cut in two
        for at in (offset + m.start() for m in starts.finditer(buf, 0, cut)):
            if last:
                table.lengths.append(at - last)
            last = at
        if len(table.lengths) >= MAX_STRINGS:
            raise NotAWorkbook(
                "{file} is damaged or hostile: its part {part} holds more than {most} texts.",
                file=file,
                part=part,
                most=f"{MAX_STRINGS:,}",
            )
        rest = unfinished(buf, cut)
        offset += len(buf) - len(rest)
    if last:
        table.lengths.append(offset + len(rest) - last)
    table.longest = max(table.lengths, default=0)
    return table


def told_its_size(data: bytes, table: StringTable) -> bytes:
    """The table with its start tag telling the number of texts it really holds, for a
    table that claims more (calamine would reserve room for what it claims)."""
    if table.honest:
        return data
    p = root_prefix(data[:4096].decode("utf-8", "replace"), "sst")
    head = _string_patterns(p)[1].search(data)
    if head is None:
        return data
    count = str(len(table.lengths)).encode()
    tag = re.sub(
        rb"""(\s(?:uniqueCount|count)\s*=\s*)(["'])[^"']*\2""",
        lambda m: m.group(1) + b'"' + count + b'"',
        head.group(0),
    )
    return data[: head.start()] + tag + data[head.end() :]
