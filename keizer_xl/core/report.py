"""What a published report shows beyond the Standings: figures derived from the season.

The engine gives the standings after a round and the ranking after every round before it.
A club's web page, notice board and group chat want a little more: game points and the
percentage, the colour balance, the change of place since the previous round, the rank after
every round, and per player what each round was (whom, which colour, which result) and what
it is worth now. They are worked out here, once, exactly, so every way of publishing shows
the same numbers.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from keizer_xl.core.model import Absence, Game, Rest, Result
from keizer_xl.core.rows import NOBODY, OUTCOMES
from keizer_xl.core.scoring import Standing, Standings, compute_standings
from keizer_xl.core.season import Season

HALF = Fraction(1, 2)

# What a round was for a player (`RoundLine.kind`).
GAME = "game"  # played over the board
FORFEIT = "forfeit"  # a game row that was not played: +-, -+ or --
NOT_YET = "not yet"  # before the player joined
GONE = "left"  # after the player left
OPEN = "open"  # a game without a result (only in an unfinished round)

_SCORES = {  # Result -> (white's mark, black's mark), as the crosstable writes them
    Result.WHITE_WINS: ("1", "0"),
    Result.BLACK_WINS: ("0", "1"),
    Result.DRAW: ("½", "½"),
    Result.WHITE_FORFEIT_WIN: ("+", "-"),
    Result.BLACK_FORFEIT_WIN: ("-", "+"),
    Result.DOUBLE_FORFEIT: ("-", "-"),
}
_HALVES = {"1": 2, "½": 1}  # game points of a mark, in halves
_SHORT = {Absence.BYE.value: "bye", Absence.EXCUSED.value: "exc", Absence.CLUB.value: "club",
          Absence.UNEXCUSED.value: "—"}  # by the kind of a round line


class RoundLine(NamedTuple):
    """One round of one player: a game (opponent, colour, mark), a bye or an absence.

    `worth` is what the round adds to the score now, re-priced with today's values (None
    where it counts nothing: the player was not registered then). `default` marks an absence
    that is not on the Rounds sheet and counts with the Settings' default reason.

    A light record, not a dataclass: a report of 1,000 players after 30 rounds has 30,000
    of them, which as tuples take a fifth of the time and memory."""

    round: int
    kind: str  # GAME, FORFEIT, OPEN, NOT_YET, GONE, or an Absence value ("bye", "excused", ...)
    opponent: str | None = None
    white: bool | None = None
    mark: str = ""  # "1", "½", "0"; forfeits "+" and "-"; "" otherwise
    worth: Fraction | None = None
    board: int | None = None
    default: bool = False

    @property
    def colour(self) -> str:
        """"w" or "b" for a game row, "" otherwise."""
        return "" if self.white is None else "w" if self.white else "b"

    def short(self, opponent_rank: int | None) -> str:
        """The crosstable cell: `12w1`, `5b½`, `7w+`, `bye`, `exc`, `club`, `—`."""
        if self.opponent is not None:
            rank = "" if opponent_rank is None else opponent_rank
            return f"{rank}{self.colour}{self.mark or '?'}"
        if self.kind in (NOT_YET, GONE):
            return ""
        return _SHORT[self.kind]


@dataclass(frozen=True)
class PlayerReport:
    """A line of the standings with everything published about the player."""

    standing: Standing
    ranks: tuple[int | None, ...]  # rank after round 1, 2, ... (None: not ranked then)
    change: int | None  # places gained since the previous round (negative: lost); None: new
    game_points: Fraction  # over the board: win 1, draw ½
    colour_balance: int  # games with white minus games with black, over the board
    whites: int
    blacks: int
    rounds: tuple[RoundLine, ...]  # round 1, 2, ... up to the standings' round

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
        object.__setattr__(self, "_gone", frozenset(
            p.name for p in self.season.players
            if p.left is not None and p.left <= self.after_round))

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


def rank_history(season: Season, standings: Standings) -> list[dict[str, int]]:
    """Rank of every ranked player after round 1 .. standings.after_round.

    Each is the ranking as it was published then (the standings after that round); the last
    is the standings' own. One calculation gives them all (the rankings it passes through)
    when re-pricing cannot change earlier rankings; with Iterate or Withdrawn drop each
    round's standings are worked out on their own."""
    rounds = standings.after_round
    s = standings.settings
    dropping = s.withdrawn == "drop" and any(
        p.left is not None and p.left < rounds for p in season.players)
    history: list[dict[str, int]] = []
    for r in range(1, rounds):
        if s.iterate == "none" and not dropping and len(standings.rankings) > r:
            ranking = standings.rankings[r]
        else:
            ranking = compute_standings(season, s, r).ranking
        history.append({name: place for place, name in enumerate(ranking, start=1)})
    if rounds:
        history.append({row.name: row.rank for row in standings.rows})
    return history


def round_lines(season: Season, standings: Standings) -> dict[str, list[RoundLine]]:
    """Per player, what each round 1 .. after_round was, and what it is worth now.

    Read from the season's integer rows, as the standings are: a season of a thousand
    players would otherwise make its tens of thousands of Game and Rest objects only for
    this. Each row's line is made as the row is met; the rounds without one are filled in
    afterwards."""
    rounds = standings.after_round
    worth = _worths(season, standings)
    lines: dict[str, list[RoundLine | None]] = {p.name: [None] * rounds
                                                for p in season.players}
    rows = season.rows
    names = rows.names
    for round_no, board, white, black, outcome in zip(
            rows.round.tolist(), rows.board.tolist(), rows.white.tolist(), rows.black.tolist(),
            rows.outcome.tolist(), strict=True):
        if not 0 < round_no <= rounds:
            continue
        r = round_no - 1
        name = names[white]
        if black == NOBODY:  # a bye or an absence
            lines[name][r] = RoundLine(round_no, _REST_KINDS[outcome], worth=worth[name][r])
            continue
        kind, white_mark, black_mark = _GAME_KINDS[outcome]
        other, board_no = names[black], board or None
        # every field given: made as a tuple directly, without RoundLine's __new__
        lines[name][r] = _make((round_no, kind, other, True, white_mark, worth[name][r],
                                board_no, False))
        lines[other][r] = _make((round_no, kind, name, False, black_mark, worth[other][r],
                                 board_no, False))
    default = standings.settings.default_absence.value
    for p in season.players:
        mine, values = lines[p.name], worth[p.name]
        for r, line in enumerate(mine):
            if line is None:
                round_no = r + 1
                mine[r] = (RoundLine(round_no, NOT_YET, worth=values[r])
                           if round_no < p.joined
                           else RoundLine(round_no, GONE, worth=values[r])
                           if p.left is not None and round_no > p.left
                           else RoundLine(round_no, default, worth=values[r], default=True))
    return lines  # type: ignore[return-value]  # every round now has its line


_make = RoundLine._make

# By outcome code (`core.rows.OUTCOMES`): what a game row is, with white's and black's
# mark; what a bye or absence row is.
_GAME_KINDS: tuple[tuple[str, str, str], ...] = tuple(
    (GAME if o.played else FORFEIT, *_SCORES[o]) if isinstance(o, Result) else (OPEN, "", "")
    for o in OUTCOMES)
_REST_KINDS: tuple[str, ...] = tuple(o.value if isinstance(o, Absence) else ""
                                     for o in OUTCOMES)


def _worths(season: Season, standings: Standings) -> dict[str, list[Fraction | None]]:
    """Per player, what each round 1 .. after_round adds to the score now (None where it
    counts nothing), one Fraction per distinct worth (a season has tens of thousands)."""
    rounds = standings.after_round
    worth: dict[str, list[Fraction | None]] = {p.name: [None] * rounds
                                               for p in season.players}
    shared: dict[int, dict[int, Fraction]] = {}  # scale -> term -> worth
    for row in standings.rows:
        made = shared.setdefault(row.scale, {})
        terms = row.terms[:rounds]
        for term in terms:
            if term is not None and term not in made:
                made[term] = Fraction(term, row.scale)
        worth[row.name] = [None if t is None else made[t] for t in terms] + \
            [None] * (rounds - len(terms))
    return worth


def build_report(season: Season, standings: Standings) -> Report:
    """The standings with game points, percentage, colour balance, change of place, rank
    after every round and each player's rounds."""
    history = rank_history(season, standings)
    lines = round_lines(season, standings)
    players = []
    for row in standings.rows:
        mine = lines.get(row.name, [])
        halves = whites = blacks = 0
        for line in mine:
            if line.kind != GAME or line.white is None:
                continue
            halves += _HALVES.get(line.mark, 0)
            if line.white:
                whites += 1
            else:
                blacks += 1
        ranks = tuple(after.get(row.name) for after in history)
        before = ranks[-2] if len(ranks) >= 2 else None
        change = None if before is None or row.score is None else before - row.rank
        players.append(PlayerReport(row, ranks, change, Fraction(halves, 2), whites - blacks,
                                    whites,
                                    blacks, tuple(mine)))
    return Report(season, standings, tuple(players))


def latest_round(season: Season) -> tuple[int, list[Game], list[Rest]]:
    """The last round that has rows: its games in board order, then its byes and absences."""
    r = season.last_round
    games = sorted((e for e in season.round_entries(r) if isinstance(e, Game)),
                   key=lambda g: (g.board is None, g.board or 0))
    rests = [e for e in season.round_entries(r) if isinstance(e, Rest)]
    rests.sort(key=lambda e: e.reason is not Absence.BYE)
    return r, games, rests
