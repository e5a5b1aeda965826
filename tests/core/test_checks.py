"""Checking the secretary's tables (core/checks.py): every problem at once, each with its
row and column, and nothing accepted that the rule book does not allow."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from keizer_xl.core.checks import Table, build_season
from keizer_xl.core.errors import KeizerError, Problem
from keizer_xl.core.model import Absence, Game, Rest, Result
from keizer_xl.core.settings import Settings

PLAYERS = ["Anna", "Bram", "Cor", "Dirk"]


def table(name: str, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> Table:
    """A table as the sheet would hold it: labels are the sheet's row numbers from 2."""
    columns = {h: [row[i] if i < len(row) else None for row in rows] for i, h in enumerate(header)}
    return Table(name, list(range(2, len(rows) + 2)), columns)


def players(rows: Sequence[Sequence[Any]] | None = None) -> Table:
    body = (
        rows
        if rows is not None
        else [[n, 2000 - 100 * i, None, None, "x"] for i, n in enumerate(PLAYERS)]
    )
    return table("Players", ("Name", "Rating", "Joined", "Left", "Present"), body)


def rounds(rows: Sequence[Sequence[Any]]) -> Table:
    return table("Rounds", ("Round", "Board", "White", "Black", "Result"), rows)


def problems(p: Table, r: Table) -> list[Problem]:
    with pytest.raises(KeizerError) as info:
        build_season(p, r, Settings())
    return info.value.problems


def places(found: list[Problem]) -> list[tuple[str | None, object, str | None]]:
    return [(f.table, f.row, f.column) for f in found]


def test_a_clean_season_becomes_games_and_rests() -> None:
    season = build_season(
        players(),
        rounds(
            [
                [1, 1, "Anna", "Bram", "1-0"],
                [1, 2, "Cor", "Dirk", "½-½"],
                [2, None, "Anna", None, "excused"],
            ]
        ),
        Settings(),
    )
    assert [p.name for p in season.players] == PLAYERS
    assert season.entries[0] == Game(1, 1, "Anna", "Bram", Result.WHITE_WINS, 2)
    assert season.entries[2] == Rest(2, "Anna", Absence.EXCUSED, 4)


def test_every_problem_is_reported_at_once_with_its_place() -> None:
    found = problems(
        players(),
        rounds(
            [
                [1, 1, "Anna", "Brma", "1-0"],
                [1, 2, "Cor", "Cor", "1-0"],
                [1, 3, "Dirk", "Anna", "l-0"],
                ["one", None, "Anna", None, "bye"],
            ]
        ),
    )
    assert places(found) == [
        ("Rounds", 2, "Black"),
        ("Rounds", 3, "Black"),
        ("Rounds", 4, "Result"),
        ("Rounds", 5, "Round"),
    ]
    assert "did you mean 'Bram'" in found[0].message
    assert "cannot play himself" in found[1].message
    assert "'l-0'" in found[2].message


def test_only_the_first_names_not_found_get_a_suggestion_each_every_one_a_problem() -> None:
    """A Rounds sheet whose columns slid names nobody in every row; each is named, but only
    the first `SUGGESTIONS` names search the players for a look-alike (the same name again
    gets the same one), so that such a check stays quick."""
    from keizer_xl.core.checks import SUGGESTIONS

    unknown = [f"Anna {i}x" for i in range(SUGGESTIONS + 20)]
    rows = [[1 + i // 2, None, name, None, "bye"] for i, name in enumerate(unknown)]
    rows.append([99, None, unknown[0], None, "bye"])  # the first again: its suggestion again
    found = problems(players(), rounds(rows))
    assert len(found) == len(rows)
    suggested = ["did you mean 'Anna'" in f.message for f in found]
    assert suggested == [True] * SUGGESTIONS + [False] * 20 + [True]


def test_a_player_twice_in_one_round() -> None:
    found = problems(
        players(), rounds([[1, 1, "Anna", "Bram", "1-0"], [1, 2, "Anna", "Cor", "0-1"]])
    )
    assert places(found) == [("Rounds", 3, "White")]
    assert "twice (also row 2)" in found[0].message


def test_names_match_whatever_case_and_spaces() -> None:
    season = build_season(players(), rounds([[1, 1, "  anna ", "BRAM", "1-0"]]), Settings())
    assert season.entries[0] == Game(1, 1, "Anna", "Bram", Result.WHITE_WINS, 2)


def test_duplicate_and_blank_names_in_players() -> None:
    found = problems(players([["Anna", 1800], ["anna", 1700], [None, 1600]]), rounds([]))
    assert places(found) == [("Players", 3, "Name"), ("Players", 4, "Name")]


def test_round_numbers_have_no_gap() -> None:
    found = problems(
        players(), rounds([[1, 1, "Anna", "Bram", "1-0"], [3, 1, "Anna", "Cor", "1-0"]])
    )
    assert places(found) == [("Rounds", 3, "Round")]
    assert "round 2 has no rows" in found[0].message


def test_joined_and_left_rounds_are_respected() -> None:
    body = [["Anna", 1800, None, 1], ["Bram", 1700, 2], ["Cor", 1600], ["Dirk", 1500]]
    found = problems(
        players(body), rounds([[1, 1, "Bram", "Cor", "1-0"], [2, 1, "Anna", "Dirk", "1-0"]])
    )
    assert places(found) == [("Rounds", 2, "White"), ("Rounds", 3, "White")]
    assert "joins in round 2" in found[0].message
    assert "left after round 1" in found[1].message


def test_a_missing_column_is_named() -> None:
    no_result = table("Rounds", ("Round", "White", "Black"), [[1, "Anna", "Bram"]])
    found = problems(players(), no_result)
    assert places(found) == [("Rounds", None, None)]
    assert "'Result'" in found[0].message


def test_an_earlier_round_without_result_is_a_problem() -> None:
    found = problems(
        players(), rounds([[1, 1, "Anna", "Bram", None], [2, 1, "Anna", "Cor", "1-0"]])
    )
    assert places(found) == [("Rounds", 2, "Result")]


@pytest.mark.parametrize(
    ("count", "last", "refused"),
    [(10_000, 120, False), (12_000, 100, False), (1_201, 1_000, True), (20_000, 61, True)],
)
def test_a_season_past_the_largest_is_refused_before_anything_is_computed(
    count: int, last: int, refused: bool
) -> None:
    """Players times rounds past MAX_SEASON (a few rows of Rounds can declare twenty
    million) are refused at the first row of the last round; up to it they are read."""
    from keizer_xl.core.checks import MAX_SEASON

    names = [f"P{i}" for i in range(count)]
    body = [[k, None, names[k % count], None, "excused"] for k in range(1, last + 1)]
    p, r = players([[n, None, None, None, None] for n in names]), rounds(body)
    assert (count * last > MAX_SEASON) == refused
    if not refused:
        assert build_season(p, r, Settings()).last_round == last
        return
    found = problems(p, r)
    assert places(found) == [("Rounds", last + 1, "Round")]
    assert str(found[0].message) == (
        f"{count:,} players over {last:,} rounds are more than keizer_xl computes: at most "
        "1,200,000 players times rounds (10,000 players over 120 rounds, or 20,000 over 60)"
    )


def test_a_name_longer_than_a_name_may_be_is_refused_with_its_cell() -> None:
    """keizer_xl copies every name into each sheet it writes: 20,000 names as long as a
    cell allows would be gigabytes. MAX_NAME characters are allowed, one more is not."""
    from keizer_xl.core.words import MAX_NAME

    longest, past = "A" * MAX_NAME, "B" * (MAX_NAME + 1)
    found = problems(
        players([[longest, None, None, None, "x"], [past, None, None, None, "x"]]), rounds([])
    )
    assert places(found) == [("Players", 3, "Name")]
    assert str(found[0].message) == f"a name of {MAX_NAME + 1} characters; at most {MAX_NAME}"
