"""The package writer saves keizer_xl's cells and leaves everything else of the secretary's
workbook exactly as it was, and refuses files that are no workbook it can edit."""

from __future__ import annotations

import re
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from openpyxl import load_workbook

from keizer_xl.workbook.xlsx import (
    MissingSheet,
    NotAWorkbook,
    SheetEdit,
    Workbook,
    backup_path,
    save_edits,
)
from tests.helpers_package import (
    FIXTURES,
    REPO,
    TOP_VALUE_CELL,
    WORKBOOKS,
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
)
from tests.programs import need
from tests.xlsx.grids import approx_grid, calamine_grid, openpyxl_grid

EDITED = ("Rounds", "Standings", "Settings")
# openpyxl, used here only to read, says it would drop LibreOffice's extensions; we do not
pytestmark = pytest.mark.filterwarnings("ignore:.*extension is not supported:UserWarning")


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
    book.vba_archive.close()  # openpyxl's copy of the macros: left open by openpyxl itself
    assert book["Archive"].sheet_state == "hidden"
    assert "PlayerList" in book["Players"].tables
    assert book["Rounds"].data_validations.dataValidation
    assert book["Standings"].conditional_formatting
    assert book["Standings"].page_setup.orientation == "landscape"
    assert book["Rounds"]["E1"].comment is not None
    assert "Leader" in book.defined_names


@pytest.fixture(scope="session")
def office_profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    need("soffice")
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


# ---------------------------------------------------------------------------------------
# Refusals: open workbooks, files that are no workbook, values Excel cannot hold


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


LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">'
    b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
)
OUTSIDE = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'


@pytest.mark.parametrize(
    ("part", "words"),
    [
        ("xl/workbook.xml", "its workbook part is unreadable"),
        ("xl/_rels/workbook.xml.rels", "bad relationships"),
    ],
)
@pytest.mark.parametrize("declared", [LAUGHS, OUTSIDE])
def test_a_part_declaring_entities_is_refused_as_damaged(
    tmp_path: Path, part: str, words: str, declared: bytes
) -> None:
    """No entity of a workbook's XML is expanded or fetched: the part is called damaged."""
    club = copy_fixture("club.xlsm", tmp_path)
    with zipfile.ZipFile(club) as package:
        parts = {info.filename: package.read(info) for info in package.infolist()}
    body = parts[part].split(b"?>", 1)[-1]
    parts[part] = declared + body.replace(b"</", b"&b;</", 1)
    with zipfile.ZipFile(club, "w", zipfile.ZIP_DEFLATED) as package:
        for name, data in parts.items():
            package.writestr(name, data)
    before = club.read_bytes()
    with pytest.raises(NotAWorkbook, match=words):
        save_edits(club, product_edits())
    assert club.read_bytes() == before


@pytest.mark.parametrize(
    "part", ["xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/worksheets/sheet3.xml"]
)  # Standings: edited
@pytest.mark.parametrize("encoding", ["UUTF-8", "utf-32", "no such thing"])
def test_a_part_in_an_encoding_xml_cannot_have_is_refused_as_damaged(
    tmp_path: Path, part: str, encoding: str
) -> None:
    """An encoding a part declares that no XML reader knows (or reads) makes it damaged: said
    as such, never a crash, and the file stays as it was."""
    club = copy_fixture("club.xlsm", tmp_path)
    with zipfile.ZipFile(club) as package:
        parts = {info.filename: package.read(info) for info in package.infolist()}
    body = parts[part].split(b"?>", 1)[-1]
    parts[part] = f'<?xml version="1.0" encoding="{encoding}"?>'.encode() + body
    with zipfile.ZipFile(club, "w", zipfile.ZIP_DEFLATED) as package:
        for name, data in parts.items():
            package.writestr(name, data)
    before = club.read_bytes()
    with pytest.raises(NotAWorkbook, match=r"damaged|cannot edit safely"):
        save_edits(club, product_edits())
    assert club.read_bytes() == before


def test_unknown_sheet_and_chart_sheet(tmp_path: Path) -> None:
    club = copy_fixture("club.xlsm", tmp_path)
    original = club.read_bytes()
    with pytest.raises(MissingSheet, match=r"no sheet called 'Standing'.*'Standings'"):
        save_edits(club, [*product_edits(), SheetEdit("Standing", {(1, 1): 1})])
    with pytest.raises(MissingSheet, match="not an ordinary worksheet"):
        save_edits(club, [SheetEdit("Chart", {(1, 1): 1})])
    assert club.read_bytes() == original
    assert [p.name for p in tmp_path.iterdir()] == ["club.xlsm"]


# ---------------------------------------------------------------------------------------
# Cell markup: styles, text, clearing


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


@pytest.mark.parametrize("name", [*WORKBOOKS, "template"])
def test_the_sheets_read_tell_whether_they_hold_formulas(tmp_path: Path, name: str) -> None:
    """A sheet read whole is not unpacked again to tell whether the workbook has formulas
    to recompute on opening: its scan tells it, as a search of its part would."""
    path = tmp_path / "book.xlsx"
    path.write_bytes(
        (
            REPO / "templates" / "keizer_xl.xlsx" if name == "template" else FIXTURES / name
        ).read_bytes()
    )
    book = Workbook(path)
    sheets = book.worksheets()
    book.read(sheets)
    for sheet in sheets:
        part = book.parts.sheet_part(sheet)
        assert book.package.scanned[part] == bool(
            re.search(rb"<f[\s>/]", book.package.content(part))
        ), sheet
    told = book.package._has_formulas(book.parts)
    book.package.scanned.clear()
    assert book.package._has_formulas(book.parts) == told


def test_formulas_elsewhere_are_recomputed_on_opening(tmp_path: Path) -> None:
    path = hand_made_workbook(
        tmp_path / "made.xlsx",
        '<row r="1"><c r="A1"><v>2</v></c><c r="B1"><f>A1*2</f><v>4</v></c></row>',
        calc='<calcPr calcId="191029"/>',
    )
    save_edits(path, [SheetEdit("Standings", {(1, 1): 5})])
    assert b'<calcPr calcId="191029" fullCalcOnLoad="1"/>' in members(path)["xl/workbook.xml"]


def test_a_large_sheet_written_again_is_kept_packed_and_saved_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A changed sheet of 16 MB or more is kept only as packed once the sheet after it is
    made (its bytes let go), read back when it is edited again, and written as it would be
    were it kept whole."""
    from keizer_xl.workbook.xlsx import Workbook, _package
    from keizer_xl.workbook.xlsx._zipcopy import Packed
    from tests import hostile

    def rows(old: bytes) -> Iterator[bytes]:
        end = old.index(b"</sheetData>")
        yield (
            old[:end]
            + b"".join(
                b'<row r="%d">' % r
                + b"".join(
                    b'<c r="%s%d"><v>12345678901.125</v></c>' % (c, r)
                    for c in (b"A", b"B", b"C", b"D", b"E")
                )
                + b"</row>"
                for r in range(2, 90_002)
            )
            + old[end:]
        )

    big = hostile.rewritten(
        hostile.club(tmp_path / "plain.xlsx"), tmp_path / "big.xlsx", {hostile.ROUNDS_PART: rows}
    )
    edits = [
        SheetEdit("Rounds", {(90_002, 1): 1}),
        SheetEdit("Standings", {(2, 1): "x"}),
        SheetEdit("Settings", {(2, 2): "y"}),
        SheetEdit("Rounds", {(90_003, 1): 2}),
    ]
    book = Workbook(big)
    assert book.try_edits(edits[:3])
    assert isinstance(book.package.changed[hostile.ROUNDS_PART], Packed)
    saved, packed_from = [], _package.LET_GO
    for let_go in (packed_from, 1 << 40):  # kept packed, and kept whole
        monkeypatch.setattr(_package, "LET_GO", let_go)
        copy = tmp_path / f"copy-{let_go}.xlsx"
        copy.write_bytes(big.read_bytes())
        assert save_edits(copy, edits, backup=False)
        saved.append(copy.read_bytes())
    assert saved[0] == saved[1]
    with zipfile.ZipFile(tmp_path / f"copy-{packed_from}.xlsx") as package:
        rounds = package.read(hostile.ROUNDS_PART)
    assert len(rounds) > packed_from
    assert rounds.count(b"<row ") == 1 + 90_000 + 2  # the headers, ours, the two added
    assert b'<row r="90003"' in rounds and b"<v>2</v>" in rounds[-2000:]
