"""The buttons' work, shared by the file path and live Excel: what each command writes.

A plan reads the grids (`layout`), asks the core, and says which cells of which sheets to
write (`cells`), and nothing else: the file path saves them into the file, the buttons
into the open workbook. Pair next round, Recalculate, Undo last pairing, and renaming a
player.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from keizer_xl.core.cautions import gameless_gaps
from keizer_xl.core.errors import KeizerError, Problem
from keizer_xl.core.final import final_order
from keizer_xl.core.messages import Name, msg
from keizer_xl.core.model import Entry, Game, Rest, tidy_name
from keizer_xl.core.report import Report, build_report, latest_round
from keizer_xl.core.round import Competition, NextRound
from keizer_xl.core.scoring import Standings
from keizer_xl.core.words import is_blank
from keizer_xl.workbook.cells import (
    Cell,
    CellValue,
    SheetCells,
    report_edits,
    round_cells,
    standings_cells,
    top_value_cells,
)
from keizer_xl.workbook.layout import Grid, Layout, player_groups, raise_with, read_book
from keizer_xl.workbook.pairings import PAIRINGS, pairings_sheet, stakes_cells


def with_cautions(standings: Standings, competition: Competition, layout: Layout) -> Standings:
    """The standings with the season's cautions, each with its cell, to show and to write
    under the table."""
    if not competition.cautions:
        return standings
    return dataclasses.replace(standings, cautions=layout.warnings(competition))


def sheet_cells(
    table: str, layout: Layout, cells: Mapping[Cell, CellValue], clear: bool = False
) -> SheetCells:
    """These cells of one of the contract's sheets, under its name in this workbook."""
    return SheetCells(table, layout.sheet[table], cells, clear)


def plan_recalc(grids: Mapping[str, Grid]) -> tuple[Standings, list[SheetCells]]:
    """What "Recalculate" writes: the Standings after the last completed round, and the
    Crosstable and Progress sheets."""
    return recalc_edits(*read_book(grids), grids)


def recalc_edits(
    competition: Competition, layout: Layout, grids: Mapping[str, Grid]
) -> tuple[Standings, list[SheetCells]]:
    """`plan_recalc` of the competition already read from these sheets."""
    refuse_gameless(competition, layout)
    final = final_order(with_cautions(competition.standings(), competition, layout))
    groups = player_groups(competition.season, grids[layout.sheet["Players"]])
    report = build_report(competition.season, final.standings)
    cells = standings_cells(final.standings, groups, final.short, layout.language, report)
    games = latest_round(competition.season)[1]
    return final.standings, [
        sheet_cells("Standings", layout, cells, clear=True),
        *stakes_edit(grids, report, games, layout),
        *report_edits(report, layout),
    ]


def refuse_gameless(competition: Competition, layout: Layout) -> None:
    """A round whose game rows were all deleted is not complete: `recalc`, `check`,
    `publish` and the buttons refuse it as `pair` does, naming the round, rather than show
    standings (and publish a leader) without its games."""
    gaps = gameless_gaps(competition.season)
    if gaps:
        raise_with([Problem(g.message, g.table, g.row, g.column) for g in gaps], layout)


def plan_pair(grids: Mapping[str, Grid]) -> tuple[NextRound, list[SheetCells]]:
    """What "Pair next round" writes: the Top value if round 1 fixes it, the new round's
    rows, and the Standings it was paired from.

    Problems found while pairing (a missing result, a present player who has left) raise
    BookError naming their cells, like those found while reading. A live workbook is
    written in this order, so that a write Excel refuses halfway leaves the least to repair:
    the Top value alone changes nothing (it is the value the blank stood for), and
    Standings can always be redone with Recalculate.
    """
    competition, layout = read_book(grids)
    try:
        next_round = competition.next_round()
    except KeizerError as error:
        raise_with(error.problems, layout, error)
    next_round = dataclasses.replace(
        next_round, standings=with_cautions(next_round.standings, competition, layout)
    )
    edits: list[SheetCells] = []
    if competition.top_value_to_fix is not None and next_round.round == 1:
        fixed = next_round.settings.top_value
        assert fixed is not None
        edits.append(sheet_cells("Settings", layout, top_value_cells(fixed, layout)))
    joining = joined_cells(competition, next_round.round, layout, grids)
    if joining:
        edits.append(sheet_cells("Players", layout, joining))
    edits.append(sheet_cells("Rounds", layout, round_cells(next_round, layout)))
    groups = player_groups(competition.season, grids[layout.sheet["Players"]])
    report = build_report(competition.season, next_round.standings)
    edits.append(
        sheet_cells(
            "Standings",
            layout,
            standings_cells(next_round.standings, groups, language=layout.language, report=report),
            clear=True,
        )
    )
    edits.extend(stakes_edit(grids, report, next_round.games, layout))
    edits.extend(report_edits(report, layout))
    if next_round.settings.clear_present == "yes":
        cleared = present_cleared(grids[layout.sheet["Players"]], layout)
        if cleared:  # last: a write refused here leaves only ticks to remove by hand
            edits.append(sheet_cells("Players", layout, cleared))
            next_round = dataclasses.replace(
                next_round,
                notes=(
                    *next_round.notes,
                    msg(
                        "{setting} yes: the {present} column is emptied for the next round.",
                        setting=Name("Clear present", "setting"),
                        present=Name("Present"),
                    ),
                ),
            )
    return next_round, edits


def present_cleared(players: Grid, layout: Layout) -> dict[Cell, CellValue]:
    """Clear present `yes`: every filled Present cell of the Players sheet emptied, so that
    next week is paired from next week's ticks, not from this week's."""
    column = layout.columns["Players"].get("Present")
    if column is None:
        return {}
    return {
        (row, column): None
        for row, cells in enumerate(players, start=1)
        if row > 1 and column <= len(cells) and not is_blank(cells[column - 1])
    }


def stakes_edit(
    grids: Mapping[str, Grid], report: Report, games: Sequence[Game], layout: Layout
) -> list[SheetCells]:
    """Tonight's stakes beside the boards of the Pairings sheet (`pairings.stakes_cells`):
    written when a round is paired, emptied once it is played or taken back. A workbook
    without the sheet gets none."""
    sheet = pairings_sheet(grids)
    if sheet is None:
        return []
    return [SheetCells(PAIRINGS, sheet, stakes_cells(report, games, layout.language))]


def joined_cells(
    competition: Competition, round_no: int, layout: Layout, grids: Mapping[str, Grid]
) -> dict[Cell, CellValue]:
    """The Joined round of the members who join in the round being paired though their
    Joined cell is blank (added mid-season: see `core.newcomers`), written as it was taken,
    so that their rows from this round on say the same next time. Written before the
    round's rows: a write refused halfway leaves Joined saying what the blank meant."""
    column = layout.columns["Players"].get("Joined")
    if column is None or round_no <= 1:
        return {}
    grid = grids[layout.sheet["Players"]]

    def blank(row: object) -> bool:
        cells = grid[row - 1] if isinstance(row, int) and 0 < row <= len(grid) else []
        value = cells[column - 1] if len(cells) >= column else None
        return value is None or (isinstance(value, str) and not value.strip())

    return {
        (p.source, column): round_no
        for p in competition.season.players
        if p.joined == round_no and isinstance(p.source, int) and blank(p.source)
    }


class Unpaired(NamedTuple):
    """What "Undo last pairing" took back: the round's rows, and the standings now shown."""

    round: int
    entries: tuple[Entry, ...]
    standings: Standings
    results: int  # results that were typed in the round (removed with force only)


def plan_unpair(
    grids: Mapping[str, Grid],
    force: bool = False,
) -> tuple[Unpaired, list[SheetCells]]:
    """What "Undo last pairing" writes: the last round's rows emptied (only keizer_xl's
    columns of them), the Standings after the round before, and, when round 1 goes, the
    Top value that pairing it fixed back to blank. Refused while any of the round's games
    has a result, unless `force`."""
    competition, layout = read_book(grids)
    season = competition.season
    last = season.last_round
    if last == 0:
        raise_with(
            [Problem(msg("there is no round to take back: the Rounds sheet has none"), "Rounds")],
            layout,
        )
    rows = season.round_entries(last)
    typed = [g for g in rows if isinstance(g, Game) and g.result is not None]
    teams = [r for r in rows if isinstance(r, Rest) and r.team is not None]
    if (typed or teams) and not force:
        raise_with(
            [
                *(
                    Problem(
                        msg(
                            "round {round}, board {board} ({white} – {black}) already "
                            "has a result ({result}); only a round without results is "
                            "taken back (with --force, results and all)",
                            round=last,
                            board=g.board,
                            white=g.white,
                            black=g.black,
                            result=g.result.value if g.result else "",
                        ),
                        "Rounds",
                        g.source,
                        "Result",
                    )
                    for g in typed
                ),
                *(
                    Problem(
                        msg(
                            "round {round}: {name} already has a team-match result "
                            "({result}); only a round without results is taken back "
                            "(with --force, results and all)",
                            round=last,
                            name=r.player,
                            result=r.team.value if r.team else "",
                        ),
                        "Rounds",
                        r.source,
                        "Result",
                    )
                    for r in teams
                ),
            ],
            layout,
        )
    sheet_rows = {e.source for e in rows}
    rounds = grids[layout.sheet["Rounds"]]
    before = [row if n not in sheet_rows else [] for n, row in enumerate(rounds, start=1)]
    earlier, earlier_layout = read_book({**grids, layout.sheet["Rounds"]: before})
    standings = with_cautions(earlier.standings(), earlier, earlier_layout)
    columns = layout.columns["Rounds"].values()
    emptied: dict[Cell, CellValue] = {
        (row, col): None for row in sheet_rows if isinstance(row, int) for col in columns
    }
    edits = [sheet_cells("Rounds", layout, emptied)]
    fixed = competition.settings.top_value
    row = layout.setting_rows.get("Top value")
    if (
        last == 1
        and row is not None
        and fixed is not None
        and fixed
        == Competition(
            season, dataclasses.replace(competition.settings, top_value=None)
        ).top_value_to_fix
    ):
        # the value pairing round 1 wrote is what the blank stands for until then
        value = (row, layout.columns["Settings"]["Value"])
        edits.append(sheet_cells("Settings", layout, {value: None}))
        earlier = dataclasses.replace(
            earlier,
            settings=dataclasses.replace(
                earlier.settings,
                top_value=None,
                overrides=tuple(
                    o for o in earlier.settings.overrides if not o.startswith("Top value ")
                ),
            ),
        )
        standings = with_cautions(earlier.standings(), earlier, earlier_layout)
    final = final_order(standings)  # as Recalculate writes them
    groups = player_groups(earlier.season, grids[layout.sheet["Players"]])
    report = build_report(earlier.season, final.standings)
    edits.append(
        sheet_cells(
            "Standings",
            layout,
            standings_cells(final.standings, groups, final.short, layout.language, report),
            clear=True,
        )
    )
    edits.extend(stakes_edit(grids, report, (), layout))
    edits.extend(report_edits(report, layout))
    return Unpaired(last, tuple(rows), standings, len(typed) + len(teams)), edits


def plan_rename(grids: Mapping[str, Grid], old: str, new: str) -> tuple[str, list[SheetCells]]:
    """What `rename` writes: the player's Name on the Players sheet and every White or Black
    cell of the Rounds sheet that names them; nothing else. Returns the name as it was."""
    competition, layout = read_book(grids)
    season = competition.season
    wanted = tidy_name(new)
    if not season.knows(old):
        raise_with(
            [
                Problem(
                    msg("'{name}' is not on the Players sheet", name=old), "Players", None, "Name"
                )
            ],
            layout,
        )
    player = season.player(old)
    if not wanted:
        raise_with(
            [Problem(msg("the new name is blank"), "Players", player.source, "Name")], layout
        )
    if season.knows(wanted) and season.player(wanted) is not player:
        other = season.player(wanted)
        raise_with(
            [
                Problem(
                    msg(
                        "'{name}' is already the name of the player in row {row}",
                        name=wanted,
                        row=other.source,
                    ),
                    "Players",
                    player.source,
                    "Name",
                )
            ],
            layout,
        )

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
    edits = [sheet_cells("Players", layout, {name_cell: wanted})]  # type: ignore[dict-item]
    if rounds:
        edits.append(sheet_cells("Rounds", layout, rounds))
    read_book(as_written(grids, edits))  # refused as `check` would refuse it afterwards
    return player.name, edits


def as_written(grids: Mapping[str, Grid], edits: list[SheetCells]) -> dict[str, Grid]:
    """The sheets as they read once these cells are written (only the rows they touch are
    copied): a writer of names checks what it leaves exactly as every command will read
    it, so that nothing it writes (a name of 201 characters) makes the workbook refused."""
    out = dict(grids)
    for edit in edits:
        grid = out[edit.sheet] = list(out[edit.sheet])
        for (row, column), value in edit.cells.items():
            grid.extend([] for _ in range(row - len(grid)))
            cells = grid[row - 1] = list(grid[row - 1])
            cells.extend(None for _ in range(column - len(cells)))
            cells[column - 1] = value
    return out
