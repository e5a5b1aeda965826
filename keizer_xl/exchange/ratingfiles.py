"""`keizer-xl ratings FILE LIST`: the Rating column from the federation's list."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from keizer_xl.core.messages import msg
from keizer_xl.exchange.csvfile import file_lines
from keizer_xl.exchange.ratings import RatingPlan, parse_rating_list, plan_ratings, wanted_for

if TYPE_CHECKING:
    from keizer_xl.core.season import Season
    from keizer_xl.workbook.layout import Grid


@dataclass
class RatingsOutcome:
    """What was planned and whether the workbook was written."""

    plan: RatingPlan
    places: dict[str, str]  # player name -> the cell of his name, for messages
    written: bool


def update_ratings(book: Path, rating_list: Path, everyone: bool = False) -> RatingsOutcome:
    """Write the new ratings into the Rating cells of the matched players, and only there."""
    from keizer_xl.core.errors import Problem
    from keizer_xl.workbook.cells import Cell, CellValue, SheetCells
    from keizer_xl.workbook.files import FileProblem, read_grids, write_cells
    from keizer_xl.workbook.layout import identity_columns, read_book

    grids = read_grids(book)
    competition, layout = read_book(grids)
    season = competition.season
    grid = grids[layout.sheet["Players"]]
    columns = identity_columns(grid[0]) if grid else {}
    ids = {
        column: _ids(season, grid, at)
        for column, at in columns.items()
        if column in ("KNSB id", "FIDE id")
    }
    known = [ident for found in ids.values() for ident in found.values()]
    members = _members(season, grid, columns)
    listed = parse_rating_list(
        file_lines(rating_list),
        rating_list.name,
        wanted_for(season, known, members.values()),
        layout.language,
    )
    plan = plan_ratings(season, ids.get(listed.id_column, {}), listed, everyone, members)
    places = {
        p.name: layout.place(Problem("", "Players", p.source, "Name")) for p in season.players
    }
    if not plan.changes:
        return RatingsOutcome(plan, places, False)
    rating_col = layout.columns["Players"].get("Rating")
    if rating_col is None:
        raise FileProblem(
            msg(
                "{file}: the Players sheet has no column headed 'Rating' to write the ratings in",
                file=book,
            )
        )

    cells: dict[Cell, CellValue] = {
        (int(m.player.source), rating_col): int(m.entry.rating or 0)  # type: ignore[call-overload]
        for m in plan.changes
    }
    written = write_cells(book, [SheetCells("Players", layout.sheet["Players"], cells)])
    return RatingsOutcome(plan, places, written)


def _members(season: Season, grid: Grid, columns: dict[str, int]) -> dict[str, str]:
    """Each player's club code and member number (`C0327/17`), where the Players sheet
    keeps both (the columns ZPS and Member number: a German club's DWZ list)."""
    from keizer_xl.exchange.ratings import member_key

    if "ZPS" not in columns or "Member number" not in columns:
        return {}
    clubs = _ids(season, grid, columns["ZPS"])
    numbers = _ids(season, grid, columns["Member number"])
    return {name: key for name in clubs if (key := member_key(clubs[name], numbers[name]))}


def _ids(season: Season, grid: Grid, column: int) -> dict[str, str]:
    """Each player's id in this Players column ('' where there is none)."""
    ids = {}
    for p in season.players:
        row = grid[int(p.source) - 1] if isinstance(p.source, int) else ()
        ids[p.name] = str(row[column]) if column < len(row) and row[column] != "" else ""
    return ids
