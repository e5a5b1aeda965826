"""Click a workbook's buttons in headless LibreOffice, as a secretary would in Calc.

Run with the system Python that has LibreOffice's `uno` module (not the project's venv):
    python3 tests/uno_buttons.py PROFILE BOOK STEPS.json

PROFILE is the LibreOffice profile to start soffice with (the test puts keizer_xl's macro
in it); BOOK is opened once, macros allowed, and the steps run on the open document:
  {"set": [[sheet, "E2", value], ...]}     type values ({"date": ISO}, {"formula": F})
  {"click": "PairNextRound"}               fire the form button bound to that macro
  {"macro": "pair_next_round"}             call keizer_xl's Python macro itself, with the document
  {"basic": ["Module.Function", arg, ...]} call a function of the workbook's VBA, its answer
  {"copy": "out.xlsx"}                     save a copy (the document itself stays unsaved)
  {"state": null}                          report modified flag and LibreOffice's lock file
Prints a JSON list with one result per step. Starts its own soffice and stops it.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
import time
from pathlib import Path
from typing import Any

from uno_office import form_buttons, load, office, prop

DATE_FORMAT = 2  # com.sun.star.util.NumberFormat.DATE


def _button_macros(doc: Any) -> dict[str, str]:
    """The script each form button's click runs, by the macro it names (the captions are
    in the workbook's language): "PairNextRound" -> vnd.sun.star.script:...PairNextRound?..."""
    return {
        event.ScriptCode.split("?")[0].rsplit(".", 1)[-1]: event.ScriptCode
        for _, _, events in form_buttons(doc)
        for event in events
    }


def _set(doc: Any, sheet: str, cell: str, value: Any) -> None:
    """Type a value; {"date": "2026-12-01"} is a date, formatted as one, and
    {"formula": "=NA()"} a formula."""
    target = doc.Sheets.getByName(sheet).getCellRangeByName(cell)
    if isinstance(value, dict) and "formula" in value:
        target.setFormula(value["formula"])
    elif isinstance(value, dict):
        from com.sun.star.lang import Locale  # type: ignore[import-not-found]

        day = dt.date.fromisoformat(value["date"]) - dt.date(1899, 12, 30)
        target.setValue(day.days)
        target.NumberFormat = doc.NumberFormats.getStandardFormat(DATE_FORMAT, Locale())
    elif value is None:
        target.setString("")
    elif isinstance(value, str):
        target.setString(value)
    else:
        target.setValue(value)


def _step(doc: Any, book: Path, macros: dict[str, str], kind: str, arg: Any) -> Any:
    """One step on the open document; what it gives back (None for most)."""
    scripts = doc.getScriptProvider()
    if kind == "set":
        for sheet, cell, value in arg:
            _set(doc, sheet, cell, value)
        return None
    if kind in ("click", "macro", "basic"):
        args: tuple[Any, ...] = ()
        if kind == "click":
            url = macros[arg]
        elif kind == "macro":
            url = f"vnd.sun.star.script:keizer_xl_buttons.py${arg}?language=Python&location=user"
            args = (doc,)
        else:
            name, *rest = arg
            url = f"vnd.sun.star.script:VBAProject.{name}?language=Basic&location=document"
            args = tuple(rest)
        started = time.monotonic()
        answer, _, _ = scripts.getScript(url).invoke(args, (), ())
        done = {"url": url, "seconds": time.monotonic() - started}
        return {**done, "answer": answer} if kind == "basic" else done
    if kind == "copy":
        doc.storeToURL(Path(arg).resolve().as_uri(), (prop("FilterName", "Calc Office Open XML"),))
        return None
    if kind == "state":
        lock = book.with_name(f".~lock.{book.name}#")
        return {"modified": bool(doc.isModified()), "lock": lock.exists()}
    raise SystemExit(f"unknown step {kind}")


def run(profile: Path, book: Path, steps: list[dict[str, Any]]) -> list[Any]:
    with office(profile) as desktop:
        doc = load(desktop, book)
        try:
            macros = _button_macros(doc)
            return [_step(doc, book, macros, *next(iter(step.items()))) for step in steps]
        finally:
            doc.close(True)


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    steps = json.loads(Path(sys.argv[3]).read_text(encoding="utf-8"))
    print(json.dumps(run(Path(sys.argv[1]), Path(sys.argv[2]), steps)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
