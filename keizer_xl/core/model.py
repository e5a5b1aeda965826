"""Domain types of a Keizer competition: players, results and the rows of its rounds.

These are plain, immutable objects with no I/O; `keizer_xl.core.season` gathers them into
the season the engine computes from.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction

from keizer_xl.core.messages import Message, msg


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


@dataclass(frozen=True)
class Points:
    """A fixed number of points for a round without a game (`40 points`), earned whatever
    one's value: some clubs' point systems reward a bye or an absence this way instead of
    with a share of one's own value."""

    amount: int

    def __str__(self) -> str:
        return f"{self.amount} points"

    def said(self) -> Message:
        """As a message, for a shell to say in the workbook's language (`40 punten`)."""
        return msg("{points} points", points=self.amount)


# What a round without a game earns: a share of one's own value, or fixed points.
Reward = Fraction | Points


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
    """A round row without a game at the club: a bye or an absence of one player. A club
    duty row may carry the player's result in the team match (`team`, in the player's view
    as white: 1-0 won, ½-½ drawn, 0-1 lost), which Club games `result` counts as a game."""

    round: int
    player: str
    reason: Absence
    source: Hashable = None
    team: Result | None = None


Entry = Game | Rest


# Characters that show nothing: control characters other than spaces and line ends, the
# soft hyphen, zero-width spaces and joiners, direction marks and the byte-order mark (a
# list glued from two files has one inside). A name with one would look like another
# player's and be a different one, so every door takes them out.
_INVISIBLE = re.compile(
    "[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\u00ad\u061c\u115f\u1160"
    "\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff"
    "\uffa0\ufff9-\ufffb]"
)


def tidy_name(name: str) -> str:
    """A name as typed, tidied the same way whichever door it comes in by: Unicode NFC (so
    `Zoë` typed with a combining accent is the same text as with the one-letter ë),
    invisible characters (a zero-width space, a byte-order mark) gone, surrounding spaces
    gone, inner spaces single."""
    if not (name.isascii() and name.isprintable()):
        name = unicodedata.normalize("NFC", _INVISIBLE.sub("", name))
    return " ".join(name.split())


def name_key(name: str) -> str:
    """What two names are compared by: tidied and case-folded (`zoë ` is `Zoë`)."""
    return unicodedata.normalize("NFC", tidy_name(name).casefold())


def no_result(game: Game) -> str:
    """`round 12, board 3 (Anna – Bram) has no result yet`: one line per game."""
    if game.board is None:
        return msg(
            "round {round} ({white} – {black}) has no result yet",
            round=game.round,
            white=game.white,
            black=game.black,
        )
    return msg(
        "round {round}, board {board} ({white} – {black}) has no result yet",
        round=game.round,
        board=game.board,
        white=game.white,
        black=game.black,
    )
