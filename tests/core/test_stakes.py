"""Tonight's stakes from the core: for every game of a paired round not yet played, a win
earns the opponent's value, a draw half of it and a loss the Loss share of it, each value
worked out here from the opponent's place as the rule book gives it (Top value, less one
Step for each place above)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from keizer_xl.core.model import Game
from keizer_xl.core.report import build_report, next_game
from keizer_xl.core.scoring import compute_standings
from keizer_xl.core.settings import Settings
from tests.seasons import club_season


@pytest.mark.parametrize(
    ("seed", "loss"), [(1, Fraction(0)), (2, Fraction(1, 6)), (3, Fraction(1, 2))]
)
def test_stakes_are_the_opponents_value_by_place(seed: int, loss: Fraction) -> None:
    settings = Settings(top_value=Fraction(30), step=Fraction(1), loss=loss)
    season = club_season(20, 6, seed=seed, settings=settings, open_last=True)
    report = build_report(season, compute_standings(season, settings))
    tonight = season.last_round
    assert report.after_round == tonight - 1
    place = {row.name: k for k, row in enumerate(report.standings.rows)}
    worth = {name: 30 - k for name, k in place.items()}  # Ties rating: one value a place
    games = [e for e in season.round_entries(tonight) if isinstance(e, Game)]
    assert games
    for game in games:
        stakes = report.stakes(game)
        assert stakes is not None
        for mine, theirs in zip(stakes, (game.black, game.white), strict=True):
            assert mine.win == worth[theirs]
            assert mine.draw * 2 == worth[theirs]
            assert mine.loss == worth[theirs] * loss
        for name, side, opponent in ((game.white, 0, game.black), (game.black, 1, game.white)):
            found = next_game(report, name)
            assert found is not None and found[0] == game and found[1] == stakes[side]
            assert found[1].win == worth[opponent]
    paired = {n for g in games for n in (g.white, g.black)}
    assert all(next_game(report, p.name) is None for p in season.players if p.name not in paired)


def test_a_played_round_has_no_stakes() -> None:
    settings = Settings(top_value=Fraction(30))
    season = club_season(12, 4, seed=5, settings=settings)
    report = build_report(season, compute_standings(season, settings))
    games = [e for e in season.round_entries(season.last_round) if isinstance(e, Game)]
    assert games and all(report.stakes(g) is None for g in games)
    assert all(next_game(report, p.name) is None for p in season.players)
