"""Keizer scores, rankings and values: the standings after any round, exactly.

The score after round r is recomputed from scratch with the values of the ranking after
round r-1, so every earlier result is re-priced each week (Pricing `current`; with `frozen`
each round is priced once, when it is scored). Every term is linear in the values: for each
player and round we first work out *coefficients* (`core.coefficients`: what share of the
own value, what share of which opponent's value, what fixed points), which do not depend on
the ranking. Then each round is one gather-and-sum over those coefficients with the current
values.

Exactness: values and coefficients are rationals. Both are scaled to integers by the least
common multiple of their denominators, so the sums are exact integer arithmetic (numpy
int64 when the magnitudes provably fit, Python integers otherwise) and two scores are equal
only when they are exactly equal. Fractions come back out at the end.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import overload

import numpy as np

from keizer_xl.core.coefficients import (
    ABSENT,
    DRAWN,
    FREE,
    LOST,
    NONE,
    WON,
    Coefficients,
)
from keizer_xl.core.messages import msg
from keizer_xl.core.model import Player
from keizer_xl.core.ratings import EloRatings, lcm_of_denominators, rated_rounds
from keizer_xl.core.rows import LazyTuple
from keizer_xl.core.season import Season
from keizer_xl.core.settings import Settings


@dataclass(frozen=True)
class Standing:
    """One line of the standings. `rounds[k]` is what round k+1 is worth now (None: not
    registered then); `score` and `own` are None for a newcomer who has not played yet."""

    rank: int
    name: str
    score: Fraction | None
    value: Fraction
    played: int
    won: int
    drawn: int
    lost: int
    byes: int
    absent: int
    rating: Fraction
    own: Fraction | None
    terms: Sequence[int | None] = ()  # what each round is worth, times `scale`
    scale: int = 1

    @property
    def rounds(self) -> tuple[Fraction | None, ...]:
        """What each round is worth now (None: not registered then). Made on demand, since
        a large season has hundreds of thousands of them and most callers need none."""
        return tuple(None if t is None else Fraction(t, self.scale) for t in self.terms)


class Breakdown:
    """What each round is worth to each player, times `scale`, rows in ranking order;
    `registered` is False where a round has no worth for the player (not registered then,
    or no result yet). Kept as arrays: a large season has hundreds of thousands of them.
    A plain class, not a dataclass (see "Records" in docs/architecture.md)."""

    __slots__ = ("registered", "scale", "terms")

    def __init__(self, terms: np.ndarray, registered: np.ndarray, scale: int) -> None:
        self.terms, self.registered, self.scale = terms, registered, scale

    def row(self, i: int) -> tuple[int | None, ...]:
        """Row i's terms as Python numbers, None where not registered."""
        terms: list[int] = self.terms[i].tolist()
        registered = self.registered[i]
        if registered.all():
            return tuple(terms)
        return tuple(t if r else None for t, r in zip(terms, registered.tolist(), strict=True))


class RowTerms(LazyTuple[int | None], Sequence[int | None]):
    """One row of a Breakdown, made into Python numbers only when asked for (most callers
    never ask); equal to the tuple of its terms."""

    def __init__(self, breakdown: Breakdown, row: int) -> None:
        self.breakdown, self.row = breakdown, row
        self._made: tuple[int | None, ...] | None = None

    def all(self) -> tuple[int | None, ...]:
        if self._made is None:
            self._made = self.breakdown.row(self.row)
        return self._made

    def __iter__(self) -> Iterator[int | None]:
        """The terms, made again unless they are kept: a season of 10,000 players after 100
        rounds has a million, and going through them once (to write them) keeps none."""
        return iter(self._made if self._made is not None else self.breakdown.row(self.row))

    def __len__(self) -> int:
        return int(self.breakdown.terms.shape[1])

    @overload
    def __getitem__(self, k: int) -> int | None: ...
    @overload
    def __getitem__(self, k: slice) -> tuple[int | None, ...]: ...
    def __getitem__(self, k: int | slice) -> int | tuple[int | None, ...] | None:
        return self.all()[k]


@dataclass(frozen=True)
class Standings:
    """The standings after a round, and the ranking the next round is paired from."""

    after_round: int
    rows: tuple[Standing, ...]
    settings: Settings
    top_value: Fraction | None  # the top value used (None with Values `rating`)
    passes: int = 0  # extra re-pricing passes made by Iterate final/converge
    note: str = ""  # e.g. a ranking cycle found by Iterate converge
    rankings: Sequence[tuple[str, ...]] = field(default=(), repr=False, compare=False)
    cautions: tuple[str, ...] = ()  # said under the table: allowed but probably unintended
    breakdown: Breakdown | None = field(default=None, repr=False, compare=False)

    @property
    def ranking(self) -> tuple[str, ...]:
        return tuple(row.name for row in self.rows)

    @property
    def values(self) -> dict[str, Fraction]:
        return {row.name: row.value for row in self.rows}


def rounded(x: Fraction, rounding: str) -> Fraction:
    """A computed Top value as a whole number: halves to even (Top value rounding `even`)
    or rounded down (`down`)."""
    return Fraction(math.floor(x) if rounding == "down" else round(x))


def automatic_top_value(n_players: int, rounding: str = "even") -> Fraction:
    """Blank Top value: 1.5 × (players − 1), halves to even (35 players give 51) or rounded
    down (6 players give 7)."""
    return rounded(Fraction(3, 2) * (n_players - 1), rounding)


_ELO_POINTS = np.full(7, np.nan)  # game points by what a round meant, for moving ratings
_ELO_POINTS[[WON, DRAWN, LOST]] = 1.0, 0.5, 0.0


class _Calculator:
    """Runs the round-by-round ranking in scaled integers, one vector operation per step.

    Values are kept multiplied by `value_scale` and coefficients by `coef_scale`, so scores
    are integers scaled by value_scale·coef_scale: exact, and comparable without rounding.
    Fixed points are constants of the same scale.

    Pricing `current` prices every round again with each new ranking's values; `frozen`
    prices each round once, when it is scored, and keeps that worth (`_fix`).
    """

    def __init__(self, season: Season, settings: Settings, rounds: int) -> None:
        self.season, self.settings, self.rounds = season, settings, rounds
        players = self.players = season.players
        n = self.n = len(players)
        self.gone = np.array(
            [
                settings.withdrawn == "drop" and p.left is not None and p.left < rounds
                for p in players
            ],
            dtype=bool,
        )
        self.coef = Coefficients(season, settings, rounds, self.gone)
        self.coef_scale = lcm_of_denominators(self.coef.shares.values)
        self.fixed_top = settings.top_value
        if self.fixed_top is None and not settings.top_value_auto and settings.values == "rank":
            self.fixed_top = automatic_top_value(n, settings.top_value_rounding)
        # Values `rating` (Geel): the value is the rating / divisor, and with a K-factor the
        # ratings move after each round (`ratings.EloRatings`); value × value_scale =
        # rating × rating scale × q (divisor p/q).
        ratings = [p.rating for p in players]
        self.rating_scale = lcm_of_denominators(ratings)
        self.elo = EloRatings(ratings, settings.rating_k, self.rating_scale)
        self.moving = settings.values == "rating" and bool(settings.rating_k)  # by Elo
        self.rating_q = settings.rating_divisor.denominator
        scaled_ratings = [r.numerator * (self.rating_scale // r.denominator) for r in ratings]
        self.biggest_rating = max(scaled_ratings, default=0)
        self.value_scale, biggest = self._value_scale()
        bound = self._biggest_sum(biggest)
        self.dtype: type = np.int64 if bound < 2**62 else object
        dtype = self.dtype  # int64 when every sum provably fits, Python integers otherwise
        shares = self.coef.shares
        self.own_share = shares.scaled(self.coef.own, self.coef_scale, dtype)
        self.opp = self.coef.opp
        # the rounds one after another in memory: a score sums the first r of them
        self.opp_by_round = np.ascontiguousarray(self.opp.T)
        # a term of one round fits in 32 bits in any club: gathered at half the memory
        self.narrow = dtype is np.int64 and self._biggest_term(biggest) < 2**31
        self.opp_share_by_round = np.ascontiguousarray(
            shares.scaled(
                self.coef.opp_share, self.coef_scale, np.int32 if self.narrow else dtype
            ).T
        )
        self.own_so_far = np.cumsum(self.own_share, axis=1)  # own shares of rounds 1..k
        # fixed points, scaled as scores are (None when the settings give none)
        self.points: np.ndarray | None = None
        if self.coef.points.any():
            self.points = self.coef.points.astype(dtype) * (self.value_scale * self.coef_scale)
            self.points_so_far = np.cumsum(self.points, axis=1)
        # the order among equal scores: higher rating, then earlier on the Players sheet
        rating = np.array(scaled_ratings, dtype=dtype)
        by_rating = np.lexsort((np.arange(n), -rating))
        self.rating_place = np.empty(n, dtype=np.int64)
        self.rating_place[by_rating] = np.arange(n)
        self.one_key = dtype is np.int64 and bound * (n + 1) < 2**62  # (score, place) as one
        self.joined = np.array([p.joined for p in players], dtype=np.int64)
        self.everyone_from_round_one = not self.gone.any() and not (self.joined > 1).any()
        self.everyone = np.nonzero(~self.gone)[0]
        self.nobody = np.arange(0)
        self.ladders: dict[int, np.ndarray] = {}  # by the number of players ranked

    def _value_scale(self) -> tuple[int, Fraction]:
        """What values are multiplied by to be whole numbers, and the largest value."""
        s, players, n = self.settings, self.players, self.n
        if s.values == "rating":
            # the largest rating after every round moved it by K at most; in integers, as
            # Fractions player by player cost more than the rest of a small season's setup
            farthest = int(np.abs(self.elo.scaled).max(initial=0))  # from 0, at its scale
            most = (
                Fraction(farthest, self.elo.scale) + s.rating_k * self.rounds
                if players
                else Fraction(0)
            )
            return self.elo.scale * s.rating_divisor.numerator, most / s.rating_divisor
        top = (
            self.fixed_top
            if self.fixed_top is not None
            else Fraction(round(n * s.ratio / (s.ratio - 1)))
        )
        return lcm_of_denominators([s.step, top]), abs(top) + n * s.step

    def _biggest_term(self, biggest_value: Fraction) -> Fraction:
        """A bound on one round's scaled worth."""
        most_share = max((abs(x) for x in self.coef.shares.values), default=Fraction(0))
        return most_share * self.coef_scale * biggest_value * self.value_scale

    def _biggest_sum(self, biggest_value: Fraction) -> Fraction:
        """A bound on every scaled number the calculation makes."""
        most_share = max((abs(x) for x in self.coef.shares.values), default=Fraction(0))
        most_points = int(self.coef.points.max(initial=0))
        bound = (
            (self.rounds + 2)
            * (
                (most_share * self.coef_scale + self.coef_scale) * biggest_value
                + most_points * self.coef_scale
            )
            * self.value_scale
        )
        return max(bound, Fraction(self.biggest_rating))

    # -- rankings and values ------------------------------------------------------------
    def members(self, after: int) -> tuple[np.ndarray, np.ndarray]:
        """Players in the ranking after round `after`: (scored ones, newcomers without score)."""
        if self.settings.late_entry == "rating" or self.everyone_from_round_one:
            everyone = self.everyone
            return (everyone, self.nobody) if after else (self.nobody, everyone)
        here = ~self.gone
        if after == 0:
            return self.nobody, np.nonzero(here & (self.joined <= 1))[0]
        return (
            np.nonzero(here & (self.joined <= after))[0],
            np.nonzero(here & (self.joined == after + 1))[0],
        )

    def _by_rating(self, who: np.ndarray) -> np.ndarray:
        return who[np.argsort(self.rating_place[who])]

    def initial_ranking(self) -> np.ndarray:
        _, members = self.members(0)
        return members if self.settings.initial_order == "as listed" else self._by_rating(members)

    def rank(self, score: np.ndarray, scored: np.ndarray, newcomers: np.ndarray) -> np.ndarray:
        if self.one_key:
            ranked = scored[np.argsort(self.rating_place[scored] - score[scored] * (self.n + 1))]
        else:
            ranked = scored[np.lexsort((self.rating_place[scored], -score[scored]))]
        if not len(newcomers):
            return ranked
        return np.concatenate([ranked, self._by_rating(newcomers)])

    def values(self, ranking: np.ndarray, score: np.ndarray | None, scored: int) -> np.ndarray:
        """Scaled values by player index (index n, "nobody", is worth 0)."""
        s = self.settings
        out: np.ndarray = np.zeros(self.n + 1, dtype=self.dtype)
        if s.values == "rating":
            out[ranking] = (
                self.elo.scaled[ranking] * self.rating_q
                if self.rating_q != 1
                else self.elo.scaled[ranking]
            )
            return out
        ladder = self._ladder(len(ranking))  # the values by place, best first
        if s.ties == "shared" and score is not None and scored > 1:
            ordered = score[ranking[:scored]]
            starts = np.ones(scored, dtype=bool)
            starts[1:] = ordered[1:] != ordered[:-1]
            places = np.arange(len(ranking))
            places[:scored] = np.maximum.accumulate(np.where(starts, places[:scored], 0))
            ladder = ladder[places]
        out[ranking] = ladder
        return out

    def _ladder(self, ranked: int) -> np.ndarray:
        """Scaled values of places 1..ranked: top, top - step, ...; made once per number
        ranked (the top value can depend on it)."""
        ladder = self.ladders.get(ranked)
        if ladder is None:
            top = int(self.top_value(ranked) * self.value_scale)
            step = int(self.settings.step * self.value_scale)
            ladder = self.ladders[ranked] = top - np.arange(ranked).astype(self.dtype) * step
        return ladder

    def top_value(self, ranked: int) -> Fraction:
        if self.settings.top_value_auto:
            ratio = self.settings.ratio
            return rounded((ranked - 1) * ratio / (ratio - 1), self.settings.top_value_rounding)
        assert self.fixed_top is not None
        return self.fixed_top

    # -- scores -------------------------------------------------------------------------
    def scores(self, upto: int, value: np.ndarray, initial: np.ndarray) -> np.ndarray:
        """Scaled scores after round `upto` priced with `value`."""
        own: np.ndarray = self.own_term(value, initial)
        if not upto:
            return own
        narrow = value.astype(np.int32) if self.narrow else value
        opponents = np.take(narrow, self.opp_by_round[:upto])  # rounds x players
        opponents *= self.opp_share_by_round[:upto]
        score: np.ndarray = (
            own
            + self.own_so_far[:, upto - 1] * value[: self.n]
            + opponents.sum(axis=0, dtype=self.dtype)
        )
        if self.points is not None:
            score += self.points_so_far[:, upto - 1]
        return score

    def worth(self, k: int, value: np.ndarray, who: np.ndarray) -> np.ndarray:
        """Scaled worth of round k + 1 to the players `who`, priced with `value`."""
        opponents = self.opp_by_round[k, who]
        worth: np.ndarray = (
            self.own_share[who, k] * value[who]
            + self.opp_share_by_round[k, who].astype(self.dtype) * value[opponents]
        )
        if self.points is not None:
            worth += self.points[who, k]
        return worth

    def _fix(
        self,
        upto: int,
        value: np.ndarray,
        who: np.ndarray,
        fixed: np.ndarray,
        fixed_sum: np.ndarray,
        done: np.ndarray,
    ) -> None:
        """Pricing frozen: the rounds of `who` not fixed yet, up to `upto`, priced now with
        `value` and never again. That is round `upto` alone, except for a player scored
        for the first time, whose earlier rounds (before they joined) are fixed now, with
        the value they are first scored with."""
        pending = who[done[who] < upto]
        if not len(pending):
            return
        for k in range(int(done[pending].min()), upto):
            now = pending[done[pending] <= k]
            fixed[now, k] = self.worth(k, value, now)
            fixed_sum[now] += fixed[now, k]
        done[pending] = upto

    def own_term(self, value: np.ndarray, initial: np.ndarray) -> np.ndarray:
        """The own value counted once more in the score (Own value current/initial/none)."""
        own = self.settings.own_value
        if own == "none":
            return np.zeros(self.n, dtype=self.dtype)
        return (value if own == "current" else initial)[: self.n] * self.coef_scale

    def run(self) -> Standings:
        s = self.settings
        ranking = self.initial_ranking()
        value = self.values(ranking, None, 0)
        initial = value.copy()
        priced = np.zeros(self.n + 1, dtype=bool)
        rankings = [ranking]
        score: np.ndarray = np.zeros(self.n, dtype=self.dtype)
        priced_with = value
        scored = self.nobody
        elo_games = None
        frozen = s.pricing == "frozen"
        # Pricing frozen: each round's worth as fixed, their sums, how many rounds are fixed
        fixed: np.ndarray = np.zeros((self.n, self.rounds) if frozen else (0, 0), self.dtype)
        fixed_sum: np.ndarray = np.zeros(self.n, dtype=self.dtype)
        done = np.zeros(self.n, dtype=np.int64)
        for r in range(1, self.rounds + 1):
            scored, newcomers = self.members(r)
            if s.own_value == "initial":
                fresh = scored[~priced[scored]]  # first priced now: their initial value
                initial[fresh] = value[fresh]
                priced[fresh] = True
            if frozen:
                self._fix(r, value, scored, fixed, fixed_sum, done)
                score = self.own_term(value, initial) + fixed_sum
            else:
                score = self.scores(r, value, initial)
            priced_with = value
            ranking = self.rank(score, scored, newcomers)
            if self.moving:
                if elo_games is None:  # who played whom with what points, made once
                    elo_games = rated_rounds(_ELO_POINTS[self.coef.kind], self.opp)
                self.elo.move(elo_games[0][r - 1], elo_games[1][r - 1])
            value = self.values(ranking, score, len(scored))
            rankings.append(ranking)
        passes, note = 0, ""
        if s.iterate != "none" and self.rounds > 0 and not frozen:  # frozen: no re-pricing
            # converged when re-pricing gives back the same values (with shared ties the
            # values can change while the order does not, so the order alone is not enough)
            def state(rk: np.ndarray, val: np.ndarray) -> tuple[bytes, bytes]:
                return rk.tobytes(), val[rk].tobytes()

            seen = [state(ranking, value)]
            while True:
                scored, newcomers = self.members(self.rounds)
                score, priced_with = self.scores(self.rounds, value, initial), value
                ranking = self.rank(score, scored, newcomers)
                value = self.values(ranking, score, len(scored))
                passes += 1
                if s.iterate == "final":
                    break
                key = state(ranking, value)
                if key == seen[-1]:
                    break
                if key in seen or passes >= 100:
                    cycle = len(seen) - seen.index(key) if key in seen else 0
                    note = (
                        msg(
                            "Iterate converge: the ranking goes round in a cycle of "
                            "{cycle} after {passes} passes; shown as at the first repeat",
                            cycle=cycle,
                            passes=passes,
                        )
                        if cycle
                        else msg("Iterate converge: the ranking did not settle in 100 passes")
                    )
                    break
                seen.append(key)
        own = self.own_term(priced_with, initial)
        if frozen:
            terms = fixed
        else:
            terms = (
                self.own_share * priced_with[: self.n, None]
                + self.opp_share_by_round.T * priced_with[self.opp]
            )
            if self.points is not None:
                terms = terms + self.points
        return self.table(
            ranking,
            scored if self.rounds else self.nobody,
            score,
            value,
            terms,
            own,
            rankings,
            passes,
            note,
        )

    def table(
        self,
        ranking: np.ndarray,
        scored: np.ndarray,
        score: np.ndarray,
        value: np.ndarray,
        terms: np.ndarray,
        own: np.ndarray,
        rankings: list[np.ndarray],
        passes: int,
        note: str,
    ) -> Standings:
        """The standings in ranking order: counts and Python numbers taken out of numpy in
        whole columns, one Standing per player."""
        scale, value_scale = self.value_scale * self.coef_scale, self.value_scale
        kind = self.coef.kind[ranking]
        is_scored = np.zeros(self.n, dtype=bool)
        is_scored[scored] = True
        is_scored = is_scored[ranking]
        won, drawn, lost = ((kind == k).sum(axis=1) for k in (WON, DRAWN, LOST))
        columns = [
            ranking,
            is_scored,
            score[ranking],
            value[ranking],
            won + drawn + lost,
            won,
            drawn,
            lost,
            (kind == FREE).sum(axis=1),
            np.where(is_scored, (kind == ABSENT).sum(axis=1), 0),
            own[ranking],
        ]
        worth = terms[ranking]
        registered = kind != NONE
        breakdown = Breakdown(worth, registered, scale)
        players = self.players
        moved = self.elo.ratings() if self.moving else None
        rows = []
        for place, (
            i,
            counted,
            points,
            val,
            played,
            w,
            d,
            lo,
            byes,
            absent,
            own_points,
        ) in enumerate(zip(*(c.tolist() for c in columns), strict=True)):
            p: Player = players[i]
            rows.append(
                Standing(
                    rank=place + 1,
                    name=p.name,
                    score=Fraction(points, scale) if counted else None,
                    value=_fraction(val, value_scale),
                    played=played,
                    won=w,
                    drawn=d,
                    lost=lo,
                    byes=byes,
                    absent=absent,
                    rating=p.rating if moved is None else moved[i],
                    own=Fraction(own_points, scale) if counted else None,
                    terms=RowTerms(breakdown, place) if counted else (),
                    scale=scale,
                )
            )
        top = None if self.settings.values == "rating" else self.top_value(len(ranking))
        names = tuple(p.name for p in players)
        return Standings(
            self.rounds,
            tuple(rows),
            self.settings,
            top,
            passes,
            note,
            rankings=_Rankings(names, rankings),
            breakdown=breakdown,
        )


def _fraction(numerator: int, denominator: int) -> Fraction:
    """Fraction(numerator, denominator); a whole number without looking for a divisor."""
    return Fraction(numerator) if denominator == 1 else Fraction(numerator, denominator)


class _Rankings(Sequence[tuple[str, ...]]):
    """The ranking after each round 0..R, as names; each made when first asked for."""

    def __init__(self, names: tuple[str, ...], rankings: list[np.ndarray]) -> None:
        self.names, self.rankings = names, rankings

    def __len__(self) -> int:
        return len(self.rankings)

    @overload
    def __getitem__(self, k: int) -> tuple[str, ...]: ...
    @overload
    def __getitem__(self, k: slice) -> Sequence[tuple[str, ...]]: ...
    def __getitem__(self, k: int | slice) -> tuple[str, ...] | Sequence[tuple[str, ...]]:
        if isinstance(k, slice):
            return [self[j] for j in range(len(self))[k]]
        names = self.names
        return tuple([names[i] for i in self.rankings[k].tolist()])


def compute_standings(
    season: Season, settings: Settings, after_round: int | None = None
) -> Standings:
    """The standings after `after_round` (default: the last completed round)."""
    rounds = season.completed_rounds if after_round is None else after_round
    return _Calculator(season, settings, rounds).run()
