"""Draw docs/template.png, the picture of the Players sheet in the README and the guide,
from the real template.

The picture is made from the same `build_template` the club gets, so it cannot show a
workbook that no longer exists. LibreOffice prints the sheet to PDF (headless, with a
throw-away profile) and poppler's `pdftoppm` turns the page into pixels; the page margins
are cropped here, so nothing beyond those two programs is needed.

Usage: python docs/render_template.py [OUT.png]
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "docs" / "template.png"
DPI = 130
MARGIN = 12  # white pixels kept around the table

SAMPLE_PLAYERS: list[dict[str, object]] = [
    {"Name": "Anna de Vries", "Rating": 1912, "Present": "x"},
    {"Name": "Bram Jansen", "Rating": 1847, "Present": "x"},
    {"Name": "Carla Smit", "Rating": 1795, "Present": "excused"},
    {"Name": "Daan Bakker", "Rating": 1760, "Present": "x"},
    {"Name": "Eva Visser", "Rating": 1702, "Present": "club"},
    {"Name": "Fleur Mulder", "Rating": 1655, "Present": "x"},
    {"Name": "Gert de Boer", "Rating": 1610, "Present": "x"},
    {"Name": "Hanna Bos", "Rating": 1540, "Joined": 3, "Present": "x"},
    {"Name": "Ivo Peters", "Rating": 1480, "Present": "x"},
    {"Name": "Joost Dekker", "Rating": 1395, "Left": 5},
    {"Name": "Karin Meijer", "Present": "x"},
]


def soffice_pdf(workbook: Path, outdir: Path) -> Path:
    """Print a workbook to PDF with LibreOffice, in a private profile so no other run clashes."""
    soffice = shutil.which("soffice")
    if soffice is None:
        raise RuntimeError("LibreOffice (soffice) is not installed")
    profile = outdir / "lo-profile"
    subprocess.run(
        [
            soffice,
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--convert-to",
            "pdf",
            "--outdir",
            str(outdir),
            str(workbook),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )
    pdf = outdir / (workbook.stem + ".pdf")
    if not pdf.is_file():
        raise RuntimeError(f"LibreOffice wrote no PDF for {workbook.name}")
    return pdf


def page_pixels(pdf: Path, page: int = 1) -> tuple[int, int, bytes]:
    """Width, height and RGB bytes of a page, via pdftoppm's plain PPM output."""
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        raise RuntimeError("pdftoppm (poppler-utils) is not installed")
    ppm = subprocess.run(
        [pdftoppm, "-r", str(DPI), "-f", str(page), "-l", str(page), str(pdf)],
        check=True,
        capture_output=True,
        timeout=120,
    ).stdout
    fields: list[bytes] = []
    pos = 0
    while len(fields) < 4:  # magic, width, height, maxval, separated by whitespace
        while ppm[pos : pos + 1].isspace():
            pos += 1
        end = pos
        while not ppm[end : end + 1].isspace():
            end += 1
        fields.append(ppm[pos:end])
        pos = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise RuntimeError("pdftoppm gave an unexpected picture format")
    width, height = int(fields[1]), int(fields[2])
    return width, height, ppm[pos + 1 : pos + 1 + 3 * width * height]


def _crop(width: int, height: int, rgb: bytes) -> tuple[int, int, list[bytes]]:
    """The rows of the smallest box holding every non-white pixel, plus a margin."""
    rows = [rgb[y * 3 * width : (y + 1) * 3 * width] for y in range(height)]
    white = b"\xff" * (3 * width)
    used = [y for y, row in enumerate(rows) if row != white]
    if not used:
        raise RuntimeError("the page is blank")
    left, right = width, 0
    for y in used:
        row = rows[y]
        stripped = row.lstrip(b"\xff")
        left = min(left, (len(row) - len(stripped)) // 3)
        right = max(right, (len(row.rstrip(b"\xff")) + 2) // 3)
    top, bottom = max(used[0] - MARGIN, 0), min(used[-1] + MARGIN + 1, height)
    left, right = max(left - MARGIN, 0), min(right + MARGIN, width)
    return right - left, bottom - top, [row[3 * left : 3 * right] for row in rows[top:bottom]]


def _png(width: int, height: int, rows: list[bytes]) -> bytes:
    """A plain 8-bit RGB PNG (filter 0 on every row)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + row for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def sample_workbook(path: Path) -> None:
    """The template with a few players, printed without page header and footer."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import openpyxl

    from keizer_xl.workbook.template import build_template

    build_template(path, players=SAMPLE_PLAYERS)
    book = openpyxl.load_workbook(path)
    sheet = book["Players"]
    sheet.oddHeader.left.text = None
    sheet.oddHeader.right.text = None
    sheet.oddFooter.center.text = None
    sheet.print_options.headings = True  # column letters and row numbers, as on screen
    book.save(path)


def render(out: Path = DEFAULT_OUT) -> Path:
    """Write the picture of the Players sheet to `out`."""
    with tempfile.TemporaryDirectory(prefix="keizer-render-") as tmp:
        workdir = Path(tmp)
        workbook = workdir / "keizer_xl.xlsx"
        sample_workbook(workbook)
        width, height, rgb = page_pixels(soffice_pdf(workbook, workdir))
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(_png(*_crop(width, height, rgb)))
    return out


def run_render(
    make: Callable[[Path], Path], default: Path, program: str, argv: list[str] | None = None
) -> int:
    """A render script's command line: the picture to the path given (else `default`), a
    failure said in one line with exit code 1."""
    args = sys.argv[1:] if argv is None else argv
    try:
        out = make(Path(args[0]) if args else default)
    except (OSError, RuntimeError, subprocess.SubprocessError) as exc:
        print(f"{program}: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_render(render, DEFAULT_OUT, "render_template", argv)


if __name__ == "__main__":
    sys.exit(main())
