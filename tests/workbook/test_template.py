"""The workbook template: the contract's sheets and headers, the secretary's aids, and a
reproducible build that matches the committed file."""

from __future__ import annotations

import csv
import io
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import openpyxl
import pytest
from python_calamine import CalamineWorkbook

from keizer_xl.core.settings import SETTINGS, SPECS
from keizer_xl.core.words import WordError
from keizer_xl.workbook.template import (
    BUTTONS,
    CODE_NAMES,
    HEADERS,
    PAIRINGS,
    PRESENT_WORDS,
    RESULT_WORDS,
    SHEETS,
    STANDINGS_HEADERS,
    build_template,
    main,
)
from tests.programs import need

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "templates" / "keizer_xl.xlsx"
NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
needs_soffice = pytest.mark.usefixtures("soffice_installed")


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "keizer_xl.xlsx"
    build_template(path)
    return path


def rows(path: Path, sheet: str) -> list[list[Any]]:
    found: list[list[Any]] = (
        CalamineWorkbook.from_path(str(path)).get_sheet_by_name(sheet).to_python()
    )
    return found


def part(path: Path, name: str) -> ElementTree.Element:
    with zipfile.ZipFile(path) as archive:
        return ElementTree.fromstring(archive.read(name))


def sheet_part(path: Path, sheet: str) -> ElementTree.Element:
    return part(path, f"xl/worksheets/sheet{SHEETS.index(sheet) + 1}.xml")


def column_number_format(path: Path, sheet: str, column: int) -> str | None:
    """The number format of the <col> style covering a column (1-based), as Excel sees it."""
    styles = part(path, "xl/styles.xml")
    codes = {49: "@"} | {
        int(f.get("numFmtId", "0")): f.get("formatCode", "")
        for f in styles.iterfind("m:numFmts/m:numFmt", NS)
    }
    xfs = styles.findall("m:cellXfs/m:xf", NS)
    for col in sheet_part(path, sheet).iterfind("m:cols/m:col", NS):
        if int(col.get("min", "0")) <= column <= int(col.get("max", "0")):
            style = col.get("style")
            if style is None:
                return None
            return codes.get(int(xfs[int(style)].get("numFmtId", "0")))
    return None


def validations(path: Path, sheet: str) -> dict[str, ElementTree.Element]:
    found = sheet_part(path, sheet).iterfind("m:dataValidations/m:dataValidation", NS)
    return {v.get("sqref", ""): v for v in found}


def list_items(validation: ElementTree.Element) -> list[str]:
    formula = validation.findtext("m:formula1", "", NS)
    assert formula.startswith('"') and formula.endswith('"'), formula
    return formula[1:-1].split(",")


# --- sheets, headers, look ------------------------------------------------------------------


def test_sheets_in_contract_order_with_headers_in_row_one(book: Path) -> None:
    workbook = CalamineWorkbook.from_path(str(book))
    assert workbook.sheet_names == [
        "Players",
        "Rounds",
        "Standings",
        "Settings",
        PAIRINGS,
        "Crosstable",
        "Progress",
    ]
    assert list(HEADERS) == ["Players", "Rounds", "Standings", "Settings"]
    assert HEADERS["Players"] == ("Name", "Rating", "Joined", "Left", "Present")
    assert HEADERS["Rounds"] == ("Round", "Board", "White", "Black", "Result")
    assert HEADERS["Standings"] == STANDINGS_HEADERS
    assert HEADERS["Settings"] == ("Setting", "Value", "Default", "What it does")
    for sheet, headers in HEADERS.items():
        assert tuple(rows(book, sheet)[0]) == headers, sheet


def test_data_sheets_start_empty(book: Path) -> None:
    for sheet in ("Players", "Rounds", "Standings"):
        assert len(rows(book, sheet)) == 1, sheet


def test_headers_bold_and_frozen(book: Path) -> None:
    workbook = openpyxl.load_workbook(book)
    for sheet, headers in HEADERS.items():
        ws = workbook[sheet]
        assert all(ws.cell(1, col).font.b for col in range(1, len(headers) + 1)), sheet
        assert ws.freeze_panes in ("A2", "C2"), sheet  # Standings also keeps Rank and Name
    assert workbook["Standings"].freeze_panes == "C2"


def test_text_columns_are_whole_column_styles(book: Path) -> None:
    """`1-0`, `1/2`, `2/3` typed in any row, present or future, stay text (not dates)."""
    assert column_number_format(book, "Players", 5) == "@"  # Present
    assert column_number_format(book, "Rounds", 5) == "@"  # Result
    assert column_number_format(book, "Settings", 2) == "@"  # Value
    assert column_number_format(book, "Players", 1) is None  # Name stays General
    ignored = {
        e.get("sqref")
        for sheet in ("Players", "Settings")
        for e in sheet_part(book, sheet).iterfind("m:ignoredErrors/m:ignoredError", NS)
    }
    assert ignored == {"E2:E1048576", "B2:B1048576"}  # no green corners on `1` or `0.5`


def test_column_widths_are_set(book: Path) -> None:
    workbook = openpyxl.load_workbook(book)
    for sheet, headers in HEADERS.items():
        for col in range(len(headers)):
            letter = openpyxl.utils.get_column_letter(col + 1)
            assert workbook[sheet].column_dimensions[letter].width >= 5, (sheet, letter)


# --- validations ------------------------------------------------------------------------------


def test_present_dropdown_still_allows_other_words(book: Path) -> None:
    present = validations(book, "Players")["E2:E1048576"]
    assert list_items(present) == list(PRESENT_WORDS) == ["x", "excused", "club", "unexcused"]
    assert present.get("showErrorMessage") in (None, "0")  # `ja`, `✓`, `yes` stay possible


def test_result_dropdown_lists_every_result_word(book: Path) -> None:
    result = validations(book, "Rounds")["E2:E1048576"]
    assert list_items(result) == list(RESULT_WORDS)
    assert set(RESULT_WORDS) == {
        "1-0",
        "0-1",
        "½-½",
        "+-",
        "-+",
        "--",
        "bye",
        "excused",
        "club",
        "unexcused",
    }
    assert result.get("showErrorMessage") in (None, "0")  # `1/2-1/2` and `=` stay possible


def test_other_helpful_validations(book: Path) -> None:
    players = validations(book, "Players")
    assert "COUNTIF" in players["A2:A1048576"].findtext("m:formula1", "", NS)
    assert players["C2:D1048576"].get("type") == "whole"
    rounds = validations(book, "Rounds")
    assert "Players!" in rounds["C2:D1048576"].findtext("m:formula1", "", NS)
    for validation in (*players.values(), *rounds.values()):
        assert validation.get("errorStyle") in ("warning", "information") or validation.get(
            "showErrorMessage"
        ) in (None, "0")  # nothing blocks the secretary


def test_accepted_words_parse(book: Path) -> None:
    from keizer_xl.core.words import parse_presence, parse_result

    for word in PRESENT_WORDS:
        parse_presence(word)
    for word in RESULT_WORDS:
        assert parse_result(word) is not None


# --- Settings --------------------------------------------------------------------------------


def test_settings_rows_match_settings(book: Path) -> None:
    body = rows(book, "Settings")[1:]
    assert [row[0] for row in body] == list(SETTINGS)
    assert all(row[1] == "" for row in body)  # blank = default
    assert [row[2] for row in body] == [spec.default for spec in SPECS]  # beside the value
    assert [row[3] for row in body] == [spec.meaning for spec in SPECS]


def test_settings_choice_dropdowns(book: Path) -> None:
    found = validations(book, "Settings")
    expected = {f"B{row}": spec.choices for row, spec in enumerate(SPECS, start=2) if spec.choices}
    assert {ref: tuple(list_items(v)) for ref, v in found.items()} == expected


def _parser_choices(name: str) -> tuple[str, ...] | None:
    """The word list a settings parser accepts, read from its own error message."""
    try:
        SETTINGS[name].parse("no such word at all")
    except WordError as exc:
        match = re.search(r"is not allowed; use (.+)$", str(exc))
        return tuple(match.group(1).split(", ")) if match else None
    return None


@pytest.mark.parametrize("name", list(SETTINGS))
def test_choices_agree_with_settings_parsers(name: str) -> None:
    choices = SETTINGS[name].choices
    assert choices == _parser_choices(name)
    for word in choices or ():
        SETTINGS[name].parse(word)


# --- players ---------------------------------------------------------------------------------


def test_players_rows(tmp_path: Path) -> None:
    path = tmp_path / "club.xlsx"
    build_template(
        path,
        players=[
            {"Name": "Anna", "Rating": 1850, "Present": "x"},
            {" name ": "Bram", "RATING": 1720.5, "joined": 3, "Left": 7, "Present": "excused"},
            {"Name": "Carla", "Present": True},
            {"Name": "Dirk", "Rating": None, "Present": False},
        ],
    )
    assert rows(path, "Players") == [
        ["Name", "Rating", "Joined", "Left", "Present"],
        ["Anna", 1850.0, "", "", "x"],
        ["Bram", 1720.5, 3.0, 7.0, "excused"],
        ["Carla", "", "", "", "x"],
        ["Dirk", "", "", "", ""],
    ]
    ws = openpyxl.load_workbook(path)["Players"]
    assert ws["E2"].number_format == "@"  # written cells keep the column's text format


def test_unknown_player_key_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="'Phone' is not a Players column"):
        build_template(tmp_path / "club.xlsx", players=[{"Name": "Anna", "Phone": "06"}])


def test_extension_must_match_macros(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"\.xlsx"):
        build_template(tmp_path / "club.xlsm")
    with pytest.raises(ValueError, match=r"\.xlsm"):
        build_template(tmp_path / "club.xlsx", vba_project=b"not used")


# --- print setup -----------------------------------------------------------------------------


def test_print_setup(book: Path) -> None:
    workbook = openpyxl.load_workbook(book)
    for sheet in HEADERS:
        ws = workbook[sheet]
        assert ws.page_setup.paperSize == 9, sheet  # A4
        assert ws.print_title_rows in ("1:1", "$1:$1"), sheet
        assert ws.print_options.gridLines, sheet
        assert "&A" in (ws.oddHeader.right.text or ""), sheet
        assert "&P" in (ws.oddFooter.center.text or ""), sheet
        if sheet == "Standings":  # full size: the figures on one page, the rounds after
            assert not ws.sheet_properties.pageSetUpPr.fitToPage, sheet
            # no column repeats: a repeated Rank and Name would show a cut-off piece of the
            # note under the table, which runs from column A across the first page
            assert ws.print_title_cols is None, sheet
            assert [b.id for b in ws.col_breaks.brk] == [len(STANDINGS_HEADERS)], sheet
        else:  # one page wide, as many pages down as needed
            assert ws.page_setup.fitToWidth in (None, 1), sheet  # absent means 1
            assert ws.page_setup.fitToHeight == 0, sheet
            assert ws.sheet_properties.pageSetUpPr.fitToPage, sheet
    assert workbook["Standings"].page_setup.orientation == "portrait"
    assert workbook["Players"].page_setup.orientation == "portrait"
    assert workbook["Pairings"].page_setup.paperSize == 9


# --- reproducibility -------------------------------------------------------------------------


def test_two_builds_are_byte_identical(tmp_path: Path) -> None:
    players = [{"Name": "Anna", "Rating": 1850}]
    build_template(tmp_path / "a.xlsx", players)
    build_template(tmp_path / "b.xlsx", players)
    assert (tmp_path / "a.xlsx").read_bytes() == (tmp_path / "b.xlsx").read_bytes()


def test_fixed_dates_inside(book: Path) -> None:
    """The build must not depend on the clock, or the committed template would go stale."""
    with zipfile.ZipFile(book) as archive:
        assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        core = archive.read("docProps/core.xml").decode()
    assert "2024-01-01T00:00:00Z" in core


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_committed_template_is_a_fresh_build(book: Path) -> None:
    assert COMMITTED.is_file(), "templates/keizer_xl.xlsx is missing: run `make template`"
    if COMMITTED.read_bytes() != book.read_bytes():
        fresh, committed = _members(book), _members(COMMITTED)
        differ = sorted(
            n for n in fresh.keys() | committed.keys() if fresh.get(n) != committed.get(n)
        )
        pytest.fail(
            f"templates/keizer_xl.xlsx is stale ({', '.join(differ) or 'zip layout'} "
            "differ): run `make template`"
        )


def test_main_writes_the_template(
    tmp_path: Path, book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sub" / "keizer_xl.xlsx"
    assert main([str(out)]) == 0
    assert out.read_bytes() == book.read_bytes()
    assert main([str(tmp_path / "wrong.xlsm")]) == 1
    assert "must be saved as .xlsx" in capsys.readouterr().err


# --- the .xlsm branch ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def any_vba_project() -> bytes:
    """A small valid vbaProject.bin: the one in xlwings' quickstart workbook."""
    xlwings = pytest.importorskip("xlwings")
    quickstart = Path(xlwings.__file__).parent / "quickstart.xlsm"
    if not quickstart.is_file():
        pytest.skip("no xlwings quickstart.xlsm to take a vbaProject.bin from")
    with zipfile.ZipFile(quickstart) as archive:
        return archive.read("xl/vbaProject.bin")


def test_xlsm_has_project_code_names_and_buttons(tmp_path: Path, any_vba_project: bytes) -> None:
    path = tmp_path / "club.xlsm"
    build_template(path, vba_project=any_vba_project)
    again = tmp_path / "again.xlsm"
    build_template(again, vba_project=any_vba_project)
    assert path.read_bytes() == again.read_bytes()

    members = _members(path)
    assert members["xl/vbaProject.bin"] == any_vba_project
    assert b"macroEnabled.main+xml" in members["[Content_Types].xml"]
    workbook = part(path, "xl/workbook.xml")
    assert workbook.find("m:workbookPr", NS).get("codeName") == "ThisWorkbook"  # type: ignore[union-attr]
    for number, code_name in enumerate(CODE_NAMES, start=1):
        sheet = part(path, f"xl/worksheets/sheet{number}.xml")
        assert sheet.find("m:sheetPr", NS).get("codeName") == code_name  # type: ignore[union-attr]
    assert CODE_NAMES == ("Sheet1", "Sheet2", "Sheet3", "Sheet4", "Sheet5", "Sheet6", "Sheet7")

    vml = members["xl/drawings/vmlDrawing1.vml"].decode()
    for caption, macro in BUTTONS:
        assert caption in vml and f"[0]!{macro}</x:FmlaMacro>" in vml
    anchors = re.findall(r"<x:Anchor>(\d+),", vml)
    assert anchors == ["7", "7", "7", "7"]  # column H, right of the Players table
    assert BUTTONS == (
        ("Pair next round", "PairNextRound"),
        ("Recalculate", "Recalculate"),
        ("Undo last pairing", "UndoLastPairing"),
        ("Publish", "PublishSite"),
    )
    assert [n for n in members if n.startswith("xl/worksheets/_rels/")] == [
        "xl/worksheets/_rels/sheet1.xml.rels",  # the buttons sit on Players only
        "xl/worksheets/_rels/sheet7.xml.rels",
    ]  # and the chart on Progress


def test_xlsm_with_the_project_builder(tmp_path: Path) -> None:
    """When keizer_xl.workbook.vba is there, its project carries a document module per code name."""
    vba = pytest.importorskip("keizer_xl.workbook.vba")
    olevba = pytest.importorskip("oletools.olevba")
    if not hasattr(vba, "vba_project"):
        pytest.skip("keizer_xl.workbook.vba has no vba_project()")
    path = tmp_path / "club.xlsm"
    build_template(path, vba_project=vba.vba_project(sheets=CODE_NAMES))
    parser = olevba.VBA_Parser(str(path))
    try:
        modules = {stream.split("/")[-1] for _, stream, _, _ in parser.extract_macros()}
    finally:
        parser.close()
    assert {"ThisWorkbook", *CODE_NAMES} <= modules


# --- LibreOffice -----------------------------------------------------------------------------


def soffice(tmp_path: Path, target: str, workbook: Path) -> Path:
    """Run LibreOffice headless in a private profile; return the folder it wrote into."""
    outdir = tmp_path / "out"
    done = subprocess.run(
        [
            need("soffice"),
            f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}",
            "--headless",
            "--convert-to",
            target,
            "--outdir",
            str(outdir),
            str(workbook),
        ],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    assert "Error" not in done.stderr, done.stderr
    return outdir


@pytest.mark.libreoffice
@needs_soffice
def test_libreoffice_prints_the_template(tmp_path: Path, book: Path) -> None:
    pdf = soffice(tmp_path, "pdf", book) / "keizer_xl.pdf"
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page\b", data)) >= len(SHEETS)


@pytest.fixture
def played(tmp_path: Path) -> Path:
    """The template with two rounds entered, saved the way another program would."""
    path = tmp_path / "played.xlsx"
    build_template(path, players=[{"Name": n} for n in ("Anna", "Bram", "Carla", "Dirk", "Eva")])
    workbook = openpyxl.load_workbook(path)
    for row in [
        (1, 1, "Anna", "Bram", "1-0"),
        (1, 2, "Carla", "Dirk", "½-½"),
        (1, None, "Eva", None, "bye"),
        (2, 1, "Dirk", "Anna", None),
        (2, 2, "Bram", "Eva", "0-1"),
        (2, None, "Carla", None, "excused"),
    ]:
        workbook["Rounds"].append(row)
    workbook.save(path)
    return path


@pytest.mark.libreoffice
@needs_soffice
def test_pairings_sheet_shows_the_latest_round(tmp_path: Path, played: Path) -> None:
    sheet = SHEETS.index(PAIRINGS) + 1
    outdir = soffice(
        tmp_path,
        f"csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,{sheet}",
        played,
    )
    (found,) = outdir.glob("*.csv")
    lines = [row[:4] for row in csv.reader(io.StringIO(found.read_text(encoding="utf-8")))]
    assert lines[0][:2] == ["Round", "2"]
    assert lines[1][:2] == ["", ""]  # no bye in round 2
    assert lines[3] == ["Board", "White", "Black", "Result"]
    assert lines[4] == ["1", "Dirk", "Anna", ""]
    assert lines[5] == ["2", "Bram", "Eva", "0-1"]
    assert all(line == ["", "", "", ""] for line in lines[6:])


@pytest.mark.libreoffice
@needs_soffice
@pytest.mark.usefixtures("pdftoppm_installed")
def test_readme_picture_renders(tmp_path: Path) -> None:
    out = tmp_path / "template.png"
    done = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "render_template.py"), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width > 300 and height > 100
