"""The engine's public face: pandas DataFrames in, DataFrames out.

Usable from a notebook as it is: the rule book itself is in `keizer_xl.core` (no pandas);
this module only turns DataFrames into its tables and its answers back into DataFrames.
DataFrames carry the sheet's headers as columns. Problems name their cell as on a sheet
(`Rounds!E14`): the column by its position in the DataFrame, the row by the index label,
or, for a plain 0, 1, 2, ... index (as `pandas.read_excel` gives), by the sheet row that
label stands for (label 0 is row 2, under the headers).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Hashable, Iterator, Mapping
from fractions import Fraction

import numpy as np
import pandas as pd

from keizer_xl.core.checks import (
    PLAYER_COLUMNS,
    ROUND_COLUMNS,
    Table,
    build_season,
    find_columns,
    settings_from_table,
)
from keizer_xl.core.errors import Places, Problems
from keizer_xl.core.model import Game
from keizer_xl.core.round import Competition as CheckedCompetition
from keizer_xl.core.round import NextRound
from keizer_xl.core.scoring import Standings
from keizer_xl.core.settings import Settings, parse_settings

__all__ = [
    "Competition",
    "NextRound",
    "Settings",
    "Standings",
    "pair",
    "read_settings",
    "round_frame",
    "standings",
    "standings_frame",
    "table",
]

SettingsLike = Settings | Mapping[str, object] | pd.DataFrame | None


def table(name: str, frame: pd.DataFrame, wanted: tuple[str, ...]) -> Table:
    """A DataFrame as a checked-input Table (columns found by header text), blank rows
    left out."""
    positions = find_columns(frame.columns, wanted)
    columns: dict[str, list[object]] = {}
    may_be_blank: list[list[object]] = []  # the columns with a blank cell
    for col, i in positions.items():
        columns[col], blanks = _column(frame.iloc[:, i])
        if blanks:
            may_be_blank.append(columns[col])
    index = frame.index
    plain = isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1
    labels: list[Hashable] = list(range(2, len(index) + 2)) if plain else index.tolist()
    if len(may_be_blank) == len(columns):  # a row is blank only if blank in every column
        blank = np.ones(len(labels), dtype=bool)
        for values in may_be_blank:
            blank &= np.equal(np.array(values, dtype=object), None)  # type: ignore[call-overload]
        if blank.any():
            keep = np.nonzero(~blank)[0].tolist()
            labels = [labels[k] for k in keep]
            columns = {col: [values[k] for k in keep] for col, values in columns.items()}
    return Table(name, labels, columns)


def _column(series: pd.Series) -> tuple[list[object], bool]:
    """A column's cells tidied (`_cell`), and whether any is blank; whole columns of plain
    numbers, and columns whose distinct values need no tidying, in one go."""
    if series.dtype == np.int64 or series.dtype == np.bool_:
        return series.tolist(), False
    if series.dtype == np.float64:
        numbers = series.to_numpy()
        missing = np.isnan(numbers)
        if not missing.any():
            return numbers.tolist(), False
        cells = numbers.astype(object)
        cells[missing] = None
        return cells.tolist(), True
    # pandas' own missing values (NaN, pd.NA, NaT) become None in one go
    values = series.to_numpy(dtype=object, na_value=None).tolist()  # type: ignore[call-overload]
    try:
        distinct = set(values)
        changed = {v: t for v in distinct if (t := _cell(v)) is not v}
        blanks = None in distinct or None in changed.values()
        return ([changed.get(v, v) for v in values] if changed else values), blanks
    except TypeError:  # a cell that cannot be a key, or pd.NA compared
        values = _cells(values)
        return values, any(v is None for v in values)


def _cells(values: list[object]) -> list[object]:
    """`_cell` of each value; the usual numbers and texts pass without a call."""
    return [
        v
        if (type(v) is float and v == v) or type(v) is int or (type(v) is str and v.strip())
        else _cell(v)
        for v in values
    ]


def _cell(value: object) -> object:
    """Blank cells (pandas' NaN, NaT, None, pd.NA, or only spaces) as None."""
    if value is None:
        return None
    if isinstance(value, str):
        return value if value.strip() else None
    if isinstance(value, float):
        return None if value != value else value  # NaN is the one float unequal to itself
    if isinstance(value, int | Fraction):
        return value
    try:
        if pd.isna(value):  # type: ignore[call-overload]
            return None
    except (TypeError, ValueError):
        pass
    return value


def read_settings(settings: SettingsLike, problems: Problems | None = None) -> Settings:
    """Settings from a Settings object, a {name: value} mapping or a Setting/Value table."""
    if settings is None:
        return Settings()
    if isinstance(settings, Settings):
        return settings
    if isinstance(settings, pd.DataFrame):
        return settings_from_table(table("Settings", settings, ("Setting", "Value")), problems)
    return parse_settings(settings, "Settings", problems)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector paused while a season is read and worked on.

    Reading a season makes tens of thousands of objects that live until the answer is
    made, and no cycles; the collector, counting them, would every so often walk the
    caller's whole heap (a notebook's DataFrames and all), more often the larger the
    season: the door would grow faster than the season. A collector the caller paused
    stays paused."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class Competition(CheckedCompetition):
    """A checked season with its settings, read from DataFrames."""

    @classmethod
    def from_frames(
        cls,
        players: pd.DataFrame,
        rounds: pd.DataFrame | None = None,
        settings: SettingsLike = None,
    ) -> Competition:
        """Check everything and raise KeizerError listing every problem at once."""
        with _collector_paused():
            problems = Problems()
            parsed = read_settings(settings, problems)
            if rounds is None:
                rounds = pd.DataFrame(columns=list(ROUND_COLUMNS))
            season = build_season(
                table("Players", players, PLAYER_COLUMNS),
                table("Rounds", rounds, ROUND_COLUMNS),
                parsed,
                problems,
            )
            problems.raise_if_any(_places(Players=players, Rounds=rounds, Settings=settings))
            return cls(season, parsed)


def _places(**frames: object) -> Places:
    """Each DataFrame's columns by position (1 = A), to name a problem's cell."""
    wanted = {"Players": PLAYER_COLUMNS, "Rounds": ROUND_COLUMNS, "Settings": ("Setting", "Value")}
    return Places(
        columns={
            name: {col: i + 1 for col, i in find_columns(frame.columns, wanted[name]).items()}
            for name, frame in frames.items()
            if isinstance(frame, pd.DataFrame)
        }
    )


def round_frame(next_round: NextRound) -> pd.DataFrame:
    """The rows of a freshly paired round to append to the Rounds sheet."""
    rows: list[dict[str, Hashable]] = []
    for e in next_round.entries:
        if isinstance(e, Game):
            rows.append(
                {
                    "Round": e.round,
                    "Board": e.board,
                    "White": e.white,
                    "Black": e.black,
                    "Result": None,
                }
            )
        else:
            rows.append(
                {
                    "Round": e.round,
                    "Board": None,
                    "White": e.player,
                    "Black": None,
                    "Result": e.reason.value,
                }
            )
    frame: pd.DataFrame = pd.DataFrame(rows, columns=pd.Index(ROUND_COLUMNS))
    return frame


STANDINGS_COLUMNS = (
    "Rank",
    "Name",
    "Score",
    "Value",
    "Played",
    "Won",
    "Drawn",
    "Lost",
    "Byes",
    "Absent",
    "Rating",
    "Own",
)


def standings_frame(standings: Standings) -> pd.DataFrame:
    """The Standings table: exact Fractions (object columns), R1.. what each round is worth.

    The per-round columns come from the standings' breakdown in one go: each distinct worth
    becomes one Fraction, shared by every cell that has it."""
    rows = standings.rows
    table: dict[str, object] = {
        name: [getattr(row, name.lower()) for row in rows] for name in STANDINGS_COLUMNS
    }
    worth = _round_worths(standings)
    for k in range(standings.after_round):
        table[f"R{k + 1}"] = worth[:, k]
    columns = [*STANDINGS_COLUMNS, *(f"R{k + 1}" for k in range(standings.after_round))]
    frame: pd.DataFrame = pd.DataFrame(table, columns=pd.Index(columns))
    return frame


def _round_worths(standings: Standings) -> np.ndarray:
    """Players x rounds: what each round is worth now, a Fraction (None: not counted)."""
    rows, rounds = standings.rows, standings.after_round
    breakdown = standings.breakdown
    if breakdown is None:  # made by hand: the rows' own
        made = np.full((len(rows), rounds), None, dtype=object)
        for i, row in enumerate(rows):
            for k, worth in enumerate(row.rounds[:rounds]):
                made[i, k] = worth
        return made
    scored = np.array([row.score is not None for row in rows], dtype=bool)
    counted = breakdown.registered & scored[:, None]
    which, distinct = pd.factorize(breakdown.terms[counted])  # hashing: no sort of N x R
    fractions = np.empty(len(distinct) + 1, dtype=object)  # the last one: None
    fractions[:-1] = [Fraction(int(t), breakdown.scale) for t in distinct.tolist()]
    cells = np.full(counted.shape, len(distinct), dtype=np.intp)
    cells[counted] = which.reshape(-1)
    worths: np.ndarray = fractions[cells]
    return worths


def standings(
    players: pd.DataFrame,
    rounds: pd.DataFrame | None = None,
    settings: SettingsLike = None,
    after_round: int | None = None,
) -> pd.DataFrame:
    """The standings after `after_round` (default: the last completed round)."""
    with _collector_paused():
        return standings_frame(
            Competition.from_frames(players, rounds, settings).standings(after_round)
        )


def pair(
    players: pd.DataFrame, rounds: pd.DataFrame | None = None, settings: SettingsLike = None
) -> pd.DataFrame:
    """The next round's rows (games in board order, bye, absences), results blank."""
    with _collector_paused():
        return round_frame(Competition.from_frames(players, rounds, settings).next_round())
