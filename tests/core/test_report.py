"""The figures a report adds to the standings, checked against the engine itself."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keizer_xl.core.colours import ColourHistory
from keizer_xl.core.report import (
    FORFEIT,
    GAME,
    NOT_YET,
    RoundLine,
    build_report,
    latest_round,
)
from keizer_xl.core.scoring import compute_standings
from keizer_xl.core.settings import Settings
from tests.profiles import examples
from tests.seasons import club_season

NAMES = [f"Player {i:02d}" for i in range(14)]


def check_report(season, settings_: Settings) -> None:
    standings = compute_standings(season, settings_)
    report = build_report(season, standings)
    rounds = standings.after_round
    history = ColourHistory.from_season(season, rounds + 1)
    earlier = [compute_standings(season, settings_, r) for r in range(1, rounds + 1)]
    assert [p.name for p in report.players] == list(standings.ranking)
    for p in report.players:
        row = p.standing
        assert p.game_points == row.won + Fraction(row.drawn, 2)
        if row.played:
            assert p.percentage == p.game_points * 100 / row.played
        else:
            assert p.percentage is None
        assert p.colour_balance == history.balance(row.name)
        assert p.whites + p.blacks == row.played
        # rank after each round: as the standings after that round had it
        for r, rank in enumerate(p.ranks, start=1):
            assert rank == next((x.rank for x in earlier[r - 1].rows if x.name == row.name), None)
        if rounds >= 2 and row.score is not None and p.ranks[-2] is not None:
            assert p.change == p.ranks[-2] - row.rank
        # every round accounted for, worth what the engine says, adding up to the score
        assert [line.round for line in p.rounds] == list(range(1, rounds + 1))
        assert [line.worth for line in p.rounds] == [
            None if w is None else w for w in (row.rounds or (None,) * rounds)
        ]
        if row.score is not None:
            total = sum((line.worth or 0 for line in p.rounds), Fraction(0))
            assert total + (row.own or 0) == row.score
        played = [line for line in p.rounds if line.kind == GAME]
        assert len(played) == row.played
        assert sum(line.mark == "1" for line in played) == row.won
        assert sum(line.mark == "½" for line in played) == row.drawn


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"iterate": "final"},
        {"withdrawn": "drop"},
        {"ties": "shared"},
        {"preset": "kfc", "top_value_auto": True, "forfeit_win_opponent": True},
    ],
)
def test_report_matches_the_engine(options: dict[str, object]) -> None:
    s = Settings(**options)  # type: ignore[arg-type]
    season = club_season(NAMES, 7, seed=3, settings=s, late=5, leaver=2)
    check_report(season, s)


@settings(max_examples=examples(15), deadline=None)
@given(seed=st.integers(0, 10_000), rounds=st.integers(1, 6), players=st.integers(2, 11))
def test_report_matches_the_engine_for_any_season(seed: int, rounds: int, players: int) -> None:
    season = club_season(NAMES[:players], rounds, seed=seed, late=players - 1)
    check_report(season, Settings())


def test_crosstable_cells_and_round_kinds() -> None:
    season = club_season(NAMES[:9], 5, seed=11, late=8)
    report = build_report(season, compute_standings(season, Settings()))
    late = report.player("Player 08")
    assert late is not None
    assert [line.kind for line in late.rounds[:2]] == [NOT_YET, NOT_YET]
    assert late.rounds[0].short(None) == ""
    seen = set()
    for p in report.players:
        for line in p.rounds:
            opponent_rank = report.rank(line.opponent) if line.opponent else None
            cell = line.short(opponent_rank)
            seen.add(cell if line.opponent is None else line.kind)
            if line.kind in (GAME, FORFEIT):
                assert cell == f"{opponent_rank}{line.colour}{line.mark}"
                assert line.mark in {"1", "½", "0", "+", "-"}
    assert {"bye", GAME} <= seen


def test_change_and_default_absences() -> None:
    season = club_season(NAMES[:8], 4, seed=5)
    standings = compute_standings(season, Settings())
    report = build_report(season, standings)
    before = compute_standings(season, Settings(), 3)
    for p in report.players:
        previous = next(r.rank for r in before.rows if r.name == p.name)
        assert p.change == previous - p.standing.rank
    typed = {(e.round, e.player) for e in season.entries if hasattr(e, "reason")}
    for p in report.players:
        for line in p.rounds:
            if line.default:
                assert (line.round, p.name) not in typed
                assert line.kind == "excused"  # the default reason


def test_latest_round_is_the_last_paired_one() -> None:
    season = club_season(NAMES[:9], 3, seed=2, open_last=True)
    number, games, _rests = latest_round(season)
    assert number == 3
    assert games and all(g.result is None for g in games)
    assert [g.board for g in games] == sorted(g.board for g in games)  # type: ignore[type-var]
    report = build_report(season, compute_standings(season, Settings()))
    assert report.after_round == 2


def test_every_line_is_a_round_line_that_cannot_change() -> None:
    """Lines are light records (a report has tens of thousands): each is the RoundLine of
    its fields, equal, hashed and shown alike, and cannot be changed."""
    season = club_season(NAMES[:9], 5, seed=11, late=8, leaver=2)
    report = build_report(season, compute_standings(season, Settings()))
    for p in report.players:
        for line in p.rounds:
            made = RoundLine(**line._asdict())
            assert type(line) is RoundLine
            assert line == made and hash(line) == hash(made) and repr(line) == repr(made)
            with pytest.raises(AttributeError):
                line.mark = "1"  # type: ignore[misc]
