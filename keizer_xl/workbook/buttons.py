"""The workbook's buttons, in one table: what each is called and what runs it, in Excel
on the desktop (a macro of the VBA project calling a function of `keizer_xl`) and in
xlwings Lite (a shape linked to a cell, watched by a script of `keizer_xl.lite`).

The template draws the buttons from it, the VBA project names its macros after it, the
Lite scripts and `keizer-xl lite`'s main.py take their names from it; the few places that
cannot be derived from it (the macros' text in templates/vba, the entry points of
`keizer_xl`, `live.buttons` and `keizer_xl.lite`) are held to it by a test. A new button
is one line here (see "Adding a button" in CONTRIBUTING). Imports nothing of keizer_xl: the
command line reads it without loading the workbook code.
"""

from __future__ import annotations

from typing import NamedTuple


class Button(NamedTuple):
    """One button. `caption`: the contract's words, shown in the workbook's language;
    `macro`: the VBA macro the desktop button runs (templates/vba/KeizerXL.bas), which
    calls `keizer_xl.<entry>()`; `script`: the script of `keizer_xl.lite` that Lite runs;
    `shape`: the Lite button's shape name (the same in every language); `row`: the row of
    the cell on the Pairings sheet that the shape links to, under its top edge."""

    caption: str
    macro: str
    entry: str
    script: str
    shape: str
    row: int


# kept as a table by hand (not formatted): one button a line
# fmt: off
BUTTONS = (
    Button("Pair next round", "PairNextRound", "pair_next_round", "pair_next_round",
           "PairNextRound", 2),
    Button("Recalculate", "Recalculate", "recalculate", "recalculate", "Recalculate", 5),
    Button("Undo last pairing", "UndoLastPairing", "undo_last_pairing", "undo_last_pairing",
           "UndoLastPairing", 8),
    Button("Publish", "PublishSite", "publish_site", "publish", "Publish", 11),
)
# fmt: on


def button_named(caption: str) -> Button:
    """The button with this caption (in English, as the contract names it)."""
    return next(button for button in BUTTONS if button.caption == caption)
