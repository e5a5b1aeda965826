"""What each round meant for each player, as coefficients that do not depend on the ranking:
the share of one's own value, the opponent whose value counts and its share, and fixed
points. `scoring` prices them with each ranking's values.

Everything is filled from the season's integer rows (`rows.SeasonRows`) with numpy
indexing, one step per kind of row, not row by row.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from keizer_xl.core.model import Absence, Player, Points, Reward
from keizer_xl.core.results import DRAW, FORFEIT_WIN, LOSS, NO_SHOW, RESULTS, WIN
from keizer_xl.core.rows import ABSENCE_CODE, NO_RESULT, NOBODY, OUTCOMES, RESULT_CODE
from keizer_xl.core.season import Season
from keizer_xl.core.settings import Settings

# What a round meant for a player, as a small number per player and round.
NONE, WON, DRAWN, LOST, FREE, ABSENT, NOT_YET = range(7)

# How each side of a game counts, by result code (`rows.RESULT_CODE`): white's, black's,
# from their marks in the table of results.
_WIN, _DRAW, _LOSS, _FORFEIT_WIN, _NO_SHOW = range(1, 6)
_SIDE_OF_MARK = {WIN: _WIN, DRAW: _DRAW, LOSS: _LOSS, FORFEIT_WIN: _FORFEIT_WIN, NO_SHOW: _NO_SHOW}
_SIDES = np.zeros((len(OUTCOMES), 2), dtype=np.int8)
for _result, _line in RESULTS.items():
    _SIDES[RESULT_CODE[_result]] = [_SIDE_OF_MARK[mark] for mark in _line.marks]
_ONE, _HALF = Fraction(1), Fraction(1, 2)


class Shares:
    """The few distinct fractions a season's coefficients use, each with a small code."""

    def __init__(self) -> None:
        self.values: list[Fraction] = [Fraction(0)]
        self._codes: dict[Fraction, int] = {Fraction(0): 0}

    def code(self, x: Fraction) -> int:
        if x not in self._codes:
            self._codes[x] = len(self.values)
            self.values.append(x)
        return self._codes[x]

    def scaled(self, codes: np.ndarray, scale: int, dtype: type) -> np.ndarray:
        """A code matrix as shares multiplied by `scale` (whole numbers)."""
        lookup: np.ndarray = np.array([int(x * scale) for x in self.values], dtype=dtype)
        scaled: np.ndarray = lookup[codes]
        return scaled


class Coefficients:
    """Per player and round: what the round meant (`kind`), the share of the own value
    (`own`), the opponent (`opp`, n for nobody), the share of his value (`opp_share`) and
    the fixed points earned whatever the values (`points`: a bye or absence set so).

    Shares are small integer codes into `shares`. Everything is filled from the season's
    integer rows with numpy indexing, one step per kind of row, not row by row.
    """

    def __init__(self, season: Season, settings: Settings, rounds: int, gone: np.ndarray) -> None:
        n = len(season.players)
        self.settings, self.rounds, self.gone = settings, rounds, gone
        self.shares = Shares()
        shape = (n, rounds)
        self.kind = np.zeros(shape, dtype=np.int8)
        self.own = np.zeros(shape, dtype=np.intp)
        self.opp = np.full(shape, n, dtype=np.intp)
        self.opp_share = np.zeros(shape, dtype=np.intp)
        self.points = np.zeros(shape, dtype=np.int64)  # at most words.MOST_POINTS
        self.reason = np.zeros(shape, dtype=np.int8)  # absence code (rows.ABSENCE_CODE)
        rows = season.rows
        counted = (rows.round >= 1) & (rows.round <= rounds)
        who, rnd = rows.white[counted], rows.round[counted] - 1
        black, outcome = rows.black[counted], rows.outcome[counted]
        seen = np.zeros(shape, dtype=bool)
        seen.reshape(-1)[who * rounds + rnd] = True
        game = black != NOBODY
        seen.reshape(-1)[black[game] * rounds + rnd[game]] = True
        rest = ~game
        self.reason.reshape(-1)[who[rest] * rounds + rnd[rest]] = outcome[rest]
        team_games = None
        if settings.club_games == "result" and rows.team is not None:
            team = rows.team[counted]
            at = team != NO_RESULT
            team_games = (who[at] * rounds + rnd[at], team[at])
            self.reason.reshape(-1)[team_games[0]] = NO_RESULT  # a game, not an absence
        scored = game & (outcome != NO_RESULT)  # an unfinished game is never scored
        w, b, k, result = who[scored], black[scored], rnd[scored], outcome[scored]
        self._games(
            np.concatenate([w, b]),
            np.concatenate([b, w]),
            np.concatenate([k, k]),
            np.concatenate([_SIDES[result, 0], _SIDES[result, 1]]),
        )
        self._missing(season.players, seen)
        self._absences()
        if team_games is not None:
            self._team_games(*team_games)

    def _games(self, me: np.ndarray, them: np.ndarray, k: np.ndarray, side: np.ndarray) -> None:
        """Each side of each game with a result, all at once: what the side means (kind,
        own share, whether the opponent's value counts and its share) looked up by side,
        with an opponent who dropped out counted through Withdrawn opponent instead."""
        s, code = self.settings, self.shares.code
        n = len(self.gone)
        counted = [(_WIN, WON, _ONE), (_DRAW, DRAWN, _HALF), (_LOSS, LOST, s.loss)]
        kind = np.zeros(6, dtype=np.int8)
        own, own_dropped = np.zeros(6, dtype=np.intp), np.zeros(6, dtype=np.intp)
        share = np.zeros(6, dtype=np.intp)  # the opponent's value counts where not 0 ...
        counts = np.zeros(6, dtype=bool)  # ... or where this says so
        dropped = self.gone[them]
        anyone_dropped = bool(dropped.any())  # else Withdrawn opponent's shares stay out
        for outcome, what, part in counted:
            kind[outcome], share[outcome], counts[outcome] = what, code(part), True
            if anyone_dropped:
                own_dropped[outcome] = code(s.withdrawn_opponent * part)
        kind[_FORFEIT_WIN] = FREE
        if s.forfeit_win_opponent:
            share[_FORFEIT_WIN], counts[_FORFEIT_WIN] = code(_ONE), True
            if anyone_dropped:
                own_dropped[_FORFEIT_WIN] = code(s.withdrawn_opponent)
        else:
            own[_FORFEIT_WIN] = own_dropped[_FORFEIT_WIN] = code(s.forfeit_win)
        cell = me * self.rounds + k
        self.kind.reshape(-1)[cell] = kind[side]
        opponent = counts[side]
        if anyone_dropped:
            self.own.reshape(-1)[cell] = np.where(dropped, own_dropped[side], own[side])
            opponent &= ~dropped
        else:
            self.own.reshape(-1)[cell] = own[side]
        self.opp.reshape(-1)[cell] = np.where(opponent, them, n)
        self.opp_share.reshape(-1)[cell] = np.where(opponent, share[side], 0)
        self.no_show = cell[side == _NO_SHOW]
        self.reason.reshape(-1)[self.no_show] = ABSENCE_CODE[Absence.UNEXCUSED]

    def _team_games(self, cell: np.ndarray, result: np.ndarray) -> None:
        """Club games `result`: a team match counts as a game against a player of one's own
        value: a win the whole own value, a draw half, a loss the Loss share of it."""
        s, code = self.settings, self.shares.code
        side = _SIDES[result, 0]
        for outcome, what, part in (
            (_WIN, WON, _ONE),
            (_DRAW, DRAWN, _HALF),
            (_LOSS, LOST, s.loss),
        ):
            here = cell[side == outcome]
            self.kind.reshape(-1)[here] = what
            self.own.reshape(-1)[here] = code(part)

    def _missing(self, players: Sequence[Player], seen: np.ndarray) -> None:
        """Players in nobody's row of a round: the default absence while registered, the
        late entry share before they join (a dropped player gets nothing)."""
        s = self.settings
        rnd = np.arange(1, self.rounds + 1)
        joined = np.array([p.joined for p in players], dtype=np.int64)[:, None]
        left = np.array(
            [self.rounds if p.left is None else p.left for p in players], dtype=np.int64
        )[:, None]
        missing = ~seen & ~self.gone[:, None]
        default = missing & (joined <= rnd) & (rnd <= left)
        np.copyto(self.reason, ABSENCE_CODE[s.default_absence], where=default)
        early = missing & (rnd < joined)
        self.kind[early] = NOT_YET
        share = late_entry_reward(s)
        if share is not None:
            self._reward(self.own, self.points, early, share)

    def _reward(
        self,
        own: np.ndarray,
        points: np.ndarray,
        where: np.ndarray,
        reward: Reward,
        again: bool = False,
    ) -> None:
        """A share of own value, or fixed points, for the cells `where` of `own` and
        `points` (the tables or their flat views); `again` when the cells may have been
        given points before (otherwise their points are still 0: not written, for speed)."""
        if isinstance(reward, Points):
            own[where], points[where] = 0, reward.amount
        else:
            own[where] = self.shares.code(reward)
            if again:
                points[where] = 0

    def _absences(self) -> None:
        """Byes and absences, rewarded ones counted in round order for the decreasing
        shares and the cap."""
        s, code, reason = self.settings, self.shares.code, self.reason
        bye = reason == ABSENCE_CODE[Absence.BYE]
        self.kind[bye] = FREE
        self._reward(self.own, self.points, bye, s.bye)
        absent = reason > ABSENCE_CODE[Absence.BYE]
        self.kind[absent] = ABSENT
        self._reward(self.own, self.points, reason == ABSENCE_CODE[Absence.UNEXCUSED], s.unexcused)
        if s.forfeit_loss is not None:
            self._reward(
                self.own.reshape(-1),
                self.points.reshape(-1),
                self.no_show,
                s.forfeit_loss,
                again=True,
            )
        excused = reason == ABSENCE_CODE[Absence.EXCUSED]
        club = reason == ABSENCE_CODE[Absence.CLUB]
        count = np.cumsum(excused | club, axis=1)  # the how-manieth rewarded absence
        cap = s.max_rewarded_absences
        for which, rewards in ((excused, s.excused), (club, s.club)):
            if cap is not None:
                which = which & (count <= cap)
            codes = np.array(
                [0 if isinstance(x, Points) else code(x) for x in rewards], dtype=np.intp
            )
            amounts = np.array(
                [x.amount if isinstance(x, Points) else 0 for x in rewards], dtype=np.int64
            )
            nth = np.minimum(count[which], len(rewards)) - 1
            self.own[which] = codes[nth]
            if amounts.any():
                self.points[which] = amounts[nth]


def late_entry_reward(settings: Settings) -> Reward | None:
    """What a round before a late entrant joined earns (Late entry rounds): the first
    excused share, the unexcused one (as KeizerForClubs gives a late start), or nothing."""
    if settings.late_entry_rounds == "nothing":
        return None
    return settings.unexcused if settings.late_entry_rounds == "unexcused" else settings.excused[0]
