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

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from keizer_xl.model import Absence, Game, Player, Rest, Result, Season
from keizer_xl.settings import Settings

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
    rounds: tuple[Fraction | None, ...]


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

    @property
    def ranking(self) -> tuple[str, ...]:
        return tuple(row.name for row in self.rows)

    @property
    def values(self) -> dict[str, Fraction]:
        return {row.name: row.value for row in self.rows}


def automatic_top_value(n_players: int) -> Fraction:
    """Blank Top value: 1.5 × (players − 1), halves to even (35 players give 51)."""
    return Fraction(round(Fraction(3, 2) * (n_players - 1)))


def _lcm_of_denominators(numbers: Sequence[Fraction]) -> int:
    out = 1
    for x in numbers:
        out = out * x.denominator // math.gcd(out, x.denominator)
    return out


class _Coefficients:
    """Per player and round: share of own value, opponent index and share of his value."""

    def __init__(self, season: Season, settings: Settings, rounds: int,
                 dropped: set[str]) -> None:
        players = season.players
        n = len(players)
        self.index = {p.name: i for i, p in enumerate(players)}
        self.own: list[list[Fraction]] = [[Fraction(0)] * rounds for _ in range(n)]
        self.opp = np.full((n, rounds), n, dtype=np.int64)  # n = "nobody", value 0
        self.opp_share: list[list[Fraction]] = [[Fraction(0)] * rounds for _ in range(n)]
        self.kind: list[list[str | None]] = [[None] * rounds for _ in range(n)]
        s = settings
        loss = s.loss

        def game_points(pts: Fraction) -> Fraction:
            return pts if pts > 0 else loss

        seen: set[tuple[int, int]] = set()
        rewarded = [0] * n
        by_round: dict[int, list[Game | Rest]] = {}
        for e in season.entries:
            if e.round <= rounds:
                by_round.setdefault(e.round, []).append(e)

        def absence(i: int, k: int, reason: Absence) -> None:
            if reason is Absence.BYE:
                self.own[i][k] = s.bye
                self.kind[i][k] = FREE
                return
            self.kind[i][k] = ABSENT
            if reason is Absence.UNEXCUSED:
                self.own[i][k] = s.unexcused
                return
            rewarded[i] += 1
            shares = s.excused if reason is Absence.EXCUSED else s.club
            cap = s.max_rewarded_absences
            if cap is not None and rewarded[i] > cap:
                return
            self.own[i][k] = shares[min(rewarded[i], len(shares)) - 1]

        for k in range(rounds):
            rnd = k + 1
            for e in by_round.get(rnd, []):
                if isinstance(e, Rest):
                    i = self.index[e.player]
                    seen.add((i, k))
                    absence(i, k, e.reason)
                    continue
                w, b = self.index[e.white], self.index[e.black]
                seen.add((w, k))
                seen.add((b, k))
                result = e.result
                if result is None:  # only in an unfinished round, never scored
                    continue
                for me, them, white in ((w, b, True), (b, w, False)):
                    pts = result.points(white)
                    if pts is not None:
                        self.kind[me][k] = {1: PLAYED_WIN, 0: PLAYED_LOSS}.get(
                            pts, PLAYED_DRAW)  # type: ignore[call-overload]
                        share = game_points(pts)
                        if players[them].name in dropped:
                            self.own[me][k] = s.withdrawn_opponent * share
                        else:
                            self.opp[me, k] = them
                            self.opp_share[me][k] = share
                        continue
                    won = (result is Result.WHITE_FORFEIT_WIN) == white and \
                        result is not Result.DOUBLE_FORFEIT
                    if not won:
                        absence(me, k, Absence.UNEXCUSED)
                        continue
                    self.kind[me][k] = FREE
                    if not s.forfeit_win_opponent:
                        self.own[me][k] = s.forfeit_win
                    elif players[them].name in dropped:
                        self.own[me][k] = s.withdrawn_opponent
                    else:
                        self.opp[me, k] = them
                        self.opp_share[me][k] = Fraction(1)
            # players taking part who appear nowhere in this completed round
            for i, p in enumerate(players):
                if (i, k) in seen or p.name in dropped:
                    continue
                if p.takes_part_in(rnd):
                    absence(i, k, s.default_absence)
                elif rnd < p.joined:
                    self.kind[i][k] = NOT_YET
                    if s.late_entry_rounds == "excused":
                        self.own[i][k] = s.excused[0]


def _rank(order_keys: list[tuple[int, ...]]) -> list[int]:
    return sorted(range(len(order_keys)), key=order_keys.__getitem__)


class _Calculator:
    """Runs the round-by-round ranking with scaled integer arithmetic."""

    def __init__(self, season: Season, settings: Settings, rounds: int) -> None:
        self.season = season
        self.s = settings
        self.rounds = rounds
        players = season.players
        self.players = players
        n = len(players)
        self.n = n
        self.dropped = {
            p.name for p in players
            if settings.withdrawn == "drop" and p.left is not None and p.left < rounds
        }
        self.coef = _Coefficients(season, settings, rounds, self.dropped)
        shares = [x for row in self.coef.own for x in row] + \
            [x for row in self.coef.opp_share for x in row]
        self.c_scale = _lcm_of_denominators(sorted(set(shares)) or [Fraction(0)])
        self.own_c = self._matrix(self.coef.own, self.c_scale)
        self.opp_c = self._matrix(self.coef.opp_share, self.c_scale)
        self.rating_scale = _lcm_of_denominators([p.rating for p in players])
        self.fixed_top = settings.top_value
        if self.fixed_top is None and not settings.top_value_auto and settings.values == "rank":
            self.fixed_top = automatic_top_value(n)

    @staticmethod
    def _matrix(rows: list[list[Fraction]], scale: int) -> np.ndarray:
        flat = [int(x * scale) for row in rows for x in row]
        arr = np.array(flat, dtype=object).reshape(len(rows), -1) if rows else \
            np.zeros((0, 0), dtype=object)
        return arr

    # -- rankings and values ------------------------------------------------------------
    def members(self, after: int) -> tuple[list[int], list[int]]:
        """Players in the ranking after round `after`: (scored ones, newcomers without score)."""
        scored: list[int] = []
        newcomers: list[int] = []
        for i, p in enumerate(self.players):
            if p.name in self.dropped:
                continue
            if self.s.late_entry == "rating" or p.joined <= after:
                (scored if after > 0 else newcomers).append(i)
            elif p.joined == after + 1:
                newcomers.append(i)
        return scored, newcomers

    def initial_ranking(self) -> list[int]:
        _, members = self.members(0)
        if self.s.initial_order == "as listed":
            return members
        return sorted(members, key=lambda i: (-self.players[i].rating, i))

    def rank(self, scores: dict[int, Fraction], newcomers: list[int]) -> list[int]:
        players = self.players
        ranked = sorted(scores, key=lambda i: (-scores[i], -players[i].rating, i))
        return ranked + sorted(newcomers, key=lambda i: (-players[i].rating, i))

    def values(self, ranking: list[int], scores: dict[int, Fraction]) -> dict[int, Fraction]:
        s = self.s
        if s.values == "rating":
            return {i: self.players[i].rating / s.rating_divisor for i in ranking}
        top = self.top_value(len(ranking))
        out: dict[int, Fraction] = {}
        previous: tuple[int, Fraction] | None = None
        for place, i in enumerate(ranking):
            value = top - place * s.step
            if s.ties == "shared" and previous is not None and i in scores and \
                    previous[0] in scores and scores[i] == scores[previous[0]]:
                value = previous[1]
            out[i] = value
            previous = (i, value)
        return out

    def top_value(self, ranked: int) -> Fraction:
        if self.s.top_value_auto:
            ratio = self.s.ratio
            return Fraction(round((ranked - 1) * ratio / (ratio - 1)))
        assert self.fixed_top is not None
        return self.fixed_top

    # -- scores -------------------------------------------------------------------------
    def scores(self, upto: int, values: dict[int, Fraction], initial: dict[int, Fraction],
               who: list[int]) -> tuple[dict[int, Fraction], np.ndarray, dict[int, Fraction], int]:
        """Scores after round `upto` priced with `values`; also the per-round terms."""
        v_scale = _lcm_of_denominators(list(values.values()) + list(initial.values()))
        v = np.zeros(self.n + 1, dtype=object)
        for i, x in values.items():
            v[i] = int(x * v_scale)
        own_c = self.own_c[:, :upto]
        opp_c = self.opp_c[:, :upto]
        opp = self.coef.opp[:, :upto]
        terms = own_c * v[: self.n, None] + opp_c * v[opp]
        totals = terms.sum(axis=1) if upto else np.zeros(self.n, dtype=object)
        scale = v_scale * self.c_scale
        own_value: dict[int, Fraction] = {}
        scores: dict[int, Fraction] = {}
        for i in who:
            own = {"current": values.get(i, Fraction(0)),
                   "initial": initial.get(i, values.get(i, Fraction(0))),
                   "none": Fraction(0)}[self.s.own_value]
            own_value[i] = own
            scores[i] = own + Fraction(int(totals[i]), scale)
        return scores, terms, own_value, scale

    def run(self) -> Standings:
        s = self.s
        ranking = self.initial_ranking()
        values = self.values(ranking, {})
        initial = dict(values)
        rankings = [ranking]
        scores: dict[int, Fraction] = {}
        terms = np.zeros((self.n, 0), dtype=object)
        own: dict[int, Fraction] = {}
        scale = 1
        for r in range(1, self.rounds + 1):
            who, newcomers = self.members(r)
            for i in who:  # a late entrant first priced in this round keeps that as initial
                initial.setdefault(i, values.get(i, Fraction(0)))
            scores, terms, own, scale = self.scores(r, values, initial, who)
            ranking = self.rank(scores, newcomers)
            values = self.values(ranking, scores)
            rankings.append(ranking)
        passes, note = 0, ""
        if s.iterate != "none" and self.rounds > 0:
            # converged when re-pricing gives back the same values (with shared ties the
            # values can change while the order does not, so the order alone is not enough)
            seen = [tuple((i, values[i]) for i in ranking)]
            while True:
                who, newcomers = self.members(self.rounds)
                scores, terms, own, scale = self.scores(self.rounds, values, initial, who)
                new_ranking = self.rank(scores, newcomers)
                values = self.values(new_ranking, scores)
                passes += 1
                if s.iterate == "final":
                    ranking = new_ranking
                    break
                key = tuple((i, values[i]) for i in new_ranking)
                if key == seen[-1]:
                    ranking = new_ranking
                    break
                if key in seen or passes >= 100:
                    ranking = new_ranking
                    cycle = len(seen) - seen.index(key) if key in seen else 0
                    note = (f"Iterate converge: the ranking goes round in a cycle of {cycle} "
                            f"after {passes} passes; shown as at the first repeat" if cycle
                            else "Iterate converge: the ranking did not settle in 100 passes")
                    break
                seen.append(key)
                ranking = new_ranking
        return self.table(ranking, scores, values, scale, terms, own, rankings, passes, note)

    def table(self, ranking: list[int], scores: dict[int, Fraction],
              values: dict[int, Fraction], scale: int, terms: np.ndarray,
              own: dict[int, Fraction], rankings: list[list[int]], passes: int,
              note: str) -> Standings:
        rows = []
        kinds = self.coef.kind
        for place, i in enumerate(ranking, start=1):
            p: Player = self.players[i]
            stats = {k: 0 for k in (PLAYED_WIN, PLAYED_DRAW, PLAYED_LOSS, FREE, ABSENT)}
            for kind in kinds[i]:
                if kind is not None and kind in stats:
                    stats[kind] += 1
            scored = i in scores
            rounds: tuple[Fraction | None, ...] = ()
            if scored:
                rounds = tuple(
                    Fraction(int(terms[i, k]), scale) if kinds[i][k] is not None else None
                    for k in range(terms.shape[1]))
            rows.append(Standing(
                rank=place, name=p.name, score=scores.get(i), value=values[i],
                played=stats[PLAYED_WIN] + stats[PLAYED_DRAW] + stats[PLAYED_LOSS],
                won=stats[PLAYED_WIN], drawn=stats[PLAYED_DRAW], lost=stats[PLAYED_LOSS],
                byes=stats[FREE], absent=stats[ABSENT] if scored else 0, rating=p.rating,
                own=own.get(i) if scored else None, rounds=rounds))
        names = [[self.players[i].name for i in rk] for rk in rankings]
        top = None if self.s.values == "rating" else self.top_value(len(ranking))
        return Standings(self.rounds, tuple(rows), self.s, top, passes, note,
                         tuple(tuple(x) for x in names))


def compute_standings(season: Season, settings: Settings,
                      after_round: int | None = None) -> Standings:
    """The standings after `after_round` (default: the last completed round)."""
    rounds = season.completed_rounds if after_round is None else after_round
    return _Calculator(season, settings, rounds).run()
