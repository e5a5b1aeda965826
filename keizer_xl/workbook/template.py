"""The empty club workbook, built from code so every release ships the same, checked file.

The sheet names, headers and words come from the workbook contract; the Settings rows and
their explanations come from `keizer_xl.core.settings`, so the template cannot drift from what the
reader accepts. Whole-column styles and validations are written as column properties, so
rows the secretary (or keizer_xl) adds later look and behave like the first ones.

`python -m keizer_xl.workbook.template OUT [--vba vbaProject.bin | --lite] [--lang nl]` writes
it (`make template`). With `lite`, the Pairings sheet gets the buttons of xlwings Lite
(`sheetbuttons`) and the workbook carries their code (`liteparts`).
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import re
import sys
import zipfile
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import xlsxwriter
from xlsxwriter.utility import quote_sheetname

from keizer_xl.core.checks import PLAYER_COLUMNS, ROUND_COLUMNS
from keizer_xl.core.model import Absence
from keizer_xl.core.results import RESTS, RESULTS
from keizer_xl.core.settings import SPECS
from keizer_xl.i18n import LANGUAGES, translate
from keizer_xl.i18n.names import local_name, local_setting, present_mark, rest_word
from keizer_xl.workbook import buttons, pairings, sheetbuttons
from keizer_xl.workbook.cells import (
    PROGRESS_CHARTED,
    PROGRESS_HEADER_ROW,
    REPORT_COLUMNS,
    STANDINGS_COLUMNS,
)
from keizer_xl.workbook.layout import CROSSTABLE, PROGRESS
from keizer_xl.workbook.xlsx import column_letters

# The contract's headers (core.checks, workbook.layout and workbook.cells own them), as the
# template writes them in row 1; Settings adds what each blank means and what each setting
# does.
PLAYERS_HEADERS = PLAYER_COLUMNS
ROUNDS_HEADERS = ROUND_COLUMNS
STANDINGS_HEADERS = (*STANDINGS_COLUMNS, *REPORT_COLUMNS)
SETTINGS_HEADERS = ("Setting", "Value", "Default", "What it does")

HEADERS: dict[str, tuple[str, ...]] = {
    "Players": PLAYERS_HEADERS,
    "Rounds": ROUNDS_HEADERS,
    "Standings": STANDINGS_HEADERS,
    "Settings": SETTINGS_HEADERS,
}

# A printable list of the latest round's games, by formulas (see workbook.pairings).
PAIRINGS = pairings.PAIRINGS
# The members' sheets keizer_xl fills on every pair and recalc (values only): the
# crosstable, and every player's rank after every round under a chart of the top ten.
SHEETS = (*HEADERS, PAIRINGS, CROSSTABLE, PROGRESS)
# VBA code names of the sheets in an .xlsm; the VBA project needs one document module each
# (keizer_xl.workbook.vba.vba_project(sheets=CODE_NAMES)).
CODE_NAMES = tuple(f"Sheet{number}" for number in range(1, len(SHEETS) + 1))

# The words offered in the dropdowns. Typing another accepted spelling stays possible.
PRESENT_WORDS = ("x", "excused", "club", "unexcused")
# the results, then the reasons of a rest (each in the workbook's language)
RESULT_WORDS = (*(result.value for result in RESULTS), *(reason.value for reason in RESTS))

# The buttons of an .xlsm, on the Players sheet: (caption, macro), from the one table.
BUTTONS = tuple((button.caption, button.macro) for button in buttons.BUTTONS)

# Fixed so that two builds are byte-identical (the zip members carry a fixed date too).
_CREATED = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)
_LAST_ROW = 1_048_575  # zero-based last row of a sheet: whole-column ranges
_BOARDS = pairings.BOARDS
_HEADER_COLOUR = "#D9E1F2"
_BUTTON_COLOUR = "#2F5597"
_BORDER_COLOUR = "#8EA9DB"

_WIDTHS = {
    "Players": (28, 9, 9, 9, 11),
    "Rounds": (8, 8, 28, 28, 10),
    "Standings": (6, 28, 8, 8, 8, 6, 7, 6, 6, 8, 8, 7, 8, 10, 9, 7),
    "Settings": (24, 14, 14, 70),
}
_ROUND_COLUMNS = 60  # R1 ... R60 on Standings get a narrow width
_ROUND_WIDTH = 6
_LINE_HEIGHT = 15  # points per line of 11-point text
_BIG_HEIGHT = 15  # rows of the Pairings sheet: 50 boards on one A4 page


class _Formats:
    """The handful of cell formats the sheets share, made once per workbook."""

    def __init__(self, book: Any) -> None:
        header = {
            "bold": True,
            "bg_color": _HEADER_COLOUR,
            "bottom": 1,
            "valign": "vcenter",
            "border_color": _BORDER_COLOUR,
        }
        self.header = book.add_format(header)
        self.header_centre = book.add_format({**header, "align": "center"})
        self.header_right = book.add_format({**header, "align": "right"})
        self.header_wrap = book.add_format({**header, "align": "right", "text_wrap": True})
        self.header_wrap_left = book.add_format({**header, "align": "left", "text_wrap": True})
        # 49 is Excel's built-in Text format ("@"): `1-0` and `2/3` stay text, not dates
        self.word = book.add_format({"num_format": 49, "align": "center"})
        self.centre = book.add_format({"align": "center"})
        self.wrap = book.add_format({"text_wrap": True, "valign": "top"})
        self.top = book.add_format({"valign": "top"})
        self.value = book.add_format({"num_format": 49, "valign": "top"})
        self.title = book.add_format({"bold": True, "font_size": 14})
        self.title_value = book.add_format({"bold": True, "font_size": 14, "align": "left"})
        self.boxed = book.add_format({"border": 1, "border_color": _BORDER_COLOUR})
        self.big = book.add_format({"font_size": 12, "valign": "vcenter"})
        self.big_centre = book.add_format({"font_size": 12, "valign": "vcenter", "align": "center"})


def _local(names: Sequence[str], language: str) -> list[str]:
    return [local_name(name, language) for name in names]


def _words(words: Sequence[str], language: str) -> list[str]:
    """Dropdown words in the workbook's language (the absence words; others as they are)."""
    return [
        rest_word(Absence(w), language) if w in {a.value for a in Absence} else w for w in words
    ]


def _present_words(language: str) -> list[str]:
    return [present_mark(language), *_words(PRESENT_WORDS[1:], language)]


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def _header_row(
    sheet: Any,
    headers: Sequence[str],
    fmt: _Formats,
    row: int = 0,
    centred: Sequence[int] = (),
    right: Sequence[int] = (),
    wrap: bool = False,
    left: Sequence[int] = (),
) -> None:
    """Bold shaded titles, aligned like the values below them (`wrap`: wrapped, and right
    aligned but for the `left` ones, as a row of numbers' headers with a name among them)."""
    for col, title in enumerate(headers):
        cell_format = (
            (fmt.header_wrap_left if col in left else fmt.header_wrap)
            if wrap
            else fmt.header_centre
            if col in centred
            else fmt.header_right
            if col in right
            else fmt.header
        )
        sheet.write_string(row, col, title, cell_format)


def _print_setup(
    sheet: Any, language: str, landscape: bool = False, title_row: int = 0, fit: bool = True
) -> None:
    """Paper copies for the club notice board: A4, one page wide (`fit`) or at full size,
    header row on every page."""
    if landscape:
        sheet.set_landscape()
    else:
        sheet.set_portrait()
    sheet.set_paper(9)  # A4
    if fit:
        sheet.fit_to_pages(1, 0)
    sheet.repeat_rows(title_row)
    sheet.hide_gridlines(0)  # gridlines on screen and on paper
    sheet.set_header("&L&F&R&A")
    sheet.set_footer(translate("&CPage &P of &N", language))


def _column(sheet: Any, col: int, width: float, cell_format: Any = None) -> None:
    sheet.set_column(col, col, width, cell_format)


def _cell_value(value: object) -> object:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def _players_sheet(
    book: Any, fmt: _Formats, players: Sequence[Mapping[str, object]], language: str = "en"
) -> Any:
    sheet = book.add_worksheet(local_name("Players", language))
    name, rating, joined, left, present = range(len(PLAYERS_HEADERS))
    formats = {present: fmt.word, joined: fmt.centre, left: fmt.centre}
    for col, width in enumerate(_WIDTHS["Players"]):
        _column(sheet, col, width, formats.get(col))
    _header_row(
        sheet,
        _local(PLAYERS_HEADERS, language),
        fmt,
        centred=(joined, left, present),
        right=(rating,),
    )
    sheet.freeze_panes(1, 0)

    sheet.data_validation(
        1,
        name,
        _LAST_ROW,
        name,
        {
            "validate": "custom",
            "value": "=COUNTIF($A:$A,A2)=1",
            "error_type": "warning",
            "error_title": translate("Name used twice", language),
            "error_message": translate(
                "This name is already on the list; each player needs a name of their own.", language
            ),
        },
    )
    sheet.data_validation(
        1,
        rating,
        _LAST_ROW,
        rating,
        {
            "validate": "decimal",
            "criteria": ">=",
            "value": 0,
            "error_type": "warning",
            "error_title": translate("Rating", language),
            "error_message": translate("A rating is a number; blank counts as 0.", language),
        },
    )
    sheet.data_validation(
        1,
        joined,
        _LAST_ROW,
        left,
        {
            "validate": "integer",
            "criteria": ">=",
            "value": 1,
            "error_type": "warning",
            "error_title": translate("Round number", language),
            "error_message": translate("Joined and Left are round numbers.", language),
            "input_title": translate("Round number", language),
            "input_message": translate(
                "Joined: first round the player takes part in (blank: 1).\n"
                "Left: last round (blank: still in).",
                language,
            ),
        },
    )
    sheet.data_validation(
        1,
        present,
        _LAST_ROW,
        present,
        {
            "validate": "list",
            "source": _present_words(language),
            "show_error": False,
            "input_title": translate("Present next round?", language),
            "input_message": translate(
                "x = present (yes, y, 1, ja, ✓ also work).\n"
                "excused, club or unexcused = absent for that reason.\n"
                "Blank (or no, nee, 0) = absent, counted as the Settings' Default absence.",
                language,
            ),
        },
    )

    # `1` for present is fine as text: no green "number stored as text" corners
    letter = column_letters(present + 1)
    sheet.ignore_errors({"number_stored_as_text": f"{letter}2:{letter}{_LAST_ROW + 1}"})
    for row, player in enumerate(players, start=1):
        _write_player(sheet, row, player, formats)
    _print_setup(sheet, language)
    return sheet


def _write_player(
    sheet: Any, row: int, player: Mapping[str, object], formats: dict[int, Any]
) -> None:
    """One Players row; keys are the headers (case and spaces ignored), like the reader."""
    columns = {_key(header): col for col, header in enumerate(PLAYERS_HEADERS)}
    for raw_key, raw in player.items():
        col = columns.get(_key(raw_key))
        if col is None:
            raise ValueError(
                f"'{raw_key}' is not a Players column; use " + ", ".join(PLAYERS_HEADERS)
            )
        value = _cell_value(raw)
        if value is True:
            value = "x"
        if value is None or value is False or value == "":
            continue
        cell_format = formats.get(col)
        if isinstance(value, int | float):
            sheet.write_number(row, col, value, cell_format)
        else:
            sheet.write_string(row, col, str(value), cell_format)


def _rounds_sheet(book: Any, fmt: _Formats, language: str = "en") -> Any:
    sheet = book.add_worksheet(local_name("Rounds", language))
    round_, board, white, black, result = range(len(ROUNDS_HEADERS))
    formats = {round_: fmt.centre, board: fmt.centre, result: fmt.word}
    for col, width in enumerate(_WIDTHS["Rounds"]):
        _column(sheet, col, width, formats.get(col))
    _header_row(sheet, _local(ROUNDS_HEADERS, language), fmt, centred=(round_, board, result))
    sheet.freeze_panes(1, 0)

    sheet.data_validation(
        1,
        round_,
        _LAST_ROW,
        board,
        {
            "validate": "integer",
            "criteria": ">=",
            "value": 1,
            "error_type": "warning",
            "error_title": translate("Number", language),
            "error_message": translate("Round and Board are numbers 1, 2, ...", language),
        },
    )
    players = local_name("Players", language)
    names = f"=OFFSET({players}!$A$2,0,0,MAX(1,COUNTA({players}!$A$2:$A${pairings.ROUNDS_SCAN})),1)"
    sheet.data_validation(
        1,
        white,
        _LAST_ROW,
        black,
        {
            "validate": "list",
            "source": names,
            "show_error": False,
        },
    )
    sheet.data_validation(
        1,
        result,
        _LAST_ROW,
        result,
        {
            "validate": "list",
            "source": _words(RESULT_WORDS, language),
            "show_error": False,
            "input_title": translate("Result", language),
            "input_message": translate(
                "Games: 1-0, 0-1, ½-½ (also 1:0, 1/2, 0.5-0.5 or =).\n"
                "Forfeits: +- (Black did not come), -+, --.\n"
                "Bye and absence rows: bye, excused, club, unexcused.\n"
                "Blank = not played yet.",
                language,
            ),
        },
    )
    _print_setup(sheet, language)
    return sheet


def _standings_sheet(book: Any, fmt: _Formats, language: str = "en") -> Any:
    sheet = book.add_worksheet(local_name("Standings", language))
    headers = _local(STANDINGS_HEADERS, language)
    widths = [
        max(width, _longest_word(title) + 2)
        for width, title in zip(_WIDTHS["Standings"], headers, strict=True)
    ]
    for col, width in enumerate(widths):
        _column(sheet, col, width)
    sheet.set_column(len(widths), len(widths) + _ROUND_COLUMNS - 1, _ROUND_WIDTH)
    # every header cell alike, also those written later (Group, R1, R2, ...): the row's
    # own format, which a cell new in the row takes
    sheet.set_row(0, 2 * _LINE_HEIGHT, fmt.header_wrap)
    _header_row(sheet, headers, fmt, wrap=True, left=(STANDINGS_COLUMNS.index("Name"),))
    sheet.freeze_panes(1, 2)  # rank and name stay in view beside the round columns
    # A4 portrait, scaled so that Rank ... Change, every figure of a player, fill the first
    # page's width with the note below them, whole; R1, R2, ... on the next pages, their
    # rows level with the first page's (a 25-player season of up to 23 rounds: two pages).
    # No column repeats on those pages: the note runs from column A across the first page,
    # and a repeated Rank or Name column would show a cut-off piece of it.
    _print_setup(sheet, language, fit=False)
    sheet.set_margins(left=_SIDE_MARGIN, right=_SIDE_MARGIN)
    first_page = len(STANDINGS_HEADERS)
    sheet.set_print_scale(_scale_to_fit(widths[:first_page]))
    sheet.set_v_pagebreaks([first_page])  # the rounds start a page of their own
    return sheet


_SIDE_MARGIN = 0.4  # inch, left and right of the printed Standings


def _scale_to_fit(widths: Sequence[float]) -> int:
    """The print scale (per cent, at most 100) at which columns of these widths fill the
    width of an A4 portrait page between the Standings' margins."""
    points = sum(7 * width + 5 for width in widths) * 0.75  # a width unit is 7 pixels + 5
    return min(100, int((595 - 2 * _SIDE_MARGIN * 72) / points * 95))  # room for rounding


def _longest_word(title: str) -> int:
    return max((len(word) for word in title.split()), default=0)


def _settings_sheet(book: Any, fmt: _Formats, language: str = "en") -> Any:
    sheet = book.add_worksheet(local_name("Settings", language))
    name_width, value_width, default_width, meaning_width = _WIDTHS["Settings"]
    _column(sheet, 0, name_width, fmt.top)
    _column(sheet, 1, value_width, fmt.value)
    _column(sheet, 2, default_width, fmt.value)
    _column(sheet, 3, meaning_width, fmt.wrap)
    _header_row(sheet, _local(SETTINGS_HEADERS, language), fmt)
    sheet.freeze_panes(1, 0)
    sheet.ignore_errors({"number_stored_as_text": f"B2:B{_LAST_ROW + 1}"})  # `3`, `0.5`
    for row, spec in enumerate(SPECS, start=1):
        name, meaning = local_setting(spec.name, language), translate(spec.meaning, language)
        sheet.write_string(row, 0, name, fmt.top)
        lines = -(-len(meaning) // meaning_width) or 1  # apps do not grow wrapped rows
        if lines > 1:
            sheet.set_row(row, _LINE_HEIGHT * lines)
        default = translate("blank", language) if spec.default == "blank" else spec.default
        sheet.write_string(row, 2, default, fmt.value)  # what blank means
        sheet.write_string(row, 3, meaning, fmt.wrap)
        choices = spec.choices
        if choices:
            sheet.data_validation(
                row,
                1,
                row,
                1,
                {
                    "validate": "list",
                    "source": list(choices),
                    "error_type": "warning",
                    "error_title": name,
                    "error_message": translate(
                        "Use {choices}; blank = the default.", language
                    ).format(choices=", ".join(choices)),
                },
            )
    _print_setup(sheet, language, landscape=True)
    return sheet


def _pairings_sheet(book: Any, fmt: _Formats, language: str = "en") -> Any:
    """Board list of one round for the notice board, computed from Rounds by formulas
    (`keizer_xl.workbook.pairings`, which also gives their values for an empty season).

    Hidden column E holds the Rounds row of each line (0: none), found with SUMPRODUCT,
    which Excel and LibreOffice both evaluate without array entry.
    """
    sheet = book.add_worksheet(local_name(PAIRINGS, language))
    for col, width in enumerate((8, 30, 30, 12)):
        _column(sheet, col, width, fmt.big_centre if col in (0, 3) else fmt.big)
    sheet.set_column(4, 4, 6, None, {"hidden": True})
    stakes = pairings.STAKES_COLUMN - 1  # tonight's stakes, written by `pair` (no formulas)
    sheet.set_column(stakes, stakes, pairings.STAKES_WIDTH, fmt.big)

    sheet.write_string(0, 0, local_name("Round", language), fmt.title)
    sheet.data_validation(
        0,
        1,
        0,
        1,
        {
            "validate": "any",
            "input_title": translate("Round shown", language),
            "input_message": translate(
                "Shows the latest round. Type a round number to print another one.", language
            ),
        },
    )
    top = pairings.TOP - 1  # zero-based row of board 1, below the titles in row 4
    _header_row(
        sheet,
        _local(("Board", "White", "Black", "Result"), language),
        fmt,
        row=top - 1,
        centred=(0, 3),
    )
    sheet.set_row(top - 1, _BIG_HEIGHT)
    for board in range(_BOARDS):
        sheet.set_row(top + board, _BIG_HEIGHT)
    shown = pairings.values([], language)
    for (row, col), formula in pairings.formulas(language).items():
        if row == pairings.ROUND_CELL[0]:
            style = fmt.title_value
        elif col == pairings.ROW_COLUMN:
            style = None
        elif row == pairings.BYE_ROW:
            style = fmt.title if col == 1 else fmt.title_value
        else:
            style = fmt.big_centre if col in (1, 4) else fmt.big
        sheet.write_formula(row - 1, col - 1, formula, style, shown[(row, col)])
    last = top + _BOARDS - 1
    sheet.conditional_format(
        top,
        0,
        last,
        3,
        {
            "type": "formula",
            "criteria": f"=$E{top + 1}<>0",
            "format": fmt.boxed,
        },
    )
    sheet.print_area(0, 0, last, pairings.STAKES_COLUMN - 1)
    sheet.set_portrait()
    sheet.set_paper(9)  # A4
    sheet.fit_to_pages(1, 1)  # all 50 boards on one page, at some 11 points
    sheet.hide_gridlines(2)  # boxes come from the rule above, only around real games
    sheet.set_header("&L&F&R&A")
    return sheet


def _lite_buttons(sheet: Any, language: str) -> None:
    """The buttons of xlwings Lite beside the boards, each a shape that links to the cell
    under it (named after the drawing is written: `_name_shapes`), and below them the cells
    for the last click's message, starting with how to start Lite and what they are for."""
    column = sheetbuttons.COLUMN - 1  # zero-based
    sheet.set_column(column, column, sheetbuttons.WIDTH)
    width = sheetbuttons.BUTTON_WIDTH * 7 + 5  # pixels, as a column of that width
    name = quote_sheetname(local_name(PAIRINGS, language))
    for button in buttons.BUTTONS:
        sheet.insert_textbox(
            button.row - 1,
            column,
            local_name(button.caption, language),
            {
                "width": width,
                "height": 20 * sheetbuttons.BUTTON_ROWS,
                "url": f"internal:{name}!{sheetbuttons.linked_cell(button)}",
                "tip": translate("Runs in xlwings Lite", language),
                "font": {"bold": True, "size": 12, "color": "white"},
                "align": {"vertical": "middle", "horizontal": "center"},
                "fill": {"color": _BUTTON_COLOUR},
                "line": {"color": _BORDER_COLOUR},
            },
        )
    start = translate(
        "To start: Home ▸ Add-ins, add xlwings Lite (once on this computer) "
        "and open it. When it asks whether to trust this workbook's code, "
        "trust it. Wait until it has installed keizer-xl.",
        language,
    )
    then = translate("Click a button: what it did, or what to fix, shows here.", language)
    for n, line in enumerate(sheetbuttons.message_lines(f"{start}\n\n{then}")):
        if line:  # the first click's message takes the place of every line
            sheet.write_string(sheetbuttons.MESSAGE_ROW - 1 + n, column, line)


def _name_shapes(path: Path, names: Sequence[str]) -> None:
    """Give the drawn buttons their names: xlsxwriter calls every text box `TextBox N`,
    and Lite finds a button by its shape's name. The package is written again with each
    member's entry as it was, so that two builds stay byte-identical."""
    with zipfile.ZipFile(path) as old:
        members = [(info, old.read(info)) for info in old.infolist()]
    todo = iter(names)
    pattern = re.compile(rb'(<xdr:cNvPr id="\d+" name=")TextBox \d+"')

    def named(match: re.Match[bytes]) -> bytes:
        return match.group(1) + next(todo).encode() + b'"'

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as new:
        for info, data in members:
            if info.filename.startswith("xl/drawings/drawing"):
                data = pattern.sub(named, data)
            new.writestr(info, data)
    if next(todo, None) is not None:
        raise AssertionError("fewer shapes in the drawing than buttons")
    path.write_bytes(out.getvalue())


def _crosstable_sheet(book: Any, fmt: _Formats, language: str = "en") -> Any:
    """Filled by keizer_xl: a row per player, a column per round (`12w1`, `5b½`, `bye`)."""
    sheet = book.add_worksheet(local_name(CROSSTABLE, language))
    sheet.set_column(0, 0, 6)
    sheet.set_column(1, 1, 26)
    sheet.set_column(2, 2 + _ROUND_COLUMNS, 6, fmt.centre)
    _header_row(sheet, [local_name(h, language) for h in ("Rank", "Name")], fmt, right=(0,))
    sheet.freeze_panes(1, 2)
    _print_setup(sheet, language, landscape=True)
    return sheet


_NO_ZERO = "0;-0;;@"  # a number format that leaves 0 blank


def _progress_sheet(book: Any, fmt: _Formats, language: str = "en") -> Any:
    """Filled by keizer_xl from row 22: every player's rank after every round. Above it a
    native chart of the top ten (rows 23-32), the secretary's to restyle: keizer_xl never
    writes it. A scatter chart with lines, so its round axis grows with the season instead
    of showing every empty round to come; rank 1 is at the top."""
    name = local_name(PROGRESS, language)
    sheet = book.add_worksheet(name)
    header = PROGRESS_HEADER_ROW - 1  # zero-based
    sheet.set_column(0, 0, 6)
    sheet.set_column(1, 1, 26)
    sheet.set_column(2, 2 + _ROUND_COLUMNS, 5, fmt.centre)
    _header_row(
        sheet, [local_name(h, language) for h in ("Rank", "Name")], fmt, row=header, right=(0,)
    )
    sheet.freeze_panes(header + 1, 2)
    chart = book.add_chart({"type": "scatter", "subtype": "straight_with_markers"})
    last = 2 + _ROUND_COLUMNS - 1
    for k in range(PROGRESS_CHARTED):
        row = header + 1 + k
        chart.add_series(
            {
                "name": [name, row, 1],
                "categories": [name, header, 2, header, last],
                "values": [name, row, 2, row, last],
                "marker": {"type": "circle", "size": 4},
                "line": {"width": 2},
            }
        )
    chart.set_title(
        {
            "name": translate("Rank after each round: the top ten", language),
            "name_font": {"size": 12},
        }
    )
    # Both axes start at 0, unlabelled, not at 1: the leader's line at rank 1 and the
    # first round's marks lie inside the plot, not cut in half by its edge.
    chart.set_x_axis(
        {
            "name": local_name("Round", language),
            "min": 0,
            "major_unit": 1,
            "num_format": _NO_ZERO,
            "major_gridlines": {"visible": False},
        }
    )
    chart.set_y_axis(
        {
            "name": local_name("Rank", language),
            "reverse": True,
            "min": 0,
            "crossing": "max",
            "num_format": _NO_ZERO,
            "major_gridlines": {"visible": True, "line": {"color": "#E3E8EE"}},
        }
    )
    chart.set_legend({"position": "right"})
    chart.show_blanks_as("gap")
    sheet.insert_chart(0, 0, chart, {"x_scale": 2.0, "y_scale": 1.38, "x_offset": 4, "y_offset": 4})
    _print_setup(sheet, language, landscape=True, title_row=header)
    return sheet


def build_template(
    path: Path | str,
    players: Sequence[Mapping[str, object]] = (),
    vba_project: bytes | None = None,
    language: str = "en",
    lite: bool = False,
) -> None:
    """Write the club workbook: an .xlsx, or an .xlsm with buttons when VBA is given.

    `players` fills the Players sheet (keys as the English headers). Excel refuses a
    workbook whose extension does not match its content, so the extension must be .xlsm
    exactly when `vba_project` is given. `language` names the sheets, headers, settings and
    buttons (one of `i18n.LANGUAGES`; "en" is the contract's own names). `lite`: an .xlsx
    with the buttons of xlwings Lite on the Pairings sheet.
    """
    target = Path(path)
    macro = vba_project is not None
    if (target.suffix.lower() == ".xlsm") != macro:
        want = ".xlsm (it has macros)" if macro else ".xlsx (it has no macros)"
        raise ValueError(f"{target.name}: the workbook must be saved as {want}")
    if lite and macro:
        raise ValueError(f"{target.name}: a workbook for xlwings Lite is an .xlsx (no macros)")

    made = io.BytesIO()  # written whole at the end: a full disk fails one plain write
    book = xlsxwriter.Workbook(made, {"in_memory": True})
    book.set_properties(
        {
            "title": "Keizer competition",
            "subject": "Chess club Keizer competition",
            "comments": "Players, Rounds, Standings and Settings as keizer_xl reads and writes "
            "them.",
            "created": _CREATED,
        }
    )
    fmt = _Formats(book)
    sheets = [
        _players_sheet(book, fmt, players, language),
        _rounds_sheet(book, fmt, language),
        _standings_sheet(book, fmt, language),
        _settings_sheet(book, fmt, language),
        _pairings_sheet(book, fmt, language),
        _crosstable_sheet(book, fmt, language),
        _progress_sheet(book, fmt, language),
    ]
    if lite:
        _lite_buttons(sheets[SHEETS.index(PAIRINGS)], language)
    if vba_project is not None:
        book.add_vba_project(io.BytesIO(vba_project), is_stream=True)
        book.set_vba_name("ThisWorkbook")
        for sheet, code_name in zip(sheets, CODE_NAMES, strict=True):
            sheet.set_vba_name(code_name)
        for number, (caption, macro_name) in enumerate(BUTTONS):
            sheets[0].insert_button(
                1 + 3 * number,
                len(PLAYERS_HEADERS) + 2,
                {
                    "caption": local_name(caption, language),
                    "macro": macro_name,
                    "width": 150,
                    "height": 36,
                },
            )
    book.close()
    target.write_bytes(made.getvalue())
    if lite:
        from keizer_xl.workbook.liteparts import put_code

        _name_shapes(target, [button.shape for button in buttons.BUTTONS])
        put_code(target, language)  # the code Lite runs, carried inside


def main(argv: list[str] | None = None) -> int:
    """Command line: write the template to OUT (with --vba, an .xlsm with the buttons)."""
    parser = argparse.ArgumentParser(
        prog="python -m keizer_xl.workbook.template", description="Write the empty club workbook."
    )
    parser.add_argument("out", type=Path, help="the .xlsx (or .xlsm with --vba) to write")
    parser.add_argument("--vba", type=Path, help="a vbaProject.bin to embed, with buttons")
    parser.add_argument("--lite", action="store_true", help="with the buttons of xlwings Lite")
    parser.add_argument("--lang", default="en", choices=LANGUAGES, help="the workbook's language")
    args = parser.parse_args(argv)
    try:
        vba = args.vba.read_bytes() if args.vba else None
        args.out.parent.mkdir(parents=True, exist_ok=True)
        build_template(args.out, vba_project=vba, language=args.lang, lite=args.lite)
    except (OSError, ValueError) as exc:
        print(f"keizer_xl.workbook.template: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
