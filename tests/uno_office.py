"""Headless LibreOffice for the scripts that drive it (uno_probe, uno_macros, uno_buttons):
start soffice with a profile, connect over a pipe, load workbooks with their macros
allowed, find what the form buttons run, and stop soffice at the end.

Imported by those scripts, which run with the system Python that has LibreOffice's `uno`
module (not the project's venv); pytest never imports it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uno  # type: ignore[import-not-found]
from com.sun.star.beans import PropertyValue  # type: ignore[import-not-found]
from com.sun.star.connection import NoConnectException  # type: ignore[import-not-found]

ALWAYS_EXECUTE_NO_WARN = 4  # com.sun.star.document.MacroExecMode: macros run, unasked


def prop(name: str, value: Any) -> Any:
    """A PropertyValue, as UNO's load and store calls take their options."""
    made = PropertyValue()
    made.Name, made.Value = name, value
    return made


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


@contextlib.contextmanager
def office(profile: Path | None = None) -> Iterator[Any]:
    """A headless soffice of its own (with `profile`, or a throwaway one): its Desktop."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        raise SystemExit("soffice not found")
    os.environ.setdefault("SAL_USE_VCLPLUGIN", "svp")
    with contextlib.ExitStack() as stack:
        if profile is None:
            profile = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        pipe = f"keizer_office_{uuid.uuid4().hex}"
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
                yield desktop
            finally:
                with contextlib.suppress(Exception):  # the bridge drops as soffice exits
                    desktop.terminate()
        finally:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def load(desktop: Any, book: Path, macros: bool = True) -> Any:
    """The workbook opened hidden; with `macros`, its macros allowed to run unasked."""
    options = [prop("Hidden", True)]
    if macros:
        options.append(prop("MacroExecutionMode", ALWAYS_EXECUTE_NO_WARN))
    doc = desktop.loadComponentFromURL(book.resolve().as_uri(), "_blank", 0, tuple(options))
    if doc is None:
        raise SystemExit(f"LibreOffice could not load {book}")
    return doc


def form_buttons(doc: Any) -> Iterator[tuple[str, Any, list[Any]]]:
    """Every form control, sheet by sheet in the forms' order: (sheet, control, its events)."""
    for index in range(doc.Sheets.Count):
        sheet = doc.Sheets.getByIndex(index)
        forms = sheet.DrawPage.Forms
        for form_index in range(forms.Count):
            form = forms.getByIndex(form_index)
            for control_index in range(form.Count):
                events = list(form.getScriptEvents(control_index))
                yield sheet.Name, form.getByIndex(control_index), events
