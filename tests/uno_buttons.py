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

import contextlib
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import uno  # type: ignore[import-not-found]
from com.sun.star.beans import PropertyValue  # type: ignore[import-not-found]
from com.sun.star.connection import NoConnectException  # type: ignore[import-not-found]

ALWAYS_RUN_MACROS = 4  # com.sun.star.document.MacroExecMode.ALWAYS_EXECUTE_NO_WARN
DATE_FORMAT = 2  # com.sun.star.util.NumberFormat.DATE


def _prop(name: str, value: Any) -> Any:
    prop = PropertyValue()
    prop.Name, prop.Value = name, value
    return prop


def _connect(pipe: str, process: subprocess.Popen[bytes]) -> Any:
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext(
        "com.sun.star.bridge.UnoUrlResolver", local
    )
    deadline = time.monotonic() + 90
    while True:
        try:
            return resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
        except NoConnectException:
            if process.poll() is not None or time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def _button_macros(doc: Any) -> dict[str, str]:
    """The script each form button's click runs, by the macro it names (the captions are
    in the workbook's language): "PairNextRound" -> vnd.sun.star.script:...PairNextRound?..."""
    bound: dict[str, str] = {}
    for index in range(doc.Sheets.Count):
        forms = doc.Sheets.getByIndex(index).DrawPage.Forms
        for form_index in range(forms.Count):
            form = forms.getByIndex(form_index)
            for control_index in range(form.Count):
                for event in form.getScriptEvents(control_index):
                    macro = event.ScriptCode.split("?")[0].rsplit(".", 1)[-1]
                    bound[macro] = event.ScriptCode
    return bound


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


def run(profile: Path, book: Path, steps: list[dict[str, Any]]) -> list[Any]:
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        raise SystemExit("soffice not found")
    pipe = f"keizer_buttons_{uuid.uuid4().hex}"
    process = subprocess.Popen(
        [
            soffice,
            f"-env:UserInstallation={profile.resolve().as_uri()}",
            "--headless",
            "--invisible",
            "--norestore",
            "--nologo",
            "--nodefault",
            f"--accept=pipe,name={pipe};urp;",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    results: list[Any] = []
    try:
        context = _connect(pipe, process)
        desktop = context.ServiceManager.createInstanceWithContext(
            "com.sun.star.frame.Desktop", context
        )
        doc = desktop.loadComponentFromURL(
            book.resolve().as_uri(),
            "_blank",
            0,
            (_prop("Hidden", True), _prop("MacroExecutionMode", ALWAYS_RUN_MACROS)),
        )
        if doc is None:
            raise SystemExit(f"LibreOffice could not load {book}")
        try:
            macros = _button_macros(doc)
            for step in steps:
                ((kind, arg),) = step.items()
                if kind == "set":
                    for sheet, cell, value in arg:
                        _set(doc, sheet, cell, value)
                    results.append(None)
                elif kind == "click":
                    url = macros[arg]
                    started = time.monotonic()
                    doc.getScriptProvider().getScript(url).invoke((), (), ())
                    results.append({"url": url, "seconds": time.monotonic() - started})
                elif kind == "macro":
                    url = (
                        f"vnd.sun.star.script:keizer_xl_buttons.py${arg}"
                        "?language=Python&location=user"
                    )
                    started = time.monotonic()
                    doc.getScriptProvider().getScript(url).invoke((doc,), (), ())
                    results.append({"url": url, "seconds": time.monotonic() - started})
                elif kind == "basic":
                    name, *args = arg
                    url = f"vnd.sun.star.script:VBAProject.{name}?language=Basic&location=document"
                    answer, _, _ = (
                        doc.getScriptProvider().getScript(url).invoke(tuple(args), (), ())
                    )
                    results.append({"url": url, "answer": answer})
                elif kind == "copy":
                    doc.storeToURL(
                        Path(arg).resolve().as_uri(),
                        (_prop("FilterName", "Calc Office Open XML"),),
                    )
                    results.append(None)
                elif kind == "state":
                    lock = book.with_name(f".~lock.{book.name}#")
                    results.append({"modified": bool(doc.isModified()), "lock": lock.exists()})
                else:
                    raise SystemExit(f"unknown step {kind}")
        finally:
            doc.close(True)
            with contextlib.suppress(Exception):  # the bridge drops as soffice exits
                desktop.terminate()
    finally:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return results


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    os.environ.setdefault("SAL_USE_VCLPLUGIN", "svp")
    steps = json.loads(Path(sys.argv[3]).read_text(encoding="utf-8"))
    print(json.dumps(run(Path(sys.argv[1]), Path(sys.argv[2]), steps)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
