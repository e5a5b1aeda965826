"""Peak memory of the command line on large, far-reaching and hostile workbooks.

Each command runs in a fresh process that reports its own peak resident size, so the
figure is the command's alone. The target: under 500 MB for any workbook under 20 MB.
The figures are printed again as the README's memory table, ready to replace it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/seasons.py

from measure import Figure

from tests.seasons import club_season, season_book

TARGET_MB = 500
# The peak resident size of this process image: VmHWM (kilobytes). Not ru_maxrss, which
# Linux carries over from the parent (this large bench process) through fork and exec.
MEASURED = """
import re, sys
from keizer_xl.cli.main import run
try:
    run()  # the program as its console script starts it
except SystemExit:
    pass
with open("/proc/self/status") as status:
    print(re.search(r"VmHWM:\\s*(\\d+) kB", status.read()).group(1), file=sys.stderr)
"""


def peak_mb(*args: str) -> float:
    """The peak resident memory of `keizer-xl ARGS`, in MB."""
    done = subprocess.run([sys.executable, "-c", MEASURED, *args], capture_output=True,
                          text=True, check=True)
    return int(done.stderr.splitlines()[-1]) / 1024


def with_far_value(source: Path, path: Path) -> Path:
    from keizer_xl.workbook.xlsx import SheetEdit, save_edits

    shutil.copy(source, path)
    save_edits(path, [SheetEdit("Players", {(1_048_576, 16_384): "x"})], backup=False)
    return path


def with_bomb(source: Path, path: Path) -> Path:
    """docProps/app.xml unpacking to 1.5 GB (1.5 MB packed)."""
    with zipfile.ZipFile(source) as plain, zipfile.ZipFile(path, "w") as package:
        for info in plain.infolist():
            if info.filename == "docProps/app.xml":
                with package.open(info, "w") as member:
                    for _ in range(96):
                        member.write(b" " * (1 << 24))
            else:
                package.writestr(info, plain.read(info))
    return path


def with_million_numbers(source: Path, path: Path) -> Path:
    """The most keizer_xl reads: Players filled with numbers up to ALL1000."""
    from keizer_xl.workbook.xlsx import SheetEdit, save_edits

    shutil.copy(source, path)
    save_edits(path, [SheetEdit("Players", {(r, c): r * c + 0.5 for r in range(1, 1001)
                                            for c in range(8, 1001)})], backup=False)
    return path


INLINE = re.compile(r'<c r="([A-Z]+[0-9]+)" t="inlineStr"><is><t>([^<]*)</t></is></c>')


def with_million_shared_strings(source: Path, path: Path) -> Path:
    """The same reach with a text in every cell, each its own entry of the shared-strings
    table (as Excel saves text): the largest table keizer_xl must read to know the
    sheets' values."""
    from keizer_xl.workbook.xlsx import SheetEdit, save_edits

    texts = path.with_name("inline-" + path.name)
    shutil.copy(source, texts)
    save_edits(texts, [SheetEdit("Players", {
        (r, c): f"note {r}-{c}: the club's own words here" for r in range(1, 1001)
        for c in range(8, 1001)})], backup=False)  # written as inline strings
    with zipfile.ZipFile(texts) as plain:
        table = plain.read("xl/sharedStrings.xml").decode()
        known = len(re.findall(r"<si>", table))
        added: list[str] = []

        def shared(match: re.Match[str]) -> str:
            added.append(f"<si><t>{match.group(2)}</t></si>")
            return f'<c r="{match.group(1)}" t="s"><v>{known + len(added) - 1}</v></c>'

        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as package:
            for info in plain.infolist():
                data = plain.read(info)
                if info.filename.startswith("xl/worksheets/sheet"):
                    data = INLINE.sub(shared, data.decode()).encode()
                elif info.filename == "xl/sharedStrings.xml":
                    continue
                package.writestr(info.filename, data)
            total = known + len(added)
            table = re.sub(r'count="\d+" uniqueCount="\d+"',
                           f'count="{total}" uniqueCount="{total}"', table, count=1)
            package.writestr("xl/sharedStrings.xml",
                             table.replace("</sst>", "".join(added) + "</sst>"))
    texts.unlink()
    return path


def shared_strings_mb(path: Path) -> float:
    with zipfile.ZipFile(path) as package:
        return package.getinfo("xl/sharedStrings.xml").file_size / 1e6


def main() -> list[Figure]:
    out: list[Figure] = []
    table = ["| workbook | `check` | `pair` |", "|---|---|---|"]
    work = Path(tempfile.mkdtemp(prefix="keizer-bench-"))
    try:
        big = season_book(work / "big.xlsx", club_season(1000, 30), present=0.8)
        club = season_book(work / "club.xlsx", club_season(60, 37), present=0.8)
        strings = with_million_shared_strings(club, work / "strings.xlsx")
        cases = [("1,000 players × 30 rounds ({size})", big),
                 ("one value at Players!XFD1048576 (refused with the cell)",
                  with_far_value(big, work / "far.xlsx")),
                 ("docProps/app.xml unpacking to 1.5 GB ({size} file; the part copied "
                  "untouched)", with_bomb(big, work / "bomb.xlsx")),
                 ("the most keizer_xl reads: a million numbers on Players ({size})",
                  with_million_numbers(club, work / "million.xlsx")),
                 (f"the same with a {shared_strings_mb(strings):.0f} MB shared-strings table "
                  "({size})", strings)]
        for label, path in cases:
            size = path.stat().st_size / 1e6
            label = label.format(size=f"{size:.1f} MB")
            peaks = []
            for command in ("check", "pair"):
                copy = work / "copy.xlsx"
                shutil.copy(path, copy)
                mb = peak_mb(command, str(copy))
                peaks.append(f"{mb:.0f} MB")
                print(f"keizer-xl {command}, {label}: peak {mb:.0f} MB (target {TARGET_MB})")
                out.append(Figure(f"peak memory, {command}, {label}", mb, TARGET_MB, "MB"))
            table.append(f"| {label} | {' | '.join(peaks)} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("\nthe memory table (README, Bounded memory):\n" + "\n".join(table))
    return out


if __name__ == "__main__":
    for figure in main():
        print(figure.line())
