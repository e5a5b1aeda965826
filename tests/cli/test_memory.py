"""Memory bounded by what a real season needs, through the commands: small files that
declare or repeat a great deal are refused as they are read, lists stream through, and a
season larger than the old limits allowed is read and recalculated.

Each command runs in a fresh process whose own peak resident size is measured (see
`measured`); no time is measured here (`make bench` does that)."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import pytest

from keizer_xl.core.words import MAX_NAME
from keizer_xl.workbook import files
from tests import hostile
from tests.cli.test_reliability import MEMORY_LIMIT, measured
from tests.seasons import large_season, season_book

LIST_LIMIT = 300 << 20  # bytes: a rating list of the whole world streams through
# every test here runs the commands in fresh processes, their memory measured
pytestmark = pytest.mark.programs


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hostile")


def refused_by_every_command(path: Path, words: str) -> None:
    """`check`, `recalc` and `pair` refuse the workbook with these words, under the memory
    limit, and leave it as it was."""
    before = path.read_bytes()
    for command in ("check", "recalc", "pair"):
        code, output, peak = measured(command, path)
        assert code == 1, output
        assert words in output, output
        assert "Traceback" not in output and "report" not in output, output
        assert peak < MEMORY_LIMIT, f"{command}: {peak >> 20} MB"
        print(f"{path.name} {command}: peak {peak >> 20} MB", file=sys.stderr)
    assert path.read_bytes() == before


def test_twelve_million_empty_texts_are_refused_as_they_are_counted(folder: Path) -> None:
    path = hostile.empty_texts(folder / "texts.xlsx")
    assert path.stat().st_size < 200_000
    refused_by_every_command(
        path,
        "texts.xlsx is damaged or hostile: its part "
        "xl/sharedStrings.xml holds more than 1,000,000 texts",
    )


def test_a_part_declared_at_gigabytes_is_refused_by_check_as_by_recalc(folder: Path) -> None:
    """A part no sheet refers to, 3.5 GB with zip64 sizes: the writer could copy it only by
    unpacking it, so `check` refuses it too, from its declared size, unpacking nothing."""
    path = hostile.huge_part(folder / "huge.xlsx")
    assert path.stat().st_size < 20 << 20
    with zipfile.ZipFile(path) as package:
        assert package.getinfo("xl/media/huge.bin").file_size > zipfile.ZIP64_LIMIT
    refused_by_every_command(
        path, "huge.xlsx is damaged or hostile: its part xl/media/huge.bin would unpack to 3500 MB"
    )


def test_a_hundred_thousand_players_are_refused_at_the_first_row_past_the_limit(
    folder: Path,
) -> None:
    path = hostile.many_players(folder / "players.xlsx")
    assert path.stat().st_size < 3 << 20
    rows = files.ROWS["Players"]
    refused_by_every_command(
        path,
        f"Players!A{rows + 1}: the sheet's data reaches this cell "
        f"(row {rows + 1:,}, past {rows:,} rows)",
    )


def test_a_sheet_past_the_row_limit_is_refused_before_it_is_unpacked_whole(folder: Path) -> None:
    path = hostile.past_the_rows(folder / "rows.xlsx")
    assert path.stat().st_size < 10 << 20
    rows = files.ROWS["Rounds"]
    refused_by_every_command(path, f"Rounds!A{rows + 1}: the sheet's data reaches this cell")


def test_a_sheet_keizer_xl_rewrites_is_counted_before_it_is_taken_apart(folder: Path) -> None:
    """A million rows of Standings (which `recalc` rewrites row by row) in 5 MB."""
    path = hostile.past_the_rows(folder / "standings.xlsx", part=hostile.STANDINGS_PART)
    refused_by_every_command(
        path,
        "Standings!100001:100001: the sheet's data reaches this "
        "cell (row 100,001, past 100,000 rows)",
    )


@pytest.mark.parametrize("part", [hostile.STANDINGS_PART, hostile.ROUNDS_PART])
def test_a_sheet_of_spaces_is_refused_as_it_is_unpacked(folder: Path, part: str) -> None:
    """250 MB of spaces between the cells (in 0.3 MB), in a sheet that is rewritten or
    read and appended to."""
    path = hostile.padded(folder / f"padded-{part[-5]}.xlsx", 250 << 20, part)
    assert path.stat().st_size < 1 << 20
    sheet = "Standings" if part == hostile.STANDINGS_PART else "Rounds"
    refused_by_every_command(
        path, f"sheet '{sheet}' is damaged or hostile: more than 64 MB of it is not cells"
    )


def test_one_long_text_in_every_cell_is_refused_before_it_is_copied(folder: Path) -> None:
    """A 30,000-character text of the table used by 10,000 cells: 300 MB of copies, and
    twice that in calamine and Python."""

    def table(old: bytes) -> list[bytes]:
        return [old.replace(b"</sst>", b"<si><t>" + b"x" * 30_000 + b"</t></si></sst>")]

    plain = hostile.club(folder / "plain-long.xlsx")
    with zipfile.ZipFile(plain) as package:
        last = package.read(hostile.TABLE_PART).count(b"<si>")
    cells = b"".join(
        b'<c r="%s%%d" t="s"><v>%d</v></c>' % (column, last)
        for column in (b"H", b"I", b"J", b"K", b"L")
    )
    rows = b"".join(
        b'<row r="%d">' % r + cells.replace(b"%d", b"%d" % r) + b"</row>" for r in range(10, 2010)
    )

    def sheet(old: bytes) -> list[bytes]:
        return [old.replace(b"</sheetData>", rows + b"</sheetData>")]

    path = hostile.rewritten(
        plain, folder / "long.xlsx", {hostile.TABLE_PART: table, hostile.PLAYERS_PART: sheet}
    )
    refused_by_every_command(
        path, "MB of text (a text of the shared table counted at every cell that uses it)"
    )


def test_a_season_declared_past_the_largest_is_refused_before_it_is_computed(folder: Path) -> None:
    """20,000 players over 1,000 rounds in 1,000 rows (0.4 MB): twenty million cells of
    Standings, Crosstable and Progress, and gigabytes to compute them."""
    path = hostile.season(folder / "declared.xlsx", 19_999, 1_000)
    assert path.stat().st_size < 1 << 20
    refused_by_every_command(
        path,
        "19,999 players over 1,000 rounds are more than "
        "keizer_xl computes: at most 1,200,000 players times rounds",
    )


def test_the_largest_season_declared_in_a_few_rows_is_recalculated_within_the_limit(
    folder: Path,
) -> None:
    """19,999 players over 60 rounds (the most players times rounds), one game a round,
    every name as long as a name may be: 1.2 million cells each of Standings, Crosstable
    and Progress, each with 20,000 long names, from a file of 0.3 MB. (A round of only
    absence rows is refused as its games deleted, so each round has its game.)"""
    path = hostile.season(
        folder / "widest.xlsx", 19_999, 60, games=1, rests=0, name_length=MAX_NAME
    )
    assert path.stat().st_size < 1 << 20
    for command in ("check", "recalc"):
        code, output, peak = measured(command, path)
        assert code == 0, output[-2000:]
        assert "Traceback" not in output, output[-2000:]
        assert peak < MEMORY_LIMIT, f"{command}: {peak >> 20} MB"
        print(f"19,999 x 60 {command}: peak {peak >> 20} MB", file=sys.stderr)
    season = files.check(path).season
    assert (len(season.players), season.last_round) == (19_999, 60)


def test_the_most_rounds_rows_packed_tightly_are_paired_within_the_limit(folder: Path) -> None:
    """12,000 players over 99 rounds, 693,000 Rounds rows (the most keizer_xl reads), their
    texts shared and their cells without references: 7 MB, and a Rounds sheet of 117 MB
    that `pair` reads, extends and writes again with the season's other sheets."""
    path = hostile.season(folder / "rows.xlsx", 12_000, 99, 5_000, 2_000, shared=True)
    assert path.stat().st_size < 10 << 20
    code, output, peak = measured("pair", path)
    assert code == 0, output[-2000:]
    assert "Round 100: 6000 games" in output, output[-2000:]
    assert peak < MEMORY_LIMIT, f"pair: {peak >> 20} MB"
    print(f"12,000 x 99, 693,000 rows, pair: peak {peak >> 20} MB", file=sys.stderr)
    with zipfile.ZipFile(path) as package:
        rounds = package.read(hostile.ROUNDS_PART)
    assert rounds.count(b"<row ") == 1 + 693_000 + 6_000


@pytest.mark.parametrize("kind", ["xlsx", "csv"])
def test_a_member_list_of_a_million_is_refused_as_it_is_read(folder: Path, kind: str) -> None:
    members = (
        hostile.member_workbook(folder / "leden.xlsx", 200_000)
        if kind == "xlsx"
        else hostile.member_text(folder / "leden.csv")
    )
    book = folder / f"new-{kind}.xlsx"
    code, output, peak = measured("new", book, "--players", members)
    assert code == 1, output
    limit = f"{files.ROWS['Players']:,}"
    assert (
        f"Leden!A{files.ROWS['Players'] + 1}: the sheet's data reaches this cell"
        if kind == "xlsx"
        else f"leden.csv: more than {limit} lines"
    ) in output, output
    assert not book.exists()
    assert peak < MEMORY_LIMIT, f"{peak >> 20} MB"
    print(f"member list .{kind}: peak {peak >> 20} MB", file=sys.stderr)


def test_the_world_rating_list_streams_through(folder: Path) -> None:
    """FIDE's list of about a million players, 44 MB: two of the club are at its end."""
    book = hostile.club(folder / "rated.xlsx")
    listed = hostile.fide_list(folder / "fide.csv", club=(("Player 2", 2211), ("Player 5", 1555)))
    assert listed.stat().st_size > 40 << 20
    code, output, peak = measured("ratings", book, listed)
    assert code == 0, output
    assert "Player 2: 1998 → 2211" in output and "Player 5: 1995 → 1555" in output, output
    assert peak < LIST_LIMIT, f"{peak >> 20} MB"
    print(f"rating list of a million: peak {peak >> 20} MB", file=sys.stderr)
    ratings = {p.name: p.rating for p in files.check(book).season.players}
    assert (ratings["Player 2"], ratings["Player 5"], ratings["Player 3"]) == (2211, 1555, 1997)


def test_a_season_larger_than_the_old_limits_is_read_and_recalculated(tmp_path: Path) -> None:
    """1,500 players over 120 rounds: 108,000 rows of Rounds, past the 100,000 rows the
    reader used to allow."""
    season = large_season(1_500, 120)
    assert len(season.entries) > 100_000
    path = season_book(tmp_path / "large.xlsx", season)
    code, output, peak = measured("recalc", path)
    assert code == 0, output
    assert "1500 players" in output or "Standings" in output, output
    print(f"1,500 x 120 recalc: peak {peak >> 20} MB", file=sys.stderr)
    assert files.check(path).season.last_round == 120
