"""The Pairings sheet: the latest round's boards for the notice board, by formulas.

The sheet computes its board list from the Rounds sheet, so that typing another round
number in B1 shows that round in a spreadsheet that recalculates. Viewers that do not
recalculate on opening (LibreOffice by default, phone previews, pandas) show the values
saved with the formulas, so every command that changes Rounds also saves the values the
formulas now give (`pairings_edit`), and puts B1 back to the latest round. Other cells
the secretary typed over or emptied (a sheet made their own) are left as they are.

This module owns the sheet's formulas (the template writes them) and their values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from keizer_xl.core.model import Absence, Game
from keizer_xl.core.report import Report, Stakes
from keizer_xl.core.words import text
from keizer_xl.i18n import translate
from keizer_xl.i18n.names import local_name, name_key, rest_word, sheet_names
from keizer_xl.i18n.numbers import number
from keizer_xl.workbook.layout import Grid, language_of
from keizer_xl.workbook.xlsx import CellValue, Formula, SheetEdit

PAIRINGS = "Pairings"
ROUNDS_SCAN = 5000  # the Rounds rows the formulas look at
BOARDS = 50  # boards on the sheet
TOP = 5  # the sheet's row of board 1 (headers in row 4)
ROUND_CELL = (1, 2)  # B1: the round shown
BYE_ROW = 2
ROW_COLUMN = 5  # hidden column E: the Rounds row of each line (0: none)

STAKES_COLUMN = 6  # F: tonight's stakes beside each board, written as values by `pair`
STAKES_NOTE = (3, 2)  # B3: the line saying they are today's values (left-aligned, as B is)
STAKES_WIDTH = 36  # characters: both players' stakes of a board

Cell = tuple[int, int]  # (row, column), 1-based


def formulas(language: str) -> dict[Cell, str]:
    """Every formula of the sheet (with the leading `=`), by its cell."""
    rounds = local_name("Rounds", language)
    scan = ROUNDS_SCAN

    def rounds_row(condition: str) -> str:
        return (
            f'=IF($B$1="",0,SUMPRODUCT(({rounds}!$A$2:$A${scan}=$B$1)'
            f"*({condition})*ROW({rounds}!$A$2:$A${scan})))"
        )

    def rounds_cell(column: str, line: int) -> str:
        return f'=IF($E{line}=0,"",INDEX({rounds}!${column}:${column},$E{line})&"")'

    bye = rest_word(Absence.BYE, language)
    cells = {
        ROUND_CELL: f'=IF(COUNT({rounds}!$A$2:$A${scan})=0,"",MAX({rounds}!$A$2:$A${scan}))',
        (BYE_ROW, ROW_COLUMN): rounds_row(f'{rounds}!$E$2:$E${scan}="{bye}"'),
        (BYE_ROW, 1): f'=IF($E{BYE_ROW}=0,"","{local_name("Bye", language)}")',
        (BYE_ROW, 2): rounds_cell("C", BYE_ROW),
    }
    for board in range(1, BOARDS + 1):
        line = TOP + board - 1
        cells[(line, ROW_COLUMN)] = rounds_row(f"{rounds}!$B$2:$B${scan}={board}")
        cells[(line, 1)] = f'=IF($E{line}=0,"",{board})'
        for col, column in ((2, "C"), (3, "D"), (4, "E")):
            cells[(line, col)] = rounds_cell(column, line)
    return cells


def values(rounds: Grid, language: str) -> dict[Cell, str | int | float]:
    """What each formula gives for this Rounds sheet (row 0 = its row 1): the latest
    round's bye and boards, as a spreadsheet computes them (in one pass over the rows)."""
    rows = rounds[1:ROUNDS_SCAN]  # sheet rows 2 .. ROUNDS_SCAN
    numbers = [_number(r[0] if r else None) for r in rows]
    shown = max((n for n in numbers if n is not None), default=None)
    bye = rest_word(Absence.BYE, language).casefold()
    on_board: dict[float, int] = {}  # SUMPRODUCT's answers: the sum of the matching rows
    bye_row = 0
    if shown is not None:
        for n, (cells, number) in enumerate(zip(rows, numbers, strict=True), start=2):
            if number != shown:
                continue
            board = _number(_at(cells, 1))
            if board is not None:
                on_board[board] = on_board.get(board, 0) + n
            if _text(_at(cells, 4)).casefold() == bye:
                bye_row += n

    def text_of(row: int, column: int) -> str:  # INDEX(Rounds!C:C, row) & ""
        return _text(_at(rows[row - 2], column)) if 2 <= row < len(rows) + 2 else ""

    out: dict[Cell, str | int | float] = {ROUND_CELL: "" if shown is None else _whole(shown)}
    out[(BYE_ROW, ROW_COLUMN)] = bye_row
    out[(BYE_ROW, 1)] = local_name("Bye", language) if bye_row else ""
    out[(BYE_ROW, 2)] = text_of(bye_row, 2) if bye_row else ""
    for board in range(1, BOARDS + 1):
        line = TOP + board - 1
        found = on_board.get(board, 0)
        out[(line, ROW_COLUMN)] = found
        out[(line, 1)] = board if found else ""
        for col in (2, 3, 4):  # White, Black, Result: Rounds columns C, D, E
            out[(line, col)] = text_of(found, col) if found else ""
    return out


def pairings_edit(
    grids: Mapping[str, Grid], rounds_cells: Sequence[Mapping[Cell, CellValue]]
) -> SheetEdit | None:
    """The Pairings sheet's formulas with the values they give once `rounds_cells` are
    written into Rounds (None when the workbook has no Pairings or no Rounds sheet)."""
    pairings, rounds_sheet = (
        next((name for name in grids if name_key(name) in sheet_names(sheet)), None)
        for sheet in (PAIRINGS, "Rounds")
    )
    if pairings is None or rounds_sheet is None:
        return None
    rounds: Grid = grids[rounds_sheet]
    if any(rounds_cells):  # the sheet's first five columns as they will be
        rounds = written = [list(row[:5]) for row in rounds]
        for cells in rounds_cells:
            for (row, column), value in cells.items():
                if column > 5:
                    continue
                while len(written) < row:
                    written.append([])
                line = written[row - 1]
                line.extend([None] * (column - len(line)))
                line[column - 1] = value
    language = language_of(grids)
    shown = values(rounds, language)
    # a cell the secretary emptied or typed over keeps what they did, but the round number
    # (typed over to print another round): the next pairing shows the new round again
    return SheetEdit(
        pairings,
        {
            cell: Formula(formula[1:], shown[cell], cell == ROUND_CELL)
            for cell, formula in formulas(language).items()
        },
    )


def _at(row: Sequence[object], column: int) -> object:
    return row[column] if column < len(row) else None


def _number(value: object) -> float | None:
    """A Rounds cell as the number a spreadsheet compares (text is no number there)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _whole(number: float) -> int | float:
    return int(number) if number.is_integer() else number


def _text(value: object) -> str:
    """A cell joined to "" in a formula: its text, numbers without a trailing .0."""
    if isinstance(value, float):
        return text(value) if value.is_integer() else repr(value)
    return "" if value is None else str(value)


def pairings_sheet(grids: Mapping[str, Grid]) -> str | None:
    """The Pairings sheet's name in this workbook (None: it has none)."""
    return next((name for name in grids if name_key(name) in sheet_names(PAIRINGS)), None)


def stakes_cells(report: Report, games: Sequence[Game], language: str) -> dict[Cell, str | None]:
    """Tonight's stakes beside each board of the round shown (`games`, the latest round):
    what a win and a draw (and, with the Loss setting, a loss) earn White and Black at
    today's values, with the line saying so in B3 (short: it runs over C and D). Boards
    already played, and every board of a round that is over, are emptied, so the column
    never shows last week's stakes."""

    def said(stakes: Stakes) -> str:
        parts = [
            translate("win {points}", language).format(points=number(stakes.win, language)),
            translate("draw {points}", language).format(points=number(stakes.draw, language)),
        ]
        if stakes.loss:
            parts.append(
                translate("loss {points}", language).format(points=number(stakes.loss, language))
            )
        return " · ".join(parts)

    cells: dict[Cell, str | None] = {
        (TOP + board - 1, STAKES_COLUMN): None for board in range(1, BOARDS + 1)
    }
    for game in games:
        stakes = report.stakes(game)
        if stakes is not None and game.board is not None and 1 <= game.board <= BOARDS:
            cells[(TOP + game.board - 1, STAKES_COLUMN)] = f"{said(stakes[0])} | {said(stakes[1])}"
    staked = any(value is not None for value in cells.values())
    cells[(TOP - 1, STAKES_COLUMN)] = (
        translate("Tonight: White | Black", language) if staked else None
    )
    cells[STAKES_NOTE] = (
        (
            translate(
                "Stakes at today's values; earlier games are priced again next week.", language
            )
            if report.priced_again
            else translate(
                "Stakes at today's values; with Pricing frozen the game keeps them.", language
            )
        )
        if staked
        else None
    )
    return cells
