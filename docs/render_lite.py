"""Draw docs/lite.png, the picture of a workbook for xlwings Lite in the README and the
guide: the Pairings sheet with its buttons, after a click on Pair next round.

The workbook is what `keizer-xl new --lite` makes, with a few players. The click is the
Lite script itself, on the book xlwings' remote engine builds from the workbook's values
(as the add-in sends them); its message goes into the file with the xlsx writer, and the
round with `keizer-xl pair`'s own code (the same plan the click runs), which also saves the
values of the Pairings sheet's formulas for a viewer that does not recalculate. LibreOffice
prints every sheet on one page each, the buttons too (they are outside the printed area),
and poppler's `pdftoppm` turns the Pairings page into pixels (see render_template.py).

Usage: python docs/render_lite.py [OUT.png]
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from render_template import ROOT, SAMPLE_PLAYERS, _crop, _png, page_pixels, run_render

DEFAULT_OUT = ROOT / "docs" / "lite.png"
PLAYERS = [{k: v for k, v in p.items() if k != "Joined"} for p in SAMPLE_PLAYERS]  # all in
ONE_PAGE_A_SHEET = 'pdf:calc_pdf_Export:{"SinglePageSheets":{"type":"boolean","value":"true"}}'


def clicked_workbook(path: Path) -> None:
    """A Lite workbook after Pair next round: the round, and the click's message."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")  # the remote engine's
    import xlwings
    from python_calamine import CalamineWorkbook

    from keizer_xl import lite
    from keizer_xl.workbook import files, sheetbuttons
    from keizer_xl.workbook.template import build_template
    from keizer_xl.workbook.xlsx import SheetEdit, save_edits

    build_template(path, players=PLAYERS, lite=True)
    read = CalamineWorkbook.from_path(str(path))
    sheets = [
        {
            "name": name,
            "pictures": [],
            "tables": [],
            "values": read.get_sheet_by_name(name).to_python(skip_empty_area=False),
        }
        for name in read.sheet_names
    ]
    book = xlwings.Book(
        json={
            "client": "Microsoft Office Scripts",
            "version": xlwings.__version__,
            "names": [],
            "sheets": sheets,
            "book": {"name": path.name, "active_sheet_index": 0, "selection": "A1"},
        }
    )
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        lite.pair_next_round(book)
    if not said.getvalue().startswith("Round 1 is paired"):
        raise RuntimeError(f"the click failed: {said.getvalue()}")
    names = [sheet["name"] for sheet in sheets]
    (message,) = [
        a
        for a in book.json()["actions"]
        if a["func"] == "setValues"
        and names[a["sheet_position"]] == "Pairings"
        and a["start_column"] == sheetbuttons.COLUMN - 1
    ]  # not tonight's stakes
    files.pair(path)
    save_edits(
        path,
        [
            SheetEdit(
                "Pairings",
                {
                    (message["start_row"] + 1 + r, message["start_column"] + 1): value or None
                    for r, (value,) in enumerate(message["values"])
                },
            )
        ],
        backup=False,
    )


def pairings_page(pdf: Path) -> int:
    """The page that shows the buttons."""
    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        raise RuntimeError("pdftotext (poppler-utils) is not installed")
    page = 1
    while True:
        text = subprocess.run(
            [pdftotext, "-f", str(page), "-l", str(page), str(pdf), "-"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if text.returncode != 0:
            raise RuntimeError("no page of the PDF shows the buttons")
        if "Pair next round" in text.stdout:
            return page
        page += 1


def render(out: Path = DEFAULT_OUT) -> Path:
    """Write the picture of the Pairings sheet with its buttons to `out`."""
    soffice = shutil.which("soffice")
    if soffice is None:
        raise RuntimeError("LibreOffice (soffice) is not installed")
    with tempfile.TemporaryDirectory(prefix="keizer-render-") as tmp:
        workdir = Path(tmp)
        workbook = workdir / "club.xlsx"
        clicked_workbook(workbook)
        subprocess.run(
            [
                soffice,
                f"-env:UserInstallation={(workdir / 'profile').as_uri()}",
                "--headless",
                "--convert-to",
                ONE_PAGE_A_SHEET,
                "--outdir",
                str(workdir),
                str(workbook),
            ],
            check=True,
            capture_output=True,
            timeout=180,
        )
        pdf = workdir / "club.pdf"
        width, height, rgb = page_pixels(pdf, pairings_page(pdf))
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(_png(*_crop(width, height, rgb)))
    return out


def main(argv: list[str] | None = None) -> int:
    return run_render(render, DEFAULT_OUT, "render_lite", argv)


if __name__ == "__main__":
    sys.exit(main())
