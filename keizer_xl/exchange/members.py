"""The club's member list as the Players of a new workbook (`keizer-xl new --players LIST`).

Member lists come out of the club's administration as they are: CSV from Excel or a web
form (UTF-8 with or without a byte-order mark, or Windows-1252; comma, semicolon or tab),
or a workbook; headers in English, Dutch, German or Italian; columns of the club's own
(phone, e-mail, KNSB id, birth year). keizer_xl takes the name, rating and round columns it
knows, and keeps every other column, header and values as typed, as an own column of the
Players sheet.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from keizer_xl.core.checks import tidy
from keizer_xl.core.errors import Problems
from keizer_xl.core.messages import Message, msg
from keizer_xl.core.model import name_key, tidy_name
from keizer_xl.core.words import ERROR_VALUES, MAX_NAME, MAX_TEXT, CellError
from keizer_xl.exchange.csvfile import Record, file_lines, header_key, records
from keizer_xl.i18n import RECORDS


def _spellings(tables: Iterable[Mapping[str, tuple[str, ...]]]) -> dict[str, tuple[str, ...]]:
    """Each key's spellings over every language's table, in the records' order."""
    merged: dict[str, dict[str, None]] = {}
    for table in tables:
        for key, spellings in table.items():
            merged.setdefault(key, {}).update(dict.fromkeys(spellings))
    return {key: tuple(spellings) for key, spellings in merged.items()}


# The headers keizer_xl reads, by the Players column they fill (each language's record
# lists its country's); matched ignoring case, spaces, dots, dashes and underscores. Any
# other column is the club's own.
HEADERS = _spellings(record.member_headers for record in RECORDS.values())
# Lists that split the name: first name, tussenvoegsel (de, van der) and last name. (An
# Italian list's Nome is the first name beside its Cognome.)
NAME_PARTS = _spellings(record.name_parts for record in RECORDS.values())


_COLUMN = {header_key(h): column for column, spellings in HEADERS.items() for h in spellings}
_PART = {header_key(h): part for part, spellings in NAME_PARTS.items() for h in spellings}


@dataclass(frozen=True)
class MemberList:
    """The players (keys as the Players headers) and the club's own columns (header,
    one value per player), in the list's order."""

    players: list[dict[str, object]]
    own: list[tuple[str, list[str | int | float | None]]] = field(default_factory=list)
    name_headers: tuple[str, ...] = ()  # the name's column, or its parts' (first to last)
    rating_header: str = ""  # the rating's column ("": none)
    kept_header: str = ""  # a FIDE rating kept as an own column beside the national one


def read_members(path: Path, language: str = "en") -> MemberList:
    """A member list (.csv, .txt, .xlsx, .xlsm); a FileError with every bad line, said
    with the headers of the workbook's `language`."""
    if path.suffix.lower() in (".xlsx", ".xlsm"):
        rows, source = _workbook_rows(path)
        return parse_members(rows, source, language=language)
    problems = Problems(file=path.name)
    listed = _text_records(path, problems)
    return parse_members(
        [r.cells for r in listed], path.name, [r.line for r in listed], problems, language
    )


def _workbook_rows(path: Path) -> tuple[Sequence[Sequence[object]], str]:
    """The first sheet with a name column in its first row (else the first sheet), read as
    keizer_xl reads a club's workbook: within the Players sheet's limits, whatever the file
    declares or repeats (an error value as the error it is)."""
    from keizer_xl.workbook.files import list_sheets

    first: tuple[str, Sequence[Sequence[object]]] | None = None
    for title, rows in list_sheets(path):
        if rows and _has_names([header_key(h) for h in rows[0]]):
            return rows, msg("{file} (sheet {sheet})", file=path.name, sheet=title)
        first = first or (title, rows)
    title, rows = first or ("", [])
    return rows, msg("{file} (sheet {sheet})", file=path.name, sheet=title)


def _text_records(path: Path, problems: Problems) -> list[Record]:
    """The rows of a list in a text file, read no further than a Players sheet holds."""
    from keizer_xl.exchange.csvfile import TextFileProblem
    from keizer_xl.workbook.files import ROWS

    most = ROWS["Players"]
    listed = list(itertools.islice(records(file_lines(path), problems), most + 1))
    if len(listed) > most:
        raise TextFileProblem(
            msg(
                "{file}: more than {most} lines; keizer_xl takes at most "
                "{players} players from a list",
                file=path.name,
                most=f"{most:,}",
                players=f"{most - 1:,}",
            )
        )
    return listed


def _has_names(keys: Sequence[str]) -> bool:
    return any(_COLUMN.get(k) == "Name" for k in keys) or {"first", "last"} <= {
        _PART.get(k) for k in keys
    }


def parse_members(
    rows: Sequence[Sequence[object]],
    source: str,
    lines: Sequence[int] | None = None,
    problems: Problems | None = None,
    language: str = "en",
) -> MemberList:
    """The list's rows (the first is the header row) as players and own columns; `lines`
    are the rows' line numbers (by default 1, 2, 3, ...), and `problems` those found while
    reading them. Each player's values are checked by the Players sheet's own checks, so
    that nothing comes in that `check` would refuse."""
    problems = problems if problems is not None else Problems(file=source)
    lines = lines if lines is not None else range(1, len(rows) + 1)
    header = [_header(h) for h in rows[0]] if rows else []
    columns = _columns(header, lines[0] if rows else 1, problems, language)
    _check_size(header, columns.own, len(rows) - 1, lines[0], problems)
    listed = _listed(zip(lines[1:], rows[1:], strict=True), header, columns, problems)
    players = _checked(listed, header, columns.ours, problems)
    if not players and not problems:
        problems.add(msg("no players listed under the first line"))

    problems.raise_if_any()
    own = [(header[c], [_own(row[c]) for _, _, row in listed]) for c in columns.own]
    names = (
        (header[columns.ours["Name"]],)
        if "Name" in columns.ours
        else tuple(
            header[columns.parts[p]] for p in ("first", "infix", "last") if p in columns.parts
        )
    )
    rating = columns.ours.get("Rating")
    return MemberList(
        players,
        own,
        names,
        header[rating] if rating is not None else "",
        header[columns.kept] if columns.kept is not None else "",
    )


@dataclass(frozen=True)
class _Columns:
    """Where a list keeps what keizer_xl reads: the Players columns (`ours`, by name), the
    parts of a split name (when there is no name column), and the club's own columns; a
    FIDE rating beside the national one is `kept` among the own ones."""

    ours: dict[str, int]
    parts: dict[str, int]
    own: list[int]
    kept: int | None = None


def _columns(
    header: Sequence[str], line: int, problems: Problems, language: str = "en"
) -> _Columns:
    """The header row's columns; a list without a name column (or first and last name
    columns) is refused at once, naming the headers of the workbook's language."""
    keys = [header_key(h) for h in header]
    if not _has_names(keys):
        problems.add(
            msg(
                "the first line should name the columns, with one for the name ({headers})",
                headers=_name_headers(language),
            ),
            line=line,
        )
        problems.raise_if_any()
    part = _name_as_part(keys)
    ours: dict[str, int] = {}
    parts: dict[str, int] = {}
    for i, k in enumerate(keys):
        column = None if i == part else _COLUMN.get(k)
        if column is not None:
            ours.setdefault(column, i)
        elif _PART.get(k) and "Name" not in ours:
            parts.setdefault(_PART[k], i)
    if "Name" in ours:
        parts = {}
    fide = ours.pop("FIDE rating", None)
    kept = fide if "Rating" in ours else None
    if fide is not None and kept is None:
        ours["Rating"] = fide  # no national rating: the FIDE one is the rating
    own = [
        i for i, h in enumerate(header) if h and i not in ours.values() and i not in parts.values()
    ]
    return _Columns(ours, parts, own, kept)


def _name_as_part(keys: Sequence[str]) -> int | None:
    """The column of a name header that is one part of the name here, beside a column of
    the other part: German lists say `Name` and `Vorname` for surname and first name, and
    Italian ones `Cognome` and `Nome` (alone, `Name` and `Nome` are the whole name)."""
    parts = [_PART.get(k) for k in keys]
    other = {"first": "last", "last": "first"}
    return next(
        (
            i
            for i, k in enumerate(keys)
            if _COLUMN.get(k) == "Name" and parts[i] in other and other[parts[i] or ""] in parts
        ),
        None,
    )


def _name_headers(language: str) -> str:
    """The name headers a list in this language is read by, for a refusal: `Name, or
    Vorname and Nachname`."""
    from keizer_xl.i18n import record_of

    record = record_of(language)
    parts = record.name_parts
    return msg(
        "{name}, or {first} and {last}",
        name=record.member_headers["Name"][0],
        first=parts["first"][0],
        last=parts["last"][0],
    )


def reading(found: MemberList) -> list[Message]:
    """How the list was read, in parts of one line: which columns make the name, which
    is the rating, and which other rating is kept as an own column."""
    said = [
        msg(
            "read {last} as the surname and {first} as the first name",
            last=found.name_headers[-1],
            first=found.name_headers[0],
        )
        if len(found.name_headers) == 2
        else msg(
            "read {last} as the surname, {infix} as the infix and {first} as the first name",
            first=found.name_headers[0],
            infix=found.name_headers[1],
            last=found.name_headers[2],
        )
        if len(found.name_headers) == 3
        else msg("read {name} as the name", name=found.name_headers[0])
    ]
    if found.rating_header:
        said.append(msg("{rating} as the rating", rating=found.rating_header))
    else:
        said.append(msg("no rating column"))
    if found.kept_header:
        said.append(msg("{rating} kept as your own column", rating=found.kept_header))
    return said


def _listed(
    numbered: Iterable[tuple[int, Sequence[object]]],
    header: Sequence[str],
    columns: _Columns,
    problems: Problems,
) -> list[tuple[int, str, list[object]]]:
    """(line, name, cells) of each player line, blank lines skipped; a line whose name
    keeps it out is a problem at its line."""
    listed: list[tuple[int, str, list[object]]] = []
    first_line: dict[str, int] = {}  # each name's key, and where it was listed first
    for line, raw in numbered:
        row = [*raw, *[None] * (len(header) - len(raw))]
        if all(_blank(cell) for cell in row):
            continue
        name = _name(row, columns.ours, columns.parts)
        problem = _name_problem(name, row, header, columns.ours, first_line)
        if problem is not None:
            problems.add(problem, line=line)
            continue
        first_line[name_key(name)] = line
        listed.append((line, name, row))
    return listed


def _name_problem(
    name: str,
    row: Sequence[object],
    header: Sequence[str],
    ours: dict[str, int],
    first_line: dict[str, int],
) -> Message | None:
    """What keeps a line out by its name or text (None: nothing): no name, a cell longer
    than a cell holds, a name longer than the Players sheet holds, a name listed before."""
    if not name:
        return msg("this line has no name")
    too_long = [
        header[i] for i, cell in enumerate(row) if isinstance(cell, str) and len(cell) > MAX_TEXT
    ]
    if too_long or len(name) > MAX_TEXT:
        return msg(
            "{column}: longer than a cell holds ({most} characters)",
            column=too_long[0] if too_long else header[ours.get("Name", 0)],
            most=f"{MAX_TEXT:,}",
        )
    if len(name) > MAX_NAME:  # as the Players sheet holds it (`checks.read_players`)
        return msg(
            "a name of {length} characters; at most {most}", length=f"{len(name):,}", most=MAX_NAME
        )
    key = name_key(name)
    if key in first_line:
        return msg(
            "'{name}' is listed twice (also on line {line}); names must be unique",
            name=name,
            line=first_line[key],
        )
    return None


def _header(cell: object) -> str:
    return "" if cell is None else tidy_name(str(cell))


def _check_size(
    header: Sequence[str], own: Sequence[int], count: int, line: int, problems: Problems
) -> None:
    """A list that would make a Players sheet larger than keizer_xl reads is refused."""
    from keizer_xl.core.checks import PLAYER_COLUMNS
    from keizer_xl.workbook.files import ROWS
    from keizer_xl.workbook.xlsx import MAX_CELLS, MAX_COLUMNS

    most_rows = ROWS["Players"]
    columns = len(PLAYER_COLUMNS) + len(own)
    if columns > MAX_COLUMNS or count + 1 > most_rows or columns * (count + 1) > MAX_CELLS:
        problems.add(
            msg(
                "the list has {rows} lines and {columns} columns; a Players sheet "
                "keizer_xl reads has at most {most_rows} rows, {most_columns} "
                "columns and {most_cells} cells",
                rows=f"{count + 1:,}",
                columns=f"{len(header):,}",
                most_rows=f"{most_rows:,}",
                most_columns=f"{MAX_COLUMNS:,}",
                most_cells=f"{MAX_CELLS:,}",
            ),
            line=line,
        )
        problems.raise_if_any()


def _checked(
    listed: Sequence[tuple[int, str, Sequence[object]]],
    header: Sequence[str],
    ours: dict[str, int],
    problems: Problems,
) -> list[dict[str, object]]:
    """The players' values read and checked as the Players sheet's are (`read_players`),
    each problem placed at its line and named by the list's own header."""
    from keizer_xl.core.checks import Table, read_players, without_errors
    from keizer_xl.core.settings import Settings

    columns = [c for c in ("Rating", "Joined", "Left", "Present") if c in ours]
    cells: dict[str, list[object]] = {"Name": [name for _, name, _ in listed]}
    cells.update({c: [_cell(row[ours[c]]) for _, _, row in listed] for c in columns})
    found = Problems()
    table = without_errors(Table("Players", [line for line, _, _ in listed], cells), found)
    read = {p.source: p for p in read_players(table, Settings(), found)}
    for p in found.items:
        problems.add(
            msg("{column}: {problem}", column=header[ours[p.column]], problem=p.message)
            if p.column in ours
            else p.message,
            line=p.row,  # type: ignore[arg-type]
        )
    bad = {p.row for p in found.items}
    players = []
    for n, (line, name, _) in enumerate(listed):
        player = read.get(line)
        if player is None or line in bad:
            continue
        values: dict[str, object] = {"Name": name}
        if player.rating:
            rating = player.rating
            values["Rating"] = int(rating) if rating.denominator == 1 else float(rating)
        if table.column("Joined")[n] is not None:
            values["Joined"] = player.joined
        if player.left is not None:
            values["Left"] = player.left
        present = table.column("Present")[n]
        if present is not None:
            values["Present"] = str(present).strip()
        players.append(values)
    return players


def _cell(cell: object) -> object:
    """A cell of ours for the checks: blank as None, an error value (`#N/A`) as one."""
    if _blank(cell):
        return None
    if isinstance(cell, str) and cell.strip() in ERROR_VALUES:
        return CellError(cell.strip())
    return tidy(cell)


def _blank(cell: object) -> bool:
    return cell is None or (isinstance(cell, str) and not cell.strip())


def _name(row: Sequence[object], ours: dict[str, int], parts: dict[str, int]) -> str:
    if "Name" in ours:
        return tidy_name(_text(row[ours["Name"]]))
    return tidy_name(
        " ".join(_text(row[parts[p]]) for p in ("first", "infix", "last") if p in parts)
    )


def _text(cell: object) -> str:
    if isinstance(cell, float) and cell.is_integer():
        return str(int(cell))
    return "" if cell is None else str(cell)


def _own(cell: object) -> str | int | float | None:
    """An own cell as it goes into the sheet: text as typed, except plain whole numbers
    without a leading zero (a member number, a birth year), which become numbers so that
    Excel does not mark them; `0612345678` stays text, its zero kept."""
    if _blank(cell):
        return None
    if isinstance(cell, bool):
        return str(cell)
    if isinstance(cell, int):
        return cell
    if isinstance(cell, float):
        return int(cell) if cell.is_integer() else cell
    if isinstance(cell, dt.datetime | dt.date):  # from a workbook list: as text, YYYY-MM-DD
        return (cell.date() if isinstance(cell, dt.datetime) else cell).isoformat()
    word = str(cell).strip()
    if word.isascii() and word.isdigit() and not word.startswith("0") and len(word) <= 15:
        return int(word)
    return word


def new_from_members(
    members: Path, book: Path, language: str = "en", lite: bool = False
) -> MemberList:
    """Make the workbook `book` with the list's players and own columns (nothing is
    written when the list has a problem)."""
    from keizer_xl.workbook.newbook import add_own_columns, create

    found = read_members(members, language)
    create(
        book,
        found.players,
        language=language,
        lite=lite,
        fill=(lambda tmp: add_own_columns(tmp, found.own)) if found.own else None,
    )
    return found
