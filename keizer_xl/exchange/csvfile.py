"""Reading and writing the text files other programs make: their encodings, their CSV
dialects, and an atomic write.

Clubs' files come from Windows programs and Excel as often as from anywhere else: UTF-8
with or without a byte-order mark, or Windows-1252 (the KNSB rating list is Latin-1).
"""

from __future__ import annotations

import codecs
import csv
import itertools
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from keizer_xl.core.errors import KeizerXLError
from keizer_xl.core.messages import msg


class TextFileProblem(KeizerXLError):
    """An input file that cannot be read at all (missing, a folder, not text)."""


def decode(data: bytes) -> str:
    """The text of a file: UTF-8 (a byte-order mark dropped) when it is valid UTF-8, else
    Windows-1252, the Latin-1 of Windows (every byte means something there)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def read_text(path: Path) -> str:
    """A text file's contents, decoded as `decode` does; TextFileProblem if unreadable."""
    if path.is_dir():
        raise TextFileProblem(msg("{file}: this is a folder, not a file", file=path))
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise TextFileProblem(msg("{file}: there is no such file", file=path)) from None
    except OSError as exc:
        raise TextFileProblem(msg("{file}: could not be read ({reason})", file=path,
                                  reason=exc.strerror or exc)) from None
    if b"\0" in data[:4096]:
        raise TextFileProblem(msg("{file}: not a text file", file=path))

    return decode(data)


def text_lines(path: Path) -> Iterator[str]:
    """A text file's lines, decoded as `read_text` decodes the whole file, but read as they
    are needed: a rating list of a million lines is never held whole.

    Whether the file is UTF-8 is told by reading it once first, piece by piece."""
    if path.is_dir():
        raise TextFileProblem(msg("{file}: this is a folder, not a file", file=path))
    try:
        with open(path, "rb") as raw:
            if b"\0" in raw.read(4096):
                raise TextFileProblem(msg("{file}: not a text file", file=path))
            raw.seek(0)
            encoding = "utf-8-sig" if _utf8(raw) else "cp1252"
        with open(path, encoding=encoding, errors="replace") as text:
            yield from text
    except FileNotFoundError:
        raise TextFileProblem(msg("{file}: there is no such file", file=path)) from None
    except OSError as exc:
        raise TextFileProblem(msg("{file}: could not be read ({reason})", file=path,
                                  reason=exc.strerror or exc)) from None


def _utf8(raw: BinaryIO) -> bool:
    """Is the whole file valid UTF-8?"""
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        while piece := raw.read(1 << 20):
            decoder.decode(piece)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def sniff_dialect(text: str) -> type[csv.Dialect] | csv.Dialect:
    """The separator of a CSV text: comma, semicolon or tab, told by its first lines."""
    sample = "\n".join(text.splitlines()[:20])
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        return csv.excel


def rows_of(lines: Iterable[str]) -> Iterator[list[str]]:
    """CSV lines as rows of cells, separator sniffed from the first lines, read as needed."""
    lines = iter(lines)
    head = list(itertools.islice(lines, 20))
    sample = "\n".join(line.rstrip("\r\n") for line in head)
    return csv.reader(itertools.chain(head, lines), dialect=sniff_dialect(sample))


def read_rows(text: str) -> list[list[str]]:
    """A CSV text as rows of cells, separator sniffed."""
    return list(csv.reader(text.splitlines(), dialect=sniff_dialect(text)))


def write_text(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Write a text file atomically (see `write_atomically`), lines ending in `\\n`."""
    from keizer_xl.workbook.xlsx import write_bytes_atomically

    write_bytes_atomically(path, text.encode(encoding))
