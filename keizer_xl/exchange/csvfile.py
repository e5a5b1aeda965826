"""Reading and writing the text files other programs make: their encodings, their CSV
dialects, and an atomic write.

Clubs' files come from Windows programs and Excel as often as from anywhere else: UTF-8
with or without a byte-order mark, or Windows-1252 (the KNSB rating list is Latin-1).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

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
        raise TextFileProblem(msg("{file}: could not be read ({reason})", file=path,
                                  reason=exc.strerror or exc)) from None
    if b"\0" in data[:4096]:
        raise TextFileProblem(msg("{file}: not a text file", file=path))

    return decode(data)


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


@dataclass(frozen=True)
class Record:
    """One row of a CSV text: the line it starts on (1-based) and its cells."""

    line: int
    cells: list[str]


def read_records(text: str, problems: Problems) -> list[Record]:
    """A CSV text as rows of cells, separator sniffed, each with the line it starts on.

    A quoted cell may hold a line break, so one row may take several lines; but a quote that
    is not closed would take the lines after it into one cell, merging members into one. So
    a row is a problem at its first line when its quote runs to the end of the file, or
    takes in whole lines of the list (as many separators as the first line has). So is a
    line the CSV reader cannot read at all (a NUL character, a cell of a megabyte)."""
    lines = io.StringIO(text, newline="").readlines()
    dialect = sniff_dialect(text)
    reader = csv.reader(lines, dialect=dialect)
    records: list[Record] = []
    start, width = 1, 0
    quote = str(dialect.quotechar or '"')
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            problems.add(_unreadable(exc), line=max(start, reader.line_num))
            if reader.line_num < start:  # the reader did not move on: nothing more to read
                break
            start = reader.line_num + 1
            continue
        end = reader.line_num
        width = width or len(cells)
        if end > start and _unclosed(lines[start - 1:end], str(dialect.delimiter), quote,
                                     width):
            problems.add(msg("a quote ({quote}) on this line is not closed before line {end}; "
                             "close it or take it out", quote=quote, end=end)
                         if end < len(lines) or text.count(quote) % 2 == 0 else
                         msg("a quote ({quote}) on this line is not closed before the end of "
                             "the file; close it or take it out", quote=quote), line=start)
        else:
            records.append(Record(start, cells))
        start = end + 1
    return records


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
        return msg("a cell on this line is longer than {most} characters",
                   most=f"{csv.field_size_limit():,}")
    return msg("this line cannot be read as CSV ({reason})", reason=reason)


def write_text(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Write a text file atomically (see `write_atomically`), lines ending in `\\n`."""
    from keizer_xl.workbook.xlsx import write_bytes_atomically

    write_bytes_atomically(path, text.encode(encoding))
