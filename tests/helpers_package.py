"""Helpers for the package-writer tests: fixture copies, an independent look inside the zip
package, the edits the product makes, and LibreOffice headless.

Kept free of heavy imports: the kill test starts fresh interpreters that import this module.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
import zipfile
from fractions import Fraction
from pathlib import Path

from defusedxml.ElementTree import fromstring

from keizer_xl.workbook.xlsx import CellValue, SheetEdit, save_edits

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).parent.parent
WORKBOOKS = ["club.xlsm", "club_libreoffice.xlsm"]
REL_NS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
PKG_NS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
MAIN_NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"

Grid = dict[tuple[int, int], CellValue]


def copy_fixture(name: str, folder: Path, as_name: str = "club.xlsm") -> Path:
    target = folder / as_name
    shutil.copyfile(FIXTURES / name, target)
    return target


def members(path: Path) -> dict[str, bytes]:
    """Every zip member's content, by name."""
    with zipfile.ZipFile(path) as package:
        return {info.filename: package.read(info) for info in package.infolist()}


def entries(path: Path) -> list[tuple[str, tuple[int, ...], int, int]]:
    """What a zip entry carries besides its content: name, date, compression, attributes."""
    with zipfile.ZipFile(path) as package:
        return [
            (i.filename, i.date_time, i.compress_type, i.external_attr) for i in package.infolist()
        ]


def sheet_parts(path: Path) -> dict[str, str]:
    """Sheet name -> zip member, read straight from workbook.xml and its relationships."""
    with zipfile.ZipFile(path) as package:
        book = fromstring(package.read("xl/workbook.xml"))
        rels = fromstring(package.read("xl/_rels/workbook.xml.rels"))
    targets = {r.get("Id"): r.get("Target") for r in rels.iter(f"{PKG_NS}Relationship")}
    found = {}
    for sheet in book.iter(f"{MAIN_NS}sheet"):
        target = targets[sheet.get(f"{REL_NS}id")].lstrip("/")
        found[sheet.get("name")] = target if target.startswith("xl/") else "xl/" + target
    return found


def outside_cells(sheet_xml: bytes) -> bytes:
    """The worksheet markup with the cell data and the dimension's range taken out."""
    cells = re.compile(rb"<sheetData(?:\s[^>]*)?(?:/>|>.*?</sheetData>)", re.S)
    text = cells.sub(b"<sheetData/>", sheet_xml)
    return re.sub(rb'<dimension ref="[^"]*"/>', b"<dimension/>", text)


def rows_markup(sheet_xml: bytes) -> dict[int, bytes]:
    """Each `<row>` element's exact markup, by row number."""
    found = re.finditer(rb'<row r="([0-9]+)"[^>]*?(?:/>|>.*?</row>)', sheet_xml, re.S)
    return {int(m.group(1)): m.group(0) for m in found}


def cell_xml(path: Path, sheet: str, ref: str) -> dict[str, str] | None:
    """The attributes of one `<c>` element (None when the cell is not in the file)."""
    data = members(path)[sheet_parts(path)[sheet]]
    for cell in fromstring(data).iter(f"{MAIN_NS}c"):
        if cell.get("r") == ref:
            return dict(cell.attrib)
    return None


def column_style(path: Path, sheet: str, column: int) -> str | None:
    data = members(path)[sheet_parts(path)[sheet]]
    for col in fromstring(data).iter(f"{MAIN_NS}col"):
        if int(col.get("min")) <= column <= int(col.get("max")):
            style: str | None = col.get("style")
            return style
    return None


# ---------------------------------------------------------------------------------------
# What the product writes after pairing round 2 (the fixtures hold round 1)

ROUND_2 = [
    (2, 1, "Anna de Vries", "Eva Smit", None),
    (2, 2, "Bram Jansen", "Daan Visser", None),
    (2, None, "Carla Bakker", None, "excused"),
]
STANDINGS_HEADER = [
    "Rank", "Name", "Score", "Value", "Played", "Won", "Drawn", "Lost", "Byes", "Absent",
    "Rating", "R1", "R2",
]  # fmt: skip
STANDINGS_ROWS: list[list[CellValue]] = [
    [1, "Anna de Vries", Fraction(184, 3), 60, 1, 1, 0, 0, 0, 0, 1850, 59, None],
    [2, "Carla Bakker", Fraction(343, 6), 59, 1, 0, 1, 0, 0, 0, 1695, 29.5, None],
    [3, "Eva Smit", Fraction(170, 3), 58, 1, 0, 1, 0, 0, 0, 1480, 28.5, None],
    [4, "Daan Visser", Fraction(57, 1), 57, 0, 0, 0, 0, 0, 1, 1540, 19, None],
    [5, "Bram Jansen", 56, 56, 1, 0, 0, 1, 0, 0, 1720, 0, None],
]
TOP_VALUE_CELL = (2, 2)  # Settings: the Value of "Top value"


def product_edits() -> list[SheetEdit]:
    """Append round 2 to Rounds, rewrite Standings, set Top value (sheet names in odd case)."""
    rounds: Grid = {}
    for row, entry in enumerate(ROUND_2, start=5):
        for column, item in enumerate(entry, start=1):
            rounds[(row, column)] = item
    standings: Grid = {(1, c): h for c, h in enumerate(STANDINGS_HEADER, start=1)}
    for row, values in enumerate(STANDINGS_ROWS, start=2):
        for column, value in enumerate(values, start=1):
            standings[(row, column)] = value
    return [
        SheetEdit("Rounds", rounds),
        SheetEdit("standings", standings, clear_below=1),
        SheetEdit("SETTINGS", {TOP_VALUE_CELL: 40}),
    ]


def expected_grid(
    before: dict[tuple[int, int], object], edits: list[SheetEdit]
) -> dict[tuple[int, int], object]:
    """What a sheet should hold after `edits`: the meaning of SheetEdit, stated simply."""
    grid = dict(before)
    for edit in edits:
        if edit.clear_below is not None:
            grid = {k: v for k, v in grid.items() if k[0] < edit.clear_below}
        for place, value in edit.cells.items():
            if value is None or value == "":
                grid.pop(place, None)
            else:
                grid[place] = value
    return {k: _plain(v) for k, v in grid.items()}


def _plain(value: object) -> object:
    return float(value) if isinstance(value, (int, float, Fraction)) else value


def big_edits(variant: int, rows: int = 300) -> list[SheetEdit]:
    """A whole-sheet rewrite that differs between the two variants (for the kill test)."""
    cells: Grid = {}
    for row in range(1, rows + 1):
        cells[(row, 1)] = f"Player {row} / version {variant}"
        for column in range(2, 13):
            cells[(row, column)] = Fraction(row * column + variant, 3)
    return [
        SheetEdit("Standings", cells, clear_below=1),
        SheetEdit("Settings", {TOP_VALUE_CELL: 100 + variant}),
    ]


def add_big_photo(path: Path, size: int = 8_000_000) -> None:
    """Put a large incompressible member in the package, so that writing takes a while."""
    with zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED) as package:
        package.writestr("xl/media/photo.jpeg", random.Random(size).randbytes(size))


def save_forever(path: str) -> None:
    """Save alternating versions until killed (run in a child process by the kill test)."""
    target = Path(path)
    print("ready", flush=True)
    variant = 0
    while True:
        save_edits(target, big_edits(variant))
        variant = 1 - variant


def child_command(path: Path) -> list[str]:
    code = "from tests.helpers_package import save_forever; import sys; save_forever(sys.argv[1])"
    return [sys.executable, "-c", code, str(path)]


# ---------------------------------------------------------------------------------------
# LibreOffice headless


def libreoffice_convert(
    source: Path, target_format: str, outdir: Path, profile: Path
) -> subprocess.CompletedProcess[str]:
    from tests.programs import need  # here: the child processes of the kill test skip pytest

    program = need("soffice")
    return subprocess.run(
        [
            program, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore",
            "--convert-to", target_format, "--outdir", str(outdir), str(source),
        ],
        capture_output=True,
        text=True,
        timeout=240,
    )  # fmt: skip


def csv_filter(sheet_number: int) -> str:
    """LibreOffice's CSV export of one sheet: UTF-8, raw values (not as shown)."""
    options = f"44,34,76,1,,0,false,true,false,false,false,{sheet_number}"
    return f"csv:Text - txt - csv (StarCalc):{options}"


# ---------------------------------------------------------------------------------------
# Hand-made packages for markup the fixtures do not have


CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" '
    'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    "{extra}</Types>"
)
CALC_CHAIN_TYPE = (
    '<Override PartName="/xl/calcChain.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.calcChain+xml"/>'
)
ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" '
    'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
    'Target="xl/workbook.xml"/></Relationships>'
)
WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<{p}workbook xmlns{colon}="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<{p}sheets><{p}sheet name="Standings" sheetId="1" r:id="rId1"/></{p}sheets>'
    "{calc}</{p}workbook>"
)
WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" '
    'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
    'Target="/xl/worksheets/sheet1.xml"/>{extra}</Relationships>'
)
CALC_CHAIN_REL = (
    '<Relationship Id="rId9" '
    'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/calcChain" '
    'Target="calcChain.xml"/>'
)


def hand_made_workbook(
    path: Path, sheet_data: str, prefix: str = "", calc_chain: str | None = None, calc: str = ""
) -> Path:
    """A one-sheet package ('Standings') whose sheetData markup the test chooses.

    With `prefix` (e.g. "x") every element is written `<x:row>` etc., as some generators do.
    """
    p = f"{prefix}:" if prefix else ""
    colon = f":{prefix}" if prefix else ""
    sheet = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        f'<{p}worksheet xmlns{colon}="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f'<{p}dimension ref="A1"/><{p}sheetData>{sheet_data}</{p}sheetData></{p}worksheet>'
    )
    parts = {
        "[Content_Types].xml": CONTENT_TYPES.format(extra=CALC_CHAIN_TYPE if calc_chain else ""),
        "_rels/.rels": ROOT_RELS,
        "xl/workbook.xml": WORKBOOK.format(p=p, colon=colon, calc=calc),
        "xl/_rels/workbook.xml.rels": WORKBOOK_RELS.format(
            extra=CALC_CHAIN_REL if calc_chain else ""
        ),
        "xl/worksheets/sheet1.xml": sheet,
    }
    if calc_chain:
        parts["xl/calcChain.xml"] = calc_chain
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as package:
        for name, text in parts.items():
            package.writestr(name, text)
    return path
