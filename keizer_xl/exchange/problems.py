"""Problems in a file from another program, each with its line, raised all together."""

from __future__ import annotations

from dataclasses import dataclass, field

from keizer_xl.core.errors import KeizerXLError
from keizer_xl.core.messages import Joined, Message, msg


@dataclass(frozen=True)
class LineProblem:
    """One thing wrong in an input file; `line` is 1-based (None: the whole file)."""

    message: str
    line: int | None = None


@dataclass
class FileProblems(KeizerXLError):
    """Every problem found in one input file, so the secretary can fix them all at once."""

    source: str
    problems: list[LineProblem] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(str(self.message))

    def lines(self) -> list[str]:
        return [msg("{file}, line {line}: {problem}", file=self.source, line=p.line,
                    problem=p.message) if p.line is not None
                else msg("{file}: {problem}", file=self.source, problem=p.message)
                for p in self.problems]

    @property
    def message(self) -> Message:
        n = len(self.problems)
        head = msg("1 problem in {file}:", file=self.source) if n == 1 else \
            msg("{count} problems in {file}:", count=n, file=self.source)
        return Joined("\n", [head, *(Joined("", ("  ", line)) for line in self.lines())])

    def __str__(self) -> str:
        return str(self.message)



class LineProblems:
    """Collects problems while reading a file, then raises them together."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.items: list[LineProblem] = []

    def add(self, message: str, line: int | None = None) -> None:
        self.items.append(LineProblem(message, line))

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:  # in the order of the file, as the secretary goes through it
            raise FileProblems(self.source, sorted(
                self.items, key=lambda p: -1 if p.line is None else p.line))
