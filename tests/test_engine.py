"""The pandas door (keizer_xl.engine): DataFrames in, DataFrames out, problems by cell."""

from __future__ import annotations

from fractions import Fraction

import pandas as pd
import pytest

from keizer_xl.core.errors import KeizerError, Places, Problem
from keizer_xl.engine import pair, standings

PLAYERS = pd.DataFrame({"Name": ["Anna", "Bram", "Cor", "Dirk"],
                        "Rating": [1900, 1800, 1700, 1600], "Present": ["x"] * 4})


def test_standings_are_exact_fractions() -> None:
    rounds = pd.DataFrame({"Round": [1, 1], "Board": [1, 2], "White": ["Anna", "Cor"],
                           "Black": ["Bram", "Dirk"], "Result": ["1-0", "½-½"]})
    table = standings(PLAYERS, rounds, {"Top value": 10})
    assert list(table["Name"]) == ["Anna", "Cor", "Dirk", "Bram"]
    # Anna: own 10 + win over Bram (9); Cor: own 8 + half of Dirk's 7
    assert table["Score"].tolist()[:2] == [19, Fraction(23, 2)]
    assert all(isinstance(x, Fraction | int) for x in table["Score"])


def test_pair_gives_the_rows_to_append() -> None:
    rows = pair(PLAYERS, settings={"Top value": 10})
    assert rows[["Board", "White", "Black"]].values.tolist() == [[1, "Anna", "Bram"],
                                                                [2, "Cor", "Dirk"]]


def test_problems_are_named_by_cell_as_on_a_sheet() -> None:
    """Row 0 of a plain index is sheet row 2; columns count from A by position."""
    rounds = pd.DataFrame({"Round": [1, 1], "Board": [1, 2], "White": ["Anna", "Cor"],
                           "Black": ["Brma", "Dirk"], "Result": ["1-0", "l-0"]})
    with pytest.raises(KeizerError) as info:
        standings(PLAYERS, rounds)
    lines = info.value.lines()
    assert lines[0].startswith("Rounds!D2: 'Brma' is not on the Players sheet")
    assert lines[1].startswith("Rounds!E3: 'l-0' is not a result")


def test_an_own_index_is_quoted_as_the_row() -> None:
    players = PLAYERS.astype(object).set_index(pd.Index([10, 11, 12, 13]))
    players.loc[12, "Rating"] = "lots"
    with pytest.raises(KeizerError) as info:
        standings(players)
    assert info.value.lines()[0].startswith("Players!B12: ")


def test_settings_problems_name_the_value_cell() -> None:
    settings = pd.DataFrame({"Setting": ["Step", "Bye"], "Value": [1, "most"]})
    with pytest.raises(KeizerError) as info:
        standings(PLAYERS, settings=settings)
    assert info.value.lines() == [line for line in info.value.lines()
                                  if line.startswith("Settings!B3: ")]


@pytest.mark.parametrize(("problem", "place"), [
    (Problem("m", "Rounds", 14, "Result"), "Rounds!E14"),
    (Problem("m", "Rounds", None, "Result"), "Rounds!E1"),
    (Problem("m", "Rounds", 14, None), "Rounds!14:14"),
    (Problem("m", "Rounds"), "Rounds"),
    (Problem("m"), "Workbook"),
])
def test_a_place_is_written_one_way(problem: Problem, place: str) -> None:
    places = Places({"Rounds": "Rounds"}, {"Rounds": {"Result": 5}})
    assert places.of(problem) == place
