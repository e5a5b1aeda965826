"""Peak memory of the command line on large, far-reaching and hostile workbooks.

Each command runs in a fresh process that reports its own peak resident size, so the
figure is the command's alone. The target: under 500 MB for any workbook under 20 MB.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from seasons import club_season, write_workbook

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


def main() -> list[tuple[str, float, float]]:
    out: list[tuple[str, float, float]] = []
    work = Path(tempfile.mkdtemp(prefix="keizer-bench-"))
    try:
        big = write_workbook(club_season(1000, 30), work / "big.xlsx")
        cases = [("1000 players x 30 rounds", big),
                 ("one value at Players!XFD1048576", with_far_value(big, work / "far.xlsx")),
                 ("docProps/app.xml unpacking to 1.5 GB", with_bomb(big, work / "bomb.xlsx")),
                 ("a million numbers on Players", with_million_numbers(
                     write_workbook(club_season(60, 37), work / "club.xlsx"),
                     work / "million.xlsx"))]
        for label, path in cases:
            size = path.stat().st_size / 1e6
            for command in ("check", "pair"):
                copy = work / "copy.xlsx"
                shutil.copy(path, copy)
                mb = peak_mb(command, str(copy))
                print(f"keizer-xl {command}, {label} ({size:.1f} MB file): peak {mb:.0f} MB "
                      f"(target {TARGET_MB})")
                out.append((f"peak MB, {command}, {label}", mb, TARGET_MB))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


if __name__ == "__main__":
    main()
