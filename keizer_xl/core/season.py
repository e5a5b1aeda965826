"""The season: the players and every row of its rounds, as the engine computes from them.

Everything the engine computes is derived from a `Season`; the workbook, xlwings and
command-line layers only build one and show what comes out. Its rows are there in two
forms, each made from the other when first asked for: `Game` and `Rest` objects for those
who read them one by one, and the integer arrays of `keizer_xl.core.rows` for the
standings and the pairing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass

from keizer_xl.core.model import Entry, Game, Player, name_key, tidy_name
from keizer_xl.core.rows import NO_RESULT, NOBODY, RowEntries, SeasonRows


@dataclass(frozen=True)
class Season:
    """Everything the engine needs: the players (sheet order) and the rounds' rows."""

    players: tuple[Player, ...]
    entries: Sequence[Entry] = ()  # a tuple, or the rows' own lazy `rows.RowEntries`

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {name_key(p.name): p for p in self.players})

    @classmethod
    def from_rows(
        cls, players: tuple[Player, ...], rows: SeasonRows, labels: Sequence[Hashable]
    ) -> Season:
        """A season read straight into integer rows (the checks do that): its entries are
        made from them only if asked for."""
        season = cls(players, RowEntries(rows, labels))
        object.__setattr__(season, "rows", rows)  # what `rows` would otherwise make
        return season

    @functools.cached_property
    def rows(self) -> SeasonRows:
        """The rows as integer arrays, made when first needed (`keizer_xl.core.rows`)."""
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
        """The rows of one round. A season read straight into rows makes only that round's
        entries: making every row's (700,000 in the largest season) for one round cost
        80 MB at each recalc."""
        if isinstance(self.entries, RowEntries):
            at = (self.rows.round == round_no).nonzero()[0]
            return [self.entries[i] for i in at.tolist()]
        return [e for e in self.entries if e.round == round_no]

    def games(self) -> Iterator[Game]:
        return (e for e in self.entries if isinstance(e, Game))

    @property
    def awaiting_results(self) -> bool:
        """The last round is paired and not one of its results is typed yet: the week
        between pairing a round and typing its results."""
        rows = self.rows
        games = (rows.round == self.last_round) & (rows.black != NOBODY)
        return bool(games.any() and (rows.outcome[games] == NO_RESULT).all())

    @property
    def completed_rounds(self) -> int:
        """The last round r such that rounds 1..r all have every result in."""
        incomplete = self.rows.unfinished_rounds()
        r = self.last_round
        while r > 0 and r in incomplete:
            r -= 1
        return r


# -- looking players up by name (the rows may spell a name differently) ------------------


def canonical(season: Season, name: str) -> str:
    """The name as on the Players sheet, so that typing differences do not split a history."""
    return season.player(name).name if season.knows(name) else tidy_name(name)


def name_finder(season: Season) -> Callable[[str], str]:
    """`canonical` for one season, remembering each spelling (a season repeats names a lot).

    A name written exactly as on the Players sheet is itself: known from the start."""
    found: dict[str, str] = {p.name: p.name for p in season._by_name.values()}  # type: ignore[attr-defined]

    def find(name: str) -> str:
        if name not in found:
            found[name] = canonical(season, name)
        return found[name]

    return find
