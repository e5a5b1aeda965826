"""keizer_xl's buttons in LibreOffice Calc: the Python macro the workbook's buttons call.

`keizer-xl libreoffice` copies this file into the user's LibreOffice profile (as
keizer_xl_buttons.py in user/Scripts/python), with `PYTHON` set to the Python that has
keizer_xl. The workbook's VBA hands each click here when it runs in LibreOffice
(templates/vba/LibreOfficeBridge.bas). This file runs inside LibreOffice's own Python,
which on Windows and macOS is LibreOffice's private copy, without pip, numpy or keizer_xl:
so it imports only the standard library and LibreOffice's `uno`, and does nothing but
carry requests. The work runs in `PYTHON -m keizer_xl.live.libreoffice ENTRY`, which asks
for sheet names, values, writes and message boxes one line of JSON at a time, as the
desktop buttons ask Excel through xlwings; this file answers each through UNO on the open
document (docs/architecture.md, "LibreOffice's buttons", says why).

Kept to Python 3.8 (the oldest Python a supported LibreOffice brings).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
from typing import IO, Any

PYTHON = ""  # the Python with keizer_xl in it; written in by `keizer-xl libreoffice`
TEXTS: dict[str, dict[str, str]] = {}  # this file's messages in other languages, likewise
MODULE = "keizer_xl.live.libreoffice"
LOG_NAME = "keizer_xl_buttons.log"  # the messages shown, in the profile, for a report
LOG_BYTES = 64_000  # the log keeps its last messages, not every message ever

# LibreOffice's CellFlags: what clearing a sheet's contents removes (values, dates, text
# and formulas, as Excel's ClearContents; notes and formatting stay)
_CONTENTS = 1 | 2 | 4 | 16
_DATETIME = 2  # CellFlags.DATETIME: cells with a date or time format
_ERROR = 4  # FormulaResult.ERROR
_NULL_DATE = dt.datetime(1899, 12, 30)  # day 0 of LibreOffice's (and Excel's) dates


# Each button's function gets the document and the workbook's language from the VBA bridge.


def pair_next_round(document: Any = None, language: str = "en") -> None:
    """The "Pair next round" button."""
    click(document, "pair_next_round", language)


def recalculate(document: Any = None, language: str = "en") -> None:
    """The "Recalculate" button."""
    click(document, "recalculate", language)


def undo_last_pairing(document: Any = None, language: str = "en") -> None:
    """The "Undo last pairing" button."""
    click(document, "undo_last_pairing", language)


def publish_site(document: Any = None, language: str = "en") -> None:
    """The "Publish" button."""
    click(document, "publish_site", language)


g_exportedScripts = (pair_next_round, recalculate, undo_last_pairing, publish_site)


def click(document: Any, entry: str, language: str = "en") -> None:
    """Run keizer_xl for one button on the open document, answering what it asks."""
    if document is None:
        document = XSCRIPTCONTEXT.getDocument()  # type: ignore[name-defined]  # noqa: F821
    office = Office(document)
    title = "keizer_xl"
    if not PYTHON or not os.path.exists(PYTHON):
        office.alert(
            translate(
                "keizer_xl is not set up for LibreOffice on this computer: the Python it was "
                "set up with ({python}) is not there. Run this once in a terminal: "
                "keizer-xl libreoffice",
                language,
            ).format(python=PYTHON or "-"),
            title,
            "critical",
        )
        return
    with tempfile.TemporaryFile() as errors:
        try:
            child = subprocess.Popen(
                [PYTHON, "-m", MODULE, entry],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=errors,
                env=_child_environment(),
                creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0),
            )
        except OSError as exc:
            office.alert(
                translate("keizer_xl could not start {python}: {cause}", language).format(
                    python=PYTHON, cause=exc
                ),
                title,
                "critical",
            )
            return
        with child:  # closes both pipes and waits for keizer_xl to end
            assert child.stdin is not None and child.stdout is not None
            serve(office, child.stdout, child.stdin)
        if child.returncode != 0 and not office.spoke:
            errors.seek(0)
            tail = errors.read()[-2000:].decode("utf-8", "replace").strip()
            office.alert(
                translate(
                    "keizer_xl stopped before it was done; what it wrote is in the workbook, "
                    "not saved. If this keeps happening, run: keizer-xl libreoffice",
                    language,
                )
                + f"\n\n{tail}",
                title,
                "critical",
            )


def translate(message: str, language: str) -> str:
    """One of this file's messages in the workbook's language (English if not there)."""
    translated = TEXTS.get(language, {}).get(message)
    return translated if isinstance(translated, str) and translated else message


def serve(office: Office, requests: IO[bytes], replies: IO[bytes]) -> None:
    """Answer keizer_xl's requests, one JSON line each, until it is done."""
    for line in requests:
        request = json.loads(line)
        try:
            reply = {"ok": office.do(request["op"], request.get("args", []))}
        except Exception as exc:  # the request failed in LibreOffice: keizer_xl says so
            reply = {"error": f"{type(exc).__name__}: {exc}".strip()}
        try:
            replies.write(json.dumps(reply).encode() + b"\n")
            replies.flush()
        except OSError:  # keizer_xl is gone; its exit code tells the rest
            return


def _child_environment() -> dict[str, str]:
    """This process's environment without what points a Python at LibreOffice's own:
    on Windows and macOS LibreOffice sets them for its private Python."""
    env = dict(os.environ)
    for name in ("PYTHONHOME", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONEXECUTABLE"):
        env.pop(name, None)
    env["PYTHONIOENCODING"] = "utf-8"
    return env


class Office:
    """The open document, as keizer_xl asks for it: sheets by name, cells 1-based."""

    def __init__(self, document: Any) -> None:
        self.document = document
        self.spoke = False  # a message box was shown: keizer_xl has said what happened

    def do(self, op: str, args: list[Any]) -> Any:
        handler = getattr(self, "op_" + op, None)
        if handler is None:
            raise ValueError(f"unknown request {op!r}")
        return handler(*args)

    def _sheet(self, name: str) -> Any:
        return self.document.Sheets.getByName(name)

    def op_sheets(self) -> list[str]:
        return list(self.document.Sheets.ElementNames)

    def op_path(self) -> str:
        """The document's file, or "" when it was never saved."""
        if not self.document.hasLocation():
            return ""
        import uno  # type: ignore[import-not-found]

        return str(uno.fileUrlToSystemPath(self.document.getLocation()))

    def op_used(self, name: str) -> list[int]:
        """[top, left, bottom, right] of the sheet's used area (1-based)."""
        cursor = self._sheet(name).createCursor()
        cursor.gotoStartOfUsedArea(False)
        top, left = cursor.RangeAddress.StartRow, cursor.RangeAddress.StartColumn
        cursor.gotoEndOfUsedArea(False)
        bottom, right = cursor.RangeAddress.EndRow, cursor.RangeAddress.EndColumn
        return [top + 1, left + 1, bottom + 1, right + 1]

    def op_values(self, name: str, top: int, left: int, bottom: int, right: int) -> Any:
        """The values of a block: numbers, text, None for empty; a date cell as
        {"date": ISO text} and an error as the text it shows (#N/A, Err:502)."""
        block = self._sheet(name).getCellRangeByPosition(left - 1, top - 1, right - 1, bottom - 1)
        rows = [[None if v == "" else v for v in row] for row in block.getDataArray()]
        for r, c in _cells(block.queryContentCells(_DATETIME), top, left):
            if isinstance(rows[r][c], float):
                when = _NULL_DATE + dt.timedelta(days=rows[r][c])
                rows[r][c] = {"date": when.isoformat()}
        for r, c in _cells(block.queryFormulaCells(_ERROR), top, left):
            rows[r][c] = block.getCellByPosition(c, r).getString()
        return rows

    def op_set(self, name: str, row: int, column: int, values: list[list[Any]]) -> None:
        """Write a block of values (None empties a cell), its top left at (row, column)."""
        height, width = len(values), len(values[0])
        block = self._sheet(name).getCellRangeByPosition(
            column - 1, row - 1, column + width - 2, row + height - 2
        )
        block.setDataArray(tuple(tuple("" if v is None else v for v in line) for line in values))

    def op_clear(self, name: str) -> None:
        self._sheet(name).clearContents(_CONTENTS)

    def op_add_sheet(self, name: str, position: int) -> None:
        self.document.Sheets.insertNewByName(name, position)

    def op_show(self, name: str, block: list[int] | None) -> None:
        """Bring a sheet into view, with a block of it selected."""
        controller = self.document.getCurrentController()
        sheet = self._sheet(name)
        controller.setActiveSheet(sheet)
        if block:
            top, left, bottom, right = block
            controller.select(
                sheet.getCellRangeByPosition(left - 1, top - 1, right - 1, bottom - 1)
            )

    def op_alert(self, text: str, title: str, mode: str) -> None:
        self.alert(text, title, mode)

    def alert(self, text: str, title: str, mode: str) -> None:
        """A message box over the document (headless: none, but the log has it)."""
        self.spoke = True
        _log(title, text)
        try:
            frame = self.document.getCurrentController().getFrame()
            window = frame.getContainerWindow()
            import uno

            toolkit = uno.getComponentContext().ServiceManager.createInstanceWithContext(
                "com.sun.star.awt.Toolkit", uno.getComponentContext()
            )
            kind = uno.Enum(
                "com.sun.star.awt.MessageBoxType", "ERRORBOX" if mode == "critical" else "INFOBOX"
            )
            box = toolkit.createMessageBox(window, kind, 1, title, text)  # 1: an OK button
            box.execute()
        except Exception:  # no window to show it in (headless): the log keeps it
            pass


def _cells(ranges: Any, top: int, left: int) -> Any:
    """Each cell of the ranges LibreOffice found in a block: (row, column) within the block,
    0-based, for a block whose top left is (top, left), 1-based."""
    for address in ranges.RangeAddresses:
        for r in range(address.StartRow, address.EndRow + 1):
            for c in range(address.StartColumn, address.EndColumn + 1):
                yield r - top + 1, c - left + 1


def _log(title: str, text: str) -> None:
    """Keep the message in the profile's keizer_xl_buttons.log, for a report when a box
    was closed too soon; the log keeps its last LOG_BYTES."""
    try:
        folder = _profile_folder()
        if folder is None:
            return
        path = os.path.join(folder, LOG_NAME)
        entry = f"--- {dt.datetime.now():%Y-%m-%d %H:%M:%S} {title}\n{text}\n"
        old = ""
        if os.path.exists(path):
            with open(path, encoding="utf-8", errors="replace") as handle:
                old = handle.read()
        kept = (old + entry)[-LOG_BYTES:]
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(kept)
    except Exception:  # the log is a courtesy; the message box is what counts
        pass


def _profile_folder() -> str | None:
    """The profile's user folder ($(user)), where this macro's log goes."""
    import uno

    context = uno.getComponentContext()
    paths = context.ServiceManager.createInstanceWithContext(
        "com.sun.star.util.PathSubstitution", context
    )
    url = paths.substituteVariables("$(user)", True)
    return str(uno.fileUrlToSystemPath(url))


if __name__ == "__main__":  # pragma: no cover - only LibreOffice runs this file
    sys.exit("This is a LibreOffice macro: set it up with `keizer-xl libreoffice`.")
