"""Small files that ask for a lot: the inputs whose memory the tests bound
(tests/cli/test_memory.py) and `make bench` measures, each made here once.

Every one of them is at most a few MB, and each repeats or declares what would cost a reader
gigabytes: texts, rows, players, lines. Only the standard library and keizer_xl are used,
so that the bench (in the secretary's venv) and the tests make the same files.
"""

from __future__ import annotations

import random
import re
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

PLAYERS_PART = "xl/worksheets/sheet1.xml"  # in a workbook made from the template
ROUNDS_PART = "xl/worksheets/sheet2.xml"
STANDINGS_PART = "xl/worksheets/sheet3.xml"
TABLE_PART = "xl/sharedStrings.xml"


def club(path: Path, players: int = 6) -> Path:
    """A club workbook from the template, its players present."""
    from keizer_xl.workbook.template import build_template

    build_template(
        path,
        [
            {"Name": f"Player {i}", "Rating": 2000 - i % 1000, "Present": "x"}
            for i in range(1, players + 1)
        ],
    )
    return path


def rewritten(
    source: Path, path: Path, change: dict[str, Callable[[bytes], Iterator[bytes]]]
) -> Path:
    """A copy of the workbook `source`, parts in `change` written piece by piece."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            if info.filename in change:
                with new.open(info.filename, "w") as member:
                    for piece in change[info.filename](old.read(info)):
                        member.write(piece)
            else:
                new.writestr(info, old.read(info))
    return path


def empty_texts(path: Path, count: int = 12_000_000) -> Path:
    """A club workbook whose shared-string table ends in `count` empty texts, and says so
    (131 KB: 12 million `<si/>` pack into almost nothing)."""

    def table(old: bytes) -> Iterator[bytes]:
        old = re.sub(
            rb'count="\d+" uniqueCount="\d+"',
            b'count="%d" uniqueCount="%d"' % (count, count),
            old,
            count=1,
        )
        yield old[: old.rindex(b"</sst>")]
        block = b"<si/>" * 1_000_000
        for _ in range(count // 1_000_000):
            yield block
        yield b"<si/>" * (count % 1_000_000) + b"</sst>"

    return rewritten(club(path.with_name("plain-" + path.name)), path, {TABLE_PART: table})


def huge_part(path: Path, size: int = 3_500 << 20) -> Path:
    """A club workbook with one more part, of `size` zero bytes (3.5 GB: zip64 sizes), that
    no sheet refers to (3.4 MB: zeros pack into almost nothing)."""
    source = club(path.with_name("plain-" + path.name))
    with (
        zipfile.ZipFile(source) as old,
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as new,
    ):
        for info in old.infolist():
            new.writestr(info, old.read(info))
        block = bytes(16 << 20)
        with new.open("xl/media/huge.bin", "w", force_zip64=True) as member:
            for _ in range(size // len(block)):
                member.write(block)
            member.write(bytes(size % len(block)))
    return path


def many_players(path: Path, players: int = 99_960) -> Path:
    """A club workbook of `players` players (0.8 MB of them)."""
    return club(path, players)


def past_the_rows(path: Path, last: int = 1_048_576, part: str = ROUNDS_PART) -> Path:
    """A club workbook whose Rounds sheet (or another `part`) has a value in every row down
    to `last`."""

    def sheet(old: bytes) -> Iterator[bytes]:
        end = old.index(b"</sheetData>")
        yield old[:end]
        for start in range(2, last + 1, 10_000):
            yield b"".join(
                b'<row r="%d"><c r="A%d"><v>1</v></c></row>' % (r, r)
                for r in range(start, min(start + 10_000, last + 1))
            )
        yield old[end:]

    return rewritten(club(path.with_name("plain-" + path.name)), path, {part: sheet})


def season(
    path: Path,
    players: int,
    rounds: int,
    games: int = 0,
    rests: int = 1,
    name_length: int = 0,
    shared: bool = False,
) -> Path:
    """A club workbook of `players` players, all present, whose Rounds sheet holds
    `rounds` rounds of `games` games and `rests` excused players each (each player once a
    round, every result 1-0), written straight as XML: a Rounds sheet as long as keizer_xl
    reads packs into a few MB, and a round or two of rows declare the players times rounds
    its Standings, Crosstable and Progress sheets have a cell for. Names are `P1`, `P2`,
    ..., padded with x to `name_length` characters. `shared`: the Rounds sheet as small as
    a valid file holds it, its texts entries of the shared-strings table (as Excel saves
    them) and its cells without their references (which the format lets a writer leave
    out: each cell is then in the next column)."""

    def name(i: int) -> bytes:
        return f"P{i + 1}".ljust(name_length, "x").encode()

    def cell(column: bytes, row: int, value: bytes) -> bytes:
        if not shared:
            return b'<c r="%s%d" t="inlineStr"><is><t>%s</t></is></c>' % (column, row, value)
        return b'<c t="s"><v>%d</v></c>' % entries[value]

    def table(old: bytes) -> Iterator[bytes]:
        end = old.rindex(b"</sst>")
        yield re.sub(rb'uniqueCount="\d+"', b'uniqueCount="%d"' % len(entries), old[:end], count=1)
        yield b"".join(b"<si><t>%s</t></si>" % text for text in added) + old[end:]

    def sheet(old: bytes) -> Iterator[bytes]:
        end = old.index(b"</sheetData>")
        yield old[:end]
        row, rows = 2, []
        for r in range(1, rounds + 1):
            for g in range(games):
                white, black = (2 * g + r) % players, (2 * g + 1 + r) % players
                rows.append(
                    (
                        b'<row r="%d"><c><v>%d</v></c><c><v>%d</v></c>' % (row, r, g + 1)
                        if shared
                        else b'<row r="%d"><c r="A%d"><v>%d</v></c><c r="B%d"><v>%d</v></c>'
                        % (row, row, r, row, g + 1)
                    )
                    + cell(b"C", row, name(white))
                    + cell(b"D", row, name(black))
                    + cell(b"E", row, b"1-0")
                    + b"</row>"
                )
                row += 1
            for k in range(rests):
                rows.append(
                    (
                        b'<row r="%d"><c><v>%d</v></c><c/>' % (row, r)
                        if shared
                        else b'<row r="%d"><c r="A%d"><v>%d</v></c>' % (row, row, r)
                    )
                    + cell(b"C", row, name((2 * games + k + r) % players))
                    + (b"<c/>" if shared else b"")
                    + cell(b"E", row, b"excused")
                    + b"</row>"
                )
                row += 1
            if len(rows) >= 10_000:
                yield b"".join(rows)
                rows = []
        yield b"".join(rows) + old[end:]

    from keizer_xl.workbook.template import build_template

    plain = path.with_name("plain-" + path.name)
    build_template(plain, [{"Name": name(i).decode(), "Present": "x"} for i in range(players)])
    with zipfile.ZipFile(plain) as made:  # the names are entries already (of Players)
        texts = re.findall(rb"<si><t>([^<]*)</t></si>|<si>", made.read(TABLE_PART))
    entries = {text: i for i, text in reversed(list(enumerate(texts)))}
    added = [text for text in (b"1-0", b"excused") if text not in entries]
    entries.update((text, len(texts) + i) for i, text in enumerate(added))
    changes = {TABLE_PART: table, ROUNDS_PART: sheet} if shared else {ROUNDS_PART: sheet}
    return rewritten(plain, path, changes)


def padded(path: Path, spaces: int = 1 << 30, part: str = STANDINGS_PART) -> Path:
    """A club workbook whose Standings sheet (or another `part`) is `spaces` spaces between
    its cells (1 GB of them pack into 1 MB)."""

    def sheet(old: bytes) -> Iterator[bytes]:
        end = old.index(b"</sheetData>")
        yield old[:end]
        block = b" " * (1 << 24)
        for _ in range(spaces >> 24):
            yield block
        yield old[end:]

    return rewritten(club(path.with_name("plain-" + path.name)), path, {part: sheet})


def member_workbook(path: Path, rows: int = 1_000_000) -> Path:
    """A member list .xlsx of `rows` members (11 MB)."""
    import xlsxwriter

    book = xlsxwriter.Workbook(str(path), {"constant_memory": True})
    sheet = book.add_worksheet("Leden")
    sheet.write_row(0, 0, ["Naam", "Rating"])
    for row in range(1, rows + 1):
        sheet.write_row(row, 0, [f"Lid {row}", 1000 + row % 1500])
    book.close()
    return path


def member_text(path: Path, lines: int = 1_000_000) -> Path:
    """A member list .csv of `lines` members (16 MB)."""
    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write("Naam;Rating\n")
        for row in range(1, lines + 1):
            out.write(f"Lid {row};{1000 + row % 1500}\n")
    return path


SYLLABLES = (
    "an",
    "ber",
    "ca",
    "del",
    "en",
    "fra",
    "go",
    "hol",
    "i",
    "jan",
    "ko",
    "lu",
    "mar",
    "no",
    "ost",
    "pe",
    "ri",
    "sen",
    "tur",
    "vic",
    "wen",
    "zy",
)


def fide_list(
    path: Path, lines: int = 1_000_000, club: tuple[tuple[str, int], ...] = (), seed: int = 3
) -> Path:
    """The FIDE rating list as clubs pass it on (CSV: id, `Lastname, Firstname`, federation,
    sex, title, standard rating, birth year), `lines` made-up players (44 MB for a million,
    as FIDE's own), then `club` (name, rating) at the end."""
    rnd = random.Random(seed)

    def word() -> str:
        return "".join(rnd.choice(SYLLABLES) for _ in range(rnd.randint(2, 3))).capitalize()

    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write("ID Number,Name,Fed,Sex,Tit,SRtng,B-day\n")
        for n in range(lines):
            out.write(
                f'{1_000_000 + 7 * n},"{word()}, {word()}",'
                f"{rnd.choice(('NED', 'GER', 'ITA', 'FRA', 'IND'))},{rnd.choice('MF')},"
                f",{rnd.randint(1000, 2800)},{rnd.randint(1940, 2015)}\n"
            )
        for name, rating in club:
            out.write(f'9{len(name)},"{name}",NED,M,,{rating},1990\n')
    return path
