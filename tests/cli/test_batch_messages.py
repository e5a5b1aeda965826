"""Batch and messages: `recalc` on many files names the file in every problem line and in
the summary; a workbook with a problem prints each problem once."""

from __future__ import annotations

from pathlib import Path

import pytest

from keizer_xl.core.errors import KeizerError, Problems
from tests.conftest import run_cli
from tests.seasons import make_book
from tests.workbook.test_workbook import PLAYERS, ROUND1


def test_batch_names_the_file_in_every_problem_line_and_in_the_summary(tmp_path: Path) -> None:
    good = make_book(tmp_path / "good.xlsx", PLAYERS, ROUND1)
    typo = make_book(tmp_path / "typo.xlsx", PLAYERS, [[1, 1, "Anna", "Bram", "l-0"], *ROUND1[1:]])
    stranger = make_book(
        tmp_path / "stranger.xlsx",
        PLAYERS,
        [[1, 1, "Anna", "Brma", "1-0"], [1, 2, "Carla", "Dan", "½-½"], ROUND1[2]],
    )
    result = run_cli("recalc", good, typo, stranger)
    assert result.exit_code == 1
    problem_lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(problem_lines) == 2 + 3  # a heading and the problems of each bad file
    for line in problem_lines:
        assert line.startswith((f"{typo}: ", f"{stranger}: ")), line
    assert f"{typo}: Rounds!E2: 'l-0' is not a result" in result.stderr
    assert f"{stranger}: Rounds!D2: 'Brma' is not on the Players sheet" in result.stderr
    assert f"{stranger}: Rounds!D3: 'Dan' is not on the Players sheet" in result.stderr
    summary = result.output.strip().splitlines()[-1]
    assert summary == (
        f"1 of 3 workbooks recalculated, 2 with problems (listed above): {typo}, {stranger}."
    )


def test_a_batch_names_the_file_of_each_warning(tmp_path: Path) -> None:
    late = [*PLAYERS, {"Name": "Zoë", "Rating": 1400}]  # added after round 1, no Joined
    one = make_book(tmp_path / "one.xlsx", late, ROUND1)
    two = make_book(tmp_path / "two.xlsx", PLAYERS, ROUND1)
    result = run_cli("recalc", one, two)
    assert result.exit_code == 0, result.stderr
    warnings = [line for line in result.output.splitlines() if "Warning" in line]
    assert warnings and all(
        line.startswith(f"{one}: Warning: Players!C8: Zoë") for line in warnings
    )


def test_each_problem_is_printed_once(tmp_path: Path) -> None:
    path = make_book(tmp_path / "club.xlsx", PLAYERS, [[1, 1, "Anna", "Bram", "l-0"], *ROUND1[1:]])
    for command in ("recalc", "pair", "check"):
        result = run_cli(command, path)
        assert result.exit_code == 1
        everything = result.output  # what the secretary sees: both streams, interleaved
        assert everything.count("'l-0' is not a result") == 1, (command, everything)


def test_the_same_problem_found_twice_is_listed_once() -> None:
    problems = Problems()
    for _ in range(2):
        problems.add("'l-0' is not a result", "Rounds", 5, "Result")
    problems.add("'x' is not a result", "Rounds", 6, "Result")
    with pytest.raises(KeizerError) as error:
        problems.raise_if_any()
    assert [p.row for p in error.value.problems] == [5, 6]
