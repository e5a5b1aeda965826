"""Who plays white: the colour rules of the rule book (§5 and the `Colours` variants of §6).

Colours are decided pair by pair from each player's *played* games only: forfeits, byes and
absences leave no colour behind, so a player's history is simply the sequence of colours of
the games they played over the board, oldest first ("W" for white, "B" for black). Runs and
"the latest game" are counted in that sequence, so a missed round does not break a run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from keizer_xl.core.messages import Joined, Name, msg
from keizer_xl.core.rows import SeasonRows, group_order, group_sizes
from keizer_xl.core.season import Season
from keizer_xl.core.settings import Settings

WHITE = "W"
BLACK = "B"
HALF = Fraction(1, 2)


@dataclass(frozen=True)
class ColourHistory:
    """Per player the colours of their played games, oldest first, as a string of W and B."""

    colours: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # all at once (a season of 5,000 players has 5,000 of them), then who, if any
        every = "".join(self.colours.values())
        if not every.replace(WHITE, "").replace(BLACK, ""):
            return
        for name, seq in self.colours.items():
            if set(seq) - {WHITE, BLACK}:
                raise ValueError(f"colours of {name} must be W and B only, not '{seq}'")

    @classmethod
    def from_season(cls, season: Season, before_round: int) -> ColourHistory:
        """The colours of every game played over the board in rounds before `before_round`.

        Names are taken as on the Players sheet (a game typed as "jansen " counts for
        "Jansen"); games are ordered by round, then board, so the order of the rows in the
        season does not matter. Made from the season's integer rows: each player's colours
        are one slice of a single string.
        """
        rows = season.rows
        games = np.nonzero(rows.played(before_round))[0]
        games = games[game_order(rows, games)]
        # one (player, colour) event per side of each game, in game order, then by player
        who = np.stack([rows.white[games], rows.black[games]], axis=1).ravel()
        colour = np.tile(np.frombuffer(b"WB", dtype=np.uint8), len(games))
        text = colour[group_order(who, len(rows.names))].tobytes().decode("ascii")
        counts = group_sizes(who, len(rows.names)).tolist()
        seqs: dict[str, str] = {}
        start = 0
        for name, count in zip(rows.names, counts, strict=True):
            if count:
                seqs[name] = text[start : start + count]
                start += count
        return cls(seqs)

    def of(self, player: str) -> str:
        """The player's colours, oldest first ("" before their first game)."""
        return self.colours.get(player, "")

    def whites(self, player: str) -> int:
        return self.of(player).count(WHITE)

    def games(self, player: str) -> int:
        return len(self.of(player))

    def balance(self, player: str) -> int:
        """Whites minus blacks."""
        seq = self.of(player)
        return seq.count(WHITE) - seq.count(BLACK)

    def run(self, player: str) -> tuple[str | None, int]:
        """The colour of the current run of equal colours and its length ((None, 0) if none)."""
        seq = self.of(player)
        if not seq:
            return None, 0
        last = seq[-1]
        return last, len(seq) - len(seq.rstrip(last))


def game_order(rows: SeasonRows, games: np.ndarray) -> np.ndarray:
    """The order of these rows by round, board, white and black (one sort of one key)."""
    players = len(rows.names)
    boards = int(rows.board[games].max(initial=0)) + 1
    rounds = int(rows.round[games].max(initial=0)) + 1
    if rounds * boards * players * players < 2**62:
        key = (
            (rows.round[games] * boards + rows.board[games]) * players + rows.white[games]
        ) * players + rows.black[games]
        if bool(np.all(key[1:] >= key[:-1])):  # as typed, round by round: no sort needed
            return np.arange(len(key))
        order: np.ndarray = np.argsort(key, kind="stable")
        return order
    return np.lexsort((rows.black[games], rows.white[games], rows.board[games], rows.round[games]))


def allocate(
    higher: str, lower: str, history: ColourHistory, settings: Settings
) -> tuple[str, str, str | None]:
    """Colours for a pair: (white, black, note or None). `higher` is the higher-ranked player.

    The colour rule of the settings decides; then "Max same colour" may swap the colours when
    that keeps both players within the limit. When either allocation would break the limit
    for one of them, the rule's choice stands and the note says so, for the secretary.
    """
    rules = {"keizer": _keizer, "count": _count, "percentage": _percentage, "geel": _geel}
    try:
        rule = rules[settings.colours]
    except KeyError:
        raise ValueError(f"unknown colour rule '{settings.colours}'") from None
    higher_white = rule(higher, lower, history, settings)
    cap = settings.max_same_colour
    if cap is None:
        return _pair(higher, lower, higher_white, None)
    if not _breaks(higher, lower, higher_white, history, cap):
        return _pair(higher, lower, higher_white, None)
    if not _breaks(higher, lower, not higher_white, history, cap):
        return _pair(higher, lower, not higher_white, None)
    white, black, _ = _pair(higher, lower, higher_white, None)
    detail = Joined(
        "; ",
        [
            msg("{name} gets white {times} times in a row", name=white, times=times)
            if colour == WHITE
            else msg("{name} gets black {times} times in a row", name=black, times=times)
            for colour, times in (
                (WHITE, _run_after(history, white, WHITE)),
                (BLACK, _run_after(history, black, BLACK)),
            )
            if times > cap
        ],
    )

    note = msg(
        "{white}-{black}: {setting} {cap} cannot be kept for both players ({detail}); "
        "the colour rule decided.",
        white=white,
        black=black,
        setting=Name("Max same colour", "setting"),
        cap=cap,
        detail=detail,
    )
    return white, black, note


def _pair(
    higher: str, lower: str, higher_white: bool, note: str | None
) -> tuple[str, str, str | None]:
    return (higher, lower, note) if higher_white else (lower, higher, note)


def _run_after(history: ColourHistory, player: str, colour: str) -> int:
    """How many times in a row the player has `colour` after getting it in this game."""
    run_colour, length = history.run(player)
    return length + 1 if run_colour == colour else 1


def _breaks(higher: str, lower: str, higher_white: bool, history: ColourHistory, cap: int) -> bool:
    higher_colour, lower_colour = (WHITE, BLACK) if higher_white else (BLACK, WHITE)
    return (
        _run_after(history, higher, higher_colour) > cap
        or _run_after(history, lower, lower_colour) > cap
    )


def _tie(
    higher: str,
    lower: str,
    history: ColourHistory,
    settings: Settings,
    otherwise_higher: bool = True,
) -> bool:
    """The last resort of every rule; "First round white" applies only before any game."""
    if not history.of(higher) and not history.of(lower):
        return settings.first_round_white != "lower"
    return otherwise_higher


def _alternate(higher: str, lower: str, history: ColourHistory) -> bool | None:
    """If both last colours exist and differ, each gets the other's last colour."""
    a, b = history.of(higher), history.of(lower)
    if a and b and a[-1] != b[-1]:
        return b[-1] == WHITE
    return None


def _keizer(higher: str, lower: str, history: ColourHistory, settings: Settings) -> bool:
    """§5: balance, then the longer run, then the first difference walking back, then rank."""
    balance_a, balance_b = history.balance(higher), history.balance(lower)
    if balance_a != balance_b:
        return balance_a < balance_b
    colour_a, run_a = history.run(higher)
    colour_b, run_b = history.run(lower)
    if run_a != run_b:
        if run_a > run_b:
            return colour_a == BLACK
        return colour_b == WHITE
    a, b = history.of(higher), history.of(lower)
    for back in range(1, min(len(a), len(b)) + 1):
        if a[-back] != b[-back]:
            return b[-back] == WHITE
    return _tie(higher, lower, history, settings)


def _count(higher: str, lower: str, history: ColourHistory, settings: Settings) -> bool:
    """Fewer whites gets white; equal: the lower-ranked player."""
    whites_a, whites_b = history.whites(higher), history.whites(lower)
    if whites_a != whites_b:
        return whites_a < whites_b
    return _tie(higher, lower, history, settings, otherwise_higher=False)


def _share(history: ColourHistory, player: str) -> Fraction:
    games = history.games(player)
    return Fraction(history.whites(player), games) if games else HALF


def _alternate_or_tie(higher: str, lower: str, history: ColourHistory, settings: Settings) -> bool:
    """Equal shares: if their last colours differ, each gets the other's; else the tie."""
    alternated = _alternate(higher, lower, history)
    return alternated if alternated is not None else _tie(higher, lower, history, settings)


def _percentage(higher: str, lower: str, history: ColourHistory, settings: Settings) -> bool:
    """Keizer's official wording: the lower share of whites gets white (no games: 1/2)."""
    share_a, share_b = _share(history, higher), _share(history, lower)
    if share_a != share_b:
        return share_a < share_b
    return _alternate_or_tie(higher, lower, history, settings)


def _geel(higher: str, lower: str, history: ColourHistory, settings: Settings) -> bool:
    """The allocation whose shares of white after the game stay closest to 1/2."""

    def extremes(white: str, black: str) -> tuple[Fraction, Fraction]:
        w = abs(Fraction(history.whites(white) + 1, history.games(white) + 1) - HALF)
        b = abs(Fraction(history.whites(black), history.games(black) + 1) - HALF)
        return max(w, b), min(w, b)

    higher_white, lower_white = extremes(higher, lower), extremes(lower, higher)
    if higher_white != lower_white:
        return higher_white < lower_white
    return _alternate_or_tie(higher, lower, history, settings)
