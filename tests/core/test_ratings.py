"""Elo rating movement (Values `rating` with a K-factor): the moves against the formula
worked out with exact fractions, and through the standings."""

from __future__ import annotations

import random
from fractions import Fraction as F

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from keizer_xl.core.model import Game, Player, Result
from keizer_xl.core.ratings import EloRatings, rated_rounds
from keizer_xl.core.scoring import compute_standings
from keizer_xl.core.season import Season
from keizer_xl.core.settings import parse_settings
from tests.profiles import examples


def expected_move(rating: F, opponent: F, points: F, k: F) -> F:
    """The rule written out: K·(S − E) rounded to 1/100 point, halves to even."""
    e = 1 / (1 + 10 ** ((float(opponent) - float(rating)) / 400))
    return F(round(float(k) * (float(points) - e) * 100), 100)


@settings(max_examples=examples(200), deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.integers(2, 12),
    st.sampled_from([F(10), F(20), F(32), F(15, 2)]),
)
def test_one_round_moves_every_player_by_the_formula(rnd: random.Random, n: int, k: F) -> None:
    ratings = [F(rnd.randint(1000, 2800)) + F(rnd.choice([0, 1, 25, 50]), 100) for _ in range(n)]
    elo = EloRatings(ratings, k)
    order = list(range(n))
    rnd.shuffle(order)
    pairs = [(order[i], order[i + 1]) for i in range(0, n - 1, 2)]
    scores = [rnd.choice([F(1), F(1, 2), F(0)]) for _ in pairs]
    opp = np.arange(n)  # the odd one out plays himself for ½: no move
    points = np.full(n, 0.5)
    for (a, b), s in zip(pairs, scores, strict=True):
        opp[a], opp[b], points[a], points[b] = b, a, float(s), float(1 - s)
    elo.move(opp, points)
    want = list(ratings)
    for (a, b), s in zip(pairs, scores, strict=True):
        want[a] = ratings[a] + expected_move(ratings[a], ratings[b], s, k)
        want[b] = ratings[b] + expected_move(ratings[b], ratings[a], 1 - s, k)
    assert [elo.rating(i) for i in range(n)] == want


def test_rated_rounds_leave_out_forfeits_and_nobody() -> None:
    """Without a rated game (a forfeit: NaN; nobody: index 3) a player meets himself for ½."""
    nan = float("nan")
    points = np.array([[1.0, nan], [0.0, 0.5], [nan, 0.5]])
    opponent = np.array([[1, 3], [0, 2], [3, 1]])  # 3 = nobody
    opponents, scored = rated_rounds(points, opponent)
    assert opponents.tolist() == [[1, 0, 2], [0, 2, 1]]
    assert scored.tolist() == [[1.0, 0.0, 0.5], [0.5, 0.5, 0.5]]


def test_a_player_without_a_game_keeps_his_rating() -> None:
    elo = EloRatings([F(1500), F(2100), F(1234, 100)], F(32))
    elo.move(np.array([1, 0, 2]), np.array([0.0, 1.0, 0.5]))
    assert elo.rating(2) == F(1234, 100)
    assert elo.rating(0) + elo.rating(1) == F(3600)


def test_values_from_ratings_move_by_elo() -> None:
    """Geel: value = rating / 100; K = 20 moves ratings after each round."""
    players = (Player("A", F(2000)), Player("B", F(1800), order=1))
    season = Season(
        players, (Game(1, 1, "A", "B", Result.BLACK_WINS), Game(2, 1, "B", "A", Result.DRAW))
    )
    fixed = compute_standings(season, parse_settings({"Values": "rating"}), 2)
    # round 2 priced with the unchanged values 20 and 18: B 18 + 20 + 10, A 20 + 9
    assert {r.name: r.score for r in fixed.rows} == {"B": 48, "A": 29}
    moving = compute_standings(
        season, parse_settings({"Values": "rating", "Rating K-factor": "20"}), 2
    )
    # after round 1: E(B) = 1/(1+10^(200/400)) = 0.2403 -> B +15.19, A -15.19
    e_b = 1 / (1 + 10**0.5)
    gain = F(round(20 * (1 - e_b) * 100), 100)
    b1, a1 = F(1800) + gain, F(2000) - gain
    assert gain == F(1519, 100)
    # score after round 2 uses the ratings after round 1
    assert {r.name: r.score for r in moving.rows}["B"] == b1 / 100 + a1 / 100 + a1 / 200
    assert {r.name: r.score for r in moving.rows}["A"] == a1 / 100 + b1 / 200


def test_ratings_too_large_for_floats_still_move_exactly() -> None:
    """Past 2**53 the ratings are Python integers: the moves stay whole hundredths."""
    big = F(10**16)
    players = (Player("A", big + 200), Player("B", big, order=1))
    season = Season(players, (Game(1, 1, "A", "B", Result.BLACK_WINS),))
    table = compute_standings(
        season, parse_settings({"Values": "rating", "Rating K-factor": "20"}), 1
    )
    gain = F(round(20 * (1 / (1 + 10**-0.5)) * 100), 100)  # B's win against 200 more
    assert {r.name: r.rating for r in table.rows} == {"A": big + 200 - gain, "B": big + gain}
