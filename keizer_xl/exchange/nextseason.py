"""`keizer-xl new NEXT --from LAST.xlsx`: next season's workbook from last season's.

The players who stay (all but those who withdrew), with their ratings and the club's own
Players columns, and the settings the club filled in; the initial ranking by rating, or by
last season's final standings.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from keizer_xl.core.messages import Name, msg
from keizer_xl.core.model import Player
from keizer_xl.core.scoring import Standings, automatic_top_value
from keizer_xl.core.season import Season


@dataclass
class NextSeasonOutcome:
    """What was made, for the command line to say."""

    path: Path
    players: int
    left_out: list[str] = field(default_factory=list)  # withdrew last season
    notes: list[str] = field(default_factory=list)


def staying(season: Season) -> list[Player]:
    """Everyone but the players who withdrew before the season's last round."""
    last = season.last_round
    return [p for p in season.players if p.left is None or p.left >= last]


def next_order(players: Sequence[Player], standings: Standings, order: str) -> list[Player]:
    """The new Players sheet order: by rating (highest first, as listed on ties), or as
    they finished last season."""
    if order == "standings":
        rank = {row.name: row.rank for row in standings.rows}
        return sorted(players, key=lambda p: (rank.get(p.name, len(rank) + 1), p.order))
    rating = {row.name: row.rating for row in standings.rows}
    return sorted(players, key=lambda p: (-rating.get(p.name, p.rating), p.order))


def next_settings(
    filled: Sequence[tuple[str, str]],
    season: Season,
    top_value: Fraction | None,
    order: str,
    rounding: str = "even",
) -> tuple[list[tuple[str, str]], list[str]]:
    """Last season's settings for the next, and notes on what was changed or must be: the
    competition name is carried over, with a reminder to change it (the club's is not).

    A Top value that keizer_xl fixed when round 1 was paired (see `fixed_at_round_one`) is
    left blank, to be fixed again for the new number of players."""
    out: list[tuple[str, str]] = []
    notes: list[str] = []
    for name, value in filled:
        if name == "Initial order":
            continue
        if (
            name == "Top value"
            and top_value is not None
            and fixed_at_round_one(top_value, season, rounding)
        ):
            notes.append(
                msg(
                    "{setting} {value} was last season's automatic value; it is "
                    "blank again, to be fixed for this season's players when round 1 "
                    "is paired",
                    setting=Name("Top value", "setting"),
                    value=value,
                )
            )
            continue
        if name == "Competition name":
            notes.append(
                msg(
                    "{setting} is still last season's, {value}: change it on "
                    "{sheet} before anything is published",
                    setting=Name("Competition name", "setting"),
                    value=repr(value),
                    sheet=Name("Settings"),
                )
            )
        out.append((name, value))
    if order == "standings":
        out.append(("Initial order", "as listed"))
    return out, notes


def fixed_at_round_one(top_value: Fraction, season: Season, rounding: str = "even") -> bool:
    """Is this the Top value keizer_xl fixed when round 1 was paired: the automatic value
    for the players on the sheet then? Those are the players taking part in round 1; late
    entrants were added afterwards (or, listed in advance with their Joined round, were
    there too: the value for everyone counts as well)."""
    at_round_one = sum(1 for p in season.players if p.joined <= 1)
    return top_value in {
        automatic_top_value(at_round_one, rounding),
        automatic_top_value(len(season.players), rounding),
    }


def _cell(value: object) -> str | int | float | None:
    """An own cell as it can be written again (dates as text, YYYY-MM-DD)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float | str):
        return value
    if isinstance(value, dt.datetime) and value.time() == dt.time():
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def new_from_last(
    last: Path, book: Path, order: str = "rating", language: str | None = None, lite: bool = False
) -> NextSeasonOutcome:
    """Make `book` for next season from last season's workbook `last` (only read), in
    `language` (default: last season's)."""
    from keizer_xl.workbook.files import read_grids
    from keizer_xl.workbook.layout import filled_settings, read_book
    from keizer_xl.workbook.newbook import create

    grids = read_grids(last)
    competition, layout = read_book(grids)
    season = competition.season
    standings = competition.standings()
    stay = next_order(staying(season), standings, order)
    rating = {row.name: row.rating for row in standings.rows}
    players = [{"Name": p.name, "Rating": rating.get(p.name, p.rating) or None} for p in stay]
    settings, notes = next_settings(
        filled_settings(grids, layout),
        season,
        competition.settings.top_value,
        order,
        competition.settings.top_value_rounding,
    )
    grid = grids[layout.sheet["Players"]]
    ours = set(layout.columns["Players"].values())
    header = list(grid[0]) if grid else []
    own: list[tuple[object, list[str | int | float | None]]] = []
    for c, title in enumerate(header, start=1):
        if c in ours or _cell(title) is None:
            continue
        values = []
        for p in stay:
            row = grid[int(p.source) - 1] if isinstance(p.source, int) else ()
            values.append(_cell(row[c - 1]) if c <= len(row) else None)
        own.append((_cell(title), values))
    if last.suffix.lower() == ".xlsm" and book.suffix.lower() != ".xlsm":
        notes.append(
            msg(
                "{last} has the buttons; {book} has none (name it .xlsm to keep them)",
                last=last.name,
                book=book.name,
            )
        )

    notes.append(
        msg(
            "a member who joins during the season: add them on {players} with "
            "{joined} blank, and they join at the next round to be paired (nobody's "
            "standings change); a round in {joined} gives them the rounds before",
            players=Name("Players"),
            joined=Name("Joined"),
        )
    )
    create(
        book,
        players,
        fill=lambda tmp: _fill(tmp, own, settings),
        language=language or layout.language,
        lite=lite,
    )
    left_out = [p.name for p in season.players if p not in stay]
    return NextSeasonOutcome(book, len(stay), left_out, notes)


def _fill(
    path: Path,
    own: Sequence[tuple[object, Sequence[str | int | float | None]]],
    settings: Sequence[tuple[str, str]],
) -> None:
    """The club's own Players columns (in their order, after keizer_xl's) and the settings."""
    from keizer_xl.workbook.cells import settings_cells
    from keizer_xl.workbook.files import read_grids
    from keizer_xl.workbook.layout import read_book
    from keizer_xl.workbook.newbook import own_columns_edit
    from keizer_xl.workbook.xlsx import SheetEdit, save_edits

    grids = read_grids(path)
    _, layout = read_book(grids)
    edits = [own_columns_edit(grids, layout, own)] if own else []
    if settings:
        edits.append(SheetEdit(layout.sheet["Settings"], dict(settings_cells(settings, layout))))
    if edits:
        save_edits(path, edits, backup=False)
