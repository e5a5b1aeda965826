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

import contextlib
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

ALWAYS_EXECUTE_NO_WARN = 4  # com.sun.star.document.MacroExecMode


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


def _bound_macros(doc: Any) -> list[str]:
    """The script URL of every form button's event, sheet by sheet, in the forms' order."""
    found: list[str] = []
    sheets = doc.Sheets
    for index in range(sheets.Count):
        forms = sheets.getByIndex(index).DrawPage.Forms
        for form_index in range(forms.Count):
            form = forms.getByIndex(form_index)
            for control_index in range(form.Count):
                found += [event.ScriptCode for event in form.getScriptEvents(control_index)]
    return found


def _run(doc: Any, url: str) -> list[Any]:
    try:
        value = doc.getScriptProvider().getScript(url).invoke((), (), ())[0]
    except Exception as exc:
        return [url, None, f"{type(exc).__name__}: {exc}"]
    return [url, value if isinstance(value, (str, int, float, bool)) else None, None]


def run_job(desktop: Any, job: dict[str, Any]) -> dict[str, Any]:
    """Load one workbook, run its calls and buttons, read its cell, close it unsaved."""
    doc = desktop.loadComponentFromURL(
        Path(job["book"]).resolve().as_uri(),
        "_blank",
        0,
        (_prop("Hidden", True), _prop("MacroExecutionMode", ALWAYS_EXECUTE_NO_WARN)),
    )
    if doc is None:
        raise SystemExit(f"LibreOffice could not load {job['book']}")
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
    os.environ.setdefault("SAL_USE_VCLPLUGIN", "svp")
    profile, jobs = Path(sys.argv[1]), json.loads(Path(sys.argv[2]).read_text("utf-8"))
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        raise SystemExit("soffice not found")
    pipe = f"keizer_macros_{uuid.uuid4().hex}"
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
    try:
        context = _connect(pipe, process)
        desktop = context.ServiceManager.createInstanceWithContext(
            "com.sun.star.frame.Desktop", context
        )
        try:
            print(json.dumps([run_job(desktop, job) for job in jobs], indent=1))
        finally:
            with contextlib.suppress(Exception):  # the bridge drops as soffice exits
                desktop.terminate()
    finally:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
