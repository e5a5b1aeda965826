"""The workbook's buttons in LibreOffice Calc, keizer_xl's side.

LibreOffice's macro (`libreoffice_macro`, installed by `keizer-xl libreoffice`) starts
`python -m keizer_xl.live.libreoffice ENTRY` and answers its requests about the open
document, one line of JSON each way (request {"op", "args"}, reply {"ok"} or {"error"}).
Here the document is given the few parts of an xlwings book that the desktop buttons
use (`live.buttons`): the same reading, planning, writing and message boxes, so a click
in LibreOffice writes what the same click writes in Excel and what `keizer-xl pair` writes
in the file. Nothing is read that the buttons do not ask for: a club's own sheets stay
names only, and a used range past keizer_xl's limits is refused before its values are
fetched.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
from typing import IO, Any

from keizer_xl.workbook.buttons import BUTTONS

__all__ = ["Document", "main"]


class OfficeError(Exception):
    """LibreOffice refused a request (a protected sheet, a cell being edited)."""

    program = "LibreOffice"  # the program the secretary is told refused a write


class Channel:
    """Requests to the macro in LibreOffice, each answered before the next."""

    def __init__(self, replies: IO[bytes], requests: IO[bytes]) -> None:
        self.replies, self.requests = replies, requests

    def ask(self, op: str, *args: Any) -> Any:
        self.requests.write(json.dumps({"op": op, "args": list(args)}).encode() + b"\n")
        self.requests.flush()
        line = self.replies.readline()
        if not line:
            raise OfficeError("LibreOffice stopped answering")
        reply = json.loads(line)
        if "error" in reply:
            raise OfficeError(reply["error"])
        return reply["ok"]


def _cell_value(value: Any) -> Any:
    """A value as xlwings gives it: a date cell as a datetime."""
    if type(value) is dict and "date" in value:
        return dt.datetime.fromisoformat(value["date"])
    return value


class _Engine:
    name = "libreoffice"  # not "remote": `live.buttons` reads and writes plainly


class _App:
    engine = _Engine()

    def __init__(self, channel: Channel) -> None:
        self.channel = channel

    def alert(self, prompt: str, title: str = "", buttons: str = "ok", mode: str = "") -> None:
        self.channel.ask("alert", prompt, title, mode or "info")


class _Range:
    """A block of one sheet, (top, left) to (bottom, right), 1-based."""

    def __init__(self, sheet: Sheet, top: int, left: int, bottom: int, right: int) -> None:
        self.sheet = sheet
        self.top, self.left, self.bottom, self.right = top, left, bottom, right

    @property
    def address(self) -> str:
        from keizer_xl.workbook.xlsx import column_letters

        start = f"${column_letters(self.left)}${self.top}"
        return f"{start}:${column_letters(self.right)}${self.bottom}"

    def options(self, **_: Any) -> _Range:
        return self  # values come two-dimensional, error values as their words

    @property
    def value(self) -> list[list[Any]]:
        rows = self.sheet.book.channel.ask(
            "values", self.sheet.name, self.top, self.left, self.bottom, self.right
        )
        return [[_cell_value(v) for v in row] for row in rows]

    @value.setter
    def value(self, values: list[list[Any]]) -> None:
        self.sheet.book.channel.ask("set", self.sheet.name, self.top, self.left, values)

    def select(self) -> None:
        block = [self.top, self.left, self.bottom, self.right]
        self.sheet.book.channel.ask("show", self.sheet.name, block)


class Sheet:
    def __init__(self, book: Document, name: str) -> None:
        self.book, self.name = book, name

    @property
    def used_range(self) -> _Range:
        return _Range(self, *self.book.channel.ask("used", self.name))

    def range(self, first: tuple[int, int], last: tuple[int, int] | None = None) -> _Range:
        bottom, right = last if last is not None else first
        return _Range(self, *first, bottom, right)

    def clear_contents(self) -> None:
        self.book.channel.ask("clear", self.name)

    def activate(self) -> None:
        self.book.channel.ask("show", self.name, None)


class _Sheets:
    """The document's sheets, their names asked once a click: while the macro runs,
    LibreOffice's window waits, so only keizer_xl's own `add` changes them."""

    def __init__(self, book: Document) -> None:
        self.book = book
        self._known: list[str] | None = None

    def _names(self) -> list[str]:
        if self._known is None:
            self._known = list(self.book.channel.ask("sheets"))
        return self._known

    def __iter__(self) -> Any:
        return iter([Sheet(self.book, name) for name in self._names()])

    def __len__(self) -> int:
        return len(self._names())

    def __getitem__(self, key: int | str) -> Sheet:
        names = self._names()
        if isinstance(key, int):
            return Sheet(self.book, names[key])
        found = next((n for n in names if n.casefold() == key.casefold()), None)
        if found is None:
            raise KeyError(key)
        return Sheet(self.book, found)

    def add(self, name: str, after: Sheet | None = None) -> Sheet:
        names = self._names()
        position = names.index(after.name) + 1 if after is not None else len(names)
        self.book.channel.ask("add_sheet", name, position)
        names.insert(position, name)
        return Sheet(self.book, name)


class Document:
    """The open LibreOffice document, with the parts of an xlwings book `live.buttons` uses."""

    def __init__(self, channel: Channel) -> None:
        self.channel = channel
        self.app = _App(channel)
        self.sheets = _Sheets(self)

    @property
    def fullname(self) -> str:
        """The document's file ("" before it is first saved)."""
        path: str = self.channel.ask("path")
        return path


def main(argv: list[str] | None = None) -> int:
    """Run one button (`Button.entry`) on the document LibreOffice's macro serves."""
    args = sys.argv[1:] if argv is None else argv
    entries = {button.entry for button in BUTTONS}
    if len(args) != 1 or args[0] not in entries:
        print(f"usage: python -m keizer_xl.live.libreoffice {{{','.join(sorted(entries))}}}")
        return 2
    # The requests go out on the real stdout; anything printed goes to stderr instead.
    requests = os.fdopen(os.dup(1), "wb")
    sys.stdout = sys.stderr
    channel = Channel(sys.stdin.buffer, requests)
    from keizer_xl.live import buttons

    getattr(buttons, args[0])(Document(channel))
    return 0


if __name__ == "__main__":
    sys.exit(main())
