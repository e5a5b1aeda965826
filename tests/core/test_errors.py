"""Problems in a file from another program: placed at their line, listed in file order."""

from __future__ import annotations

import pytest

from keizer_xl.core.errors import NOWHERE, FileError, KeizerError, Problem, Problems
from keizer_xl.core.messages import Tongue, msg


class Dutchish(Tongue):
    """A tongue that says `, line ` as `, regel `, to show which templates are translated."""

    def text(self, template: str) -> str:
        return template.replace(", line ", ", regel ")


def test_a_problem_in_a_file_is_placed_at_its_line() -> None:
    problem = Problem(msg("this line has no name"), file="members.csv", line=7)
    assert str(problem) == "members.csv, line 7: this line has no name"
    whole = Problem(msg("no players listed under the first line"), file="members.csv")
    assert str(whole) == "members.csv: no players listed under the first line"


def test_the_place_of_a_line_is_said_in_the_tongue() -> None:
    place = NOWHERE.of(Problem(msg("x"), file="line.csv", line=3))
    assert place.said_as(Dutchish()) == "line.csv, regel 3"  # the file's name as it is


def test_a_files_problems_come_in_the_order_of_its_lines() -> None:
    problems = Problems(file="list.csv")
    problems.add(msg("this line has no name"), line=9)
    problems.add(msg("no players listed under the first line"))
    problems.add(msg("this line has no name"), line=4)
    problems.add(msg("this line has no name"), line=9)  # the same problem once
    with pytest.raises(FileError) as caught:
        problems.raise_if_any()
    assert caught.value.lines() == [
        "list.csv: no players listed under the first line",
        "list.csv, line 4: this line has no name",
        "list.csv, line 9: this line has no name",
    ]
    assert str(caught.value).splitlines()[0] == "3 problems in list.csv:"


def test_one_problem_in_a_file_is_headed_by_the_file() -> None:
    problems = Problems(file="x.trf")
    problems.add(msg("no name (columns 15–47)"), line=2)
    with pytest.raises(FileError) as caught:
        problems.raise_if_any()
    assert str(caught.value) == "1 problem in x.trf:\n  x.trf, line 2: no name (columns 15–47)"


def test_problems_in_the_tables_are_not_a_file_error() -> None:
    problems = Problems()
    problems.add(msg("'l-0' is not a result"), "Rounds", 14, "Result")
    with pytest.raises(KeizerError) as caught:
        problems.raise_if_any()
    assert type(caught.value) is KeizerError
    assert str(caught.value).splitlines()[0] == "1 problem found:"
