"""Clicks on the workbook's buttons as xlwings Lite makes them: the same script under
CPython and inside Pyodide, so that the tests can compare the two.

Lite's Python is xlwings' server side (`XLWINGS_ON_SERVER`): its `@script` registers the
scripts of main.py, and a click builds the book from the JSON the add-in sends
(`xw.Book(json=...)`), calls the script through `custom_scripts_call` and sends the actions
the book collected back to Excel. Here main.py is the text `keizer-xl lite` prints, the
JSON comes from the workbook's values (`tests.live.test_live.Excel`), and the actions are
applied to those values before the next click, as Excel would.

    python tests/lite/drive.py SESSIONS.json OUT.json

SESSIONS: [{"main": main.py's text, "sheets": {name: rows}, "clicks": [script names]}].
OUT: the xlwings release that ran; per session the scripts' metadata as Lite reads it, the
seconds main.py took to import, and per click the script, the actions, what it printed and
its seconds.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import time
import types
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def finished(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """The value of a coroutine that never waits (a script that is not async): Pyodide in
    node has no event loop to run it on."""
    try:
        coroutine.send(None)
    except StopIteration as stop:
        return stop.value
    coroutine.close()
    raise AssertionError("the script waited for something")


def session(plan: dict[str, Any]) -> dict[str, Any]:
    import xlwings as xw
    from xlwings.server import custom_scripts_call, custom_scripts_meta

    start = time.perf_counter()
    main = types.ModuleType("main")
    exec(compile(plan["main"], "main.py", "exec"), main.__dict__)
    imported = time.perf_counter() - start

    from tests.live.test_live import Excel

    excel = Excel(plan["sheets"])
    clicks = []
    for name in plan["clicks"]:
        printed = io.StringIO()
        start = time.perf_counter()
        book = xw.Book(json=excel.json())
        with contextlib.redirect_stdout(printed):
            finished(custom_scripts_call(main, name, typehint_to_value={xw.Book: book}))
        actions = json.loads(json.dumps(book.json()))["actions"]
        seconds = time.perf_counter() - start
        excel.apply(actions)
        clicks.append(
            {"script": name, "actions": actions, "said": printed.getvalue(), "seconds": seconds}
        )
    return {
        "scripts": custom_scripts_meta(main),
        "import": imported,
        "clicks": clicks,
        "sheets": excel.sheets,
    }


def main(argv: list[str]) -> None:
    os.environ["XLWINGS_LICENSE_KEY"] = "noncommercial"  # the remote engine's licence
    os.environ["XLWINGS_ON_SERVER"] = "true"  # xlwings as Lite has it: `script` registers
    sys.path.insert(0, str(ROOT))
    start = time.perf_counter()
    import xlwings  # Lite has it loaded before main.py

    xlwings_import = time.perf_counter() - start
    plans = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    out = {
        "platform": sys.platform,
        "xlwings": xlwings_import,
        "xlwings_version": xlwings.__version__,
        "sessions": [session(plan) for plan in plans],
    }
    Path(argv[1]).write_text(json.dumps(out), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
