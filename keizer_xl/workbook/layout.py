"""Reading a workbook: its sheets and headers found, in any language, as the core's tables.

A workbook arrives here as plain grids of cell values (row 0 is the sheet's row 1), however
it was read (python-calamine from a file, xlwings from a running Excel). This module finds
the sheets and headers, hands the core its tables (no pandas on the way), keeps where each
table is (`Layout`) so that every problem names its cell (`Rounds!E14`), and reads what the
other commands need from the sheets as they are (the Settings typed, each player's Group,
boards used twice).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Mapping, Sequence
from operator import itemgetter
from typing import NoReturn

import numpy as np

from keizer_xl.core.checks import (
    PLAYER_COLUMNS,
    ROUND_COLUMNS,
    Table,
    find_columns,
    tidy,
)
from keizer_xl.core.errors import Caution, KeizerError, Places, Problem, placed
from keizer_xl.core.messages import Joined, Message, msg
from keizer_xl.core.model import Game, no_result
from keizer_xl.core.round import Competition
from keizer_xl.core.rows import NO_RESULT, NOBODY
from keizer_xl.core.season import Season
from keizer_xl.core.settings import setting_name
from keizer_xl.core.words import MAX_NAME, is_blank, text
from keizer_xl.i18n import LANGUAGES
from keizer_xl.i18n.names import (
    SETTINGS_TO_CONTRACT,
    contract_headers,
    local_name,
    name_key,
    sheet_names,
)

SHEETS = ("Players", "Rounds", "Standings", "Settings")
# Sheets keizer_xl fills for the members to read; a workbook without them still works.
CROSSTABLE, PROGRESS = "Crosstable", "Progress"
REPORT_SHEETS = (CROSSTABLE, PROGRESS)
SETTINGS_COLUMNS = ("Setting", "Value")

# Optional Players columns that the files of the chess world read and fill (TRF, rating
# lists): each one's header as keizer_xl writes it, then the other spellings it accepts.
# Matched ignoring case, spaces, dashes, dots and underscores.
IDENTITY_COLUMNS: dict[str, tuple[str, ...]] = {
    "FIDE id": ("FIDE id", "FIDE nr", "FIDE number", "FIDE nummer", "ID FIDE"),
    "KNSB id": ("KNSB id", "Relatienummer", "KNSB nr", "KNSB number", "KNSB nummer", "Bondsnummer"),
    "Title": ("Title", "Titel"),
    "Federation": ("Federation", "Fed", "Federatie"),
    "Sex": ("Sex", "Gender", "Geslacht"),
    "Born": (
        "Born",
        "Birth date",
        "Date of birth",
        "Birth year",
        "Geboren",
        "Geboortedatum",
        "Geboortejaar",
    ),
    # A German club's members in the DSB's lists: the club's code and the member's number.
    "ZPS": ("ZPS", "ZPS-Nr", "Vereinsnummer"),
    "Member number": ("Member number", "Mitgliedsnummer", "Mgl-Nr", "Mgl Nr"),
    "Group": ("Group", "Groep"),  # e.g. Jeugd, A, B: shown in the standings, filtered by
}
GROUP = "Group"

Grid = Sequence[Sequence[object]]


class Layout:
    """Where things are in this workbook: actual sheet names, header columns, used rows;
    filled in as the sheets are read (a plain class, not a dataclass: see "Records" in
    docs/architecture.md)."""

    def __init__(self, language: str = "en") -> None:
        self.sheet: dict[str, str] = {}  # contract name -> name in the book
        self.columns: dict[str, dict[str, int]] = {}  # sheet -> header -> column
        self.used_rows: dict[str, int] = {}  # sheet -> last non-blank row
        self.setting_rows: dict[str, int] = {}  # setting name -> row
        self.language = language  # the language the workbook is written in

    @property
    def places(self) -> Places:
        """Where each table is, for naming a problem's cell (`Rounds!E14`)."""
        return Places(self.sheet, self.columns)

    def place(self, problem: Problem) -> str:
        """The cell (or sheet) a problem is about, as the secretary would look it up."""
        return self.places.of(problem)

    def describe(self, error: KeizerError) -> list[str]:
        return KeizerError(error.problems, self.places).lines()

    def warnings(self, competition: Competition) -> tuple[str, ...]:
        """The competition's cautions, each after its cell (`Rounds!E14: ...`), once each."""
        return tuple(dict.fromkeys(placed(self.place(c), c.message) for c in competition.cautions))


class BookError(KeizerError):
    """A KeizerError about a workbook: its lines name the cells (`Rounds!E14`)."""

    @property
    def message(self) -> Message:
        n = len(self.problems)
        head = (
            msg("1 problem in the workbook:")
            if n == 1
            else msg("{count} problems in the workbook:", count=n)
        )
        return Joined("\n", [head, *(Joined("", ("  ", line)) for line in self.lines())])


def raise_with(
    problems: list[Problem], layout: Layout, cause: BaseException | None = None
) -> NoReturn:
    """Raise BookError with these problems, each naming its cell in this workbook; `cause`,
    the core's error, stays with it (`__cause__`) for a shell that has more to say."""
    raise BookError(list(problems), layout.places) from cause


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
    blank = (None,) * len(cells)  # a row with nothing in the wanted columns
    keep = (
        [row != blank for row in zip(*cells.values(), strict=True)]
        if cells
        else [False] * len(body)
    )
    labels: list[Hashable] = list(range(2, len(body) + 2))
    if not all(keep):
        labels = [label for label, k in zip(labels, keep, strict=True) if k]
        cells = {
            col: [c for c, k in zip(column, keep, strict=True) if k]
            for col, column in cells.items()
        }
    return Table(name, labels, cells)


def _tidy(values: list[object]) -> list[object]:
    """`tidy` of each cell; the usual texts and numbers are done without a call (a text of
    only spaces is blank; a finite float is the one whose difference with itself is 0: not
    NaN, not infinite)."""
    return [
        (v if v and not v.isspace() else None)
        if type(v) is str
        else v
        if (type(v) is float and v - v == 0) or type(v) is int
        else tidy(v)
        for v in values
    ]


def _header_key(header: object) -> str:
    return "".join(ch for ch in text(header).casefold() if ch.isalnum())


def identity_columns(header: Sequence[object]) -> dict[str, int]:
    """Where the optional identity columns are in a Players header row (0-based)."""
    wanted = {
        _header_key(alias): name for name, aliases in IDENTITY_COLUMNS.items() for alias in aliases
    }
    found: dict[str, int] = {}
    for i, cell in enumerate(header):
        name = wanted.get(_header_key(cell))
        if name is not None and name not in found:
            found[name] = i
    return found


def language_of(grids: Mapping[str, object]) -> str:
    """The language a workbook is written in, told by the name of its Players sheet."""
    names = {name_key(name) for name in grids}
    return next(
        (
            language
            for language in LANGUAGES[1:]
            if name_key(local_name("Players", language)) in names
        ),
        "en",
    )


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


def read_book(grids: Mapping[str, Grid]) -> tuple[Competition, Layout]:
    """Check the workbook's sheets and build the Competition; KeizerError lists every
    problem (use `Layout.describe` to name their cells)."""
    layout = Layout(language=language_of(grids))
    by_key = {name_key(name): name for name in grids}
    problems: list[Problem] = []
    for sheet in SHEETS:
        actual = next(
            (
                by_key[key]
                for key in (name_key(sheet), *sorted(sheet_names(sheet)))
                if key in by_key
            ),
            None,
        )
        if actual is None:
            wanted = local_name(sheet, layout.language)
            problems.append(
                Problem(
                    msg(
                        "the workbook has no sheet named '{sheet}' (it has: {sheets})",
                        sheet=wanted,
                        sheets=", ".join(grids),
                    )
                    if grids
                    else msg(
                        "the workbook has no sheet named '{sheet}' (it has: no sheets)",
                        sheet=wanted,
                    )
                )
            )
        layout.sheet[sheet] = actual or sheet
    if problems:
        raise_with(problems, layout)
    layout.sheet.update(
        {
            sheet: by_key[key]
            for sheet in REPORT_SHEETS
            for key in (name_key(sheet), *sorted(sheet_names(sheet)))
            if key in by_key
        }
    )
    players = _table(grids[layout.sheet["Players"]], PLAYER_COLUMNS, layout, "Players")
    rounds = _table(grids[layout.sheet["Rounds"]], ROUND_COLUMNS, layout, "Rounds")
    settings = _table(grids[layout.sheet["Settings"]], SETTINGS_COLUMNS, layout, "Settings")
    if "Setting" in settings.cells:  # setting names of every language, as the contract's
        settings = Table(
            settings.name,
            settings.labels,
            {
                **settings.cells,
                "Setting": [
                    SETTINGS_TO_CONTRACT.get(name_key(name), name) if name is not None else None
                    for name in settings.column("Setting")
                ],
            },
        )
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
        raise_with(
            [
                Problem(
                    msg(
                        "no column headed '{header}' in row 1",
                        header=local_name(c, layout.language),
                    ),
                    "Rounds",
                )
                for c in missing
            ],
            layout,
        )
    _check_groups(competition.season, grids[layout.sheet["Players"]], layout)
    return _beside_the_table(competition, grids[layout.sheet["Rounds"]], layout), layout


def _check_groups(season: Season, grid: Grid, layout: Layout) -> None:
    """A Group longer than a name may be is refused, as a name is (see `MAX_NAME`): it is
    written beside every player of it on the Standings sheet."""
    groups = player_groups(season, grid)
    long = [(p, groups[p.name]) for p in season.players if len(groups.get(p.name, "")) > MAX_NAME]
    if not long:
        return
    layout.columns["Players"][GROUP] = identity_columns(grid[0])[GROUP] + 1
    raise_with(
        [
            Problem(
                msg(
                    "a group of {length} characters; at most {most}",
                    length=f"{len(group):,}",
                    most=MAX_NAME,
                ),
                "Players",
                p.source,
                GROUP,
            )
            for p, group in long
        ],
        layout,
    )


def _beside_the_table(competition: Competition, grid: Grid, layout: Layout) -> Competition:
    """The competition with a caution for each game of the last round without a result
    whose row holds a value in a column without a header: most likely its result, typed
    one column off. It replaces the game's plain "no result yet" caution, if it had one."""
    season = competition.season
    rows = season.rows
    at = np.nonzero(
        (rows.round == season.last_round) & (rows.black != NOBODY) & (rows.outcome == NO_RESULT)
    )[0].tolist()
    header = grid[0] if grid else ()
    result = layout.columns["Rounds"]["Result"]
    found: dict[Hashable, Caution] = {}
    for i in at:
        game = season.entries[i]
        assert isinstance(game, Game)
        source = game.source
        row = grid[source - 1] if isinstance(source, int) and source <= len(grid) else ()
        for column, value in enumerate(row, start=1):
            if is_blank(value) or (column <= len(header) and not is_blank(header[column - 1])):
                continue
            from keizer_xl.workbook.xlsx import column_letters  # only when there is one

            found[game.source] = Caution(
                msg(
                    "{game}; {cell} beside the table holds '{value}': if that is its result, "
                    "move it to {result}",
                    game=no_result(game),
                    cell=f"{column_letters(column)}{source}",
                    value=text(value),
                    result=f"{column_letters(result)}{source}",
                ),
                "Rounds",
                source,
                "Result",
            )
            break
    if not found:
        return competition
    kept = [
        c
        for c in competition.cautions
        if not (c.table == "Rounds" and c.column == "Result" and c.row in found)
    ]
    return dataclasses.replace(competition, cautions=(*kept, *found.values()))


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
            from keizer_xl.workbook.xlsx import column_letters  # only when there is one

            notes.append(
                placed(
                    msg(
                        "{sheet}!{cell}",
                        sheet=sheet,
                        cell=f"{column_letters(cols['Board'] + 1)}{number}",
                    ),
                    msg(
                        "board {board} of round {round} is also used in row "
                        "{row}; two games on one board",
                        board=text(board),
                        round=text(round_no),
                        row=seen,
                    ),
                )
            )

    return notes


def _same(value: object) -> object:
    """A round or board number typed as text, as a key: ' 3 ' as 3."""
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return value
