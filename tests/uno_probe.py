"""Open a workbook in headless LibreOffice and print, as JSON, what its macros look like there.

Run with the system Python that has LibreOffice's `uno` module (not the project's venv):
    python3 tests/uno_probe.py BOOK.xlsm

Prints {"libraries": {library: {module: source}}, "vba_mode": bool,
"buttons": [{"sheet", "label", "events": [{"listener", "method", "type", "code"}]}]}.
It starts its own soffice with a throwaway profile and stops that process at the end.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import uno  # type: ignore[import-not-found]
from com.sun.star.beans import PropertyValue  # type: ignore[import-not-found]
from com.sun.star.connection import NoConnectException  # type: ignore[import-not-found]


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


def _libraries(doc: Any) -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    container = doc.BasicLibraries
    for name in container.getElementNames():
        container.loadLibrary(name)
        library = container.getByName(name)
        found[name] = {module: library.getByName(module) for module in library.getElementNames()}
    return found


def _buttons(doc: Any) -> list[dict[str, Any]]:
    buttons: list[dict[str, Any]] = []
    sheets = doc.Sheets
    for index in range(sheets.Count):
        sheet = sheets.getByIndex(index)
        forms = sheet.DrawPage.Forms
        for form_index in range(forms.Count):
            form = forms.getByIndex(form_index)
            for control_index in range(form.Count):
                control = form.getByIndex(control_index)
                events = [
                    {
                        "listener": event.ListenerType,
                        "method": event.EventMethod,
                        "type": event.ScriptType,
                        "code": event.ScriptCode,
                    }
                    for event in form.getScriptEvents(control_index)
                ]
                label = getattr(control, "Label", "") if hasattr(control, "Label") else ""
                buttons.append({"sheet": sheet.Name, "label": label, "events": events})
    return buttons


def probe(book: Path) -> dict[str, Any]:
    """Load `book` hidden and report its Basic/VBA libraries and form buttons."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        raise SystemExit("soffice not found")
    pipe = f"keizer_probe_{uuid.uuid4().hex}"
    with tempfile.TemporaryDirectory() as profile:
        process = subprocess.Popen(
            [
                soffice,
                f"-env:UserInstallation={Path(profile).as_uri()}",
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
            doc = desktop.loadComponentFromURL(
                book.resolve().as_uri(), "_blank", 0, (_prop("Hidden", True),)
            )
            if doc is None:
                raise SystemExit(f"LibreOffice could not load {book}")
            try:
                vba_mode = bool(doc.BasicLibraries.VBACompatibilityMode)
                return {
                    "libraries": _libraries(doc),
                    "vba_mode": vba_mode,
                    "buttons": _buttons(doc),
                }
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


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    os.environ.setdefault("SAL_USE_VCLPLUGIN", "svp")
    print(json.dumps(probe(Path(sys.argv[1])), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
