"""The engine's public face: pandas DataFrames in, DataFrames out.

Usable from a notebook as it is, and the one door the workbook, xlwings and command-line
layers go through. DataFrames carry the sheet's headers as columns; their index labels are
what problems quote as the row (the workbook layer uses the sheet's row numbers).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pandas as pd

from keizer_xl.core.checks import PLAYER_COLUMNS, ROUND_COLUMNS, Table, build_season, find_columns
from keizer_xl.core.errors import Problems
from keizer_xl.core.model import Absence, Entry, Game, Rest, Season
from keizer_xl.core.scoring import Standings, automatic_top_value, compute_standings
from keizer_xl.core.settings import Settings, parse_settings

SettingsLike = Settings | Mapping[str, object] | pd.DataFrame | None


def table(name: str, frame: pd.DataFrame, wanted: tuple[str, ...]) -> Table:
    """A DataFrame as a checked-input Table (columns found by header text), blank rows
    left out."""
    positions = find_columns(frame.columns, wanted)
    columns = {col: _cells(frame.iloc[:, i].tolist()) for col, i in positions.items()}
    labels = frame.index.tolist()
    blank = [True] * len(labels)
    for values in columns.values():
        blank = [b and v is None for b, v in zip(blank, values, strict=True)]
    if any(blank):
        labels = [label for label, b in zip(labels, blank, strict=True) if not b]
        columns = {col: [v for v, b in zip(values, blank, strict=True) if not b]
                   for col, values in columns.items()}
    return Table(name, labels, columns)


def _cells(values: list[object]) -> list[object]:
    """`_cell` of each value; the usual numbers and texts pass without a call."""
    return [v if (type(v) is float and v == v) or type(v) is int or (type(v) is str and v.strip())
            else _cell(v) for v in values]


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
        t = table("Settings", settings, ("Setting", "Value"))
        if "Setting" not in t.columns or "Value" not in t.columns:
            found = problems if problems is not None else Problems()
            for col in ("Setting", "Value"):
                if col not in t.columns:
                    found.add(f"no column headed '{col}' in row 1", "Settings")
            if problems is None:
                found.raise_if_any()
            return Settings()
        triples = [(label, row.get("Setting"), row.get("Value")) for label, row in t.rows]
        return parse_settings(triples, "Settings", problems)
    return parse_settings(settings, "Settings", problems)


@dataclass(frozen=True)
class Competition:
    """A checked season with its settings: what every command starts from."""

    season: Season
    settings: Settings

    @classmethod
    def from_frames(cls, players: pd.DataFrame, rounds: pd.DataFrame | None = None,
                    settings: SettingsLike = None) -> Competition:
        """Check everything and raise KeizerError listing every problem at once."""
        problems = Problems()
        parsed = read_settings(settings, problems)
        if rounds is None:
            rounds = pd.DataFrame(columns=list(ROUND_COLUMNS))
        season = build_season(table("Players", players, PLAYER_COLUMNS),
                              table("Rounds", rounds, ROUND_COLUMNS), parsed, problems)
        problems.raise_if_any()
        return cls(season, parsed)

    @property
    def top_value_to_fix(self) -> Fraction | None:
        """The blank Top value, fixed once when round 1 is paired (None if not needed)."""
        s = self.settings
        if s.top_value is None and not s.top_value_auto and s.values == "rank":
            return automatic_top_value(len(self.season.players))
        return None

    def standings(self, after_round: int | None = None) -> Standings:
        return compute_standings(self.season, self.settings, after_round)

    def next_round(self) -> NextRound:
        """Pair the present players for the round after the last one (which must be done)."""
        from keizer_xl.core.pairing import pair_round

        season, s = self.season, self.settings
        unfinished = [e for e in season.entries if isinstance(e, Game) and e.result is None]
        if unfinished:
            problems = Problems()
            for g in unfinished:
                problems.add(f"no result yet for {g.white}–{g.black} (round {g.round}); enter "
                             "every result before pairing the next round", "Rounds", g.source,
                             "Result")
            problems.raise_if_any()
        last = season.last_round  # and complete: every result is in
        if self.top_value_to_fix is not None and last == 0:
            s = _replace(s, top_value=self.top_value_to_fix)
        standings = compute_standings(season, s, last)
        round_no = last + 1
        taking_part = [p for p in season.players if p.takes_part_in(round_no)]
        present = [p.name for p in taking_part if p.present is None]
        problems = Problems()
        for p in season.players:
            if p.present is None and not p.takes_part_in(round_no):
                why = (f"joins in round {p.joined}" if round_no < p.joined
                       else f"left after round {p.left}")
                problems.add(f"{p.name} is marked present but {why}; round {round_no} is next",
                             "Players", p.source, "Present")
        if len(present) < 2 and not problems:  # forgot to tick who came: do not pair nobody
            problems.add(f"{'only one player is' if present else 'nobody is'} marked present "
                         f"for round {round_no}; put x in the Present column for each player "
                         "who is here", "Players", None, "Present")
        problems.raise_if_any()
        here = set(present)
        ranking = [name for name in standings.ranking if name in here]
        pairing = pair_round(season, standings.ranking, ranking, s, round_no)
        rests: list[Rest] = []
        if pairing.bye is not None:
            rests.append(Rest(round_no, pairing.bye, Absence.BYE))
        order = {name: i for i, name in enumerate(standings.ranking)}
        for p in sorted((p for p in taking_part if p.present is not None),
                        key=lambda p: order.get(p.name, len(order) + p.order)):
            rests.append(Rest(round_no, p.name, p.present))  # type: ignore[arg-type]
        return NextRound(round_no, tuple(pairing.games), tuple(rests), standings,
                         tuple(pairing.notes), s)


def _replace(settings: Settings, **changes: Any) -> Settings:
    import dataclasses

    return dataclasses.replace(settings, **changes)


@dataclass(frozen=True)
class NextRound:
    """A freshly paired round: games in board order, then the bye and absence rows."""

    round: int
    games: tuple[Game, ...]
    rests: tuple[Rest, ...]
    standings: Standings  # the standings it was paired from
    notes: tuple[str, ...]
    settings: Settings  # with the Top value fixed if it was blank

    @property
    def entries(self) -> tuple[Entry, ...]:
        return (*self.games, *self.rests)

    def frame(self) -> pd.DataFrame:
        """The rows to append to the Rounds sheet."""
        rows: list[dict[str, Hashable]] = []
        for e in self.entries:
            if isinstance(e, Game):
                rows.append({"Round": e.round, "Board": e.board, "White": e.white,
                             "Black": e.black, "Result": None})
            else:
                rows.append({"Round": e.round, "Board": None, "White": e.player, "Black": None,
                             "Result": e.reason.value})
        frame: pd.DataFrame = pd.DataFrame(rows, columns=pd.Index(ROUND_COLUMNS))
        return frame


def standings_frame(standings: Standings) -> pd.DataFrame:
    """The Standings table: exact Fractions (object columns), R1.. what each round is worth."""
    rounds = standings.after_round
    records = []
    for row in standings.rows:
        record: dict[str, object] = {
            "Rank": row.rank, "Name": row.name, "Score": row.score, "Value": row.value,
            "Played": row.played, "Won": row.won, "Drawn": row.drawn, "Lost": row.lost,
            "Byes": row.byes, "Absent": row.absent, "Rating": row.rating, "Own": row.own,
        }
        for k in range(rounds):
            record[f"R{k + 1}"] = row.rounds[k] if k < len(row.rounds) else None
        records.append(record)
    columns = ["Rank", "Name", "Score", "Value", "Played", "Won", "Drawn", "Lost", "Byes",
               "Absent", "Rating", "Own", *(f"R{k + 1}" for k in range(rounds))]
    frame: pd.DataFrame = pd.DataFrame(records, columns=pd.Index(columns))
    return frame


def standings(players: pd.DataFrame, rounds: pd.DataFrame | None = None,
              settings: SettingsLike = None, after_round: int | None = None) -> pd.DataFrame:
    """The standings after `after_round` (default: the last completed round)."""
    return standings_frame(Competition.from_frames(players, rounds, settings)
                           .standings(after_round))


def pair(players: pd.DataFrame, rounds: pd.DataFrame | None = None,
         settings: SettingsLike = None) -> pd.DataFrame:
    """The next round's rows (games in board order, bye, absences), results blank."""
    return Competition.from_frames(players, rounds, settings).next_round().frame()
