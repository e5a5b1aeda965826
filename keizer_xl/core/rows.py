"""A season's rows as integer arrays: who, against whom, in which round, with what outcome.

The standings and the pairing look at every row of the season; as Python objects that is a
loop over tens of thousands of rows for each calculation. Made once per season (names
turned into indices), the rows become a few numpy arrays that the calculations index.

Index i < len(players) is the i-th player of the Players sheet; names in the rows that are
not on it (only in hand-made seasons: the checks refuse them) get the next indices.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Iterator, Sequence
from typing import Generic, TypeVar, overload

import numpy as np

from keizer_xl.core.model import Absence, Entry, Game, Player, Rest, Result, name_key, tidy_name

# The outcome of a row as one small number: a game's result, or why a player did not play.
NO_RESULT = 0
RESULT_CODE = {result: code for code, result in enumerate(Result, start=1)}
ABSENCE_CODE = {reason: code for code, reason in enumerate(Absence, start=len(Result) + 1)}
OUTCOMES: tuple[Result | Absence | None, ...] = (None, *Result, *Absence)
PLAYED_CODES = tuple(RESULT_CODE[r] for r in Result if r.played)
NOBODY = -1


def group_order(keys: np.ndarray, groups: int) -> np.ndarray:
    """The stable order that groups `keys` (each in 0..groups-1): a radix sort when they fit
    in 16 bits, many times faster than a comparison sort of a large array."""
    if groups <= 1 << 16:
        keys = keys.astype(np.uint16)
    order: np.ndarray = np.argsort(keys, kind="stable")
    return order


def group_sizes(keys: np.ndarray, groups: int) -> np.ndarray:
    """How many of `keys` (each in 0..groups-1) are in each group. numpy counts only keys of
    its index type, `np.intp`, which is 32 bits in WebAssembly: int64 keys are cast to it
    (they fit, being below `groups`)."""
    sizes: np.ndarray = np.bincount(keys.astype(np.intp, copy=False), minlength=groups)
    return sizes


class SeasonRows:
    """Every row of a season, one array entry per row in the season's order.

    `white` is the player of a bye or absence row; `black` is NOBODY there. `board` is 0
    where none was given; `outcome` codes a result (RESULT_CODE, NO_RESULT while unplayed)
    or an absence (ABSENCE_CODE). Equal only to itself, as arrays have no plain equality;
    a plain class, not a dataclass (see "Records" in docs/architecture.md).
    """

    def __init__(
        self,
        names: tuple[str, ...],
        players: int,
        round: np.ndarray,
        board: np.ndarray,
        white: np.ndarray,
        black: np.ndarray,
        outcome: np.ndarray,
        team: np.ndarray | None = None,
    ) -> None:
        self.names = names  # by index: players as on the sheet, then unknown names
        self.players = players  # how many of `names` are registered players
        self.round, self.board, self.white, self.black, self.outcome = (
            round,
            board,
            white,
            black,
            outcome,
        )
        # a club duty row's team-match result (RESULT_CODE, the player's view as white),
        # NO_RESULT elsewhere; None when no row has one (most seasons)
        self.team = team if team is not None and team.any() else None

    @classmethod
    def from_entries(cls, players: Sequence[Player], entries: Sequence[Entry]) -> SeasonRows:
        """The rows of Game and Rest objects (names looked up as `season.canonical` does)."""
        names = [p.name for p in players]
        registered = {name_key(p.name): i for i, p in enumerate(players)}
        unknown: dict[str, int] = {}
        typed: dict[str, int] = {}  # each spelling looked up once

        def look_up(name: str) -> int:
            found = typed.get(name)
            if found is None:
                key = tidy_name(name)
                found = registered.get(name_key(name))
                if found is None:
                    found = unknown.get(key)
                    if found is None:
                        found = unknown[key] = len(names)
                        names.append(key)
                typed[name] = found
            return found

        rounds, boards, whites, blacks, outcomes = [], [], [], [], []
        teams: dict[int, int] = {}  # row -> team-match result code (a few rows at most)
        for e in entries:
            rounds.append(e.round)
            if isinstance(e, Game):
                boards.append(e.board or 0)
                whites.append(look_up(e.white))
                blacks.append(look_up(e.black))
                outcomes.append(NO_RESULT if e.result is None else RESULT_CODE[e.result])
            else:
                boards.append(0)
                whites.append(look_up(e.player))
                blacks.append(NOBODY)
                outcomes.append(ABSENCE_CODE[e.reason])
                if e.team is not None:
                    teams[len(outcomes) - 1] = RESULT_CODE[e.team]
        team = None
        if teams:
            team = np.zeros(len(outcomes), dtype=np.int8)
            team[list(teams)] = list(teams.values())
        return cls(
            tuple(names),
            len(players),
            np.array(rounds, dtype=np.int64),
            np.array(boards, dtype=np.int64),
            np.array(whites, dtype=np.intp),
            np.array(blacks, dtype=np.intp),
            np.array(outcomes, dtype=np.int8),
            team,
        )

    @functools.cached_property
    def last_round(self) -> int:
        """The highest round number that has rows (0 before the season starts)."""
        return int(self.round.max(initial=0))

    def unfinished_rounds(self) -> set[int]:
        """The rounds with a game still without a result."""
        unfinished = (self.outcome == NO_RESULT) & (self.black != NOBODY)
        return set(self.round[unfinished].tolist())

    def played(self, before_round: int) -> np.ndarray:
        """Which rows are games played over the board in rounds before `before_round`."""
        played: np.ndarray = (
            np.isin(self.outcome, PLAYED_CODES)
            & (self.round < before_round)
            & (self.white != self.black)
        )
        return played


T = TypeVar("T")


class LazyTuple(Generic[T]):
    """What a sequence made lazily shares: once `all()` has made its items, it compares,
    hashes, prints and iterates as the tuple of them."""

    _made: tuple[T, ...] | None

    def all(self) -> tuple[T, ...]:
        raise NotImplementedError

    def __iter__(self) -> Iterator[T]:
        return iter(self.all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, type(self) | tuple):
            return self.all() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.all())

    def __repr__(self) -> str:
        return repr(self.all())


class RowEntries(LazyTuple[Entry], Sequence[Entry]):
    """A season's entries kept as its integer rows, each Game or Rest made when asked for.

    A season read from a large workbook has a hundred thousand rows; the standings and the
    pairing need only the arrays, so the objects are made only for those who ask (the
    first to ask for them all makes them all, once). Equal to the tuple of its entries."""

    def __init__(self, rows: SeasonRows, labels: Sequence[Hashable]) -> None:
        self.rows, self.labels = rows, labels
        self._made: tuple[Entry, ...] | None = None

    def __len__(self) -> int:
        return len(self.labels)

    @overload
    def __getitem__(self, i: int) -> Entry: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Entry, ...]: ...
    def __getitem__(self, i: int | slice) -> Entry | tuple[Entry, ...]:
        if isinstance(i, slice) or self._made is not None:
            return self.all()[i]
        rows = self.rows
        return self._entry(
            int(rows.round[i]),
            int(rows.board[i]),
            int(rows.white[i]),
            int(rows.black[i]),
            int(rows.outcome[i]),
            self.labels[i],
            0 if rows.team is None else int(rows.team[i]),
        )

    def _entry(
        self,
        round_no: int,
        board: int,
        white: int,
        black: int,
        outcome: int,
        label: Hashable,
        team: int = NO_RESULT,
    ) -> Entry:
        names = self.rows.names
        if black == NOBODY:
            return Rest(
                round_no,
                names[white],
                OUTCOMES[outcome],  # type: ignore[arg-type]
                label,
                OUTCOMES[team] if team else None,  # type: ignore[arg-type]
            )
        return Game(round_no, board or None, names[white], names[black], OUTCOMES[outcome], label)  # type: ignore[arg-type]

    def all(self) -> tuple[Entry, ...]:
        if self._made is None:
            rows = self.rows
            teams = [NO_RESULT] * len(self.labels) if rows.team is None else rows.team.tolist()
            self._made = tuple(
                map(
                    self._entry,
                    rows.round.tolist(),
                    rows.board.tolist(),
                    rows.white.tolist(),
                    rows.black.tolist(),
                    rows.outcome.tolist(),
                    self.labels,
                    teams,
                )
            )
        return self._made
