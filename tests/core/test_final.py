"""The final standings with a minimum number of games, on hand-made standings."""

from __future__ import annotations

from fractions import Fraction

from keizer_xl.core.final import final_order
from keizer_xl.core.scoring import Standing, Standings
from keizer_xl.core.settings import Settings


def _row(name: str, rank: int, played: int) -> Standing:
    return Standing(
        rank, name, Fraction(10), Fraction(1), played, 0, 0, 0, 0, 0, Fraction(0), Fraction(0)
    )


def test_shared_places_stay_shared() -> None:
    settings = Settings(minimum_games=3, rounds_in_season=5)
    rows = (
        _row("A", 1, 5),
        _row("B", 2, 1),
        _row("C", 2, 4),
        _row("D", 2, 4),
        _row("E", 5, 2),
        _row("F", 5, 2),
        _row("G", 7, 3),
    )
    final = final_order(Standings(5, rows, settings, None))
    assert [(r.name, r.rank) for r in final.standings.rows] == [
        ("A", 1),
        ("C", 2),
        ("D", 2),
        ("G", 4),
        ("B", 5),
        ("E", 6),
        ("F", 6),
    ]
    assert final.short == {"B", "E", "F"}
    early = final_order(Standings(4, rows, settings, None))
    assert early.standings.rows == rows and not early.short
