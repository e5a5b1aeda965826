"""Every error keizer_xl raises, under one root, and the problems they carry.

`KeizerXLError` is the root: the command line and the buttons turn any of them into a
message for the secretary in one place, and anything else is a bug. `KeizerError` carries
*every* problem found in the input, each with its place, so all can be fixed at once.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field


class KeizerXLError(Exception):
    """The root of every error keizer_xl raises on purpose (never raised itself)."""

    def lines(self) -> list[str]:
        """What to tell the secretary, one line per problem, each with its place."""
        return [str(self)]


@dataclass(frozen=True)
class Problem:
    """One thing wrong in the input, with where it is.

    `table` is "Players", "Rounds" or "Settings"; `row` is the row label of the input table
    (the workbook layer uses the sheet's row number); `column` the header of the column.
    Row and column are None when the problem is about the whole table or file.
    """

    message: str
    table: str | None = None
    row: Hashable = None
    column: str | None = None

    def __str__(self) -> str:
        place = self.table or ""
        if self.row is not None or self.column is not None:
            bits = [str(b) for b in (self.column, self.row) if b is not None]
            place += "[" + ", ".join(bits) + "]"
        return f"{place}: {self.message}" if place else self.message


@dataclass
class KeizerError(KeizerXLError):
    """Raised with *every* problem found, so that the secretary can fix them all at once."""

    problems: list[Problem] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(self.__str__())

    def __str__(self) -> str:
        n = len(self.problems)
        head = f"{n} problem{'s' if n != 1 else ''} found:"
        return "\n".join([head, *(f"- {p}" for p in self.problems)])

    def lines(self) -> list[str]:
        return [str(p) for p in self.problems]


class Problems:
    """Collects problems while checking, then raises them all together."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, message: str, table: str | None = None, row: Hashable = None,
            column: str | None = None) -> None:
        self.items.append(Problem(message, table, row, column))

    def extend(self, problems: Iterable[Problem]) -> None:
        self.items.extend(problems)

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise KeizerError(list(self.items))
