"""Domain types of a Keizer competition: players, results, rounds and the season they make.

These are plain, immutable objects with no I/O. Everything the engine computes is derived
from a `Season`; the workbook, xlwings and command-line layers only build one and show what
comes out.
"""

from __future__ import annotations

import enum
import functools
import unicodedata
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from keizer_xl.core.rows import SeasonRows


class Result(enum.Enum):
    """The outcome of a game row, as the secretary types it in the Result column."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "½-½"
    WHITE_FORFEIT_WIN = "+-"  # black did not turn up
    BLACK_FORFEIT_WIN = "-+"  # white did not turn up
    DOUBLE_FORFEIT = "--"  # neither turned up

    @property
    def played(self) -> bool:
        """Was the game played over the board (so it counts as a meeting and for colours)?"""
        return self in (Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW)

    def points(self, white: bool) -> Fraction | None:
        """Game points (1, 1/2, 0) of one side of a played game; None for forfeits."""
        if not self.played:
            return None
        if self is Result.DRAW:
            return Fraction(1, 2)
        return Fraction(1 if (self is Result.WHITE_WINS) == white else 0)


class Absence(enum.Enum):
    """Why a player who takes part did not play a game in a round."""

    BYE = "bye"  # present, odd player out
    EXCUSED = "excused"
    CLUB = "club"  # club duty: a team match for the club
    UNEXCUSED = "unexcused"


@dataclass(frozen=True)
class Player:
    """A registered player. `order` is the position on the Players sheet (0-based)."""

    name: str
    rating: Fraction = Fraction(0)
    joined: int = 1
    left: int | None = None
    present: Absence | None = None  # None = present for the next round; else why absent
    order: int = 0
    source: Hashable = field(default=None, compare=False)  # where the row came from

    def takes_part_in(self, round_no: int) -> bool:
        """Is the player registered for this round (joined and not yet withdrawn)?"""
        return self.joined <= round_no and (self.left is None or round_no <= self.left)


@dataclass(frozen=True)
class Game:
    """A pairing in a round; `result` is None while the game has not been played."""

    round: int
    board: int | None
    white: str
    black: str
    result: Result | None = None
    source: Hashable = None  # where the row came from (for messages)


@dataclass(frozen=True)
class Rest:
    """A round row without a game: a bye or an absence of one player."""

    round: int
    player: str
    reason: Absence
    source: Hashable = None


Entry = Game | Rest


def tidy_name(name: str) -> str:
    """A name as typed, tidied: Unicode NFC (so `Zoë` typed with a combining accent is the
    same text as with the one-letter ë), surrounding spaces gone, inner spaces single."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def name_key(name: str) -> str:
    """What two names are compared by: tidied and case-folded (`zoë ` is `Zoë`)."""
    return unicodedata.normalize("NFC", tidy_name(name).casefold())


@dataclass(frozen=True)
class Season:
    """Everything the engine needs: the players (sheet order) and the rounds' rows."""

    players: tuple[Player, ...]
    entries: Sequence[Entry] = ()  # a tuple, or the rows' own lazy `rows.RowEntries`

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {name_key(p.name): p for p in self.players})

    @classmethod
    def from_rows(cls, players: tuple[Player, ...], rows: SeasonRows,
                  labels: Sequence[Hashable]) -> Season:
        """A season read straight into integer rows (the checks do that): its entries are
        made from them only if asked for."""
        from keizer_xl.core.rows import RowEntries

        season = cls(players, RowEntries(rows, labels))
        object.__setattr__(season, "rows", rows)  # what `rows` would otherwise make
        return season

    @functools.cached_property
    def rows(self) -> SeasonRows:
        """The rows as integer arrays, made when first needed (`keizer_xl.core.rows`)."""
        from keizer_xl.core.rows import SeasonRows

        return SeasonRows.from_entries(self.players, self.entries)

    def player(self, name: str) -> Player:
        return self._by_name[name_key(name)]  # type: ignore[attr-defined,no-any-return]

    def knows(self, name: str) -> bool:
        return name_key(name) in self._by_name  # type: ignore[attr-defined]

    @property
    def last_round(self) -> int:
        """The highest round number that has rows (0 before the season starts)."""
        return self.rows.last_round

    def round_entries(self, round_no: int) -> list[Entry]:
        return [e for e in self.entries if e.round == round_no]

    def games(self) -> Iterator[Game]:
        return (e for e in self.entries if isinstance(e, Game))

    def is_complete(self, round_no: int) -> bool:
        """A round is complete when every game in it has a result."""
        return round_no not in self.rows.unfinished_rounds()

    @property
    def completed_rounds(self) -> int:
        """The last round r such that rounds 1..r all have every result in."""
        incomplete = self.rows.unfinished_rounds()
        r = self.last_round
        while r > 0 and r in incomplete:
            r -= 1
        return r


# -- looking players up by name (the rows may spell a name differently) ------------------

PLAYED = tuple(result for result in Result if result.played)


def played_games(season: Season, before_round: int) -> list[Game]:
    """The games played over the board in rounds before `before_round`, in season order.

    (`result in PLAYED` rather than `result.played`: a season has thousands of games.)"""
    return [e for e in season.entries
            if e.round < before_round and isinstance(e, Game) and e.result in PLAYED]


def canonical(season: Season, name: str) -> str:
    """The name as on the Players sheet, so that typing differences do not split a history."""
    return season.player(name).name if season.knows(name) else tidy_name(name)


def name_finder(season: Season) -> Callable[[str], str]:
    """`canonical` for one season, remembering each spelling (a season repeats names a lot).

    A name written exactly as on the Players sheet is itself: known from the start."""
    found: dict[str, str] = {p.name: p.name
                             for p in season._by_name.values()}  # type: ignore[attr-defined]

    def find(name: str) -> str:
        if name not in found:
            found[name] = canonical(season, name)
        return found[name]

    return find
