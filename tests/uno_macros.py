"""Open workbooks in one headless LibreOffice and run their macros; print what came of it.

Run with the system Python that has LibreOffice's `uno` module (not the project's venv):
    python3 tests/uno_macros.py PROFILE JOB.json

PROFILE is the LibreOffice user profile folder to start with (keizer_xl's Python macro, or a
stand-in for it, goes in its user/Scripts/python/). JOB.json lists the workbooks:
[{"book": path, "calls": [script URL, ...], "buttons": bool, "cell": "Z1", "module": name}].
Each workbook is loaded with macros allowed, each URL invoked with no arguments, then (with
"buttons") the macro each form button is bound to, in the buttons' order; "cell" of the
first sheet is read at the end. Prints, per workbook, {"results": [[url, value or null,
error or null]], "cell": its text, "module": the text LibreOffice holds of that module of
the VBAProject library}. Starts its own soffice and stops that process at the end.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from uno_office import form_buttons, load, office


def _bound_macros(doc: Any) -> list[str]:
    """The script URL of every form button's event, sheet by sheet, in the forms' order."""
    return [event.ScriptCode for _, _, events in form_buttons(doc) for event in events]


def _run(doc: Any, url: str) -> list[Any]:
    try:
        value = doc.getScriptProvider().getScript(url).invoke((), (), ())[0]
    except Exception as exc:
        return [url, None, f"{type(exc).__name__}: {exc}"]
    return [url, value if isinstance(value, (str, int, float, bool)) else None, None]


def run_job(desktop: Any, job: dict[str, Any]) -> dict[str, Any]:
    """Load one workbook, run its calls and buttons, read its cell, close it unsaved."""
    doc = load(desktop, Path(job["book"]))
    try:
        urls = list(job.get("calls", []))
        if job.get("buttons"):
            urls += _bound_macros(doc)
        results = [_run(doc, url) for url in urls]
        cell = doc.Sheets.getByIndex(0).getCellRangeByName(job.get("cell", "Z1")).getString()
        module = None
        if job.get("module"):
            doc.BasicLibraries.loadLibrary("VBAProject")
            module = doc.BasicLibraries.getByName("VBAProject").getByName(job["module"])
        return {"results": results, "cell": cell, "module": module}
    finally:
        doc.close(True)


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    profile, jobs = Path(sys.argv[1]), json.loads(Path(sys.argv[2]).read_text("utf-8"))
    with office(profile) as desktop:
        print(json.dumps([run_job(desktop, job) for job in jobs], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
