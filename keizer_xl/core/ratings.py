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

    def __init__(
        self, ratings: Sequence[Fraction], k_factor: Fraction, base: int | None = None
    ) -> None:
        """`base`: the least common multiple of the ratings' denominators, if known."""
        base = lcm_of_denominators(ratings) if base is None else base
        self.scale = base * 100 // math.gcd(base, 100)
        scaled = [r.numerator * (self.scale // r.denominator) for r in ratings]
        safe = max(map(abs, scaled), default=0) * 2 < 2**53  # float Elo keeps them exact
        self.scaled: np.ndarray = np.array(scaled, dtype=np.int64 if safe else object)
        self.narrow = safe  # int64; else Python integers, and so are the moves added to them
        # the constants of `move` as numpy scalars: an operation with a Python number costs
        # half as much again as one with a numpy scalar, and a season moves every round
        self.k_hundredths = np.float64(float(k_factor) * 100)
        self.per_gap = np.float64(self.scale * 400)
        self.hundredth = self.scale // 100  # a hundredth of a point, scaled
        self.one, self.ten = np.float64(1), np.float64(10)

    def move(self, opponents: np.ndarray, points: np.ndarray) -> None:
        """One round: player i scored points[i] (1, ½, 0) against opponents[i]. Every player
        is in it; one without a rated game plays himself for ½, which moves him by exactly
        0 (E = ½), so the round needs no list of who played.

        The same floating-point operations, in the same order, as the formula written out:
        E = 1 / (1 + 10 ** gap), change = rint(K·100 · (points − E)) hundredths."""
        gap = (self.scaled[opponents] - self.scaled).astype(float)
        gap /= self.per_gap
        powers = self.ten**gap
        powers += self.one
        hundredths = np.rint((points - np.reciprocal(powers)) * self.k_hundredths)
        moves = hundredths.astype(np.int64)
        if self.hundredth != 1:
            moves *= self.hundredth
        self.scaled += moves if self.narrow else moves.astype(object)

    def rating(self, player: int) -> Fraction:
        return Fraction(int(self.scaled[player]), self.scale)

    def ratings(self) -> list[Fraction]:
        """Every player's current rating (one conversion out of numpy for them all)."""
        return [Fraction(r, self.scale) for r in self.scaled.tolist()]


def rated_rounds(points: np.ndarray, opponent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per round (a row each, as `EloRatings.move` takes them): every player's opponent
    and points. `points` is players × rounds with NaN where no game counts; `opponent`
    likewise, with an index past the last player where there was nobody to rate against.
    Where a player has no rated game, he is his own opponent with ½ point."""
    n = len(points)
    played = ~np.isnan(points) & (opponent < n)
    itself = np.arange(n)[:, None]
    return (
        np.ascontiguousarray(np.where(played, opponent, itself).T),
        np.ascontiguousarray(np.where(played, points, 0.5).T),
    )
