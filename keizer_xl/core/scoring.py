"""Keizer scores, rankings and values: the standings after any round, exactly.

The score after round r is recomputed from scratch with the values of the ranking after
round r-1, so every earlier result is re-priced each week. Every term is linear in the
values: for each player and round we first work out *coefficients* (what share of the own
value, what share of which opponent's value), which do not depend on the ranking. Then each
round is one gather-and-sum over those coefficients with the current values.

Exactness: values and coefficients are rationals. Both are scaled to integers by the least
common multiple of their denominators, so the sums are exact integer arithmetic (numpy
int64 when the magnitudes provably fit, Python integers otherwise) and two scores are equal
only when they are exactly equal. Fractions come back out at the end.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from keizer_xl.core.model import Absence, Game, Player, Rest, Result, Season
from keizer_xl.core.ratings import EloRatings, games_by_round, lcm_of_denominators
from keizer_xl.core.settings import Settings

# What a round meant for a player, for the statistics columns.
PLAYED_WIN, PLAYED_DRAW, PLAYED_LOSS, FREE, ABSENT, NOT_YET = "W", "D", "L", "B", "A", "J"


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
    terms: tuple[int | None, ...] = ()  # what each round is worth, times `scale`
    scale: int = 1

    @property
    def rounds(self) -> tuple[Fraction | None, ...]:
        """What each round is worth now (None: not registered then). Made on demand, since
        a large season has hundreds of thousands of them and most callers need none."""
        return tuple(None if t is None else Fraction(t, self.scale) for t in self.terms)


@dataclass(frozen=True)
class Standings:
    """The standings after a round, and the ranking the next round is paired from."""

    after_round: int
    rows: tuple[Standing, ...]
    settings: Settings
    top_value: Fraction | None  # the top value used (None with Values `rating`)
    passes: int = 0  # extra re-pricing passes made by Iterate final/converge
    note: str = ""  # e.g. a ranking cycle found by Iterate converge
    rankings: tuple[tuple[str, ...], ...] = field(default=(), repr=False)  # after 0..R
    cautions: tuple[str, ...] = ()  # said under the table: allowed but probably unintended

    @property
    def ranking(self) -> tuple[str, ...]:
        return tuple(row.name for row in self.rows)

    @property
    def values(self) -> dict[str, Fraction]:
        return {row.name: row.value for row in self.rows}


def automatic_top_value(n_players: int) -> Fraction:
    """Blank Top value: 1.5 × (players − 1), halves to even (35 players give 51)."""
    return Fraction(round(Fraction(3, 2) * (n_players - 1)))


_ELO_POINTS = {PLAYED_WIN: 1.0, PLAYED_DRAW: 0.5, PLAYED_LOSS: 0.0}

# How each side of a game row counts: (white's outcome, black's outcome).
_SIDES: dict[Result, tuple[str, str]] = {
    Result.WHITE_WINS: ("win", "loss"),
    Result.BLACK_WINS: ("loss", "win"),
    Result.DRAW: ("draw", "draw"),
    Result.WHITE_FORFEIT_WIN: ("forfeit win", "no show"),
    Result.BLACK_FORFEIT_WIN: ("no show", "forfeit win"),
    Result.DOUBLE_FORFEIT: ("no show", "no show"),
}


class _Coefficients:
    """Per player and round: share of own value, opponent index and share of his value.

    Shares are stored as small integer codes into `shares` (a season uses only a handful
    of distinct fractions), so that building them for thousands of players stays cheap.
    """

    def __init__(self, season: Season, settings: Settings, rounds: int,
                 dropped: set[str]) -> None:
        players = season.players
        n = len(players)
        s = settings
        self.shares: list[Fraction] = [Fraction(0)]
        codes: dict[Fraction, int] = {Fraction(0): 0}

        def code(x: Fraction) -> int:
            if x not in codes:
                codes[x] = len(self.shares)
                self.shares.append(x)
            return codes[x]

        bye, unexcused, late = code(s.bye), code(s.unexcused), code(s.excused[0])
        rewarded_codes = {Absence.EXCUSED: [code(x) for x in s.excused],
                          Absence.CLUB: [code(x) for x in s.club]}
        forfeit, one = code(s.forfeit_win), code(Fraction(1))
        no_show = None if s.forfeit_loss is None else code(s.forfeit_loss)
        points = {"win": (one, PLAYED_WIN), "draw": (code(Fraction(1, 2)), PLAYED_DRAW),
                  "loss": (code(s.loss), PLAYED_LOSS)}
        vs_dropped = {outcome: code(s.withdrawn_opponent * self.shares[c])
                      for outcome, (c, _) in points.items()}
        forfeit_vs_dropped = code(s.withdrawn_opponent)
        cap = s.max_rewarded_absences

        index = {p.name: i for i, p in enumerate(players)}
        gone = [p.name in dropped for p in players]
        own = [[0] * rounds for _ in range(n)]
        opp_share = [[0] * rounds for _ in range(n)]
        opp = [[n] * rounds for _ in range(n)]  # n = "nobody", worth 0
        kind: list[list[str | None]] = [[None] * rounds for _ in range(n)]
        rewarded = [0] * n

        def absence(i: int, k: int, reason: Absence) -> None:
            if reason is Absence.BYE:
                own[i][k], kind[i][k] = bye, FREE
                return
            kind[i][k] = ABSENT
            if reason is Absence.UNEXCUSED:
                own[i][k] = unexcused
                return
            rewarded[i] += 1
            if cap is None or rewarded[i] <= cap:
                shares = rewarded_codes[reason]
                own[i][k] = shares[min(rewarded[i], len(shares)) - 1]

        by_round: list[list[Game | Rest]] = [[] for _ in range(rounds)]
        for e in season.entries:
            if e.round <= rounds:
                by_round[e.round - 1].append(e)
        for k in range(rounds):
            seen = [False] * n
            for e in by_round[k]:
                if isinstance(e, Rest):
                    i = index[e.player]
                    seen[i] = True
                    absence(i, k, e.reason)
                    continue
                w, b = index[e.white], index[e.black]
                seen[w] = seen[b] = True
                result = e.result
                if result is None:  # only in an unfinished round, never scored
                    continue
                for me, them, outcome in zip((w, b), (b, w), _SIDES[result], strict=True):
                    if outcome in points:
                        share, kind[me][k] = points[outcome]
                        if gone[them]:
                            own[me][k] = vs_dropped[outcome]
                        else:
                            opp[me][k], opp_share[me][k] = them, share
                    elif outcome == "no show":
                        absence(me, k, Absence.UNEXCUSED)
                        if no_show is not None:
                            own[me][k] = no_show
                    else:
                        kind[me][k] = FREE
                        if not s.forfeit_win_opponent:
                            own[me][k] = forfeit
                        elif gone[them]:
                            own[me][k] = forfeit_vs_dropped
                        else:
                            opp[me][k], opp_share[me][k] = them, one
            # players taking part who appear nowhere in this completed round
            rnd = k + 1
            for i, p in enumerate(players):
                if seen[i] or gone[i]:
                    continue
                if p.takes_part_in(rnd):
                    absence(i, k, s.default_absence)
                elif rnd < p.joined:
                    kind[i][k] = NOT_YET
                    if s.late_entry_rounds == "excused":
                        own[i][k] = late
        shape = (n, rounds)
        self.own = np.array(own, dtype=np.int64).reshape(shape)
        self.opp_share = np.array(opp_share, dtype=np.int64).reshape(shape)
        self.opp = np.array(opp, dtype=np.int64).reshape(shape)
        self.kind = kind

    def scaled(self, codes: np.ndarray, scale: int, dtype: type) -> np.ndarray:
        """A code matrix as shares multiplied by `scale` (whole numbers)."""
        lookup: np.ndarray = np.array([int(x * scale) for x in self.shares], dtype=dtype)
        scaled: np.ndarray = lookup[codes]
        return scaled


class _Calculator:
    """Runs the round-by-round ranking in scaled integers, one vector operation per step.

    Values are kept multiplied by `value_scale` and coefficients by `coef_scale`, so scores
    are integers scaled by value_scale·coef_scale: exact, and comparable without rounding.
    """

    def __init__(self, season: Season, settings: Settings, rounds: int) -> None:
        self.season, self.settings, self.rounds = season, settings, rounds
        players = self.players = season.players
        n = self.n = len(players)
        self.dropped = {
            p.name for p in players
            if settings.withdrawn == "drop" and p.left is not None and p.left < rounds
        }
        self.coef = _Coefficients(season, settings, rounds, self.dropped)
        self.coef_scale = lcm_of_denominators(self.coef.shares)
        self.fixed_top = settings.top_value
        if self.fixed_top is None and not settings.top_value_auto and settings.values == "rank":
            self.fixed_top = automatic_top_value(n)
        # Values `rating` (Geel): the value is the rating / divisor, and with a K-factor the
        # ratings move after each round (`ratings.EloRatings`); value × value_scale =
        # rating × rating scale × q (divisor p/q).
        self.elo = EloRatings([p.rating for p in players], settings.rating_k)
        self.elo_games: list[tuple[np.ndarray, np.ndarray, np.ndarray]] | None = None
        self.value_scale, biggest = self._value_scale()
        self.dtype: type = np.int64 if self._biggest_sum(biggest) < 2**62 else object
        dtype = self.dtype  # int64 when every sum provably fits, Python integers otherwise
        self.own_share = self.coef.scaled(self.coef.own, self.coef_scale, dtype)
        self.opp_share = self.coef.scaled(self.coef.opp_share, self.coef_scale, dtype)
        self.opp = self.coef.opp
        rating_scale = lcm_of_denominators([p.rating for p in players])
        self.initial_rating = np.array([int(p.rating * rating_scale) for p in players],
                                       dtype=dtype)  # for the order of equal scores
        self.joined = np.array([p.joined for p in players], dtype=np.int64)
        self.gone = np.array([p.name in self.dropped for p in players], dtype=bool)
        self.order = np.arange(n)

    def _value_scale(self) -> tuple[int, Fraction]:
        """What values are multiplied by to be whole numbers, and the largest value."""
        s, players, n = self.settings, self.players, self.n
        if s.values == "rating":
            biggest = max((abs(p.rating) + s.rating_k * self.rounds for p in players),
                          default=Fraction(0)) / s.rating_divisor
            return self.elo.scale * s.rating_divisor.numerator, biggest
        top = self.fixed_top if self.fixed_top is not None else \
            Fraction(round(n * s.ratio / (s.ratio - 1)))
        return lcm_of_denominators([s.step, top]), abs(top) + n * s.step

    def _biggest_sum(self, biggest_value: Fraction) -> Fraction:
        """A bound on every scaled number the calculation makes."""
        most_share = max((abs(x) for x in self.coef.shares), default=Fraction(0))
        bound = ((self.rounds + 2) * (most_share * self.coef_scale + self.coef_scale)
                 * biggest_value * self.value_scale)
        rating_scale = lcm_of_denominators([p.rating for p in self.players])
        return max(bound, max((p.rating for p in self.players), default=Fraction(0))
                   * rating_scale)

    # -- rankings and values ------------------------------------------------------------
    def members(self, after: int) -> tuple[np.ndarray, np.ndarray]:
        """Players in the ranking after round `after`: (scored ones, newcomers without score)."""
        here = ~self.gone
        if self.settings.late_entry == "rating":
            everyone = np.nonzero(here)[0]
            return (everyone, everyone[:0]) if after else (everyone[:0], everyone)
        if after == 0:
            return self.order[:0], np.nonzero(here & (self.joined <= 1))[0]
        return (np.nonzero(here & (self.joined <= after))[0],
                np.nonzero(here & (self.joined == after + 1))[0])

    def _by_rating(self, who: np.ndarray) -> np.ndarray:
        return who[np.lexsort((who, -self.initial_rating[who]))]

    def initial_ranking(self) -> np.ndarray:
        _, members = self.members(0)
        return members if self.settings.initial_order == "as listed" else self._by_rating(members)

    def rank(self, score: np.ndarray, scored: np.ndarray, newcomers: np.ndarray) -> np.ndarray:
        ranked = scored[np.lexsort((scored, -self.initial_rating[scored], -score[scored]))]
        return np.concatenate([ranked, self._by_rating(newcomers)])

    def values(self, ranking: np.ndarray, score: np.ndarray | None,
               scored: int) -> np.ndarray:
        """Scaled values by player index (index n, "nobody", is worth 0)."""
        s = self.settings
        out: np.ndarray = np.zeros(self.n + 1, dtype=self.dtype)
        if s.values == "rating":
            out[ranking] = self.elo.scaled[ranking] * s.rating_divisor.denominator
            return out
        top = int(self.top_value(len(ranking)) * self.value_scale)
        step = int(s.step * self.value_scale)
        places = np.arange(len(ranking))
        if s.ties == "shared" and score is not None and scored > 1:
            ordered = score[ranking[:scored]]
            starts = np.ones(scored, dtype=bool)
            starts[1:] = ordered[1:] != ordered[:-1]
            places[:scored] = np.maximum.accumulate(np.where(starts, places[:scored], 0))
        out[ranking] = top - places.astype(self.dtype) * step
        return out

    def _move_ratings(self, k: int) -> None:
        """Elo after round k+1's games (`ratings.EloRatings`)."""
        if self.elo_games is None:  # who played whom with what points, per round, made once
            get = _ELO_POINTS.get
            points = np.array([[get(kind or "", np.nan) for kind in row]
                               for row in self.coef.kind], dtype=float).reshape(self.n, -1)
            self.elo_games = games_by_round(points, self.opp)
        self.elo.move(*self.elo_games[k])

    def top_value(self, ranked: int) -> Fraction:
        if self.settings.top_value_auto:
            ratio = self.settings.ratio
            return Fraction(round((ranked - 1) * ratio / (ratio - 1)))
        assert self.fixed_top is not None
        return self.fixed_top

    # -- scores -------------------------------------------------------------------------
    def scores(self, upto: int, value: np.ndarray, initial: np.ndarray,
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Scaled scores after round `upto` priced with `value`; per-round terms; own term."""
        n = self.n
        terms = self.own_share[:, :upto] * value[:n, None] + \
            self.opp_share[:, :upto] * value[self.opp[:, :upto]]
        own = {"current": value[:n], "initial": initial[:n],
               "none": np.zeros(n, dtype=self.dtype)}[self.settings.own_value] * self.coef_scale
        return own + terms.sum(axis=1), terms, own

    def run(self) -> Standings:
        s = self.settings
        ranking = self.initial_ranking()
        value = self.values(ranking, None, 0)
        initial = value.copy()
        priced = np.zeros(self.n + 1, dtype=bool)
        rankings = [ranking]
        score: np.ndarray = np.zeros(self.n, dtype=self.dtype)
        terms: np.ndarray = np.zeros((self.n, 0), dtype=self.dtype)
        own = score
        scored = self.order[:0]
        for r in range(1, self.rounds + 1):
            scored, newcomers = self.members(r)
            fresh = scored[~priced[scored]]  # first priced now: that is their initial value
            initial[fresh] = value[fresh]
            priced[fresh] = True
            score, terms, own = self.scores(r, value, initial)
            ranking = self.rank(score, scored, newcomers)
            if s.values == "rating" and s.rating_k:
                self._move_ratings(r - 1)
            value = self.values(ranking, score, len(scored))
            rankings.append(ranking)
        passes, note = 0, ""
        if s.iterate != "none" and self.rounds > 0:
            # converged when re-pricing gives back the same values (with shared ties the
            # values can change while the order does not, so the order alone is not enough)
            def state(rk: np.ndarray, val: np.ndarray) -> tuple[bytes, bytes]:
                return rk.tobytes(), val[rk].tobytes()

            seen = [state(ranking, value)]
            while True:
                scored, newcomers = self.members(self.rounds)
                score, terms, own = self.scores(self.rounds, value, initial)
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
                    note = (f"Iterate converge: the ranking goes round in a cycle of {cycle} "
                            f"after {passes} passes; shown as at the first repeat" if cycle
                            else "Iterate converge: the ranking did not settle in 100 passes")
                    break
                seen.append(key)
        return self.table(ranking, set(scored.tolist()) if self.rounds else set(), score,
                          value, terms, own, rankings, passes, note)

    def table(self, ranking: np.ndarray, scored: set[int], score: np.ndarray,
              value: np.ndarray, terms: np.ndarray, own: np.ndarray,
              rankings: list[np.ndarray], passes: int, note: str) -> Standings:
        scale = self.value_scale * self.coef_scale
        rows = []
        kinds = self.coef.kind
        # Python numbers, taken out of numpy once (not number by number)
        scores, values, owns, worths = score.tolist(), value.tolist(), own.tolist(), terms.tolist()
        for place, i in enumerate(ranking.tolist(), start=1):
            p: Player = self.players[i]
            stats = Counter(kinds[i])
            is_scored = i in scored
            worth: tuple[int | None, ...] = ()
            if is_scored:
                worth = tuple(worths[i]) if None not in kinds[i] else tuple(
                    None if kind is None else t
                    for t, kind in zip(worths[i], kinds[i], strict=True))
            rows.append(Standing(
                rank=place, name=p.name,
                score=Fraction(int(scores[i]), scale) if is_scored else None,
                value=Fraction(int(values[i]), self.value_scale),
                played=stats[PLAYED_WIN] + stats[PLAYED_DRAW] + stats[PLAYED_LOSS],
                won=stats[PLAYED_WIN], drawn=stats[PLAYED_DRAW], lost=stats[PLAYED_LOSS],
                byes=stats[FREE], absent=stats[ABSENT] if is_scored else 0,
                rating=self.elo.rating(i),
                own=Fraction(int(owns[i]), scale) if is_scored else None, terms=worth,
                scale=scale))
        everyone = [p.name for p in self.players]
        names = tuple(tuple([everyone[i] for i in rk.tolist()]) for rk in rankings)
        top = None if self.settings.values == "rating" else self.top_value(len(ranking))
        return Standings(self.rounds, tuple(rows), self.settings, top, passes, note, names)


def compute_standings(season: Season, settings: Settings,
                      after_round: int | None = None) -> Standings:
    """The standings after `after_round` (default: the last completed round)."""
    rounds = season.completed_rounds if after_round is None else after_round
    return _Calculator(season, settings, rounds).run()
