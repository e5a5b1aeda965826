"""The pandas door (keizer_xl.engine): DataFrames in, DataFrames out, problems by cell."""

from __future__ import annotations

import gc
from fractions import Fraction
from typing import Any

import pandas as pd
import pytest

from keizer_xl import engine
from keizer_xl.core.errors import KeizerError, Places, Problem
from keizer_xl.engine import pair, standings

PLAYERS = pd.DataFrame(
    {
        "Name": ["Anna", "Bram", "Cor", "Dirk"],
        "Rating": [1900, 1800, 1700, 1600],
        "Present": ["x"] * 4,
    }
)


def test_standings_are_exact_fractions() -> None:
    rounds = pd.DataFrame(
        {
            "Round": [1, 1],
            "Board": [1, 2],
            "White": ["Anna", "Cor"],
            "Black": ["Bram", "Dirk"],
            "Result": ["1-0", "½-½"],
        }
    )
    table = standings(PLAYERS, rounds, {"Top value": 10})
    assert list(table["Name"]) == ["Anna", "Cor", "Dirk", "Bram"]
    # Anna: own 10 + win over Bram (9); Cor: own 8 + half of Dirk's 7
    assert table["Score"].tolist()[:2] == [19, Fraction(23, 2)]
    assert all(isinstance(x, Fraction | int) for x in table["Score"])


def test_pair_gives_the_rows_to_append() -> None:
    rows = pair(PLAYERS, settings={"Top value": 10})
    assert rows[["Board", "White", "Black"]].values.tolist() == [
        [1, "Anna", "Bram"],
        [2, "Cor", "Dirk"],
    ]


def test_problems_are_named_by_cell_as_on_a_sheet() -> None:
    """Row 0 of a plain index is sheet row 2; columns count from A by position."""
    rounds = pd.DataFrame(
        {
            "Round": [1, 1],
            "Board": [1, 2],
            "White": ["Anna", "Cor"],
            "Black": ["Brma", "Dirk"],
            "Result": ["1-0", "l-0"],
        }
    )
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
    assert info.value.lines() == [
        line for line in info.value.lines() if line.startswith("Settings!B3: ")
    ]


@pytest.mark.parametrize(
    ("problem", "place"),
    [
        (Problem("m", "Rounds", 14, "Result"), "Rounds!E14"),
        (Problem("m", "Rounds", None, "Result"), "Rounds!E1"),
        (Problem("m", "Rounds", 14, None), "Rounds!14:14"),
        (Problem("m", "Rounds"), "Rounds"),
        (Problem("m"), "Workbook"),
    ],
)
def test_a_place_is_written_one_way(problem: Problem, place: str) -> None:
    places = Places({"Rounds": "Rounds"}, {"Rounds": {"Result": 5}})
    assert places.of(problem) == place


def plain_table(name: str, frame: pd.DataFrame, wanted: tuple[str, ...]) -> object:
    """What `engine.table` gives, cell by cell: each cell tidied, blank rows left out."""
    from keizer_xl.core.checks import find_columns
    from keizer_xl.engine import _cell

    positions = find_columns(frame.columns, wanted)
    columns = {col: [_cell(v) for v in frame.iloc[:, i].tolist()] for col, i in positions.items()}
    index = frame.index
    plain = isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1
    labels = list(range(2, len(index) + 2)) if plain else index.tolist()
    keep = [k for k in range(len(labels)) if any(c[k] is not None for c in columns.values())]
    return ([labels[k] for k in keep], {col: [c[k] for k in keep] for col, c in columns.items()})


def test_frames_of_every_kind_of_column_are_tidied_as_cell_by_cell() -> None:
    """Whole columns at once (numbers, numbers with gaps, texts with blanks, pandas'
    missing values) give what tidying each cell would."""
    import random

    from keizer_xl.engine import table

    rng = random.Random(5)
    kinds = [
        lambda n: [rng.randint(1, 9) for _ in range(n)],
        lambda n: [rng.choice([1.0, 2.5, float("nan")]) for _ in range(n)],
        lambda n: [
            rng.choice(["Anna", " ", "", None, "x ", float("nan"), pd.NA, 3, True])
            for _ in range(n)
        ],
        lambda n: pd.array([rng.choice([1, None]) for _ in range(n)], dtype="Int64"),
        lambda n: [rng.choice([True, False]) for _ in range(n)],
        lambda n: [rng.choice([None, None, "bye"]) for _ in range(n)],
        lambda n: [rng.choice([None, pd.NaT, pd.Timestamp("2026-01-02")]) for _ in range(n)],
    ]
    wanted = ("Round", "Board", "White", "Black", "Result")
    for _ in range(300):
        n = rng.randint(0, 12)
        frame = pd.DataFrame({col: rng.choice(kinds)(n) for col in wanted})
        if rng.random() < 0.3:
            frame.index = pd.Index([10 + 2 * k for k in range(n)])
        got = table("Rounds", frame, wanted)
        labels, cells = plain_table("Rounds", frame, wanted)  # type: ignore[misc]
        assert (list(got.labels), {c: list(v) for c, v in got.cells.items()}) == (labels, cells)


def test_round_columns_are_each_rows_worths() -> None:
    """The per-round columns, made from the breakdown in one go, hold what each row says
    its rounds are worth (a newcomer without a score: nothing)."""
    from keizer_xl.core.model import Absence, Game, Player, Rest, Result
    from keizer_xl.core.scoring import compute_standings
    from keizer_xl.core.season import Season
    from keizer_xl.core.settings import parse_settings
    from keizer_xl.engine import standings_frame

    players = (
        Player("A", Fraction(2000)),
        Player("B", Fraction(1900), order=1),
        Player("C", Fraction(1800), order=2, left=1),
        Player("N", Fraction(2500), joined=3, order=3),
    )
    season = Season(
        players,
        (
            Game(1, 1, "A", "B", Result.DRAW),
            Rest(1, "C", Absence.CLUB),
            Game(2, 1, "B", "A", Result.WHITE_WINS),
        ),
    )
    table = compute_standings(season, parse_settings({"Top value": "10"}), 2)
    frame = standings_frame(table)
    for row, (_, line) in zip(table.rows, frame.iterrows(), strict=True):
        want = list(row.rounds) if row.score is not None else [None, None]
        assert [line["R1"], line["R2"]] == want
    assert frame["R1"].tolist().count(None) == 1  # the newcomer N


@pytest.mark.parametrize("door", [standings, pair])
def test_the_door_works_without_the_cycle_collector_and_gives_it_back(
    door: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A season read makes thousands of objects and no cycles: the collector, which would
    walk the caller's whole heap every so often, waits until the answer is made, and is
    the caller's again after (left paused if the caller paused it)."""
    collecting: list[bool] = []

    def watched(work: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            collecting.append(gc.isenabled())
            return work(*args, **kwargs)

        return run

    for name in ("build_season", "round_frame", "standings_frame"):
        monkeypatch.setattr(engine, name, watched(getattr(engine, name)))
    try:
        assert gc.isenabled()
        door(PLAYERS, None, {"Top value": 10})  # type: ignore[operator]
        assert collecting == [False, False]  # reading, and making the answer
        assert gc.isenabled()
        gc.disable()
        door(PLAYERS, None, {"Top value": 10})  # type: ignore[operator]
        assert not gc.isenabled()
    finally:
        gc.enable()
