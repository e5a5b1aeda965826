"""Every error keizer_xl raises, under one root, and the problems they carry.

`KeizerXLError` is the root: the command line and the buttons turn any of them into a
message for the secretary in one place, and anything else is a bug. `KeizerError` carries
*every* problem found in the input, each with its place (a workbook's cell, or a line of a
file from another program), so all can be fixed at once.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from keizer_xl.core.messages import Joined, Message, Name, msg


class KeizerXLError(Exception):
    """The root of every error keizer_xl raises on purpose (never raised itself)."""

    def lines(self) -> list[str]:
        """What to tell the secretary, one line per problem, each with its place."""
        return [self.message]

    @property
    def message(self) -> str:
        """The whole message (a `Message` when it was made as one, to be said in the
        workbook's language); `str(error)` is its English."""
        first = self.args[0] if self.args else ""
        return first if isinstance(first, str) else str(first)


def _column_letters(column: int) -> str:
    """A sheet's column number (1 = A) as its letters: 5 -> E, 28 -> AB. The rule book's
    own, as it imports nothing: every shell uses `keizer_xl.workbook.xlsx.column_letters`,
    to which a test holds this one."""
    letters = ""
    while column > 0:
        column, rest = divmod(column - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


class Places(NamedTuple):
    """Where the input tables are, so that a problem is named by its cell.

    `sheets`: table -> the sheet's name in the workbook; `columns`: table -> header -> column
    number (1 = A). Whoever reads the tables (the workbook layer, the pandas door) knows
    these; the checks only say table, row and header. A record on every command's path,
    so a NamedTuple (see "Records" in docs/architecture.md)."""

    sheets: Mapping[str, str] = {}  # read, never written: one empty default is shared
    columns: Mapping[str, Mapping[str, int]] = {}

    def of(self, problem: Problem) -> Message:
        """The one way a place is written, as a spreadsheet reference: `Rounds!E14`, the
        header cell `Rounds!E1` for a whole column, `Rounds!14:14` for a whole row, the
        sheet's name for the whole sheet, `Workbook` for the file. A problem in a file from
        another program is at its line: `members.csv, line 7`, or the file's name."""
        if problem.file is not None:
            return (
                msg("{file}, line {line}", file=problem.file, line=problem.line)
                if problem.line is not None
                else msg("{file}", file=problem.file)
            )
        if problem.table is None:
            return msg("Workbook")
        sheet = self.sheets.get(problem.table) or Name(problem.table)
        column = self.columns.get(problem.table, {}).get(problem.column or "")
        letters = _column_letters(column) if column else ""
        if isinstance(problem.row, int) and not isinstance(problem.row, bool):
            return (
                msg("{sheet}!{cell}", sheet=sheet, cell=f"{letters}{problem.row}")
                if letters
                else msg("{sheet}!{cell}", sheet=sheet, cell=f"{problem.row}:{problem.row}")
            )
        if letters:
            return msg("{sheet}!{cell}", sheet=sheet, cell=f"{letters}1")
        if problem.row is not None:
            return msg("{sheet}, row {row}", sheet=sheet, row=problem.row)
        return msg("{sheet}", sheet=sheet)


NOWHERE = Places()


@dataclass(frozen=True)
class Problem:
    """One thing wrong in the input, with where it is.

    `table` is "Players", "Rounds" or "Settings"; `row` is the row label of the input table
    (the workbook layer uses the sheet's row number); `column` the header of the column.
    Row and column are None when the problem is about the whole table or file.

    A problem in a file from another program (a TRF report, a rating or member list) has
    instead the `file`'s name and its 1-based `line` (None when about the whole file).
    """

    message: str
    table: str | None = None
    row: Hashable = None
    column: str | None = None
    file: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        return placed(NOWHERE.of(self), self.message)


def placed(place: str, message: str) -> Message:
    """`Rounds!E14: 'l-0' is not a result; ...`: a problem after its place."""
    return msg("{place}: {problem}", place=place, problem=message)


@dataclass(frozen=True)
class Caution(Problem):
    """Something allowed but probably unintended (a newcomer without a Joined round, a bye
    twice in a row): said after the work is done and written under the standings, never a
    reason to refuse. Placed like a problem."""


@dataclass
class KeizerError(KeizerXLError):
    """Raised with *every* problem found, so that the secretary can fix them all at once."""

    problems: list[Problem] = field(default_factory=list)
    places: Places = NOWHERE  # where the tables are, to name each problem's cell

    def __post_init__(self) -> None:
        super().__init__(self.__str__())

    def __str__(self) -> str:
        return str(self.message)

    @property
    def message(self) -> Message:
        return Joined("\n", [self.heading(), *(Joined("", ("  ", line)) for line in self.lines())])

    def heading(self) -> Message:
        """The line above the problems: how many, and where."""
        n = len(self.problems)
        return msg("1 problem found:") if n == 1 else msg("{count} problems found:", count=n)

    def lines(self) -> list[str]:
        """One line per problem, each once (two checks may name the same cell alike)."""
        return list(dict.fromkeys(placed(self.places.of(p), p.message) for p in self.problems))


@dataclass
class FileError(KeizerError):
    """Raised with every problem found in one file from another program, in the order of
    its lines, as the secretary goes through it."""

    file: str = ""

    def heading(self) -> Message:
        n = len(self.problems)
        return (
            msg("1 problem in {file}:", file=self.file)
            if n == 1
            else msg("{count} problems in {file}:", count=n, file=self.file)
        )


class Problems:
    """Collects problems while checking, then raises them all together.

    Made for a `file` from another program, it places each problem at a line of that file
    (`add(message, line=7)`) and raises them as a `FileError`."""

    def __init__(self, file: str | None = None) -> None:
        self.file = file
        self.items: list[Problem] = []
        self.cautions: list[Caution] = []

    def add(
        self,
        message: str,
        table: str | None = None,
        row: Hashable = None,
        column: str | None = None,
        *,
        line: int | None = None,
    ) -> None:
        self.items.append(Problem(message, table, row, column, self.file, line))

    def caution(
        self,
        message: str,
        table: str | None = None,
        row: Hashable = None,
        column: str | None = None,
    ) -> None:
        """Note something allowed but probably unintended; it does not stop the work."""
        self.cautions.append(Caution(message, table, row, column))

    def extend(self, problems: Iterable[Problem]) -> None:
        self.items.extend(problems)

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self, places: Places = NOWHERE) -> None:
        if not self.items:
            return
        problems = list(dict.fromkeys(self.items))  # each once
        if self.file is None:
            raise KeizerError(problems, places)
        raise FileError(
            sorted(problems, key=lambda p: -1 if p.line is None else p.line), places, self.file
        )
