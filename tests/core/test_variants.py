"""Every setting of the rule book's §6 (and §1–§3), each with a small case computed by hand
that fails if the setting is ignored; and a KeizerForClubs-style season worked out by hand.

Unless said otherwise: players A 2000, B 1900, C 1800, D 1700; Top value 10, so the
initial values are A 10, B 9, C 8, D 7.
"""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from keizer_xl.core.model import Absence, Entry, Game, Player, Rest, Result
from keizer_xl.core.scoring import compute_standings
from keizer_xl.core.season import Season
from keizer_xl.core.settings import parse_settings
from tests.conftest import run_cli
from tests.seasons import make_book

W, L_, D_ = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW


def players(*extra: Player) -> tuple[Player, ...]:
    base = tuple(
        Player(n, F(r), order=i)
        for i, (n, r) in enumerate([("A", 2000), ("B", 1900), ("C", 1800), ("D", 1700)])
    )
    return base + extra


def scores(
    entries: list[Entry],
    words: dict[str, str],
    after: int = 1,
    people: tuple[Player, ...] | None = None,
) -> dict[str, F | None]:
    settings = parse_settings({"Top value": "10", **words})
    table = compute_standings(Season(people or players(), tuple(entries)), settings, after)
    return {row.name: row.score for row in table.rows}


def values(
    entries: list[Entry],
    words: dict[str, str],
    after: int = 1,
    people: tuple[Player, ...] | None = None,
) -> dict[str, F]:
    settings = parse_settings({"Top value": "10", **words})
    table = compute_standings(Season(people or players(), tuple(entries)), settings, after)
    return {row.name: row.value for row in table.rows}


ROUND1 = [Game(1, 1, "A", "B", W), Game(1, 2, "C", "D", D_)]


def test_step() -> None:
    # values 10, 8, 6, 4: A = 10 + 8 (win over B); C = 6 + 4/2
    got = scores(ROUND1, {"Step": "2"})
    assert (got["A"], got["C"]) == (18, 8)
    assert scores(ROUND1, {})["A"] == 19  # step 1: 10 + 9


def test_initial_order_as_listed() -> None:
    listed = tuple(
        Player(n, F(r), order=i)
        for i, (n, r) in enumerate([("D", 1700), ("C", 1800), ("B", 1900), ("A", 2000)])
    )
    assert values([], {"Initial order": "as listed"}, 0, listed)["D"] == 10
    assert values([], {}, 0, listed)["A"] == 10  # by rating: A first


def test_bye_fraction() -> None:
    entries = [Game(1, 1, "A", "B", W), Rest(1, "C", Absence.BYE), Rest(1, "D", Absence.EXCUSED)]
    assert scores(entries, {"Bye": "1/2"})["C"] == 8 + 4  # 8 + 8 × 1/2
    assert scores(entries, {})["C"] == 8 + F(16, 3)  # default 2/3


@pytest.mark.parametrize(
    ("reason", "words", "expected"),
    [
        (Absence.EXCUSED, {"Excused absence": "1/4"}, 7 + F(7, 4)),
        (Absence.EXCUSED, {}, 7 + F(7, 3)),
        (Absence.CLUB, {"Club duty": "50%"}, 7 + F(7, 2)),
        (Absence.CLUB, {}, 7 + F(14, 3)),
        (Absence.UNEXCUSED, {"Unexcused absence": "0.1"}, 7 + F(7, 10)),
        (Absence.UNEXCUSED, {}, 7),
    ],
)
def test_absence_fractions(reason: Absence, words: dict[str, str], expected: F) -> None:
    entries: list[Entry] = [
        Game(1, 1, "A", "B", W),
        Rest(1, "C", Absence.BYE),
        Rest(1, "D", reason),
    ]
    assert scores(entries, words)["D"] == expected


def test_default_absence_for_a_player_missing_from_a_round() -> None:
    entries: list[Entry] = [Game(1, 1, "A", "B", W), Rest(1, "C", Absence.BYE)]  # no row for D
    assert scores(entries, {"Default absence": "unexcused"})["D"] == 7
    assert scores(entries, {"Default absence": "club"})["D"] == 7 + F(14, 3)
    assert scores(entries, {})["D"] == 7 + F(7, 3)  # excused by default


def test_forfeit_win() -> None:
    entries: list[Entry] = [
        Game(1, 1, "A", "B", Result.WHITE_FORFEIT_WIN),
        Game(1, 2, "C", "D", Result.DOUBLE_FORFEIT),
    ]
    assert scores(entries, {"Forfeit win": "1/2"})["A"] == 15  # 10 + 10/2
    assert scores(entries, {"Forfeit win": "opponent"})["A"] == 19  # 10 + B's value 9
    assert scores(entries, {})["A"] == 10 + F(20, 3)  # 2/3 of own value
    got = scores(entries, {"Unexcused absence": "1/2"})  # no-shows score as unexcused
    assert (got["B"], got["C"], got["D"]) == (9 + F(9, 2), 12, 7 + F(7, 2))


def test_forfeit_loss() -> None:
    # A wins by forfeit against B (B did not turn up); C and D both stayed away (--).
    # Values A 10, B 9, C 8, D 7; Unexcused absence 1/3 so that "as unexcused" shows.
    entries: list[Entry] = [
        Game(1, 1, "A", "B", Result.WHITE_FORFEIT_WIN),
        Game(1, 2, "C", "D", Result.DOUBLE_FORFEIT),
    ]
    unexcused = {"Unexcused absence": "1/3"}
    got = scores(entries, unexcused)  # default: as an unexcused absence, 1/3 of own value
    assert (got["B"], got["C"], got["D"]) == (12, 8 + F(8, 3), 7 + F(7, 3))
    assert scores(entries, {**unexcused, "Forfeit loss": "unexcused"}) == got
    got = scores(entries, {**unexcused, "Forfeit loss": "0"})  # nothing for a no-show
    assert (got["B"], got["C"], got["D"]) == (9, 8, 7)
    got = scores(entries, {**unexcused, "Forfeit loss": "1/2"})  # `--`: both get it
    assert (got["B"], got["C"], got["D"]) == (9 + F(9, 2), 12, 7 + F(7, 2))
    # the winner is untouched by the setting; a real unexcused absence keeps its fraction
    assert got["A"] == 10 + F(20, 3)
    away = scores(
        [Game(1, 1, "A", "B", W), Rest(1, "C", Absence.UNEXCUSED), Rest(1, "D", Absence.BYE)],
        {**unexcused, "Forfeit loss": "0"},
    )
    assert away["C"] == 8 + F(8, 3)
    # Preset kfc: forfeit loss 0 although its unexcused absence is 35 %
    kfc = parse_settings({"Preset": "kfc"})
    assert kfc.forfeit_loss == 0 and kfc.unexcused == F(35, 100)
    assert parse_settings({"Preset": "kfc", "Forfeit loss": "unexcused"}).forfeit_loss is None


def test_late_entry_bottom_or_by_rating() -> None:
    late = players(Player("E", F(2500), joined=2, order=4))
    # bottom: E is not ranked before round 2 and then stands last
    bottom = values([*ROUND1], {}, 1, late)
    assert list(bottom) == ["A", "C", "D", "B", "E"] and bottom["E"] == 6
    assert "E" not in values([], {}, 0, late)
    # rating: E stands first from the start, as if registered then
    assert values([], {"Late entry": "rating"}, 0, late)["E"] == 10


def test_late_entry_rounds_excused_or_nothing() -> None:
    late = players(Player("E", F(1500), joined=2, order=4))
    entries: list[Entry] = [*ROUND1]
    entries += [Game(2, 1, "A", "C", W), Game(2, 2, "D", "E", W), Rest(2, "B", Absence.BYE)]
    # after round 1, E is last with value 6; round 2 is priced with those values:
    # E = 6 (own) + 6/3 (round 1, before joining, excused) + 0 (lost to D)
    assert scores(entries, {}, 2, late)["E"] == 8
    assert scores(entries, {"Late entry rounds": "nothing"}, 2, late)["E"] == 6


def test_max_rewarded_absences_and_decreasing_fractions() -> None:
    entries: list[Entry] = [
        Game(1, 1, "A", "B", W),
        Rest(1, "C", Absence.BYE),
        Rest(1, "D", Absence.EXCUSED),
        Game(2, 1, "A", "B", W),
        Rest(2, "C", Absence.BYE),
        Rest(2, "D", Absence.EXCUSED),
    ]
    # after round 1: A 19, C 8 + 16/3, D 7 + 7/3, B 9 -> D is third, value 8; round 2 is
    # priced with 8: two excused absences of 8/3 each
    assert scores(entries, {}, 2)["D"] == 8 + F(16, 3)
    assert scores(entries, {"Max rewarded absences": "1"}, 2)["D"] == 8 + F(8, 3)
    assert scores(entries, {"Excused absence": "1/3, 1/7"}, 2)["D"] == 8 + F(8, 3) + F(8, 7)


def test_top_value_auto_and_ratio() -> None:
    # 4 ranked players, ratio 3: (4 - 1) × 3 / 2 = 4.5 -> 4 (halves to even)
    assert values([], {"Top value": "auto"}, 0)["A"] == 4
    # ratio 2: (4 - 1) × 2 / 1 = 6
    assert values([], {"Top value": "auto", "Ratio first to last": "2"}, 0)["A"] == 6


def test_loss_earns_a_share_of_the_opponent() -> None:
    assert scores(ROUND1, {"Loss": "1/6"})["B"] == 9 + F(10, 6)
    assert scores(ROUND1, {})["B"] == 9


def test_withdrawn_drop_and_withdrawn_opponent() -> None:
    people = tuple(
        Player(n, F(r), order=i, left=1 if n == "B" else None)
        for i, (n, r) in enumerate([("A", 2000), ("B", 1900), ("C", 1800), ("D", 1700)])
    )
    entries: list[Entry] = [*ROUND1, Game(2, 1, "A", "C", D_), Rest(2, "D", Absence.BYE)]
    stay = scores(entries, {}, 2, people)
    assert "B" in stay  # stay: still ranked
    dropped = values(entries, {"Withdrawn": "drop"}, 2, people)
    assert "B" not in dropped and list(dropped.values()) == [10, 9, 8]
    # drop: A's win over B is worth 3/4 of A's own value; A 10, C 9, D 8 from the start
    got = scores(entries, {"Withdrawn": "drop"}, 2, people)
    assert got["A"] == 10 + F(30, 4) + F(9, 2)
    got = scores(entries, {"Withdrawn": "drop", "Withdrawn opponent": "1/2"}, 2, people)
    assert got["A"] == 10 + 5 + F(9, 2)


def test_own_value_current_initial_none() -> None:
    entries: list[Entry] = [
        Game(1, 1, "D", "A", W),
        Game(1, 2, "B", "C", D_),
        Game(2, 1, "D", "B", W),
        Game(2, 2, "A", "C", D_),
    ]
    # after round 1: D 7 + 10 = 17, B 9 + 4 = 13, A 10, C 8 + 4.5 = 12.5 -> D 10, B 9, C 8, A 7
    # after round 2 (values D 10, B 9, C 8, A 7): D = own + 7 (A) + 9 (B)
    assert scores(entries, {}, 2)["D"] == 10 + 7 + 9
    assert scores(entries, {"Own value": "initial"}, 2)["D"] == 7 + 7 + 9
    # none: after round 1 D 10, C 4.5, B 4, A 0 -> values D 10, C 9, B 8, A 7: D = 7 + 8
    assert scores(entries, {"Own value": "none"}, 2)["D"] == 7 + 8


def test_values_from_ratings_and_divisor() -> None:
    assert values([], {"Values": "rating"}, 0) == {"A": 20, "B": 19, "C": 18, "D": 17}
    assert values([], {"Values": "rating", "Rating divisor": "200"}, 0)["A"] == 10
    # A beats B: 20 + 19
    assert scores(ROUND1, {"Values": "rating"})["A"] == 39


def test_ties_shared_gives_the_higher_value() -> None:
    # Top value 4: A 4, B 3, C 2, D 1. A-D draw: A 4.5, D 1 + 2 = 3; C beats B: C 5, B 3.
    entries: list[Entry] = [Game(1, 1, "A", "D", D_), Game(1, 2, "B", "C", L_)]
    shared = values(entries, {"Top value": "4", "Ties": "shared"})
    assert shared == {"C": 4, "A": 3, "B": 2, "D": 2}  # B and D tied on 3: both place 3
    assert values(entries, {"Top value": "4"}) == {"C": 4, "A": 3, "B": 2, "D": 1}


def test_preset_fills_defaults_and_settings_override_it() -> None:
    kfc = parse_settings({"Preset": "kfc"})
    assert (kfc.bye, kfc.excused, kfc.club, kfc.unexcused) == (
        F(1, 2),
        (F(35, 100),),
        (F(70, 100),),
        F(35, 100),
    )
    assert kfc.top_value_auto and kfc.forfeit_win_opponent and kfc.withdrawn == "drop"
    mine = parse_settings({"Preset": "kfc", "Bye": "2/3", "Top value": "30"})
    assert mine.bye == F(2, 3) and mine.top_value == 30 and not mine.top_value_auto
    assert mine.describe() == "Preset kfc; changed: Bye 2/3, Top value 30"


# -- a KeizerForClubs-style season, worked out by hand ----------------------------------------

KFC_PLAYERS = [("A", 2000), ("B", 1900), ("C", 1800), ("D", 1700), ("E", 1600)]
KFC_ROUNDS: list[list[object]] = [
    [1, 1, "A", "B", "1-0"],
    [1, 2, "C", "D", "+-"],
    [1, None, "E", None, "bye"],
    [2, 1, "A", "C", "½-½"],
    [2, 2, "B", "E", "0-1"],
    [2, None, "D", None, "club"],
    [3, 1, "A", "E", "1-0"],
    [3, 2, "C", "D", "0-1"],
]
# B withdraws after round 2 (Left = 2) and is dropped: A, C, D, E are ranked, N = 4, so the
# automatic top value is round(3 × 3/2) = round(4.5) = 4: values 4, 3, 2, 1.
# Round 1 (values A 4, C 3, D 2, E 1):
#   A 4 + 3/4 × 4 (win over dropped B) = 7; C 3 + D's value 2 (forfeit as a win) = 5;
#   D 2 + 0 (did not turn up: Forfeit loss 0, not the 35 % of an unexcused absence) = 2;
#   E 1 + 50% × 1 (bye) = 1.5.  Order A C D E.
# Round 2 (same values): A 7 + 3/2 = 8.5; C 5 + 4/2 = 7; D 2 + 70% × 2 (club) = 3.4;
#   E 1.5 + 3/4 × 1 (win over dropped B) = 2.25.  Order A C D E, values unchanged.
# Round 3 (same values): A 8.5 + 1 (E) = 9.5; C 7 + 0 = 7; D 3.4 + 3 (C) = 6.4; E 2.25.
# (Were the forfeit loss the unexcused 35 %, D would have 7.1 and stand above C.)
KFC_EXPECTED = [("A", F(19, 2)), ("C", F(7)), ("D", F(32, 5)), ("E", F(9, 4))]


def test_keizerforclubs_style_season_by_hand(tmp_path: Path) -> None:
    CalamineWorkbook = pytest.importorskip("python_calamine").CalamineWorkbook  # file reader
    path = make_book(
        tmp_path / "kfc.xlsx",
        [{"Name": n, "Rating": r, "Left": 2 if n == "B" else None} for n, r in KFC_PLAYERS],
        KFC_ROUNDS,
        {"Preset": "kfc"},
    )
    result = run_cli("recalc", path)
    assert result.exit_code == 0, result.output + result.stderr
    rows = CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Standings").to_python()
    table = [(r[1], r[2], r[3]) for r in rows[1:] if r and isinstance(r[0], float)]
    assert table == [
        (n, round(float(s), 2), v)
        for (n, s), v in zip(KFC_EXPECTED, [4.0, 3.0, 2.0, 1.0], strict=True)
    ]
    note = next(r[0] for r in rows if r and str(r[0]).startswith("Standings after round 3"))
    assert "Preset kfc" in note
    # the same through the engine, exactly
    season_players = tuple(
        Player(n, F(r), order=i, left=2 if n == "B" else None)
        for i, (n, r) in enumerate(KFC_PLAYERS)
    )
    kinds = {"bye": Absence.BYE, "club": Absence.CLUB}
    entries: list[Entry] = [
        Game(
            int(r[0]),
            int(r[1]),
            str(r[2]),
            str(r[3]),  # type: ignore[call-overload]
            {"1-0": W, "0-1": L_, "½-½": D_, "+-": Result.WHITE_FORFEIT_WIN}[str(r[4])],
        )
        if r[3]
        else Rest(int(r[0]), str(r[2]), kinds[str(r[4])])  # type: ignore[call-overload]
        for r in KFC_ROUNDS
    ]
    exact = compute_standings(
        Season(season_players, tuple(entries)), parse_settings({"Preset": "kfc"}), 3
    )
    assert [(row.name, row.score) for row in exact.rows] == KFC_EXPECTED


def test_variant_settings_through_the_command_line(tmp_path: Path) -> None:
    """Iterate final (golden C) and Values rating through a workbook and keizer-xl."""
    CalamineWorkbook = pytest.importorskip("python_calamine").CalamineWorkbook  # file reader
    base = [{"Name": n} for n in ("Jansen", "Pietersen", "Bakker", "Slager")]
    rounds: list[list[object]] = [
        [1, 1, "Slager", "Bakker", "1-0"],
        [1, 2, "Pietersen", "Jansen", "½-½"],
    ]
    path = make_book(
        tmp_path / "c.xlsx", base, rounds, {"Top value": 9, "Ties": "shared", "Iterate": "final"}
    )
    assert run_cli("recalc", path).exit_code == 0
    rows = CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Standings").to_python()
    assert [(r[1], r[2]) for r in rows[1:5]] == [
        ("Slager", 15.0),
        ("Jansen", 12.5),
        ("Pietersen", 11.5),
        ("Bakker", 6.0),
    ]
    rated = make_book(
        tmp_path / "r.xlsx",
        [{"Name": "A", "Rating": 2000}, {"Name": "B", "Rating": 1800}],
        [[1, 1, "B", "A", "1-0"]],
        {"Values": "rating"},
    )
    assert run_cli("recalc", rated).exit_code == 0
    rows = CalamineWorkbook.from_path(str(rated)).get_sheet_by_name("Standings").to_python()
    assert [(r[1], r[2]) for r in rows[1:3]] == [("B", 38.0), ("A", 20.0)]  # 18 + 20; 20
