"""Peak memory of the command line on large, far-reaching and hostile inputs, and the
largest season keizer_xl is made for.

Each command runs in a fresh process that reports its own peak resident size, so the
figure is the command's alone. The targets (issue 22): under 500 MB for any input of at
most 10 MB, whatever it declares or repeats; a rating list of the whole world (a million
lines, 44 MB) under 300 MB. The worst files of at most 10 MB keizer_xl accepts are among
them: an honest season as large as fits in 10 MB, and the largest season by players times
rounds (`checks.MAX_SEASON`) declared in a few rows, with names as long as a name may be.
The largest season (10,000 players over 100 rounds, a larger file) and the most Rounds rows
keizer_xl reads are accepted and recalculated: their time and memory are measured, not
bounded. The figures are printed again as the memory tables of docs/speed.md, ready to
replace them.
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/seasons.py, hostile.py

from measure import Figure

from tests import hostile
from tests.peak import measured
from tests.seasons import club_season, large_season, season_book

TARGET_MB = 500  # any input of at most 10 MB
LIST_TARGET_MB = 300  # the world's rating list


def run_measured(*args: str) -> tuple[int, float, float]:
    """`keizer-xl ARGS` in a fresh process: its exit code, wall seconds and peak MB."""
    code, _, peak, seconds = measured(*args)
    return code, seconds, peak / (1 << 20)


def peak_mb(*args: str) -> float:
    """The peak resident memory of `keizer-xl ARGS`, in MB."""
    return run_measured(*args)[2]


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
    """The most keizer_xl reads of a club's own columns: Players filled with numbers up to
    ALL1000."""
    from keizer_xl.workbook.xlsx import SheetEdit, save_edits

    shutil.copy(source, path)
    save_edits(
        path,
        [
            SheetEdit(
                "Players", {(r, c): r * c + 0.5 for r in range(1, 1001) for c in range(8, 1001)}
            )
        ],
        backup=False,
    )
    return path


INLINE = re.compile(r'<c r="([A-Z]+[0-9]+)" t="inlineStr"><is><t>([^<]*)</t></is></c>')


def with_million_shared_strings(source: Path, path: Path) -> Path:
    """The same reach with a text in every cell, each its own entry of the shared-strings
    table (as Excel saves text): the largest table keizer_xl must read to know the
    sheets' values."""
    from keizer_xl.workbook.xlsx import SheetEdit, save_edits

    texts = path.with_name("inline-" + path.name)
    shutil.copy(source, texts)
    save_edits(
        texts,
        [
            SheetEdit(
                "Players",
                {
                    (r, c): f"note {r}-{c}: the club's own words here"
                    for r in range(1, 1001)
                    for c in range(8, 1001)
                },
            )
        ],
        backup=False,
    )  # written as inline strings
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
            table = re.sub(
                r'count="\d+" uniqueCount="\d+"',
                f'count="{total}" uniqueCount="{total}"',
                table,
                count=1,
            )
            package.writestr(
                "xl/sharedStrings.xml", table.replace("</sst>", "".join(added) + "</sst>")
            )
    texts.unlink()
    return path


def shared_strings_mb(path: Path) -> float:
    with zipfile.ZipFile(path) as package:
        return package.getinfo("xl/sharedStrings.xml").file_size / 1e6


def size(path: Path) -> str:
    """A file's size as the table says it."""
    mb = path.stat().st_size / 1e6
    return f"{mb * 1000:.0f} KB" if mb < 1 else f"{mb:.1f} MB"


def workbooks(work: Path) -> list[tuple[str, Path]]:
    """(what it is, the workbook) for `check` and `pair`; `{size}` in the label is filled in."""
    big = season_book(work / "big.xlsx", club_season(1000, 30), present=0.8)
    club = season_book(work / "club.xlsx", club_season(60, 37), present=0.8)
    strings = with_million_shared_strings(club, work / "strings.xlsx")
    return [
        ("1,000 players × 30 rounds ({size})", big),
        (
            "6,800 players × 100 rounds, an honest season as large as fits in 10 MB as Excel "
            "packs it ({size} as written here)",
            season_book(work / "honest.xlsx", large_season(6_800, 100), present=0.8),
        ),
        (
            "19,999 players × 60 rounds declared in 60 rows: 1.2 million cells each of "
            "Standings, Crosstable and Progress ({size})",
            hostile.season(work / "declared.xlsx", 19_999, 60, games=1, rests=0),
        ),
        (
            "the same with names of 200 characters ({size})",
            hostile.season(work / "named.xlsx", 19_999, 60, games=1, rests=0, name_length=200),
        ),
        (
            "19,999 players × 1,000 rounds declared in 1,000 rows ({size}; refused: past "
            "1,200,000 players times rounds)",
            hostile.season(work / "past.xlsx", 19_999, 1_000),
        ),
        (
            "one value at Players!XFD1048576 (refused with the cell)",
            with_far_value(big, work / "far.xlsx"),
        ),
        (
            "docProps/app.xml unpacking to 1.5 GB ({size} file; the part copied untouched)",
            with_bomb(big, work / "bomb.xlsx"),
        ),
        (
            "the most keizer_xl reads of own columns: a million numbers on Players ({size})",
            with_million_numbers(club, work / "million.xlsx"),
        ),
        (
            f"the same with a {shared_strings_mb(strings):.0f} MB shared-strings table ({{size}})",
            strings,
        ),
        (
            "12 million empty shared strings ({size}; refused as they are counted)",
            hostile.empty_texts(work / "texts.xlsx"),
        ),
        (
            "99,960 players ({size}; refused at row 20,001)",
            hostile.many_players(work / "players.xlsx"),
        ),
        (
            "a value in every Rounds row to 1,048,576 ({size}; refused at row 700,001)",
            hostile.past_the_rows(work / "rows.xlsx"),
        ),
        (
            "a million rows of Standings, which keizer_xl rewrites ({size}; refused at row "
            "100,001)",
            hostile.past_the_rows(work / "standings.xlsx", part=hostile.STANDINGS_PART),
        ),
        (
            "250 MB of spaces in Standings ({size}; refused at 64 MB)",
            hostile.padded(work / "padded.xlsx", 250 << 20),
        ),
        (
            "12,000 players × 99 rounds, the most Rounds rows keizer_xl reads (693,000), "
            "packed tightly: texts shared, cells without references ({size})",
            hostile.season(work / "tight.xlsx", 12_000, 99, 5_000, 2_000, shared=True),
        ),
    ]


def main() -> list[Figure]:
    out: list[Figure] = []
    table = ["| workbook | `check` | `pair` |", "|---|---|---|"]
    lists_table = ["| list | command | peak |", "|---|---|---|"]
    largest = ["| season | command | time | peak |", "|---|---|---|---|"]
    work = Path(tempfile.mkdtemp(prefix="keizer-bench-"))
    try:
        for label, path in workbooks(work):
            label = label.format(size=size(path))
            peaks = []
            for command in ("check", "pair"):
                copy = work / "copy.xlsx"
                shutil.copy(path, copy)
                mb = peak_mb(command, str(copy))
                print(f"keizer-xl {command}, {label}: peak {mb:.0f} MB (target {TARGET_MB})")
                out.append(
                    Figure(f"peak memory, {command}, {label}", mb, TARGET_MB, "MB", issue=22)
                )
                peaks.append(f"{mb:.0f} MB")
            table.append(f"| {label} | {' | '.join(peaks)} |")
        new, rated = work / "new.xlsx", hostile.club(work / "rated.xlsx")
        lists = [  # (command, what it is, the list, exit code expected, target)
            (
                "new",
                "a member list .xlsx of a million ({size}; refused at row 20,001)",
                hostile.member_workbook(work / "leden.xlsx"),
                1,
                TARGET_MB,
            ),
            (
                "new",
                "a member list .csv of a million ({size}; refused at line 20,001)",
                hostile.member_text(work / "leden.csv"),
                1,
                TARGET_MB,
            ),
            (
                "ratings",
                "FIDE's rating list, a million lines ({size})",
                hostile.fide_list(work / "fide.csv", club=(("Player 2", 2211),)),
                0,
                LIST_TARGET_MB,
            ),
        ]
        for command, label, listed, expected, target in lists:
            label = label.format(size=size(listed))
            new.unlink(missing_ok=True)
            args = (
                ["new", str(new), "--players", str(listed)]
                if command == "new"
                else ["ratings", str(rated), str(listed)]
            )
            code, seconds, mb = run_measured(*args)
            if code != expected:
                raise SystemExit(f"keizer-xl {' '.join(args)}: exit {code}, not {expected}")
            print(
                f"keizer-xl {command}, {label}: peak {mb:.0f} MB in {seconds:.1f} s "
                f"(target {target} MB)"
            )
            out.append(Figure(f"peak memory, {command}, {label}", mb, target, "MB", issue=22))
            lists_table.append(f"| {label} | `{command}` | {mb:.0f} MB |")
        largest_season(work, largest)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(
        "\nthe memory tables (docs/speed.md, Memory):\n"
        + "\n\n".join("\n".join(t) for t in (table, lists_table, largest))
    )
    return out


def largest_season(work: Path, table: list[str]) -> None:
    """10,000 players over 100 rounds, accepted: `check`, `recalc` (once more with the
    Standings, Crosstable and Progress of the week before on the sheets) and `pair` (of a
    copy, 80% present); and the most Rounds rows keizer_xl reads, 12,000 players over 99
    rounds; time and memory."""
    seasons = [
        (
            "10,000 players × 100 rounds",
            season_book(work / "largest.xlsx", large_season(10_000, 100), present=0.8),
        ),
        (
            "12,000 players × 99 rounds, 693,000 Rounds rows",
            hostile.season(work / "rows.xlsx", 12_000, 99, 5_000, 2_000),
        ),
    ]
    for season, path in seasons:
        print(f"{season}: {size(path)}")
        paired = work / "paired.xlsx"
        shutil.copy(path, paired)
        for command, label, file in (
            ("check", "`check`", path),
            ("recalc", "`recalc`", path),
            ("recalc", "`recalc` again, last week's sheets on it", path),
            ("pair", "`pair`", paired),
        ):
            given = size(file)
            code, seconds, mb = run_measured(command, str(file))
            if code != 0:
                raise SystemExit(f"keizer-xl {command} refused {season} (exit {code})")
            print(f"keizer-xl {label}, {season}: {seconds:.1f} s, peak {mb:.0f} MB")
            table.append(f"| {season} ({given}) | {label} | {seconds:.0f} s | {mb:.0f} MB |")


if __name__ == "__main__":
    for figure in main():
        print(figure.line())
