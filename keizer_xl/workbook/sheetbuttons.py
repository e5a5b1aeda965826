"""The buttons of a workbook for xlwings Lite, and the cells that show their messages.

Shared by the template, which draws them (`keizer-xl new --lite`), and `keizer_xl.lite`,
whose scripts they run. Office add-ins cannot tie a button to a script, so Lite watches a
cell instead: each button is a shape with a link to the cell under it, and clicking it
selects that cell, which runs the script whose `button` names the shape and the cell
(`[PairNextRound]Pairings!G2`). Lite has no message boxes either, so each click's message
goes to the cells below the buttons. All of it sits on the Pairings sheet beside the
boards, outside the printed area: the sheet a club night is spent on. The buttons
themselves, with their shapes' names and rows, are the one table of `workbook.buttons`.
"""

from __future__ import annotations

import textwrap

from keizer_xl.i18n.names import local_name
from keizer_xl.workbook.buttons import Button
from keizer_xl.workbook.pairings import PAIRINGS
from keizer_xl.workbook.xlsx import column_letters

COLUMN = 7  # G: the buttons' column, and the messages'
WIDTH = 72  # its width, in characters: room for a message's lines
BUTTON_WIDTH = 36  # a button's width, in characters of the column
MESSAGE_WIDTH = 64  # characters a line of a message holds; longer lines are wrapped
BUTTON_ROWS = 2  # each shape covers its cell and the one below, which Lite selects next
MESSAGE_ROW = 14  # the first line of the last click's message
MESSAGE_LINES = 40  # lines shown; a longer message is cut short (the output pane has it)


def linked_cell(button: Button) -> str:
    """The cell the button's shape links to, on its own sheet: `G2`."""
    return f"{column_letters(COLUMN)}{button.row}"


def reference(button: Button, language: str) -> str:
    """The button as Lite's `@script(button=...)` names it, on a workbook in `language`:
    `[PairNextRound]Pairings!G2`."""
    return f"[{button.shape}]{local_name(PAIRINGS, language)}!{linked_cell(button)}"


def message_lines(text: str) -> list[str]:
    """A message as the cells below the buttons show it: a line a cell, each line of the
    text wrapped to the column (`MESSAGE_WIDTH`), blank lines kept."""
    return [
        part
        for line in text.split("\n")
        for part in textwrap.wrap(line, MESSAGE_WIDTH, break_on_hyphens=False) or [""]
    ]
