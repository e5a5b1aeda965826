"""What a published report shows beyond the Standings: figures derived from the season.

The engine gives the standings after a round and the ranking after every round before it.
A club's web page, notice board and group chat want a little more: game points and the
percentage, the colour balance, the change of place since the previous round, the rank after
every round, and per player what each round was (whom, which colour, which result) and what
it is worth now. They are worked out here, once, exactly, so every way of publishing shows
the same numbers.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple, TypeVar, overload

import numpy as np

from keizer_xl.core.model import Absence, Game, Rest, Result
from keizer_xl.core.results import RESTS, RESULTS
from keizer_xl.core.rows import NOBODY, OUTCOMES, PLAYED_CODES, RESULT_CODE, LazyTuple
from keizer_xl.core.scoring import Standing, Standings, compute_standings
from keizer_xl.core.season import Season

HALF = Fraction(1, 2)
T = TypeVar("T")

# What a round was for a player (`RoundLine.kind`).
GAME = "game"  # played over the board
FORFEIT = "forfeit"  # a game row that was not played: +-, -+ or --
NOT_YET = "not yet"  # before the player joined
GONE = "left"  # after the player left
OPEN = "open"  # a game without a result (only in an unfinished round)
TEAM = "team"  # a team match for the club, counted as a game (Club games `result`)

_SHORT = {a.value: line.mark for a, line in RESTS.items()}  # by the kind of a round line


class CrosstableMarks(NamedTuple):
    """How a crosstable cell writes white and black and a round without a game, in one
    language: the rule book writes English's (`12w1`, `bye`, `exc`); the shells take each
    language's from its record and catalog (`i18n.crosstable_marks`)."""

    white: str = "w"
    black: str = "b"
    rests: tuple[tuple[str, str], ...] = tuple(_SHORT.items())  # (kind, mark)

    def rest(self, kind: str) -> str:
        """The mark of a bye or an absence (the kind of a round line)."""
        for known, mark in self.rests:
            if known == kind:
                return mark
        return _SHORT[kind]


ENGLISH_MARKS = CrosstableMarks()


class RoundLine(NamedTuple):
    """One round of one player: a game (opponent, colour, mark), a bye or an absence.

    `worth` is what the round adds to the score now, re-priced with today's values (None
    where it counts nothing: the player was not registered then). `default` marks an absence
    that is not on the Rounds sheet and counts with the Settings' default reason.

    A light record, not a dataclass: a report of 1,000 players after 30 rounds has 30,000
    of them, which as tuples take a fifth of the time and memory."""

    round: int
    kind: str  # GAME, FORFEIT, OPEN, NOT_YET, GONE, TEAM, or an Absence value ("bye", ...)
    opponent: str | None = None
    white: bool | None = None
    mark: str = ""  # "1", "½", "0" (of a game or a team match); forfeits "+" and "-"
    worth: Fraction | None = None
    board: int | None = None
    default: bool = False

    @property
    def colour(self) -> str:
        """ "w" or "b" for a game row, "" otherwise."""
        return "" if self.white is None else "w" if self.white else "b"

    def short(self, opponent_rank: int | None, marks: CrosstableMarks = ENGLISH_MARKS) -> str:
        """The crosstable cell: `12w1`, `5b½`, `7w+`, `bye`, `exc`, `club`, `club1`, `—` (German
        `12s1`, `spielfrei`, …: the language's `marks`)."""
        if self.opponent is not None:  # `colour` written out: a crosstable has thousands
            rank = "" if opponent_rank is None else opponent_rank
            colour = "" if self.white is None else marks.white if self.white else marks.black
            return f"{rank}{colour}{self.mark or '?'}"
        if self.kind in (NOT_YET, GONE):
            return ""
        if self.kind == TEAM:  # the club duty's mark, then the team match's result
            return marks.rest(Absence.CLUB.value) + self.mark
        return marks.rest(self.kind)


@dataclass(frozen=True)
class PlayerReport:
    """A line of the standings with everything published about the player."""

    standing: Standing
    ranks: Sequence[int | None]  # rank after round 1, 2, ... (None: not ranked then)
    change: int | None  # places gained since the previous round (negative: lost); None: new
    game_points: Fraction  # over the board: win 1, draw ½
    colour_balance: int  # games with white minus games with black, over the board
    whites: int
    blacks: int
    rounds: Sequence[RoundLine]  # round 1, 2, ... up to the standings' round

    @property
    def name(self) -> str:
        return self.standing.name

    @property
    def percentage(self) -> Fraction | None:
        """Game points per game played, in per cent (None before the first game)."""
        played = self.standing.played
        return None if not played else self.game_points * 100 / played


@dataclass(frozen=True)
class Report:
    """The standings after a round with the derived figures, and the season behind them."""

    season: Season
    standings: Standings
    players: tuple[PlayerReport, ...]  # in standings order

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {p.name: p for p in self.players})
        object.__setattr__(
            self,
            "_gone",
            frozenset(
                p.name
                for p in self.season.players
                if p.left is not None and p.left <= self.after_round
            ),
        )

    @property
    def after_round(self) -> int:
        return self.standings.after_round

    def player(self, name: str) -> PlayerReport | None:
        """The report of a ranked player (None for a player not in the standings)."""
        found: PlayerReport | None = self._by_name.get(name)  # type: ignore[attr-defined]
        return found

    def withdrawn(self, name: str) -> bool:
        """Has the player left by the standings' round (Left at or before it)? Every way of
        publishing marks such a player alike."""
        return name in self._gone  # type: ignore[attr-defined]

    def rank(self, name: str) -> int | None:
        found = self.player(name)
        return None if found is None else found.standing.rank

    def __iter__(self) -> Iterator[PlayerReport]:
        return iter(self.players)

    def stakes(self, game: Game) -> tuple[Stakes, Stakes] | None:
        """What a game of tonight (the round after these standings, no result yet) earns
        White and Black at today's values; None for a game played or of another round."""
        if game.result is not None or game.round != self.after_round + 1:
            return None
        values = self.standings.values
        if game.white not in values or game.black not in values:
            return None
        loss = self.standings.settings.loss
        return Stakes.against(values[game.black], loss), Stakes.against(values[game.white], loss)

    @property
    def priced_again(self) -> bool:
        """Are earlier games priced again with each new ranking (Pricing current), so that
        tonight's stakes are today's values only?"""
        return self.standings.settings.pricing != "frozen"


class Stakes(NamedTuple):
    """What one player earns tonight at today's values: a win the opponent's value, a
    draw half of it, a loss the Loss share of it (0 without that setting). Members ask
    "what can I win tonight?": every way of publishing shows these same numbers."""

    win: Fraction
    draw: Fraction
    loss: Fraction

    @classmethod
    def against(cls, value: Fraction, loss: Fraction) -> Stakes:
        return cls(value, value * HALF, value * loss)


def next_game(report: Report, name: str) -> tuple[Game, Stakes] | None:
    """The player's game of tonight with what it earns the player, when one is paired."""
    round_no = report.after_round + 1
    if report.season.last_round != round_no:
        return None
    for entry in report.season.round_entries(round_no):
        if isinstance(entry, Game) and name in (entry.white, entry.black):
            both = report.stakes(entry)
            if both is None:
                return None
            return entry, both[0] if entry.white == name else both[1]
    return None


class _Lazy(LazyTuple[T], Sequence[T]):
    """A player's rounds or ranks, made from the report's arrays each time they are read
    and never kept: a report of 10,000 players after 100 rounds would otherwise hold a
    million of each. Equal to the tuple of its items."""

    def __init__(self, make: Callable[[], tuple[T, ...]], length: int) -> None:
        self.make, self.length = make, length
        self._made = None

    def all(self) -> tuple[T, ...]:
        return self.make()

    def __len__(self) -> int:
        return self.length

    @overload
    def __getitem__(self, k: int) -> T: ...
    @overload
    def __getitem__(self, k: slice) -> tuple[T, ...]: ...
    def __getitem__(self, k: int | slice) -> T | tuple[T, ...]:
        return self.all()[k]


def rank_history(season: Season, standings: Standings) -> np.ndarray:
    """Rank of every player of the standings (rows in their order) after round 1 ..
    standings.after_round (columns), 0 where not ranked then.

    Each is the ranking as it was published then (the standings after that round); the last
    is the standings' own. One calculation gives them all (the rankings it passes through)
    when re-pricing cannot change earlier rankings; with Iterate or Withdrawn drop each
    round's standings are worked out on their own."""
    rounds = standings.after_round
    s = standings.settings
    dropping = s.withdrawn == "drop" and any(
        p.left is not None and p.left < rounds for p in season.players
    )
    row_of = {row.name: i for i, row in enumerate(standings.rows)}
    ranks = np.zeros((len(standings.rows), rounds), dtype=np.int32)
    for r in range(1, rounds):
        if s.iterate == "none" and not dropping and len(standings.rankings) > r:
            ranking = standings.rankings[r]
        else:
            ranking = compute_standings(season, s, r).ranking
        known = [
            (row_of[name], place) for place, name in enumerate(ranking, start=1) if name in row_of
        ]
        if known:
            at, places = zip(*known, strict=True)
            ranks[list(at), r - 1] = places
    if rounds:
        ranks[:, rounds - 1] = [row.rank for row in standings.rows]
    return ranks


class _RoundRows:
    """Which row of the season each player had in each round 1 .. after_round (the last
    one, as the sheet has it; -1 for none), and the making of a player's lines from them.

    Read from the season's integer rows, as the standings are: a season of a thousand
    players would otherwise make its tens of thousands of Game and Rest objects only for
    this."""

    def __init__(self, season: Season, standings: Standings) -> None:
        rows = season.rows
        self.season, self.rows, self.rounds = season, rows, standings.after_round
        self.default = standings.settings.default_absence.value
        # team-match results, where they count as games
        self.team = rows.team if standings.settings.club_games == "result" else None
        rounds, count = self.rounds, len(rows.names)
        at = np.full(count * rounds, -1, dtype=np.int64)
        taken = np.nonzero((rows.round >= 1) & (rows.round <= rounds))[0]
        np.maximum.at(at, rows.white[taken] * rounds + rows.round[taken] - 1, taken)
        games = taken[rows.black[taken] != NOBODY]
        np.maximum.at(at, rows.black[games] * rounds + rows.round[games] - 1, games)
        self.at = at.reshape(count, rounds)
        self.fractions: dict[int, dict[int, Fraction]] = {}  # by scale, one per worth

    def games(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per player (season order): games played over the board with white, with black,
        and their game points in halves."""
        rows, at = self.rows, self.at
        found = at >= 0
        row = np.where(found, at, 0)
        outcome, black = rows.outcome[row], rows.black[row]
        me = np.arange(len(at))[:, None]
        game = found & (black != NOBODY) & np.isin(outcome, PLAYED_CODES)
        white = (rows.white[row] == me) & (black != me)  # as black where both (never)
        won = ((outcome == RESULT_CODE[Result.WHITE_WINS]) & white) | (
            (outcome == RESULT_CODE[Result.BLACK_WINS]) & ~white
        )
        halves = 2 * (game & won).sum(axis=1) + (game & (outcome == RESULT_CODE[Result.DRAW])).sum(
            axis=1
        )
        if self.team is not None:  # team matches are games too, with no colour here
            team = np.where(found & (black == NOBODY), self.team[row], 0)
            halves += 2 * (team == RESULT_CODE[Result.WHITE_WINS]).sum(axis=1) + (
                team == RESULT_CODE[Result.DRAW]
            ).sum(axis=1)
        return (game & white).sum(axis=1), (game & ~white).sum(axis=1), halves

    def lines(self, i: int, row: Standing | None) -> tuple[RoundLine, ...]:
        """What each round was for the season's player `i`, and what it is worth now."""
        player = self.season.players[i]
        rows, names, rounds = self.rows, self.rows.names, self.rounds
        worths = self.worths(row)
        at = self.at[i]
        found = at >= 0
        take = np.where(found, at, 0)
        joined, left = player.joined, player.left
        lines = []
        for r, has, board, white, black, outcome, value in zip(
            range(1, rounds + 1),
            found.tolist(),
            rows.board[take].tolist(),
            rows.white[take].tolist(),
            rows.black[take].tolist(),
            rows.outcome[take].tolist(),
            worths,
            strict=True,
        ):
            # every field given: made as a tuple directly, without RoundLine's __new__
            if has and black != NOBODY:
                kind, white_mark, black_mark = _GAME_KINDS[outcome]
                mine = white == i and black != i  # white; as black where both (never)
                line = (
                    r,
                    kind,
                    names[black] if mine else names[white],
                    mine,
                    white_mark if mine else black_mark,
                    value,
                    board or None,
                    False,
                )
            elif has and self.team is not None and self.team[at[r - 1]]:  # a team match
                line = (r, TEAM, None, None, _TEAM_MARKS[self.team[at[r - 1]]], value, None, False)
            elif has:  # a bye or an absence
                line = (r, _REST_KINDS[outcome], None, None, "", value, None, False)
            elif r < joined:
                line = (r, NOT_YET, None, None, "", value, None, False)
            elif left is not None and r > left:
                line = (r, GONE, None, None, "", value, None, False)
            else:
                line = (r, self.default, None, None, "", value, None, True)
            lines.append(_new(RoundLine, line))
        return tuple(lines)

    def worths(self, row: Standing | None) -> list[Fraction | None]:
        """What each round 1 .. after_round is worth now for the standings' row (None where
        it counts nothing), one Fraction for each distinct worth."""
        worths: list[Fraction | None] = [None] * self.rounds
        if row is None:
            return worths
        scale = row.scale
        made = self.fractions.setdefault(scale, {})
        for k, term in enumerate(tuple(row.terms)[: self.rounds]):  # terms: not kept by the row
            if term is not None:
                value = made.get(term)
                if value is None:
                    value = made[term] = Fraction(term, scale)
                worths[k] = value
        return worths


_new = tuple.__new__

# By outcome code (`core.rows.OUTCOMES`): what a game row is, with white's and black's
# mark; what a bye or absence row is.
_GAME_KINDS: tuple[tuple[str, str, str], ...] = tuple(
    (GAME if o.played else FORFEIT, *RESULTS[o].marks) if isinstance(o, Result) else (OPEN, "", "")
    for o in OUTCOMES
)
_TEAM_MARKS: dict[int, str] = {RESULT_CODE[r]: RESULTS[r].marks[0] for r in Result if r.played}
_REST_KINDS: tuple[str, ...] = tuple(o.value if isinstance(o, Absence) else "" for o in OUTCOMES)


def build_report(season: Season, standings: Standings) -> Report:
    """The standings with game points, percentage, colour balance, change of place, rank
    after every round and each player's rounds (made whenever they are read)."""
    history = rank_history(season, standings)
    made = _RoundRows(season, standings)
    whites, blacks, halves = (counts.tolist() for counts in made.games())
    index = {p.name: i for i, p in enumerate(season.players)}
    rounds = standings.after_round
    players = []
    for k, row in enumerate(standings.rows):
        ranks = history[k]
        before = int(ranks[-2]) if rounds >= 2 else 0
        change = None if not before or row.score is None else before - row.rank
        i = index.get(row.name)
        mine: Sequence[RoundLine] = (
            () if i is None else _Lazy(functools.partial(made.lines, i, row), rounds)
        )
        players.append(
            PlayerReport(
                row,
                _Lazy(functools.partial(_ranks, ranks), rounds),
                change,
                Fraction(halves[i] if i is not None else 0, 2),
                whites[i] - blacks[i] if i is not None else 0,
                whites[i] if i is not None else 0,
                blacks[i] if i is not None else 0,
                mine,
            )
        )
    return Report(season, standings, tuple(players))


def _ranks(ranks: np.ndarray) -> tuple[int | None, ...]:
    return tuple([rank or None for rank in ranks.tolist()])


def latest_round(season: Season) -> tuple[int, list[Game], list[Rest]]:
    """The last round that has rows: its games in board order, then its byes and absences."""
    r = season.last_round
    games = sorted(
        (e for e in season.round_entries(r) if isinstance(e, Game)),
        key=lambda g: (g.board is None, g.board or 0),
    )
    rests = [e for e in season.round_entries(r) if isinstance(e, Rest)]
    rests.sort(key=lambda e: e.reason is not Absence.BYE)
    return r, games, rests
