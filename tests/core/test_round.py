"""The next round of a competition: who is present, what refuses a pairing, the order of
the absence rows, and the Top value fixed by round 1; on the core's own tables."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pandas as pd
import pytest

from keizer_xl import engine
from keizer_xl.core.checks import PLAYER_COLUMNS, ROUND_COLUMNS, Table
from keizer_xl.core.errors import KeizerError
from keizer_xl.core.model import Absence, Game, Rest
from keizer_xl.core.round import Competition


def table(name: str, columns: Sequence[str], rows: Sequence[Sequence[object]]) -> Table:
    """A Table labelled like a sheet (row 2 is the first)."""
    return Table(
        name,
        list(range(2, len(rows) + 2)),
        {col: [row[i] for row in rows] for i, col in enumerate(columns)},
    )


def competition(
    players: Sequence[Sequence[object]],
    rounds: Sequence[Sequence[object]] = (),
    settings: Sequence[Sequence[object]] = (),
) -> Competition:
    return Competition.from_tables(
        table("Players", PLAYER_COLUMNS, players),
        table("Rounds", ROUND_COLUMNS, rounds),
        table("Settings", ("Setting", "Value"), settings),
    )


def problems(error: pytest.ExceptionInfo[KeizerError]) -> list[tuple[str | None, object, str]]:
    return [(p.table, p.row, p.message) for p in error.value.problems]


FOUR = [
    ["Anna", 2000, None, None, "x"],
    ["Bert", 1900, None, None, "x"],
    ["Carla", 1800, None, None, "x"],
    ["Daan", 1700, None, None, "x"],
]


def test_round_one_fixes_the_blank_top_value() -> None:
    c = competition(FOUR)
    assert c.top_value_to_fix == Fraction(4)  # 1.5 x 3 = 4.5, halves to even
    nxt = c.next_round()
    assert nxt.round == 1 and nxt.settings.top_value == 4
    assert [(g.white, g.black) for g in nxt.games] == [("Anna", "Bert"), ("Carla", "Daan")]
    filled = competition(FOUR, settings=[["Top value", 10]])
    assert filled.top_value_to_fix is None
    assert filled.next_round().settings.top_value == 10


def test_absence_rows_follow_the_bye_in_ranking_order() -> None:
    players = [
        ["Anna", 2000, None, None, "excused"],
        ["Bert", 1900, None, None, "x"],
        ["Carla", 1800, None, None, "club"],
        ["Daan", 1700, None, None, "x"],
        ["Eva", 2100, None, None, "x"],
        ["Fien", 2200, 2, None, "unexcused"],
    ]
    nxt = competition(players).next_round()
    assert [(g.white, g.black) for g in nxt.games] == [("Eva", "Bert")]
    # Fien joins in round 2: not registered for round 1, so no row for her
    assert nxt.rests == (
        Rest(1, "Daan", Absence.BYE),
        Rest(1, "Anna", Absence.EXCUSED),
        Rest(1, "Carla", Absence.CLUB),
    )
    assert nxt.entries == (*nxt.games, *nxt.rests)


def test_a_newcomer_absent_is_listed_after_the_ranked_players() -> None:
    players = [
        ["Anna", 2000, None, None, "x"],
        ["Bert", 1900, None, None, "x"],
        ["Nora", 2500, 2, None, "excused"],
        ["Carla", 1800, None, None, "excused"],
    ]
    rounds = [[1, 1, "Anna", "Bert", "1-0"], [1, None, "Carla", None, "excused"]]
    nxt = competition(players, rounds, [["Top value", 10]]).next_round()
    assert [r.player for r in nxt.rests] == ["Carla", "Nora"]


def test_refuses_while_a_result_is_missing() -> None:
    rounds = [[1, 1, "Anna", "Bert", "1-0"], [1, 2, "Carla", "Daan", None]]
    with pytest.raises(KeizerError) as error:
        competition(FOUR, rounds).next_round()
    assert problems(error) == [
        (
            "Rounds",
            3,
            "round 1, board 2 (Carla – Daan) has no result "
            "yet; enter every result before pairing the next round",
        )
    ]


def test_refuses_present_players_who_are_not_registered_and_an_empty_evening() -> None:
    players = [
        ["Anna", 2000, None, 1, "x"],
        ["Bert", 1900, 3, None, "x"],
        ["Carla", 1800, None, None, None],
        ["Daan", 1700, None, None, None],
    ]
    rounds = [[1, 1, "Anna", "Carla", "1-0"], [1, None, "Daan", None, "excused"]]
    with pytest.raises(KeizerError) as error:
        competition(players, rounds).next_round()
    assert problems(error) == [
        ("Players", 2, "Anna is marked present but left after round 1; round 2 is next"),
        ("Players", 3, "Bert is marked present but joins in round 3; round 2 is next"),
    ]
    only_daan = [[*p[:4], None] for p in FOUR[:3]] + [FOUR[3]]
    with pytest.raises(KeizerError) as error:
        competition(only_daan).next_round()
    assert problems(error) == [
        (
            "Players",
            None,
            "only one player is marked present for round "
            "1; put x in the Present column for each player who is here",
        )
    ]


def test_settings_and_season_problems_come_together() -> None:
    with pytest.raises(KeizerError) as error:
        competition(
            [["Anna", "lots", None, None, "x"]], [[1, 1, "Anna", "Nobody", "1-0"]], [["Bye", "zz"]]
        )
    assert [(t, r) for t, r, _ in problems(error)] == [
        ("Settings", 2),
        ("Players", 2),
        ("Rounds", 2),
    ]


def test_the_pandas_door_gives_the_same_round() -> None:
    players = pd.DataFrame(FOUR, columns=list(PLAYER_COLUMNS))
    rounds = pd.DataFrame(
        [[1, 1, "Anna", "Bert", "1-0"], [1, 2, "Carla", "Daan", "½-½"]], columns=list(ROUND_COLUMNS)
    )
    frame = engine.pair(players, rounds, {"Top value": "10"})
    core = competition(
        FOUR, [[1, 1, "Anna", "Bert", "1-0"], [1, 2, "Carla", "Daan", "½-½"]], [["Top value", 10]]
    ).next_round()
    assert frame.to_dict("records") == [
        {"Round": g.round, "Board": g.board, "White": g.white, "Black": g.black, "Result": None}
        for g in core.games
        if isinstance(g, Game)
    ]
    assert isinstance(engine.Competition.from_frames(players, rounds), Competition)
