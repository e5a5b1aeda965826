"""The workbook's buttons in xlwings Lite: Excel on a Mac, on the web, and on a PC where
nothing may be installed.

xlwings Lite, an add-in from Excel's add-in store, runs Python inside Excel (Pyodide) and
calls a script with the open workbook as an `xw.Book`; these are the scripts. A workbook
from `keizer-xl new --lite` carries the few lines of Lite's main.py that take them
(`workbook.liteparts`). They do the desktop buttons' work
through the same code (`live.buttons` on the plans of `workbook.plans`), so they write the
same cells, and nothing in them depends on where Python runs. What differs is how they
speak: Lite shows no message boxes, so each click's message goes to the cells below the
buttons (`workbook.sheetbuttons`) and to Lite's output pane, and a refusal writes nothing
else. Publish has no folder to put web pages in: it puts the text for the group chat on
a sheet of its own, to copy from.

The scripts below name their buttons on an English workbook; Lite finds a button by its
sheet's name, so a workbook in another language gets its own (`scripts`).
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable
from typing import Any

import xlwings as xw
from xlwings import script

from keizer_xl.i18n import say, translate
from keizer_xl.i18n.names import local_name, name_key, sheet_names
from keizer_xl.live.buttons import (
    book_language,
    failure_message,
    pair_in,
    read_grids,
    recalc_in,
    taken_back,
    unpair_in,
    write,
)
from keizer_xl.workbook.buttons import BUTTONS, button_named
from keizer_xl.workbook.cells import Cell, CellValue, SheetCells
from keizer_xl.workbook.pairings import PAIRINGS
from keizer_xl.workbook.sheetbuttons import (
    COLUMN,
    MESSAGE_LINES,
    MESSAGE_ROW,
    message_lines,
    reference,
)

CHAT = "Chat"  # the sheet Publish puts the group chat's text on

__all__ = ["pair_next_round", "publish", "recalculate", "scripts", "undo_last_pairing"]


def _button(caption: str) -> str:
    return reference(button_named(caption), "en")


@script(button=_button("Pair next round"))
def pair_next_round(book: xw.Book) -> None:
    """Pair next round: pair the players marked present, add the round to the Rounds
    sheet and rewrite the Standings, as `keizer-xl pair` does."""
    _run(book, _pair, "Pair next round")


@script(button=_button("Recalculate"))
def recalculate(book: xw.Book) -> None:
    """Recalculate: the Standings after the last completed round, as `keizer-xl recalc`."""
    _run(book, _recalc, "Recalculate")


@script(button=_button("Undo last pairing"))
def undo_last_pairing(book: xw.Book) -> None:
    """Undo last pairing: take back the last round while it has no results, as
    `keizer-xl unpair` does."""
    _run(book, _unpair, "Undo last pairing")


@script(button=_button("Publish"))
def publish(book: xw.Book) -> None:
    """Publish: the standings and the latest round as text for the group chat, on the
    Chat sheet, as `keizer-xl publish --text` prints them."""
    _run(book, _publish, "Publish")


_SCRIPTS: tuple[tuple[str, Callable[..., Any]], ...] = tuple(
    (button.caption, globals()[button.script]) for button in BUTTONS
)  # the scripts above


def scripts(language: str) -> tuple[Callable[..., Any], ...]:
    """The four scripts, in the order above, with their buttons on a workbook in
    `language`: `pair_next_round, recalculate, undo_last_pairing, publish =
    scripts("nl")` in Lite's main.py."""
    return tuple(
        script(button=reference(button_named(caption), language))(inspect.unwrap(function))
        for caption, function in _SCRIPTS
    )


# -- the work, said in the workbook's language ---------------------------------------------


def _run(book: Any, work: Callable[[Any, str], str], button: str) -> None:
    """Do the work and tell what came of it; every failure is a message, never a
    traceback, and leaves the workbook as it was."""
    language = book_language(book)
    try:
        said = work(book, language)
    except Exception as exc:
        said = failure_message(exc, button, language)
    tell(book, said, language)


def _pair(book: Any, language: str) -> str:
    written = pair_in(book)
    return _with_notes(
        translate(
            "Round {round} is paired: its boards are on this sheet, its "
            "rows at the bottom of the Rounds sheet.",
            language,
        ).format(round=written.round),
        written.notes,
        language,
    )


def _recalc(book: Any, language: str) -> str:
    written = recalc_in(book)
    done = (
        translate("The Standings are up to date: after round {round}.", language).format(
            round=written.round
        )
        if written.round
        else translate(
            "The Standings show the initial ranking: no round is complete yet.", language
        )
    )
    return _with_notes(done, written.notes, language)


def _unpair(book: Any, language: str) -> str:
    return taken_back(unpair_in(book).round, language)


def _publish(book: Any, language: str) -> str:
    """The chat text on the Chat sheet (made when missing), one line a row in column A:
    selected and copied, the rows paste as lines."""
    from keizer_xl.publish.book import competition_report
    from keizer_xl.publish.text import report_text
    from keizer_xl.workbook.layout import read_book

    competition, _ = read_book(read_grids(book))  # BookError names the cells
    report, titles = competition_report(competition, language)
    lines = report_text(report, titles).rstrip("\n").split("\n")
    found = _sheet(book, CHAT)
    sheet = found or local_name(CHAT, language)
    write(
        book,
        [
            SheetCells(
                CHAT,
                sheet,
                {(row, 1): line or None for row, line in enumerate(lines, start=1)},
                clear=True,
                create=found is None,
            )
        ],
    )
    return translate(
        "The text for the group chat is on the sheet '{sheet}': select its "
        "column A, copy, and paste it into the chat.",
        language,
    ).format(sheet=sheet)


def _with_notes(done: str, notes: list[Any], language: str) -> str:
    return "\n\n".join([done, *(say(note, language) for note in notes)])


# -- telling the secretary -----------------------------------------------------------------


def tell(book: Any, text: str, language: str) -> None:
    """The message in Lite's output pane and in the cells below the buttons (where the
    workbook has them), in place of the last one: a line a cell, wrapped to the column."""
    print(text)
    sheet = _sheet(book, PAIRINGS)
    if sheet is None:
        return
    lines = message_lines(text)
    if len(lines) > MESSAGE_LINES:
        lines = [
            *lines[: MESSAGE_LINES - 1],
            translate(
                "... and more: the whole message is in xlwings Lite's output pane.", language
            ),
        ]
    lines += [""] * (MESSAGE_LINES - len(lines))
    cells: dict[Cell, CellValue] = {
        (MESSAGE_ROW + n, COLUMN): line or None for n, line in enumerate(lines)
    }
    with contextlib.suppress(Exception):  # the output pane has said it already
        write(book, [SheetCells(PAIRINGS, sheet, cells)])


def _sheet(book: Any, name: str) -> str | None:
    """The name of the workbook's sheet that is `name` in any language, if it has one."""
    wanted = sheet_names(name)
    return next((sheet.name for sheet in book.sheets if name_key(sheet.name) in wanted), None)
