"""Clicks on a Lite button, timed inside one Python: run by bench_lite.py inside Pyodide and
in CPython alike (a script, not a test).

As xlwings Lite has it, xlwings is loaded first and is xlwings' server side (its `@script`
registers the scripts); then main.py, the text `keizer-xl lite` prints, is imported: the
first import of keizer_xl. Each click builds the book from the JSON the add-in sends, calls
the script through xlwings' `custom_scripts_call` and takes the actions back, on the same
book every time: the first click also imports what the work needs on its way, the others
are warm.

    python bench/lite_click.py BOOK.json MAIN.py SCRIPT CLICKS OUT.json
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> None:
    book_file, main_file, name, clicks, out = argv
    os.environ["XLWINGS_LICENSE_KEY"] = "noncommercial"  # the remote engine's licence
    os.environ["XLWINGS_ON_SERVER"] = "true"  # xlwings as Lite has it
    sys.path.insert(0, str(ROOT))  # keizer_xl of this checkout, wherever Python runs
    payload = json.loads(Path(book_file).read_text(encoding="utf-8"))

    start = time.perf_counter()
    import xlwings as xw
    from xlwings.server import custom_scripts_call

    loaded = time.perf_counter() - start

    start = time.perf_counter()
    module = types.ModuleType("main")
    exec(compile(Path(main_file).read_text(encoding="utf-8"), "main.py", "exec"), module.__dict__)
    imported = time.perf_counter() - start

    times, said = [], ""
    for _ in range(int(clicks)):
        printed = io.StringIO()
        start = time.perf_counter()
        book = xw.Book(json=payload)
        coroutine = custom_scripts_call(module, name, typehint_to_value={xw.Book: book})
        with contextlib.redirect_stdout(printed):
            try:
                coroutine.send(None)  # a script that is not async never waits
            except StopIteration:
                pass
            else:
                raise SystemExit("the script waited for something")
        json.dumps(book.json())
        times.append(time.perf_counter() - start)
        said = printed.getvalue()
    Path(out).write_text(
        json.dumps(
            {
                "platform": sys.platform,
                "xlwings": loaded,
                "import": imported,
                "clicks": times,
                "said": said,
            }
        ),
        encoding="utf-8",
    )


if __name__ == "__main__":
    main(sys.argv[1:])
