"""Hostile, concurrent and odd workbooks through `keizer-xl`: memory stays bounded, one
writer at a time, `check` refuses what `pair` refuses, and every refusal names its place.

Memory is measured in a fresh process for each command (its own peak resident size), so
the figures are the command's alone."""

from __future__ import annotations

import errno
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook as OpenpyxlWorkbook

from keizer_xl.workbook import files
from keizer_xl.workbook.xlsx import SheetEdit, save_edits, writer_lock_path
from keizer_xl.workbook.xlsx import _package as package
from tests.conftest import run_cli
from tests.peak import measured as peak_of
from tests.programs import another_writer
from tests.seasons import golden_book, make_book

REPO = Path(__file__).resolve().parents[2]
MEMORY_LIMIT = 500 << 20  # bytes, for any workbook under 20 MB


def measured(*args: object) -> tuple[int, str, int]:
    """Run `keizer-xl ARGS` in a fresh process: (exit code, its output, peak memory bytes)."""
    code, output, peak, _ = peak_of(*args, cwd=REPO, timeout=300)
    return code, output, peak


def players(n: int = 6) -> list[dict[str, object]]:
    return [
        {"Name": f"Player {i}", "Rating": 2000 - 10 * i, "Present": "x"} for i in range(1, n + 1)
    ]


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as package:
        return {
            info.filename: package.read(info)
            for info in package.infolist()
            if info.file_size < 50 << 20
        }


# -- bounded reading -----------------------------------------------------------------------


@pytest.mark.programs  # a fresh process for each command, its memory measured
@pytest.mark.parametrize(
    ("sheet", "cell", "ref"),
    [
        ("Players", (1_048_576, 16_384), "Players!XFD1048576"),
        ("Rounds", (1_048_576, 26), "Rounds!Z1048576"),
        ("Players", (2, 1_001), "Players!ALM2"),
    ],
)
def test_a_value_far_away_is_refused_with_its_cell(
    tmp_path: Path, sheet: str, cell: tuple[int, int], ref: str
) -> None:
    path = make_book(tmp_path / "club.xlsx", players())
    save_edits(path, [SheetEdit(sheet, {cell: "x"})], backup=False)
    assert path.stat().st_size < 25_000  # a small file, whose data claims to reach far
    before = path.read_bytes()
    for command in ("check", "pair", "recalc"):
        code, output, peak = measured(command, path)
        assert code == 1, output
        assert ref in output and "the sheet's data reaches this cell" in output, output
        assert "Traceback" not in output and "report" not in output
        assert peak < MEMORY_LIMIT, f"{command}: {peak >> 20} MB"
        print(f"{ref} {command}: peak {peak >> 20} MB", file=sys.stderr)
    assert path.read_bytes() == before


def test_formatted_but_empty_cells_far_away_are_no_data(tmp_path: Path) -> None:
    """A style on XFD1048576 holds nothing: the sheet reads as usual."""
    path = make_book(tmp_path / "club.xlsx", players())
    with zipfile.ZipFile(path) as package:
        parts = {i.filename: package.read(i) for i in package.infolist()}
    sheet = next(name for name in parts if name.startswith("xl/worksheets/sheet1"))
    parts[sheet] = parts[sheet].replace(
        b"</sheetData>", b'<row r="1048576"><c r="XFD1048576" s="1"/></row></sheetData>'
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as package:
        for name, data in parts.items():
            package.writestr(name, data)
    result = run_cli("check", path)
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def bombed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A season workbook whose docProps/app.xml unpacks to 1.5 GB (it is 1.5 MB packed)."""
    folder = tmp_path_factory.mktemp("bomb")
    plain = make_book(folder / "plain.xlsx", players())
    path = folder / "club.xlsx"
    with zipfile.ZipFile(plain) as source, zipfile.ZipFile(path, "w") as package:
        for info in source.infolist():
            if info.filename == "docProps/app.xml":
                with package.open(info, "w") as member:
                    zeros = b" " * (1 << 24)
                    for _ in range(96):  # 96 x 16 MB = 1.5 GB of spaces, valid in XML
                        member.write(zeros)
            else:
                package.writestr(info, source.read(info))
    return path


@pytest.mark.programs  # a fresh process for each command, its memory measured
def test_a_part_that_unpacks_to_gigabytes_is_copied_not_unpacked(
    bombed: Path, tmp_path: Path
) -> None:
    path = tmp_path / "club.xlsx"
    path.write_bytes(bombed.read_bytes())
    assert path.stat().st_size < 20 << 20
    with zipfile.ZipFile(path) as package:
        bomb = package.getinfo("docProps/app.xml")
    assert bomb.file_size == 1536 << 20
    for command in ("check", "pair", "recalc"):
        code, output, peak = measured(command, path)
        assert code == 0, output
        assert peak < MEMORY_LIMIT, f"{command}: {peak >> 20} MB"
        print(f"zip bomb {command}: peak {peak >> 20} MB", file=sys.stderr)
    with zipfile.ZipFile(path) as package:
        after = package.getinfo("docProps/app.xml")
        rounds = [name for name in package.namelist() if "worksheets/sheet2" in name]
        assert b"Player 1" in package.read(rounds[0])
    assert (after.CRC, after.compress_size, after.file_size) == (
        bomb.CRC,
        bomb.compress_size,
        bomb.file_size,
    )


@pytest.mark.programs  # a fresh process for the command, its memory measured
def test_a_sheet_that_unpacks_to_gigabytes_is_refused(tmp_path: Path) -> None:
    plain = make_book(tmp_path / "plain.xlsx", players())
    path = tmp_path / "club.xlsx"
    with (
        zipfile.ZipFile(plain) as source,
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as package,
    ):
        for info in source.infolist():
            if info.filename == "xl/worksheets/sheet1.xml":
                with package.open(info.filename, "w") as member:
                    member.write(source.read(info).replace(b"</worksheet>", b""))
                    for _ in range(96):
                        member.write(b" " * (1 << 24))
                    member.write(b"</worksheet>")
            else:
                package.writestr(info, source.read(info))
    code, output, peak = measured("check", path)
    assert code == 1 and "xl/worksheets/sheet1.xml" in output and "MB" in output, output
    assert peak < MEMORY_LIMIT


# -- one writer at a time --------------------------------------------------------------------


@pytest.mark.programs  # commands in processes of their own, side by side
def test_pair_and_recalc_at_once_lose_no_round(tmp_path: Path) -> None:
    """Twenty times: `pair` and `recalc` started together on one workbook. Both finish,
    and the round `pair` says it wrote is in the file."""
    played = [
        [1, 1, "Player 1", "Player 2", "1-0"],
        [1, 2, "Player 3", "Player 4", "½-½"],
        [1, 3, "Player 5", "Player 6", "0-1"],
    ]
    source = make_book(tmp_path / "source.xlsx", players(), played)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    for trial in range(20):
        path = tmp_path / f"club{trial}.xlsx"
        path.write_bytes(source.read_bytes())
        command = [sys.executable, "-m", "keizer_xl.cli"]
        first, second = ("pair", "recalc") if trial % 2 else ("recalc", "pair")
        runs = {
            name: subprocess.Popen(
                [*command, name, str(path)],
                cwd=REPO,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for name in (first, second)
        }
        outputs = {name: run.communicate(timeout=120) for name, run in runs.items()}
        for name, run in runs.items():
            assert run.returncode == 0, (name, outputs[name])
        assert "Round 2 written" in outputs["pair"][0]
        competition = files.check(path)
        assert competition.season.last_round == 2, trial
        leftovers = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".club"))
        assert leftovers == [], leftovers


@pytest.mark.programs  # another process holds the workbook
def test_a_second_run_waits_then_refuses_naming_the_file(tmp_path: Path) -> None:
    path = golden_book(tmp_path / "club.xlsx", "A")
    with another_writer(path):
        code, output, _ = measured("recalc", path)
        assert code == 1
        assert "club.xlsx is being changed by another keizer-xl run" in output, output
    # the killed holder's lock file is left behind, but no lock: the next run goes ahead
    assert writer_lock_path(path).exists()
    code, output, _ = measured("recalc", path)
    assert code == 0, output


# -- check = pair's checks -------------------------------------------------------------------


def _rewrite(path: Path, change: dict[str, bytes | None], duplicate: str | None = None) -> None:
    with zipfile.ZipFile(path) as package:
        parts = [(i, package.read(i)) for i in package.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as package:
        for info, data in parts:
            new = change.get(info.filename, data)
            if new is not None:
                package.writestr(info.filename, new)
        if duplicate:
            with pytest.warns(UserWarning):
                package.writestr(
                    duplicate, dict(parts)[next(i for i, _ in parts if i.filename == duplicate)]
                )


@pytest.mark.parametrize("damage", ["standings markup", "rounds markup", "twice", "no workbook"])
def test_check_refuses_what_pair_and_recalc_refuse(tmp_path: Path, damage: str) -> None:
    path = make_book(tmp_path / "club.xlsx", players())
    with zipfile.ZipFile(path) as package:
        sheets = {n: package.read(n) for n in package.namelist() if "worksheets/sheet" in n}
    if damage == "standings markup":  # sheet3 is Standings: broken after its cells
        _rewrite(
            path,
            {
                "xl/worksheets/sheet3.xml": sheets["xl/worksheets/sheet3.xml"].replace(
                    b"</sheetData>", b"</sheetData><pageMargins left='0.7'"
                )
            },
        )
    elif damage == "rounds markup":
        _rewrite(
            path,
            {
                "xl/worksheets/sheet2.xml": sheets["xl/worksheets/sheet2.xml"].replace(
                    b"</worksheet>", b"<broken></worksheet>"
                )
            },
        )
    elif damage == "twice":
        _rewrite(path, {}, duplicate="xl/worksheets/sheet3.xml")
    else:
        _rewrite(path, {"xl/workbook.xml": None})
    before = path.read_bytes()
    results = {command: run_cli(command, path) for command in ("check", "recalc", "pair")}
    for command, result in results.items():
        assert result.exit_code == 1, (command, result.output)
        assert "club.xlsx" in result.output and "report" not in result.output, result.output
    assert path.read_bytes() == before


# -- sensible numbers ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("where", "value", "cell"),
    [
        ("Top value", 1e308, "Settings!B2: Top value: '1e+308'"),
        ("Top value", 1e300, "Settings!B2"),
        ("Step", "1e30", "Settings!B3"),
        ("Rating", 1e308, "Players!B2"),
        ("Joined", 1e308, "Players!C2"),
    ],
)
def test_numbers_past_sensible_ranges_are_problems_naming_the_cell(
    tmp_path: Path, where: str, value: object, cell: str
) -> None:
    people = players()
    settings = None
    if where in ("Rating", "Joined"):
        people[0][where] = value
    else:
        settings = {where: value}
    path = make_book(tmp_path / "club.xlsx", people, settings=settings)
    before = path.read_bytes()
    for command in ("check", "recalc", "pair"):
        result = run_cli(command, path)
        assert result.exit_code == 1, result.output
        assert cell in result.output and "sensible range" in result.output, result.output
        assert re.search(r"[0-9]{20}", result.output) is None, result.output
    assert path.read_bytes() == before


# -- formulas without a saved value ----------------------------------------------------------


def openpyxl_book(path: Path, rating: str) -> Path:
    """A workbook as a script writes it with openpyxl: Rating B3 is a formula."""
    book = OpenpyxlWorkbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Players"
    sheet.append(["Name", "Rating", "Present"])
    sheet.append(["Anna", 1700, "x"])
    sheet.append(["Bram", rating, "x"])
    sheet.append(["Carla", 1800, "x"])
    book.create_sheet("Rounds").append(["Round", "Board", "White", "Black", "Result"])
    book.create_sheet("Standings")
    book.create_sheet("Settings").append(["Setting", "Value"])
    book.save(path)
    return path


def test_a_formula_without_a_saved_value_is_a_problem(tmp_path: Path) -> None:
    path = openpyxl_book(tmp_path / "club.xlsx", "=1900+50")
    for command in ("check", "recalc", "pair"):
        result = run_cli(command, path)
        assert result.exit_code == 1, result.output
        assert (
            "Players!B3: a formula whose value is not saved: open and save the workbook "
            "in Excel or LibreOffice, or type the value"
        ) in result.output, result.output
    # a formula in a column keizer_xl does not read is none of its business
    other = openpyxl_book(tmp_path / "other.xlsx", "1950")
    with zipfile.ZipFile(other) as package:
        sheet = package.read("xl/worksheets/sheet1.xml")
    _rewrite(
        other,
        {
            "xl/worksheets/sheet1.xml": sheet.replace(
                b"</row></sheetData>", b'<c r="F4"><f>1+1</f><v /></c></row></sheetData>'
            )
        },
    )
    result = run_cli("check", other)
    assert result.exit_code == 0, result.output


def test_a_formula_with_its_saved_value_is_read_as_that_value(tmp_path: Path) -> None:
    path = openpyxl_book(tmp_path / "club.xlsx", "=1900+50")
    with zipfile.ZipFile(path) as package:
        sheet = package.read("xl/worksheets/sheet1.xml")
    assert b"<f>1900+50</f><v /></c>" in sheet  # as openpyxl writes it: no value
    sheet = sheet.replace(b"<f>1900+50</f><v /></c>", b"<f>1900+50</f><v>1950</v></c>")
    _rewrite(path, {"xl/worksheets/sheet1.xml": sheet})
    competition = files.check(path)
    assert [p.rating for p in competition.season.players] == [1700, 1950, 1800]
    result = run_cli("pair", path)
    assert result.exit_code == 0, result.output
    assert "Bram" in result.output


# -- odd files and places --------------------------------------------------------------------


def test_two_games_on_one_board_are_noted_after_success(tmp_path: Path) -> None:
    rounds = [
        [1, 1, "Player 1", "Player 2", "1-0"],
        [1, 1, "Player 3", "Player 4", "0-1"],
        [1, 2, "Player 5", "Player 6", "½-½"],
    ]
    path = make_book(tmp_path / "club.xlsx", players(), rounds)
    for command in ("check", "publish", "recalc", "pair"):
        result = run_cli(command, path)
        assert result.exit_code == 0, result.output
        assert (
            "Note: Rounds!B3: board 1 of round 1 is also used in row 2; two games on one board"
        ) in result.output, (command, result.output)


def test_publish_reads_and_warns_as_check_does_without_planning_the_sheets(tmp_path: Path) -> None:
    """`survey` (publish writes nothing into the workbook) finds the standings, warnings
    and notes `inspect` (check) finds, which also plans what a recalculation would write."""
    rounds = [
        [1, 1, "Player 1", "Player 2", "1-0"],
        [1, 1, "Player 3", "Player 4", "0-1"],
        [2, 1, "Player 1", "Player 3", "½-½"],
        [3, 1, "Player 1", "Player 4", "1-0"],
        [4, 1, "Player 1", "Player 2", "0-1"],
    ]
    path = make_book(tmp_path / "club.xlsx", players(), rounds)
    surveyed, said = files.survey(path)
    inspected, checked = files.inspect(path)
    assert said.standings.cautions and said.notes  # something to say, said alike
    assert said == checked
    assert surveyed.standings() == inspected.standings()


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        (
            "club.xls",
            b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600,
            "old-style Excel file (.xls)",
        ),
        ("club.xlsb", b"PK\x03\x04", "binary Excel workbook (.xlsb)"),
        ("club.ods", b"PK\x03\x04", "OpenDocument spreadsheet (.ods)"),
        (
            "club.xlsx",
            b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
            + b"\0" * 600
            + "EncryptedPackage".encode("utf-16-le"),
            "protected with a password",
        ),
        (
            "club.xlsx",
            b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600,
            "old-style Excel file (.xls)",
        ),
    ],
)
def test_other_kinds_of_file_get_their_own_message(
    tmp_path: Path, name: str, content: bytes, words: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    for command in ("check", "recalc", "pair"):
        result = run_cli(command, path)
        assert result.exit_code == 1, result.output
        assert name in result.output and words in result.output, result.output


def test_a_folder_given_as_file_is_a_problem_not_a_usage_error(tmp_path: Path) -> None:
    folder = tmp_path / "club.xlsx"
    folder.mkdir()
    for command in ("check", "recalc", "pair", "standings"):
        result = run_cli(command, folder)
        assert result.exit_code == 1, result.output
        assert "club.xlsx: this is a folder, not a workbook" in result.output


def test_a_full_disk_is_reported_with_the_file_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = make_book(tmp_path / "club.xlsx", players())
    before = path.read_bytes()

    def full(*args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(package, "write_members", full)  # the save's (reading makes its own)
    result = run_cli("pair", path)
    assert result.exit_code == 1
    assert f"disk full while writing {path}; nothing was changed" in result.output, result.output
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.xlsx"]


def test_a_dutch_workbook_gets_the_same_checks(tmp_path: Path) -> None:
    """Spelers, Ronden and Instellingen are read as Players, Rounds and Settings: their
    formulas without a saved value and their boards used twice are found the same way."""
    book = OpenpyxlWorkbook()
    spelers = book.active
    assert spelers is not None
    spelers.title = "Spelers"
    for row in (
        ["Naam", "Rating", "Aanwezig"],
        ["Anna", 1700, "x"],
        ["Bram", "=1900+50", "x"],
        ["Carla", 1800, "x"],
        ["Daan", 1600, "x"],
    ):
        spelers.append(row)
    ronden = book.create_sheet("Ronden")
    for row in (
        ["Ronde", "Bord", "Wit", "Zwart", "Uitslag"],
        [1, 1, "Anna", "Carla", "1-0"],
        [1, 1, "Bram", "Daan", "0-1"],
    ):
        ronden.append(row)
    book.create_sheet("Stand")
    book.create_sheet("Instellingen").append(["Instelling", "Waarde"])
    path = tmp_path / "club.xlsx"
    book.save(path)
    result = run_cli("check", path)
    assert (
        result.exit_code == 1
        and "Spelers!B3: een formule waarvan de waarde niet is opgeslagen" in result.output
    ), result.output
    with zipfile.ZipFile(path) as package:
        sheet = package.read("xl/worksheets/sheet1.xml")
    _rewrite(
        path,
        {
            "xl/worksheets/sheet1.xml": sheet.replace(
                b"<f>1900+50</f><v /></c>", b"<f>1900+50</f><v>1950</v></c>"
            )
        },
    )
    result = run_cli("recalc", path)
    assert result.exit_code == 0, result.output
    assert "Let op: Ronden!B3: bord 1 van ronde 1 wordt ook in rij 2 gebruikt" in result.output
