"""The workbook contract at cell level, shared by the file path and live Excel.

A workbook arrives here as plain grids of cell values (row 0 is the sheet's row 1), however
it was read (python-calamine from a file, xlwings from a running Excel). This module finds
the sheets and headers, hands the core its tables (no pandas on the way), names every
problem's cell
(`Rounds!E14`), and says which cells to write: the only cells keizer_xl owns.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from operator import itemgetter
from typing import NoReturn

from keizer_xl.core.checks import PLAYER_COLUMNS, ROUND_COLUMNS, Table, find_columns, tidy
from keizer_xl.core.errors import KeizerError, Places, Problem, column_letters, placed
from keizer_xl.core.final import final_order
from keizer_xl.core.messages import Joined, Message, msg
from keizer_xl.core.model import Entry, Game, Season
from keizer_xl.core.report import Report, build_report
from keizer_xl.core.round import Competition, NextRound
from keizer_xl.core.scoring import Standings
from keizer_xl.core.settings import setting_name
from keizer_xl.core.words import is_blank, text
from keizer_xl.i18n import LANGUAGES, say, translate
from keizer_xl.i18n.names import (
    SETTINGS_TO_CONTRACT,
    contract_headers,
    local_name,
    local_setting,
    name_key,
    rest_word,
    sheet_names,
)

SHEETS = ("Players", "Rounds", "Standings", "Settings")
# Sheets keizer_xl fills for the members to read; a workbook without them still works.
CROSSTABLE, PROGRESS = "Crosstable", "Progress"
REPORT_SHEETS = (CROSSTABLE, PROGRESS)
PROGRESS_HEADER_ROW = 22  # the template's chart sits above the table, in rows 1-21
PROGRESS_CHARTED = 10  # players in the chart: the top ten, rows 23-32
REPORT_COLUMNS = ("Game points", "Percentage", "Colour balance", "Change")
SETTINGS_COLUMNS = ("Setting", "Value")
STANDINGS_COLUMNS = ("Rank", "Name", "Score", "Value", "Played", "Won", "Drawn", "Lost",
                     "Byes", "Absent", "Rating", "Own")

# Optional Players columns that the files of the chess world read and fill (TRF, rating
# lists): each one's header as keizer_xl writes it, then the other spellings it accepts.
# Matched ignoring case, spaces, dashes, dots and underscores.
IDENTITY_COLUMNS: dict[str, tuple[str, ...]] = {
    "FIDE id": ("FIDE id", "FIDE nr", "FIDE number", "FIDE nummer", "ID FIDE"),
    "KNSB id": ("KNSB id", "Relatienummer", "KNSB nr", "KNSB number", "KNSB nummer",
                "Bondsnummer"),
    "Title": ("Title", "Titel"),
    "Federation": ("Federation", "Fed", "Federatie"),
    "Sex": ("Sex", "Gender", "Geslacht"),
    "Born": ("Born", "Birth date", "Date of birth", "Birth year", "Geboren",
             "Geboortedatum", "Geboortejaar"),
    "Group": ("Group", "Groep"),  # e.g. Jeugd, A, B: shown in the standings, filtered by
}
GROUP = "Group"


def player_groups(season: Season, grid: Grid) -> dict[str, str]:
    """Each player's Group (from the optional Players column), for those who have one."""
    col = identity_columns(grid[0]).get(GROUP) if grid else None
    if col is None:
        return {}
    out = {}
    for p in season.players:
        row = grid[p.source - 1] if isinstance(p.source, int) and p.source <= len(grid) else ()
        word = text(row[col]) if col < len(row) else ""
        if word:
            out[p.name] = word
    return out

Grid = Sequence[Sequence[object]]
Cell = tuple[int, int]  # (row, column), both 1-based as on the sheet
CellValue = str | int | float | None


@dataclass
class Layout:
    """Where things are in this workbook: actual sheet names, header columns, used rows."""

    sheet: dict[str, str] = field(default_factory=dict)  # contract name -> name in the book
    columns: dict[str, dict[str, int]] = field(default_factory=dict)  # sheet -> header -> col
    used_rows: dict[str, int] = field(default_factory=dict)  # sheet -> last non-blank row
    setting_rows: dict[str, int] = field(default_factory=dict)  # setting name -> row
    language: str = "en"  # the language the workbook is written in

    @property
    def places(self) -> Places:
        """Where each table is, for naming a problem's cell (`Rounds!E14`)."""
        return Places(self.sheet, self.columns)

    def place(self, problem: Problem) -> str:
        """The cell (or sheet) a problem is about, as the secretary would look it up."""
        return self.places.of(problem)

    def describe(self, error: KeizerError) -> list[str]:
        return KeizerError(error.problems, self.places).lines()


def _table(grid: Grid, wanted: Sequence[str], layout: Layout, name: str) -> Table:
    """Rows 2.. of a sheet as a checked-input Table labelled by sheet row number.

    Built column by column: blank cells ("" from calamine, None from xlwings, only spaces)
    become None, and rows with nothing in the wanted columns are left out."""
    header = contract_headers(grid[0]) if grid else []
    positions = find_columns(header, wanted)
    layout.columns[name] = {col: i + 1 for col, i in positions.items()}
    used = len(grid)
    while used > 1 and all(c == "" or c is None for c in grid[used - 1]):
        used -= 1
    layout.used_rows[name] = used
    body = grid[1:used]
    width = max(positions.values(), default=-1) + 1
    if min(map(len, body), default=width) < width:
        body = [[*row, *[None] * (width - len(row))] for row in body]
    cells = {col: _tidy([row[i] for row in body]) for col, i in positions.items()}
    keep = [False] * len(body)
    for column in cells.values():
        keep = [k or c is not None for k, c in zip(keep, column, strict=True)]
    labels: list[Hashable] = list(range(2, len(body) + 2))
    if not all(keep):
        labels = [label for label, k in zip(labels, keep, strict=True) if k]
        cells = {col: [c for c, k in zip(column, keep, strict=True) if k]
                 for col, column in cells.items()}
    return Table(name, labels, cells)


def _tidy(values: list[object]) -> list[object]:
    """`tidy` of each cell; the usual numbers and texts pass without a call."""
    return [v if (type(v) is float and v == v) or type(v) is int or (type(v) is str and v.strip())
            else tidy(v) for v in values]


def _header_key(header: object) -> str:
    return "".join(ch for ch in text(header).casefold() if ch.isalnum())


def identity_columns(header: Sequence[object]) -> dict[str, int]:
    """Where the optional identity columns are in a Players header row (0-based)."""
    wanted = {_header_key(alias): name for name, aliases in IDENTITY_COLUMNS.items()
              for alias in aliases}
    found: dict[str, int] = {}
    for i, cell in enumerate(header):
        name = wanted.get(_header_key(cell))
        if name is not None and name not in found:
            found[name] = i
    return found


def language_of(grids: Mapping[str, object]) -> str:
    """The language a workbook is written in, told by the name of its Players sheet."""
    names = {name_key(name) for name in grids}
    return next((language for language in LANGUAGES[1:]
                 if name_key(local_name("Players", language)) in names), "en")


def read_book(grids: Mapping[str, Grid]) -> tuple[Competition, Layout]:
    """Check the workbook's sheets and build the Competition; KeizerError lists every
    problem (use `Layout.describe` to name their cells)."""
    layout = Layout(language=language_of(grids))
    by_key = {name_key(name): name for name in grids}
    problems: list[Problem] = []
    for sheet in SHEETS:
        actual = next((by_key[key] for key in (name_key(sheet), *sorted(sheet_names(sheet)))
                       if key in by_key), None)
        if actual is None:
            wanted = local_name(sheet, layout.language)
            problems.append(Problem(
                msg("the workbook has no sheet named '{sheet}' (it has: {sheets})",
                    sheet=wanted, sheets=", ".join(grids)) if grids else
                msg("the workbook has no sheet named '{sheet}' (it has: no sheets)",
                    sheet=wanted)))
        layout.sheet[sheet] = actual or sheet
    if problems:
        raise_with(problems, layout)
    layout.sheet.update({sheet: by_key[key] for sheet in REPORT_SHEETS
                         for key in (name_key(sheet), *sorted(sheet_names(sheet)))
                         if key in by_key})
    players = _table(grids[layout.sheet["Players"]], PLAYER_COLUMNS, layout, "Players")
    rounds = _table(grids[layout.sheet["Rounds"]], ROUND_COLUMNS, layout, "Rounds")
    settings = _table(grids[layout.sheet["Settings"]], SETTINGS_COLUMNS, layout, "Settings")
    if "Setting" in settings.cells:  # setting names of every language, as the contract's
        settings = Table(settings.name, settings.labels, {
            **settings.cells, "Setting": [SETTINGS_TO_CONTRACT.get(name_key(name), name)
                                          if name is not None else None
                                          for name in settings.column("Setting")]})
    for row, name in zip(settings.labels, settings.column("Setting"), strict=True):
        canonical = None if name is None else setting_name(name)
        if canonical:
            layout.setting_rows[canonical] = int(row)  # type: ignore[call-overload]
    try:
        competition = Competition.from_tables(players, rounds, settings)
    except KeizerError as error:
        raise_with(error.problems, layout)
    missing = [c for c in ROUND_COLUMNS if c not in layout.columns["Rounds"]]
    if missing:  # the engine can do without Board; the sheet we write to cannot
        raise_with([Problem(msg("no column headed '{header}' in row 1",
                                header=local_name(c, layout.language)), "Rounds")
                    for c in missing], layout)
    return competition, layout


class BookError(KeizerError):
    """A KeizerError about a workbook: its lines name the cells (`Rounds!E14`)."""

    @property
    def message(self) -> Message:
        n = len(self.problems)
        head = msg("1 problem in the workbook:") if n == 1 else \
            msg("{count} problems in the workbook:", count=n)
        return Joined("\n", [head, *(Joined("", ("  ", line)) for line in self.lines())])


def raise_with(problems: list[Problem], layout: Layout) -> NoReturn:
    raise BookError(list(problems), layout.places)


# -- what to write ------------------------------------------------------------------------

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
    return [None if t is None else t // scale if not t % scale else round(t / scale, 2)
            for t in terms]


def standings_cells(standings: Standings, groups: Mapping[str, str] | None = None,
                    short: frozenset[str] = frozenset(), language: str = "en",
                    report: Report | None = None
                    ) -> dict[Cell, CellValue]:
    """The whole Standings sheet: headers, one row per ranked player, and a note below.

    With `groups` (some players have one) a Group column follows Own; the players listed
    last for too few games (`short`, see core.final) have their rank marked `*`. With the
    report (`core.report`), Game points, Percentage, Colour balance and Change (places
    gained since the previous round) come next, before R1, R2, ..."""
    group = [GROUP] if groups else []
    extra = list(REPORT_COLUMNS) if report is not None else []
    headers = [*STANDINGS_COLUMNS, *group, *extra,
               *(f"R{k + 1}" for k in range(standings.after_round))]
    cells: dict[Cell, CellValue] = {(1, c): local_name(h, language)
                                    for c, h in enumerate(headers, start=1)}
    figures = {p.name: p for p in report.players} if report is not None else {}
    gone = {p.name for p in report.season.players
            if p.left is not None and p.left <= report.after_round} if report else set()
    withdrawn = local_name("withdrawn", language)
    for r, row in enumerate(standings.rows, start=2):
        values: list[CellValue]
        rating = shown(row.rating) if row.rating else None  # unrated: blank, not 0
        if row.score is None:  # a newcomer of the next round: place and value only
            values = [row.rank, row.name, None, shown(row.value), *[None] * 6, rating]
        else:
            p = figures.get(row.name)
            mine: list[CellValue] = [] if p is None else [
                shown(p.game_points), None if p.percentage is None
                else round(float(p.percentage), 1), p.colour_balance, p.change]
            values = [row.rank, row.name, shown(row.score), shown(row.value), row.played,
                      row.won, row.drawn, row.lost, row.byes, row.absent, rating,
                      shown(row.own), *mine, *_shown_scaled(row.terms, row.scale)]
            if row.name in gone:
                values[1] = f"{row.name} ({withdrawn})"
        if groups:
            values[len(STANDINGS_COLUMNS):len(STANDINGS_COLUMNS)] = [groups.get(row.name)
                                                                     or None]
        if row.name in short:
            values[0] = f"{row.rank}*"
        cells.update({(r, c): value for c, value in enumerate(values, start=1)
                      if value is not None})
    note_row = len(standings.rows) + 3
    cells[(note_row, 1)] = say(standings_note(standings), language)
    lines = [standings.note] if standings.note else []
    lines += [msg("Warning: {caution}", caution=line) for line in standings.cautions]
    for n, line in enumerate(lines, start=note_row + 1):
        cells[(n, 1)] = say(line, language)
    return cells


def with_cautions(standings: Standings, competition: Competition, layout: Layout) -> Standings:
    """The standings with the season's cautions, each with its cell, to show and to write
    under the table."""
    if not competition.cautions:
        return standings
    lines = tuple(dict.fromkeys(placed(layout.place(c), c.message)
                                for c in competition.cautions))
    return dataclasses.replace(standings, cautions=lines)


def standings_note(standings: Standings) -> Message:
    """The line under the standings: after which round, and by which rules."""
    named = any(change.startswith("Top value ") for change in standings.settings.overrides)
    rules = standings.settings.describe()
    if standings.top_value is not None and not named:  # each setting once
        rules = msg("{rules}; top value {value}", rules=rules,
                    value=shown(standings.top_value))
    if standings.after_round:
        return msg("Standings after round {round}. Rules: {rules}. Own = own value counted.",
                   round=standings.after_round, rules=rules)
    return msg("Initial ranking (before round 1). Rules: {rules}. Own = own value counted.",
               rules=rules)


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
            values = {"Round": e.round, "White": e.player,
                      "Result": rest_word(e.reason, layout.language)}
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


def filled_settings(grids: Mapping[str, Grid], layout: Layout) -> list[tuple[str, str]]:
    """The settings the club filled in, as (name, value as typed), in sheet order."""
    import datetime as dt

    grid = grids[layout.sheet["Settings"]]
    column = layout.columns["Settings"]["Value"]
    out = []
    for name, row in sorted(layout.setting_rows.items(), key=lambda item: item[1]):
        cells = grid[row - 1] if row <= len(grid) else ()
        value = cells[column - 1] if column <= len(cells) else None
        if isinstance(value, dt.datetime | dt.date):  # Excel made 2/3 a date: the fraction
            low, high = sorted((value.day, value.month))
            value = f"{low}/{high}"
        if not is_blank(value):
            out.append((name, text(value)))
    return out


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


def board_notes(grids: Mapping[str, Grid]) -> list[str]:
    """A note for each board used by two games of one round (worth a look, no error).

    Read from the Rounds sheet as it is: a row is a game when it has both players."""
    names = sheet_names("Rounds")
    sheet = next((name for name in grids if name_key(name) in names), None)
    grid = grids.get(sheet, []) if sheet else []
    cols = find_columns(contract_headers(grid[0]), ROUND_COLUMNS) if grid else {}
    if not {"Round", "Board", "White", "Black"} <= cols.keys():
        return []
    at = [cols[name] for name in ("Round", "Board", "White", "Black")]
    width, cells = max(at) + 1, itemgetter(*at)
    first: dict[tuple[object, object], int] = {}
    notes: list[str] = []
    for number, row in enumerate(grid[1:], start=2):
        if len(row) < width:
            continue
        round_no, board, white, black = cells(row)
        if board in ("", None) or white in ("", None) or black in ("", None):
            continue
        key = (round_no, board)  # 3 and 3.0 are one key; text is tidied only when needed
        if type(round_no) is str or type(board) is str:
            key = (_same(round_no), _same(board))
        seen = first.setdefault(key, number)
        if seen != number and not (is_blank(white) or is_blank(black) or is_blank(board)):
            notes.append(placed(msg("{sheet}!{cell}", sheet=sheet,
                                    cell=f"{column_letters(cols['Board'] + 1)}{number}"),
                                msg("board {board} of round {round} is also used in row "
                                    "{row}; two games on one board", board=text(board),
                                    round=text(round_no), row=seen)))

    return notes


def _same(value: object) -> object:
    """A round or board number typed as text, as a key: ' 3 ' as 3."""
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return value


# -- the buttons' work, shared by the file path and live Excel ---------------------------

@dataclass(frozen=True)
class SheetCells:
    """The cells one command writes into one sheet (1-based row and column; None empties a
    cell). `clear` first empties every other cell of the sheet: the Standings sheet, which
    keizer_xl owns entirely."""

    table: str  # the contract's name for the sheet: "Rounds", "Standings" or "Settings"
    sheet: str  # the sheet's name in this workbook
    cells: dict[Cell, CellValue]
    clear: bool = False
    create: bool = False  # a workbook without the sheet gets it (one made by version 0.1)


def crosstable_cells(report: Report, language: str = "en") -> dict[Cell, CellValue]:
    """The whole Crosstable sheet: a row per player, a column per round (`12w1`, `5b½`,
    `bye`, `exc`, `club`, `—`), the score at the end, and what the marks mean below."""
    rounds = report.after_round
    rank_, name_, score_ = (local_name(h, language) for h in ("Rank", "Name", "Score"))
    cells: dict[Cell, CellValue] = {(1, 1): rank_, (1, 2): name_, (1, rounds + 3): score_}
    cells.update({(1, 2 + k): k for k in range(1, rounds + 1)})
    rank = report.rank
    for r, p in enumerate(report.players, start=2):
        cells[(r, 1)] = p.standing.rank
        cells[(r, 2)] = p.name
        for k, line in enumerate(p.rounds, start=3):
            mark = line.short(rank(line.opponent) if line.opponent is not None else None)
            if mark:
                cells[(r, k)] = mark
        if p.standing.score is not None:
            cells[(r, rounds + 3)] = shown(p.standing.score)
    cells[(len(report.players) + 3, 1)] = translate(
        "After round {round}. Each round: the opponent's rank now, the colour (w, b) and the "
        "result (1, ½, 0; + and - by forfeit); bye, exc (excused), club (club duty), — (absent "
        "without excuse).", language).format(round=rounds)
    return cells


def progress_cells(report: Report, language: str = "en") -> dict[Cell, CellValue]:
    """The Progress sheet's table: every player's rank after every round, in today's
    order, from row 22 (the template's chart of the top ten reads rows 23-32)."""
    top = PROGRESS_HEADER_ROW
    cells: dict[Cell, CellValue] = {(top, 1): local_name("Rank", language),
                                    (top, 2): local_name("Name", language)}
    cells.update({(top, 2 + k): k for k in range(1, report.after_round + 1)})
    for r, p in enumerate(report.players, start=top + 1):
        cells[(r, 1)] = p.standing.rank
        cells[(r, 2)] = p.name
        for k, rank in enumerate(p.ranks, start=3):
            if rank is not None:
                cells[(r, k)] = rank
    return cells


def report_edits(report: Report, layout: Layout) -> list[SheetCells]:
    """The Crosstable and Progress sheets; a workbook made before they existed gets them,
    named in its language, after its own sheets (without the template's chart)."""
    makers = {CROSSTABLE: crosstable_cells, PROGRESS: progress_cells}
    return [SheetCells(name, layout.sheet.get(name) or local_name(name, layout.language),
                       makers[name](report, layout.language), clear=True,
                       create=name not in layout.sheet)
            for name in REPORT_SHEETS]


def plan_recalc(grids: Mapping[str, Grid]) -> tuple[Standings, list[SheetCells]]:
    """What "Recalculate" writes: the Standings after the last completed round, and the
    Crosstable and Progress sheets."""
    competition, layout = read_book(grids)
    final = final_order(with_cautions(competition.standings(), competition, layout))
    groups = player_groups(competition.season, grids[layout.sheet["Players"]])
    report = build_report(competition.season, final.standings)
    cells = standings_cells(final.standings, groups, final.short, layout.language, report)
    return final.standings, [_cells("Standings", layout, cells, clear=True),
                             *report_edits(report, layout)]


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
        raise_with(error.problems, layout)
    next_round = dataclasses.replace(
        next_round, standings=with_cautions(next_round.standings, competition, layout))
    edits: list[SheetCells] = []
    if competition.top_value_to_fix is not None and next_round.round == 1:
        fixed = next_round.settings.top_value
        assert fixed is not None
        edits.append(_cells("Settings", layout, top_value_cells(fixed, layout)))
    edits.append(_cells("Rounds", layout, round_cells(next_round, layout)))
    groups = player_groups(competition.season, grids[layout.sheet["Players"]])
    report = build_report(competition.season, next_round.standings)
    edits.append(_cells("Standings", layout, standings_cells(
        next_round.standings, groups, language=layout.language, report=report), clear=True))
    edits.extend(report_edits(report, layout))
    return next_round, edits


def _cells(table: str, layout: Layout, cells: dict[Cell, CellValue],
           clear: bool = False) -> SheetCells:
    return SheetCells(table, layout.sheet[table], cells, clear)
