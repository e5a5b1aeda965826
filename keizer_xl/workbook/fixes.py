"""Putting a mistake right in the workbook: take back the last pairing, rename a player.

Plans only, like `contract.plan_pair`: which cells to write, for the file path and the
buttons alike.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from keizer_xl.core.errors import Problem
from keizer_xl.core.final import final_order
from keizer_xl.core.messages import msg
from keizer_xl.core.model import Entry, Game, tidy_name
from keizer_xl.core.report import build_report
from keizer_xl.core.round import Competition
from keizer_xl.core.scoring import Standings
from keizer_xl.workbook.contract import (
    Cell,
    CellValue,
    Grid,
    SheetCells,
    _cells,
    player_groups,
    raise_with,
    read_book,
    report_edits,
    standings_cells,
    with_cautions,
)


@dataclass(frozen=True)
class Unpaired:
    """What "Undo last pairing" took back: the round's rows, and the standings now shown."""

    round: int
    entries: tuple[Entry, ...]
    standings: Standings
    results: int  # results that were typed in the round (removed with force only)


def plan_unpair(grids: Mapping[str, Grid], force: bool = False,
                ) -> tuple[Unpaired, list[SheetCells]]:
    """What "Undo last pairing" writes: the last round's rows emptied (only keizer_xl's
    columns of them), the Standings after the round before, and, when round 1 goes, the
    Top value that pairing it fixed back to blank. Refused while any of the round's games
    has a result, unless `force`."""
    competition, layout = read_book(grids)
    season = competition.season
    last = season.last_round
    if last == 0:
        raise_with([Problem(msg("there is no round to take back: the Rounds sheet has none"),
                            "Rounds")], layout)
    rows = season.round_entries(last)
    typed = [g for g in rows if isinstance(g, Game) and g.result is not None]
    if typed and not force:
        raise_with([Problem(msg("round {round}, board {board} ({white} – {black}) already has "
                                "a result ({result}); only a round without results is taken "
                                "back (with --force, results and all)", round=last,
                                board=g.board, white=g.white, black=g.black,
                                result=g.result.value if g.result else ""),
                            "Rounds", g.source, "Result") for g in typed], layout)
    sheet_rows = {e.source for e in rows}
    rounds = grids[layout.sheet["Rounds"]]
    before = [row if n not in sheet_rows else [] for n, row in enumerate(rounds, start=1)]
    earlier, earlier_layout = read_book({**grids, layout.sheet["Rounds"]: before})
    standings = with_cautions(earlier.standings(), earlier, earlier_layout)
    columns = layout.columns["Rounds"].values()
    emptied: dict[Cell, CellValue] = {(row, col): None for row in sheet_rows
                                      if isinstance(row, int) for col in columns}
    edits = [_cells("Rounds", layout, emptied)]
    fixed = competition.settings.top_value
    row = layout.setting_rows.get("Top value")
    if last == 1 and row is not None and fixed is not None and fixed == \
            Competition(season, dataclasses.replace(competition.settings,
                                                    top_value=None)).top_value_to_fix:
        # the value pairing round 1 wrote is what the blank stands for until then
        edits.append(_cells("Settings", layout, {(row, layout.columns["Settings"]["Value"]):
                                                 None}))
        earlier = dataclasses.replace(earlier, settings=dataclasses.replace(
            earlier.settings, top_value=None, overrides=tuple(
                o for o in earlier.settings.overrides if not o.startswith("Top value "))))
        standings = with_cautions(earlier.standings(), earlier, earlier_layout)
    final = final_order(standings)  # as Recalculate writes them
    groups = player_groups(earlier.season, grids[layout.sheet["Players"]])
    report = build_report(earlier.season, final.standings)
    edits.append(_cells("Standings", layout, standings_cells(
        final.standings, groups, final.short, layout.language, report), clear=True))
    edits.extend(report_edits(report, layout))
    return Unpaired(last, tuple(rows), standings, len(typed)), edits


def plan_rename(grids: Mapping[str, Grid], old: str, new: str) -> tuple[str, list[SheetCells]]:
    """What `rename` writes: the player's Name on the Players sheet and every White or Black
    cell of the Rounds sheet that names them; nothing else. Returns the name as it was."""
    competition, layout = read_book(grids)
    season = competition.season
    wanted = tidy_name(new)
    if not season.knows(old):
        raise_with([Problem(msg("'{name}' is not on the Players sheet", name=old), "Players",
                            None, "Name")], layout)
    player = season.player(old)
    if not wanted:
        raise_with([Problem(msg("the new name is blank"), "Players", player.source, "Name")],
                   layout)
    if season.knows(wanted) and season.player(wanted) is not player:
        other = season.player(wanted)
        raise_with([Problem(msg("'{name}' is already the name of the player in row {row}",
                                name=wanted, row=other.source), "Players", player.source,
                            "Name")], layout)

    rounds: dict[Cell, CellValue] = {}
    columns = layout.columns["Rounds"]
    for e in season.entries:
        if isinstance(e, Game):
            for side, name in (("White", e.white), ("Black", e.black)):
                if name == player.name:
                    rounds[(e.source, columns[side])] = wanted  # type: ignore[index]
        elif e.player == player.name:
            rounds[(e.source, columns["White"])] = wanted  # type: ignore[index]
    name_cell = (player.source, layout.columns["Players"]["Name"])
    edits = [_cells("Players", layout, {name_cell: wanted})]  # type: ignore[dict-item]
    if rounds:
        edits.append(_cells("Rounds", layout, rounds))
    return player.name, edits
