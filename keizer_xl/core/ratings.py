"""Ratings that move by Elo after each round (Values `rating` with a K-factor, §6).

R' = R + K·(S − E), E = 1/(1 + 10^((R_opp − R)/400)). E is irrational, so each change is
rounded to 1/100 of a rating point (halves to even): the ratings stay exact numbers from
then on, and the result is reproducible. They are kept as whole numbers of 1/`scale` of a
point, so a round's moves are one vector operation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np


def lcm_of_denominators(numbers: Sequence[Fraction]) -> int:
    out = 1
    for x in numbers:
        out = out * x.denominator // math.gcd(out, x.denominator)
    return out


class EloRatings:
    """Every player's current rating, times `scale` (a multiple of 100)."""

    def __init__(self, ratings: Sequence[Fraction], k_factor: Fraction,
                 base: int | None = None) -> None:
        """`base`: the least common multiple of the ratings' denominators, if known."""
        base = lcm_of_denominators(ratings) if base is None else base
        self.scale = base * 100 // math.gcd(base, 100)
        scaled = [r.numerator * (self.scale // r.denominator) for r in ratings]
        safe = max(map(abs, scaled), default=0) * 2 < 2**53  # float Elo keeps them exact
        self.scaled: np.ndarray = np.array(scaled, dtype=np.int64 if safe else object)
        self.k_hundredths = float(k_factor) * 100

    def move(self, who: np.ndarray, opponents: np.ndarray, points: np.ndarray) -> None:
        """One round's games: player who[j] scored points[j] (1, ½, 0) against opponents[j]."""
        if not len(who):
            return
        gap = (self.scaled[opponents] - self.scaled[who]).astype(float) / (self.scale * 400)
        hundredths = np.rint(self.k_hundredths * (points - 1 / (1 + 10 ** gap)))
        self.scaled[who] += hundredths.astype(self.scaled.dtype) * (self.scale // 100)

    def rating(self, player: int) -> Fraction:
        return Fraction(int(self.scaled[player]), self.scale)


def games_by_round(points: np.ndarray, opponent: np.ndarray,
                   ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Per round: (players, their opponents, their points) of the games played over the
    board. `points` is players × rounds with NaN where no game counts; `opponent` likewise,
    with an index past the last player where there was nobody to rate against."""
    n, rounds = points.shape
    played = ~np.isnan(points) & (opponent < n)
    out = []
    for k in range(rounds):
        who = np.nonzero(played[:, k])[0]
        out.append((who, opponent[who, k], points[who, k]))
    return out
