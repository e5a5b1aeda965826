"""The package writer saves keizer_xl's cells and leaves everything else of the secretary's
workbook exactly as it was, saves atomically, and refuses what it must not touch."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import zipfile
from fractions import Fraction
from pathlib import Path

import pytest
from openpyxl import load_workbook
from python_calamine import CalamineWorkbook

from keizer_xl.workbook.xlsx import (
    MissingSheet,
    NotAWorkbook,
    SheetEdit,
    WorkbookLocked,
    backup_path,
    check_not_open,
    save_edits,
)
from tests.helpers_package import (
    FIXTURES,
    REPO,
    TOP_VALUE_CELL,
    WORKBOOKS,
    Grid,
    add_big_photo,
    big_edits,
    cell_xml,
    child_command,
    column_style,
    copy_fixture,
    csv_filter,
    entries,
    expected_grid,
    hand_made_workbook,
    libreoffice_convert,
    members,
    outside_cells,
    product_edits,
    rows_markup,
    sheet_parts,
    soffice,
)

EDITED = ("Rounds", "Standings", "Settings")
# openpyxl, used here only to read, says it would drop LibreOffice's extensions; we do not
pytestmark = pytest.mark.filterwarnings("ignore:.*extension is not supported:UserWarning")


@pytest.fixture(params=WORKBOOKS)
def club(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A copy of a fixture workbook (XlsxWriter-made, then LibreOffice-saved)."""
    return copy_fixture(request.param, tmp_path)


def calamine_grid(path: Path, sheet: str) -> dict[tuple[int, int], object]:
    rows = CalamineWorkbook.from_path(str(path)).get_sheet_by_name(sheet).to_python()
    return {
        (r, c): float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v
        for r, row in enumerate(rows, start=1)
        for c, v in enumerate(row, start=1)
        if v not in ("", None)
    }


def openpyxl_grid(path: Path, sheet: str) -> dict[tuple[int, int], object]:
    book = load_workbook(path, read_only=True, data_only=True)
    try:
        return {
            (cell.row, cell.column): float(cell.value)
            if isinstance(cell.value, (int, float))
            else cell.value
            for row in book[sheet].iter_rows()
            for cell in row
            if getattr(cell, "value", None) not in (None, "")
        }
    finally:
        book.close()


def approx_grid(grid: dict[tuple[int, int], object]) -> dict[tuple[int, int], object]:
    return {k: pytest.approx(v, rel=1e-12) if isinstance(v, float) else v for k, v in grid.items()}


# ---------------------------------------------------------------------------------------
# Everything but the tool's cells survives


def test_only_the_edited_cells_change(club: Path) -> None:
    before_entries, before = entries(club), members(club)
    parts = sheet_parts(club)
    assert save_edits(club, product_edits()) is True

    after = members(club)
    assert entries(club) == before_entries  # same members, order, dates, compression, attributes
    edited = {parts[name] for name in EDITED}
    for name, data in before.items():
        if name in edited:
            assert after[name] != data, name
            assert outside_cells(after[name]) == outside_cells(data), name
        elif name == "xl/workbook.xml":
            # the only change allowed: ask Excel to recompute the secretary's formulas
            assert after[name].replace(b' fullCalcOnLoad="1"', b"") == data.replace(
                b' fullCalcOnLoad="1"', b""
            )
            assert b'fullCalcOnLoad="1"' in after[name]
        else:
            assert after[name] == data, name
    # rows the product does not write are byte for byte the same
    for sheet, written in (("Rounds", {5, 6, 7}), ("Settings", {TOP_VALUE_CELL[0]})):
        old, new = rows_markup(before[parts[sheet]]), rows_markup(after[parts[sheet]])
        assert {n: m for n, m in old.items() if n not in written} == {
            n: m for n, m in new.items() if n not in written
        }, sheet


@pytest.mark.parametrize("name", WORKBOOKS)
def test_fixtures_hold_what_a_secretary_adds(name: str) -> None:
    """The preservation tests mean something only if the fixtures have all of this."""
    parts = members(FIXTURES / name)
    sheets = {s: parts[p] for s, p in sheet_parts(FIXTURES / name).items()}
    everything = b"".join(parts.values())
    assert parts["xl/vbaProject.bin"].startswith(b"\xd0\xcf\x11\xe0")  # VBA project
    assert b"SampleCall" in everything  # a button bound to the macro
    assert any(n.startswith("xl/drawings/vmlDrawing") for n in parts)  # comments, buttons
    assert b"<xdr:sp" in everything and b"Results go in column E." in everything  # text box
    assert any(n.startswith("xl/media/") for n in parts) and b"<xdr:pic>" in everything
    assert any(n.startswith("xl/charts/chart") for n in parts)
    assert any(n.startswith("xl/comments") for n in parts)
    assert any(n.startswith("xl/tables/") for n in parts)
    assert b"<conditionalFormatting" in sheets["Standings"]
    assert b"<dataValidation" in sheets["Rounds"]
    assert parts["xl/workbook.xml"].count(b"<definedName ") >= 3
    assert b'orientation="landscape"' in sheets["Standings"]
    assert b'state="hidden"' in parts["xl/workbook.xml"]
    assert b"COUNTA(Players!A:A)-1</f>" in sheets["Club"]  # formulas reading the tool's cells
    for sheet in ("Players", "Rounds", "Standings", "Settings"):
        assert sheet in sheets
    if name == "club_libreoffice.xlsm":  # LibreOffice's own form controls
        assert any(n.startswith("xl/ctrlProps/") for n in parts)
        assert b'macro="Module1.SampleCall"' in sheets["Standings"]


def test_values_read_back_in_calamine_and_openpyxl(club: Path) -> None:
    edits = product_edits()
    grids_before = {s: calamine_grid(club, s) for s in EDITED}
    save_edits(club, edits)
    for sheet in EDITED:
        mine = [e for e in edits if e.sheet.casefold() == sheet.casefold()]
        want = approx_grid(expected_grid(grids_before[sheet], mine))
        assert calamine_grid(club, sheet) == want, sheet
        assert openpyxl_grid(club, sheet) == want, sheet


def test_other_sheets_read_the_same(club: Path) -> None:
    others = ["Players", "Club", "Archive"]
    before = {s: calamine_grid(club, s) for s in others}
    save_edits(club, product_edits())
    assert {s: calamine_grid(club, s) for s in others} == before


def test_openpyxl_still_sees_the_secretarys_objects(club: Path) -> None:
    save_edits(club, product_edits())
    book = load_workbook(club, keep_vba=True)
    assert book.vba_archive is not None
    assert book["Archive"].sheet_state == "hidden"
    assert "PlayerList" in book["Players"].tables
    assert book["Rounds"].data_validations.dataValidation
    assert book["Standings"].conditional_formatting
    assert book["Standings"].page_setup.orientation == "landscape"
    assert book["Rounds"]["E1"].comment is not None
    assert "Leader" in book.defined_names


@pytest.fixture(scope="session")
def office_profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if soffice() is None:
        pytest.fail("LibreOffice (soffice) is not installed; `make test` and .ci/run install "
                    "it (see .ci/system-packages)")
    return tmp_path_factory.mktemp("libreoffice-profile")


@pytest.mark.libreoffice
def test_libreoffice_opens_and_prints_the_result(
    club: Path, office_profile: Path, tmp_path: Path
) -> None:
    save_edits(club, product_edits())
    out = tmp_path / "out"
    done = libreoffice_convert(club, "pdf", out, office_profile)
    pdf = out / "club.pdf"
    assert done.returncode == 0, done.stderr
    assert pdf.exists() and pdf.stat().st_size > 1000, done.stdout + done.stderr
    assert pdf.read_bytes().startswith(b"%PDF")
    # and LibreOffice reads the very values written (Standings is the third sheet)
    done = libreoffice_convert(club, csv_filter(3), out, office_profile)
    assert done.returncode == 0, done.stderr
    rows = (out / "club-Standings.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0].split(",") == [
        "Rank", "Name", "Score", "Value", "Played", "Won", "Drawn", "Lost", "Byes", "Absent",
        "Rating", "R1", "R2",
    ]  # fmt: skip
    first = rows[1].split(",")
    assert first[1] == "Anna de Vries"
    assert float(first[2]) == pytest.approx(184 / 3)
    assert len(rows) == 6


# ---------------------------------------------------------------------------------------
# Saving twice, backups, atomic replacement


def test_second_save_changes_nothing(club: Path) -> None:
    assert save_edits(club, product_edits()) is True
    data, stamp = club.read_bytes(), club.stat().st_mtime_ns
    backup = backup_path(club).read_bytes()
    time.sleep(0.01)
    assert save_edits(club, product_edits()) is False
    assert club.read_bytes() == data
    assert club.stat().st_mtime_ns == stamp
    assert backup_path(club).read_bytes() == backup


def test_writing_what_is_there_writes_nothing(club: Path) -> None:
    stamp = club.stat().st_mtime_ns
    calamine = calamine_grid(club, "Settings")
    assert save_edits(club, [SheetEdit("Settings", {(3, 2): 1, (1, 1): "Setting"})]) is False
    assert save_edits(club, []) is False
    assert club.stat().st_mtime_ns == stamp
    assert not backup_path(club).exists()
    assert calamine_grid(club, "Settings") == calamine


@pytest.mark.libreoffice
def test_no_rewrite_after_the_workbook_was_saved_again(
    tmp_path: Path, office_profile: Path
) -> None:
    """Saving in a spreadsheet program turns our inline text into shared strings: same values."""
    club = copy_fixture("club.xlsm", tmp_path)
    edits = [SheetEdit("Standings", {(2, 2): "Zoë Zeeman", (2, 3): 61, (9, 9): "x"})]
    save_edits(club, edits)
    resaved = tmp_path / "resaved"
    done = libreoffice_convert(club, "xlsm:Calc MS Excel 2007 VBA XML", resaved, office_profile)
    assert done.returncode == 0, done.stderr
    again = resaved / "club.xlsm"
    assert b"inlineStr" not in members(again)[sheet_parts(again)["Standings"]]
    stamp = again.stat().st_mtime_ns
    assert save_edits(again, edits) is False
    assert again.stat().st_mtime_ns == stamp


def test_backup_is_the_previous_version(club: Path) -> None:
    original = club.read_bytes()
    save_edits(club, product_edits())
    first = club.read_bytes()
    backup = club.with_name("club.backup.xlsm")
    assert backup_path(club) == backup
    assert backup.read_bytes() == original
    save_edits(club, [SheetEdit("Settings", {TOP_VALUE_CELL: 41})])
    assert backup.read_bytes() == first
    assert sorted(p.name for p in club.parent.iterdir()) == ["club.backup.xlsm", "club.xlsm"]


def test_without_backup(club: Path) -> None:
    save_edits(club, product_edits(), backup=False)
    assert [p.name for p in club.parent.iterdir()] == ["club.xlsm"]


def test_failed_replace_leaves_the_original_and_no_temp(
    club: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = club.read_bytes()

    def refuse(src: object, dst: object) -> None:
        raise PermissionError("the file is in use")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(PermissionError):
        save_edits(club, product_edits(), backup=False)
    assert club.read_bytes() == original
    assert [p.name for p in club.parent.iterdir()] == ["club.xlsm"]


POSIX_ONLY = pytest.mark.skipif(os.name != "posix", reason="needs POSIX modes, links, signals")


@POSIX_ONLY
def test_file_mode_and_symlink_are_kept(club: Path) -> None:
    club.chmod(0o640)
    link = club.with_name("link.xlsm")
    link.symlink_to(club.name)
    assert save_edits(link, product_edits()) is True
    assert link.is_symlink()
    assert (club.stat().st_mode & 0o777) == 0o640
    assert calamine_grid(club, "Settings")[TOP_VALUE_CELL] == 40.0
    assert club.with_name("club.backup.xlsm").exists()


def test_read_only_workbook_is_refused(club: Path) -> None:
    club.chmod(0o444)
    original = club.read_bytes()
    with pytest.raises(PermissionError, match="read-only"):
        save_edits(club, product_edits())
    assert club.read_bytes() == original
    assert [p.name for p in club.parent.iterdir()] == ["club.xlsm"]


def _states(original: Path, scratch: Path) -> list[dict[str, bytes]]:
    """Every version the kill test's saving loop can leave: the original, then A, B, A, B."""
    path = scratch / original.name
    path.write_bytes(original.read_bytes())
    found = [members(path)]
    for step in range(4):
        save_edits(path, big_edits(step % 2), backup=False)
        found.append(members(path))
    return found


@POSIX_ONLY
def test_kill_during_save_leaves_old_or_new_file(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    club = copy_fixture("club.xlsm", folder)
    add_big_photo(club)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    started = time.perf_counter()
    states = _states(club, scratch)
    one_save = (time.perf_counter() - started) / 4

    rng = random.Random(20240901)
    outcomes: dict[str, int] = {}
    # 24 kills at random moments; then, should a loaded machine have made every save too
    # slow to finish before its kill, a few later kills so that completed saves are seen too
    delays = [rng.uniform(0, 2.5 * one_save) for _ in range(24)]
    extra = [one_save * (3 + 2 * i) for i in range(8)]
    while delays:
        delay = delays.pop(0)
        child = subprocess.Popen(
            child_command(club), cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        assert child.stdout is not None and child.stdout.readline() == b"ready\n"
        time.sleep(delay)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        assert child.returncode == -signal.SIGKILL, child.stderr.read() if child.stderr else ""

        with zipfile.ZipFile(club) as package:
            assert package.testzip() is None
        content = members(club)
        assert content in states
        outcomes[f"version {states.index(content)}"] = (
            outcomes.get(f"version {states.index(content)}", 0) + 1
        )
        for leftover in folder.iterdir():
            if leftover.name in ("club.xlsm", "club.backup.xlsm"):
                continue
            # a killed write may leave its temporary file: hidden, and ours by name
            assert leftover.name.startswith(".club.xlsm.") and leftover.name.endswith(
                ".keizer-xl.tmp"
            ), leftover.name
            outcomes["temp left"] = outcomes.get("temp left", 0) + 1
        if backup_path(club).exists():
            assert members(backup_path(club)) in states
        if not delays and extra and not set(outcomes) - {"version 0", "temp left"}:
            delays.append(extra.pop(0))

    assert set(outcomes) - {"version 0", "temp left"}, outcomes  # some saves completed
    save_edits(club, [SheetEdit("Settings", {TOP_VALUE_CELL: 7})])
    assert sorted(p.name for p in folder.iterdir()) == ["club.backup.xlsm", "club.xlsm"]


# ---------------------------------------------------------------------------------------
# Refusals: open workbooks, files that are no workbook, values Excel cannot hold


@pytest.mark.parametrize(
    ("lock_name", "program"),
    [("~$club.xlsm", "Excel"), (".~lock.club.xlsm#", "LibreOffice")],
)
def test_open_workbook_is_refused(club: Path, lock_name: str, program: str) -> None:
    lock = club.with_name(lock_name)
    lock.write_text("Jan Secretaris,club-pc,jan,21.11.2024 20:00,file:///home/jan/.config;")
    original, stamp = club.read_bytes(), club.stat().st_mtime_ns
    with pytest.raises(WorkbookLocked) as refused:
        save_edits(club, product_edits())
    message = str(refused.value)
    assert program in message and lock_name in message
    if program == "LibreOffice":
        assert "Jan Secretaris" in message
    assert club.read_bytes() == original and club.stat().st_mtime_ns == stamp
    assert not backup_path(club).exists()
    with pytest.raises(WorkbookLocked):
        check_not_open(club)
    lock.unlink()
    check_not_open(club)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no workbook"):
        save_edits(tmp_path / "nothing.xlsx", product_edits())
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"Name,Rating\nAnna,1850\n", "not an Excel workbook"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, "old-style Excel file"),
        (b"", "not an Excel workbook"),
    ],
)
def test_not_a_workbook(tmp_path: Path, content: bytes, words: str) -> None:
    path = tmp_path / "club.xlsx"
    path.write_bytes(content)
    with pytest.raises(NotAWorkbook, match=words):
        save_edits(path, product_edits())
    assert path.read_bytes() == content


def test_zip_that_is_no_workbook(tmp_path: Path) -> None:
    plain = tmp_path / "photos.xlsx"
    with zipfile.ZipFile(plain, "w") as package:
        package.writestr("photo.txt", "not a spreadsheet")
    with pytest.raises(NotAWorkbook, match="not an Excel workbook"):
        save_edits(plain, product_edits())
    ods = tmp_path / "club.xlsx"
    with zipfile.ZipFile(ods, "w") as package:
        package.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
    with pytest.raises(NotAWorkbook, match="OpenDocument"):
        save_edits(ods, product_edits())
    folder = tmp_path / "folder.xlsx"
    folder.mkdir()
    with pytest.raises(NotAWorkbook, match="folder"):
        save_edits(folder, product_edits())


def test_unknown_sheet_and_chart_sheet(tmp_path: Path) -> None:
    club = copy_fixture("club.xlsm", tmp_path)
    original = club.read_bytes()
    with pytest.raises(MissingSheet, match=r"no sheet called 'Standing'.*'Standings'"):
        save_edits(club, [*product_edits(), SheetEdit("Standing", {(1, 1): 1})])
    with pytest.raises(MissingSheet, match="not an ordinary worksheet"):
        save_edits(club, [SheetEdit("Chart", {(1, 1): 1})])
    assert club.read_bytes() == original
    assert [p.name for p in tmp_path.iterdir()] == ["club.xlsm"]


@pytest.mark.parametrize(
    ("cells", "error", "words"),
    [
        ({(2, 3): float("nan")}, ValueError, "C2.*not a number"),
        ({(2, 3): float("inf")}, ValueError, "not a number"),
        ({(2, 3): object()}, TypeError, "cannot write a object"),
        ({(0, 3): 1}, ValueError, "row 0"),
        ({(2, 16385): 1}, ValueError, "column 16385"),
        ({(2, 2): "x" * 32768}, ValueError, "longer than Excel allows"),
    ],
)
def test_values_excel_cannot_hold_are_refused(
    tmp_path: Path, cells: Grid, error: type[Exception], words: str
) -> None:
    club = copy_fixture("club.xlsm", tmp_path)
    original = club.read_bytes()
    with pytest.raises(error, match=words):
        save_edits(club, [*product_edits(), SheetEdit("Standings", cells)])
    assert club.read_bytes() == original


# ---------------------------------------------------------------------------------------
# Cell markup: styles, text, clearing


def test_new_cells_take_the_column_style_and_old_cells_keep_theirs(tmp_path: Path) -> None:
    club = copy_fixture("club.xlsm", tmp_path)
    score_style = cell_xml(club, "Standings", "C2")["s"]  # type: ignore[index]
    save_edits(club, product_edits())
    # Rounds: columns A, B and E are centred by <col style>; C and D have no style
    centred = column_style(club, "Rounds", 1)
    assert centred is not None
    assert cell_xml(club, "Rounds", "A5")["s"] == centred  # type: ignore[index]
    assert cell_xml(club, "Rounds", "E7")["s"] == centred  # type: ignore[index]
    assert "s" not in cell_xml(club, "Rounds", "C5")  # type: ignore[operator]
    # Standings: C2 had the score format and keeps it while its value changes
    assert cell_xml(club, "Standings", "C2")["s"] == score_style  # type: ignore[index]
    book = load_workbook(club)
    assert book["Standings"]["C2"].number_format == "0.00"
    assert book["Standings"]["C2"].value == pytest.approx(184 / 3)
    assert book["Rounds"]["E7"].alignment.horizontal == "center"
    assert book["Rounds"]["E7"].value == "excused"


def test_cell_in_a_formatted_row_takes_the_row_style(tmp_path: Path) -> None:
    club = copy_fixture("club.xlsm", tmp_path)
    save_edits(club, [SheetEdit("Settings", {(12, 1): "Notes", (12, 2): "kept green"})])
    book = load_workbook(club)
    assert book["Settings"]["A12"].fill.fgColor.rgb == "FFE2EFDA"
    assert book["Settings"]["B12"].fill.fgColor.rgb == "FFE2EFDA"
    assert book["Settings"].row_dimensions[12].height == 20.25


def test_text_is_escaped_and_cleaned(tmp_path: Path) -> None:
    club = copy_fixture("club.xlsm", tmp_path)
    texts: Grid = {
        (2, 2): "Smit & Zn <senior>",
        (3, 2): "½-½ ♞ Zoë",
        (4, 2): "  padded  ",
        (5, 2): "two\r\nlines",
        (6, 2): "bell\x07 and \x00null\ud800",
        (7, 2): "=1+1",
        (8, 2): "x_x0041_y",
        (9, 2): "]]> and \"quotes\" 'single'",
    }
    save_edits(club, [SheetEdit("Standings", texts)])
    want = {
        (2, 2): "Smit & Zn <senior>",
        (3, 2): "½-½ ♞ Zoë",
        (4, 2): "  padded  ",
        (5, 2): "two\nlines",
        (6, 2): "bell and null",
        (7, 2): "=1+1",
        (8, 2): "x_x0041_y",
        (9, 2): "]]> and \"quotes\" 'single'",
    }
    grid = calamine_grid(club, "Standings")
    assert {k: grid.get(k) for k in want} == want
    # openpyxl does not undo Excel's `_x005F_` escape (Excel, LibreOffice and calamine do)
    grid = openpyxl_grid(club, "Standings")
    del want[(8, 2)]
    assert {k: grid.get(k) for k in want} == want
    shared = "xl/sharedStrings.xml"
    assert members(club)[shared] == members(FIXTURES / "club.xlsm")[shared]


def test_numbers_and_emptying(tmp_path: Path) -> None:
    club = copy_fixture("club.xlsm", tmp_path)
    values: Grid = {
        (2, 3): Fraction(2, 3),
        (3, 3): 0.1,
        (4, 3): -7,
        (5, 3): 1e20,
        (6, 3): Fraction(10, 2),
        (2, 1): None,  # empty an existing cell
    }
    save_edits(club, [SheetEdit("Standings", values)])
    grid = calamine_grid(club, "Standings")
    assert grid[(2, 3)] == 2 / 3 and grid[(3, 3)] == 0.1 and grid[(4, 3)] == -7.0
    assert grid[(5, 3)] == 1e20 and grid[(6, 3)] == 5.0
    assert (2, 1) not in grid


def test_clear_below_removes_old_rows_and_shrinks_the_dimension(tmp_path: Path) -> None:
    club = copy_fixture("club.xlsm", tmp_path)
    header = {(1, c): h for c, h in enumerate(["Rank", "Name"], start=1)}
    rows = {(r, c): v for r in (2, 3) for c, v in ((1, r - 1), (2, f"P{r}"))}
    save_edits(club, [SheetEdit("Standings", {**header, **rows}, clear_below=2)])
    grid = calamine_grid(club, "Standings")
    assert {k for k in grid if k[0] >= 2} == set(rows)
    sheet = members(club)[sheet_parts(club)["Standings"]]
    # row 1 keeps the old header beyond column B, and the merged "Note" in R1:T1
    assert b'<dimension ref="A1:T3"/>' in sheet
    assert grid[(1, 3)] == "Score"


def test_prefixed_markup_and_cells_without_references(tmp_path: Path) -> None:
    """Some generators write `<x:row>` and leave out the optional r attributes."""
    path = hand_made_workbook(
        tmp_path / "made.xlsx",
        '<x:row><x:c t="inlineStr"><x:is><x:t>Rank</x:t></x:is></x:c>'
        '<x:c t="inlineStr"><x:is><x:t>Name</x:t></x:is></x:c><x:c><x:v>9</x:v></x:c></x:row>'
        "<x:row><x:c><x:v>1</x:v></x:c></x:row>",
        prefix="x",
    )
    save_edits(path, [SheetEdit("Standings", {(1, 2): "Naam", (2, 2): "Anna", (4, 1): 3})])
    want = {(1, 1): "Rank", (1, 2): "Naam", (1, 3): 9.0, (2, 1): 1.0, (2, 2): "Anna", (4, 1): 3.0}
    assert calamine_grid(path, "Standings") == want
    assert openpyxl_grid(path, "Standings") == want
    sheet = members(path)["xl/worksheets/sheet1.xml"]
    assert b'<x:dimension ref="A1:C4"/>' in sheet and b"<c " not in sheet


def test_overwritten_formula_drops_the_calculation_chain(tmp_path: Path) -> None:
    chain = (
        '<calcChain xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        '<c r="B1" i="1"/></calcChain>'
    )
    path = hand_made_workbook(
        tmp_path / "made.xlsx",
        '<row r="1"><c r="A1"><v>2</v></c><c r="B1"><f>A1*2</f><v>4</v></c></row>',
        calc_chain=chain,
        calc='<calcPr calcId="191029"/>',
    )
    save_edits(path, [SheetEdit("Standings", {(1, 2): 5})])
    after = members(path)
    assert "xl/calcChain.xml" not in after
    assert b"calcChain" not in after["[Content_Types].xml"]
    assert b"calcChain" not in after["xl/_rels/workbook.xml.rels"]
    assert b'<calcPr calcId="191029"/>' in after["xl/workbook.xml"]  # no formulas left
    assert calamine_grid(path, "Standings") == {(1, 1): 2.0, (1, 2): 5.0}


def test_formulas_elsewhere_are_recomputed_on_opening(tmp_path: Path) -> None:
    path = hand_made_workbook(
        tmp_path / "made.xlsx",
        '<row r="1"><c r="A1"><v>2</v></c><c r="B1"><f>A1*2</f><v>4</v></c></row>',
        calc='<calcPr calcId="191029"/>',
    )
    save_edits(path, [SheetEdit("Standings", {(1, 1): 5})])
    assert b'<calcPr calcId="191029" fullCalcOnLoad="1"/>' in members(path)["xl/workbook.xml"]


def test_shared_formula_source_is_not_overwritten(tmp_path: Path) -> None:
    path = hand_made_workbook(
        tmp_path / "made.xlsx",
        '<row r="1"><c r="A1"><f t="shared" ref="A1:A2" si="0">ROW()</f><v>1</v></c></row>'
        '<row r="2"><c r="A2"><f t="shared" si="0"/><v>2</v></c></row>',
    )
    original = path.read_bytes()
    with pytest.raises(ValueError, match="A1 holds a formula that other cells copy"):
        save_edits(path, [SheetEdit("Standings", {(1, 1): "Rank"})])
    assert path.read_bytes() == original
    # clearing the whole range is fine: no cell is left depending on it
    assert save_edits(path, [SheetEdit("Standings", {(1, 1): "Rank"}, clear_below=1)])


def test_saving_a_season_is_quick(tmp_path: Path) -> None:
    """A 60-player season's Standings (60 x 41 cells) and a round of Rounds rows."""
    club = copy_fixture("club_libreoffice.xlsm", tmp_path)
    standings: Grid = {
        (r, c): (f"Player {r}" if c == 2 else Fraction(r * c, 3))
        for r in range(1, 62)
        for c in range(1, 42)
    }
    rounds: Grid = {(r, c): f"P{r}-{c}" for r in range(5, 40) for c in range(1, 6)}
    edits = [SheetEdit("Standings", standings, clear_below=1), SheetEdit("Rounds", rounds)]
    started = time.perf_counter()
    save_edits(club, edits)
    elapsed = time.perf_counter() - started
    assert elapsed < 2.0, f"{elapsed:.3f} s"
    print(f"season save: {elapsed * 1000:.1f} ms", file=sys.stderr)


@pytest.mark.parametrize("name", WORKBOOKS)
def test_appending_rows_quickly_gives_the_same_package_as_taking_the_sheet_apart(
        tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows added below the last one skip splitting the sheet; the result must not differ."""
    import keizer_xl.workbook.xlsx.package as package

    (tmp_path / "quick").mkdir()
    (tmp_path / "slow").mkdir()
    quick, slow = copy_fixture(name, tmp_path / "quick"), copy_fixture(name, tmp_path / "slow")
    edits = [SheetEdit("Rounds", {(40, 1): 3, (40, 3): "Anna", (41, 1): 3, (41, 5): "bye",
                                  (45, 2): 7})]
    assert save_edits(quick, edits, backup=False)
    monkeypatch.setattr(package._Sheet, "_last_row_number", lambda self: None)
    assert save_edits(slow, edits, backup=False)
    assert members(quick) == members(slow)
