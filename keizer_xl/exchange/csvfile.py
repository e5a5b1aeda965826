"""Reading and writing the text files other programs make: their encodings, their CSV
dialects, and an atomic write.

Clubs' files come from Windows programs and Excel as often as from anywhere else: UTF-8
with or without a byte-order mark, or Windows-1252 (the KNSB rating list is Latin-1).
"""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from keizer_xl.core.errors import KeizerXLError, Problems
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
        raise TextFileProblem(
            msg("{file}: could not be read ({reason})", file=path, reason=exc.strerror or exc)
        ) from None
    if b"\0" in data[:4096]:
        raise TextFileProblem(msg("{file}: not a text file", file=path))

    return decode(data)


def file_lines(path: Path) -> Iterator[str]:
    """A text file's lines (each with its line break), decoded as `read_text` decodes the
    whole file, but read as they are needed: a rating list of a million lines is never held
    whole. Whether the file is UTF-8 is told by reading it once first, piece by piece."""
    if path.is_dir():
        raise TextFileProblem(msg("{file}: this is a folder, not a file", file=path))
    try:
        with open(path, "rb") as raw:
            if b"\0" in raw.read(4096):
                raise TextFileProblem(msg("{file}: not a text file", file=path))
            raw.seek(0)
            encoding = _encoding(raw, path)
        with open(path, encoding=encoding, errors="replace", newline="") as text:
            yield from text
    except FileNotFoundError:
        raise TextFileProblem(msg("{file}: there is no such file", file=path)) from None
    except OSError as exc:
        raise TextFileProblem(
            msg("{file}: could not be read ({reason})", file=path, reason=exc.strerror or exc)
        ) from None


def _encoding(raw: BinaryIO, path: Path) -> str:
    """The one encoding of the whole file: UTF-8 when every line is, Windows-1252 when no
    line holds a letter written in UTF-8. A file with lines of both (a list saved as UTF-8
    and then added to in an old Windows program) is refused naming the first line that
    does not fit the rest: read as one, the other's letters would be garbled (`ZoÃ«`).
    A file that is UTF-8 throughout, as most are, is told so in one pass of the decoder."""
    if _utf8(raw):
        return "utf-8-sig"
    raw.seek(0)
    first: dict[bool, int] = {}  # UTF-8 or not: the first line of each with a letter beyond ASCII
    counts = {True: 0, False: 0}
    number, rest = 0, b""
    while True:
        piece = raw.read(1 << 20)
        lines = (rest + piece).split(b"\n")
        rest = lines.pop() if piece else b""
        for line in lines:
            number += 1
            if line.isascii():
                continue
            utf8 = _is_utf8(line)
            counts[utf8] += 1
            first.setdefault(utf8, number)
        if not piece:
            break
    if counts[True] and counts[False]:
        odd = counts[True] < counts[False]  # the fewer lines are the ones that do not fit
        raise TextFileProblem(
            msg(
                "{file}, line {line}: this line is written in {odd}, the rest of the file in "
                "{even}; save the whole list in one of them (in Excel: CSV UTF-8) and try again",
                file=path,
                line=first[odd],
                odd="UTF-8" if odd else "Windows-1252",
                even="Windows-1252" if odd else "UTF-8",
            )
        )
    return "cp1252" if counts[False] else "utf-8-sig"


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


def _is_utf8(line: bytes) -> bool:
    try:
        codecs.decode(line, "utf-8")
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


def text_lines(text: str) -> list[str]:
    """The lines of a text as an editor counts them: ended by a line feed, a carriage return
    or both (not by the other characters `str.splitlines` also breaks at)."""
    return [line.rstrip("\r\n") for line in io.StringIO(text, newline="")]


def header_key(header: object) -> str:
    """A list's header as the doors match it: letters and digits only, case ignored
    (`KNSB-nummer`, `knsb nummer` and `KNSBNummer` are one header)."""
    return "".join(ch for ch in str(header or "").casefold() if ch.isalnum())


@dataclass(frozen=True)
class Record:
    """One row of a CSV text: the line it starts on (1-based) and its cells."""

    line: int
    cells: list[str]


def records(lines: Iterable[str], problems: Problems) -> Iterator[Record]:
    """CSV lines (each with its line break) as rows of cells, separator sniffed from the
    first lines, each with the line it starts on, read as they are asked for: a list of a
    million lines is never held whole.

    A quoted cell may hold a line break, so one row may take several lines; but a quote that
    is not closed would take the lines after it into one cell, merging members into one. So
    a row is a problem at its first line when its quote runs to the end of the file, or
    takes in whole lines of the list (as many separators as the first line has). So is a
    line the CSV reader cannot read at all (a NUL character, a cell of a megabyte)."""
    source = _Lines(lines)
    dialect = sniff_dialect("".join(source.head(20)))
    quote = str(dialect.quotechar or '"')
    source.quote = quote
    reader = csv.reader(source, dialect=dialect)
    start, width = 1, 0
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            problems.add(_unreadable(exc), line=max(start, reader.line_num))
            source.taken()
            if reader.line_num < start:  # the reader did not move on: nothing more to read
                break
            start = reader.line_num + 1
            continue
        end = reader.line_num
        width = width or len(cells)
        row = source.taken()
        if end > start and _unclosed(row, str(dialect.delimiter), quote, width):
            problems.add(
                msg(
                    "a quote ({quote}) on this line is not closed before line {end}; "
                    "close it or take it out",
                    quote=quote,
                    end=end,
                )
                if source.more() or source.quotes % 2 == 0
                else msg(
                    "a quote ({quote}) on this line is not closed before the end of "
                    "the file; close it or take it out",
                    quote=quote,
                ),
                line=start,
            )
        else:
            yield Record(start, cells)
        start = end + 1


class _Lines:
    """Lines handed to the CSV reader one by one, keeping those of the row being read
    (`taken`) and counting the quotes that went by; the first can be looked at before."""

    def __init__(self, lines: Iterable[str]):
        self.lines = iter(lines)
        self.ahead: list[str] = []
        self.row: list[str] = []
        self.quote = '"'
        self.quotes = 0

    def head(self, count: int) -> list[str]:
        while len(self.ahead) < count and (line := next(self.lines, None)) is not None:
            self.ahead.append(line)
        return self.ahead[:count]

    def more(self) -> bool:
        """Is there a line after those read so far?"""
        return bool(self.head(1))

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        line = self.ahead.pop(0) if self.ahead else next(self.lines)
        self.row.append(line)
        self.quotes += line.count(self.quote)
        return line

    def taken(self) -> list[str]:
        """The lines read since the last time this was asked."""
        row, self.row = self.row, []
        return row


def _unclosed(lines: list[str], separator: str, quote: str, width: int) -> bool:
    """Do these lines, read as one row, look like a quote left open: an odd number of
    quotes (closed only by the end of the file), or a line taken in whole (the part of it
    inside the quote holds as many separators as a row of the list)?"""
    if "".join(lines).count(quote) % 2:
        return True
    inside = [lines[0].rsplit(quote, 1)[-1], *lines[1:-1], lines[-1].split(quote, 1)[0]]
    return any(line.count(separator) >= max(1, width - 1) for line in inside)


def _unreadable(exc: csv.Error) -> str:
    reason = str(exc)
    if "NUL" in reason:
        return msg("this line holds a NUL character: is this a text file?")
    if "field larger than field limit" in reason:
        return msg(
            "a cell on this line is longer than {most} characters",
            most=f"{csv.field_size_limit():,}",
        )
    return msg("this line cannot be read as CSV ({reason})", reason=reason)


def write_text(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Write a text file atomically (see `write_atomically`), lines ending in `\\n`."""
    from keizer_xl.workbook.xlsx import write_bytes_atomically

    write_bytes_atomically(path, text.encode(encoding))
