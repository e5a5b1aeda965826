"""Rendering: the cells keizer_xl writes into the sheets it owns, in the workbook's language.

Numbers as the sheet shows them, the Standings table with its note, a new round's rows, the
Settings values, and the Crosstable and Progress sheets: each as {(row, column): value}, the
only cells keizer_xl writes. `plans` puts them together into what a command writes.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from keizer_xl.core.messages import Message, msg
from keizer_xl.core.model import Entry, Game
from keizer_xl.core.report import Report
from keizer_xl.core.round import NextRound
from keizer_xl.core.scoring import Standings
from keizer_xl.i18n import crosstable_marks, legend_marks, say, translate
from keizer_xl.i18n.names import local_name, local_setting, rest_word, withdrawn_name
from keizer_xl.workbook.layout import CROSSTABLE, GROUP, PROGRESS, REPORT_SHEETS, Layout

Cell = tuple[int, int]  # (row, column), both 1-based as on the sheet
CellValue = str | int | float | None
PROGRESS_HEADER_ROW = 22  # the template's chart sits above the table, in rows 1-21
PROGRESS_CHARTED = 10  # players in the chart: the top ten, rows 23-32
REPORT_COLUMNS = ("Game points", "Percentage", "Colour balance", "Change")
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


class SheetRows(Mapping[Cell, CellValue]):
    """A sheet's cells kept row by row, each row the list of its values from column 1 (None
    where it has none): the Standings, Crosstable and Progress sheets of 10,000 players
    after 100 rounds are a million cells each, which as a dict of (row, column) keys would
    cost a hundred bytes and more a cell. Reads as that dict would; it empties no cell.
    The writer takes its rows as they are (`workbook.xlsx.CellRows`)."""

    def __init__(self) -> None:
        self.rows: dict[int, list[CellValue]] = {}

    def put(self, row: int, values: list[CellValue], column: int = 1) -> None:
        """These values from `column` on in `row` (None: no cell), over what is there."""
        mine = self.rows.setdefault(row, [])
        end = column - 1 + len(values)
        if len(mine) < end:
            mine.extend([None] * (end - len(mine)))
        mine[column - 1 : end] = values

    def __getitem__(self, cell: Cell) -> CellValue:
        values = self.rows.get(cell[0])
        value = values[cell[1] - 1] if values is not None and 0 < cell[1] <= len(values) else None
        if value is None:
            raise KeyError(cell)
        return value

    def get(self, cell: Cell, default: Any = None) -> Any:
        """As `self[cell]`, None when empty: without a KeyError raised and caught for every
        empty cell (a click in xlwings Lite asks for each cell of the blocks it writes)."""
        values = self.rows.get(cell[0])
        if values is not None and 0 < cell[1] <= len(values):
            value = values[cell[1] - 1]
            if value is not None:
                return value
        return default

    def __iter__(self) -> Iterator[Cell]:
        return (cell for cell, _ in self.items())

    def __len__(self) -> int:
        return sum(len(values) - values.count(None) for values in self.rows.values())

    def items(self) -> ItemsView[Cell, CellValue]:
        return _RowItems(self)


class _RowItems(ItemsView[Cell, CellValue]):
    """The cells of `SheetRows` as ((row, column), value), row by row, made as they go."""

    _mapping: SheetRows

    def __iter__(self) -> Iterator[tuple[Cell, CellValue]]:
        for row, values in self._mapping.rows.items():
            for column, value in enumerate(values, start=1):
                if value is not None:
                    yield (row, column), value


class SheetCells(NamedTuple):
    """The cells one command writes into one sheet (1-based row and column; None empties a
    cell). `clear` first empties every other cell of the sheet: the Standings sheet, which
    keizer_xl owns entirely."""

    table: str  # the contract's name for the sheet: "Rounds", "Standings" or "Settings"
    sheet: str  # the sheet's name in this workbook
    cells: Mapping[Cell, CellValue]
    clear: bool = False
    create: bool = False  # a workbook without the sheet gets it (one made by version 0.1)


def shown(x: Fraction | None) -> CellValue:
    """A number as the sheet shows it: rounded to two decimals, whole numbers as integers."""
    if x is None:
        return None
    if x.denominator == 1:
        return int(x)
    return round(float(x), 2)


def _shown_scaled(terms: Sequence[int | None], scale: int) -> list[CellValue]:
    """`shown(Fraction(t, scale))` of each term without making the Fractions (a season has
    tens of thousands)."""
    return [
        None if t is None else t // scale if not t % scale else round(t / scale, 2) for t in terms
    ]


def standings_cells(
    standings: Standings,
    groups: Mapping[str, str] | None = None,
    short: frozenset[str] = frozenset(),
    language: str = "en",
    report: Report | None = None,
) -> SheetRows:
    """The whole Standings sheet: headers, one row per ranked player, and a note below;
    never the warnings, which are told to the secretary and would print on the notice board.

    With `groups` (some players have one) a Group column follows Own; the players listed
    last for too few games (`short`, see core.final) have their rank marked `*`. With the
    report (`core.report`), Game points, Percentage, Colour balance and Change (places
    gained since the previous round) come next, before R1, R2, ..."""
    group = [GROUP] if groups else []
    extra = list(REPORT_COLUMNS) if report is not None else []
    headers = [
        *STANDINGS_COLUMNS,
        *group,
        *extra,
        *(f"R{k + 1}" for k in range(standings.after_round)),
    ]
    cells = SheetRows()
    cells.put(1, [local_name(h, language) for h in headers])
    figures = {p.name: p for p in report.players} if report is not None else {}
    for r, row in enumerate(standings.rows, start=2):
        values: list[CellValue]
        rating = shown(row.rating) if row.rating else None  # unrated: blank, not 0
        if row.score is None:  # a newcomer of the next round: place and value only
            values = [row.rank, row.name, None, shown(row.value), *[None] * 6, rating]
        else:
            p = figures.get(row.name)
            percentage = None if p is None else p.percentage
            mine: list[CellValue] = (
                []
                if p is None
                else [
                    shown(p.game_points),
                    None if percentage is None else round(float(percentage), 1),
                    p.colour_balance,
                    p.change,
                ]
            )
            values = [
                row.rank,
                row.name,
                shown(row.score),
                shown(row.value),
                row.played,
                row.won,
                row.drawn,
                row.lost,
                row.byes,
                row.absent,
                rating,
                shown(row.own),
                *mine,
                *_shown_scaled(row.terms, row.scale),
            ]
            if report is not None and report.withdrawn(row.name):
                values[1] = withdrawn_name(row.name, language)
        if groups:
            values[len(STANDINGS_COLUMNS) : len(STANDINGS_COLUMNS)] = [groups.get(row.name) or None]
        if row.name in short:
            values[0] = f"{row.rank}*"
        cells.put(r, values)
    note_row = len(standings.rows) + 3
    cells.put(note_row, [say(standings_note(standings), language)])
    if standings.note:  # the warnings are the secretary's (terminal, button message), not
        cells.put(note_row + 1, [say(standings.note, language)])  # the notice board's
    return cells


def standings_note(standings: Standings) -> Message:
    """The line under the standings: after which round, and by which rules."""
    named = any(change.startswith("Top value ") for change in standings.settings.overrides)
    rules = standings.settings.describe()
    if standings.top_value is not None and not named:  # each setting once
        rules = msg("{rules}; top value {value}", rules=rules, value=shown(standings.top_value))
    if standings.after_round:
        return msg(
            "Standings after round {round}. Rules: {rules}. Own = own value counted.",
            round=standings.after_round,
            rules=rules,
        )
    return msg(
        "Initial ranking (before round 1). Rules: {rules}. Own = own value counted.", rules=rules
    )


def round_cells(next_round: NextRound, layout: Layout) -> dict[Cell, CellValue]:
    """The new round's rows, appended below the last used row of the Rounds sheet."""
    return entry_cells(next_round.entries, layout)


def entry_cells(entries: Sequence[Entry], layout: Layout) -> dict[Cell, CellValue]:
    """Rounds rows (with their results, if any) below the last used row of the sheet."""
    cols = layout.columns["Rounds"]
    cells: dict[Cell, CellValue] = {}
    row = layout.used_rows.get("Rounds", 1) + 1
    for e in entries:
        values: dict[str, CellValue]
        if isinstance(e, Game):
            values = {"Round": e.round, "Board": e.board, "White": e.white, "Black": e.black}
            if e.result is not None:
                values["Result"] = e.result.value
        else:
            word = rest_word(e.reason, layout.language)
            values = {
                "Round": e.round,
                "White": e.player,
                "Result": word if e.team is None else f"{word} {e.team.value}",
            }
        for name, value in values.items():
            cells[(row, cols[name])] = value
        row += 1
    return cells


def top_value_cells(value: Fraction, layout: Layout) -> dict[Cell, CellValue]:
    """The Top value fixed when round 1 is paired, in its Settings row (added if missing)."""
    cols = layout.columns["Settings"]
    row = layout.setting_rows.get("Top value")
    cells: dict[Cell, CellValue] = {}
    if row is None:
        row = layout.used_rows.get("Settings", 1) + 1
        cells[(row, cols["Setting"])] = local_setting("Top value", layout.language)
    cells[(row, cols["Value"])] = shown(value)
    return cells


def settings_cells(values: Sequence[tuple[str, str]], layout: Layout) -> dict[Cell, CellValue]:
    """Settings values into their rows (rows added below for settings the sheet lacks)."""
    cols = layout.columns["Settings"]
    cells: dict[Cell, CellValue] = {}
    extra = layout.used_rows.get("Settings", 1)
    for name, value in values:
        row = layout.setting_rows.get(name)
        if row is None:
            extra += 1
            row = extra
            cells[(row, cols["Setting"])] = local_setting(name, layout.language)
        cells[(row, cols["Value"])] = value
    return cells


def crosstable_cells(report: Report, language: str = "en") -> SheetRows:
    """The whole Crosstable sheet: a row per player, a column per round (`12w1`, `5b½`,
    `bye`, `exc`, `club`, `—`; German `12s1`, `spielfrei`, …), the score at the end, and
    what the marks mean below."""
    rounds = report.after_round
    rank_, name_, score_ = (local_name(h, language) for h in ("Rank", "Name", "Score"))
    own_marks = crosstable_marks(language)
    cells = SheetRows()
    cells.put(1, [rank_, name_, *range(1, rounds + 1), score_])
    rank = {p.name: p.standing.rank for p in report.players}.get  # `report.rank`, at hand
    marks: dict[str, str] = {}  # each mark once: a season repeats them a million times
    for r, p in enumerate(report.players, start=2):
        name = withdrawn_name(p.name, language) if report.withdrawn(p.name) else p.name
        values: list[CellValue] = [p.standing.rank, name]
        for line in p.rounds:
            mark = line.short(rank(line.opponent) if line.opponent is not None else None, own_marks)
            values.append(marks.setdefault(mark, mark) or None)
        values += [None] * (rounds + 2 - len(values))
        if p.standing.score is not None:
            values.append(shown(p.standing.score))
        cells.put(r, values)
    cells.put(
        len(report.players) + 3,
        [
            translate(
                "After round {round}. Each round: the opponent's rank now, the colour "
                "({white} white, {black} black) and the result (1, ½, 0; + and - by forfeit); "
                "{bye} (bye), {excused} (excused), {club} (club duty), — (absent without excuse).",
                language,
            ).format(round=rounds, **legend_marks(language))
        ],
    )
    if report.standings.settings.club_games == "result":
        cells.put(
            len(report.players) + 4,
            [
                translate(
                    "{club}1, {club}½, {club}0: a team match for the club, won, drawn or lost, "
                    "counted as a game.",
                    language,
                ).format(club=legend_marks(language)["club"])
            ],
        )
    return cells


def progress_cells(report: Report, language: str = "en") -> SheetRows:
    """The Progress sheet's table: every player's rank after every round, in today's
    order, from row 22 (the template's chart of the top ten reads rows 23-32)."""
    top = PROGRESS_HEADER_ROW
    cells = SheetRows()
    cells.put(
        top,
        [
            local_name("Rank", language),
            local_name("Name", language),
            *range(1, report.after_round + 1),
        ],
    )
    places = list(range(len(report.players) + 1))  # each rank once, not once a cell
    for r, p in enumerate(report.players, start=top + 1):
        name = withdrawn_name(p.name, language) if report.withdrawn(p.name) else p.name
        cells.put(
            r,
            [
                p.standing.rank,
                name,
                *[
                    None if rank is None else places[rank] if rank < len(places) else rank
                    for rank in p.ranks
                ],
            ],
        )
    return cells


def report_edits(report: Report, layout: Layout) -> list[SheetCells]:
    """The Crosstable and Progress sheets; a workbook made before they existed gets them,
    named in its language, after its own sheets (without the template's chart)."""
    makers = {CROSSTABLE: crosstable_cells, PROGRESS: progress_cells}
    return [
        SheetCells(
            name,
            layout.sheet.get(name) or local_name(name, layout.language),
            makers[name](report, layout.language),
            clear=True,
            create=name not in layout.sheet,
        )
        for name in REPORT_SHEETS
    ]
