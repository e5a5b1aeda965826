"""The quick ways through large seasons give exactly what the general ways give.

Each shortcut is compared with the slower code it stands in for: the general cell renderer,
row editor and zip writer of the package writer, rich's tables, and the reading of cells.
"""

from __future__ import annotations

import random
import re
import zipfile
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

from keizer_xl import engine
from keizer_xl.core.checks import Table
from keizer_xl.core.words import CellError, parse_number
from keizer_xl.workbook import layout as sheets
from keizer_xl.workbook.xlsx import CellValue, SheetEdit, save_edits
from keizer_xl.workbook.xlsx import _cells as xlsx_cells
from keizer_xl.workbook.xlsx import _sheet as sheet_module
from keizer_xl.workbook.xlsx import _xmltext as xmltext
from keizer_xl.workbook.xlsx import _zipcopy as zipcopy
from keizer_xl.workbook.xlsx._sheet import Sheet
from tests.helpers_package import (
    FIXTURES,
    WORKBOOKS,
    copy_fixture,
    hand_made_workbook,
    members,
)

TEXTS = [
    "Anna",
    "Player 0042",
    " padded",
    "trailing ",
    "a&b",
    "<x>",
    "_x0041_",
    "line\nbreak",
    "tab\tin",
    "Ünïcødé",
    "",
    "   ",
    "½-½",
    "bell\x07",
    "9",
    ";:[]",
    "~",
    "M" * 40,
    "12w½",
    "—",
    "Zoë",
    "李小龙",
    "😀 x",
    "\u00a0nbsp",
    "nbsp\u00a0",
    "\u3000wide",
    "a\u2028b",
    "no\ufffe",
    "half\ud800",
    "_x",
    "x\u0301",
]
NUMBERS: list[CellValue] = [
    0,
    7,
    -3,
    10**15,
    10**16 + 1,
    0.5,
    2.0,
    -0.0,
    1 / 3,
    1e16,
    1e-7,
    Fraction(2, 3),
    Fraction(4, 2),
    True,
    False,
]


def random_value(rnd: random.Random) -> CellValue:
    return rnd.choice([*TEXTS, *NUMBERS, None, rnd.randint(-99, 9999)])


# -- writing cells ------------------------------------------------------------------------


@pytest.mark.parametrize("prefix", ["", "x:"])
@pytest.mark.parametrize("styled", [False, True])
def test_new_rows_are_written_as_render_cell_writes_them(prefix: str, styled: bool) -> None:
    space = f' xmlns:{prefix[:-1]}="urn:x"' if prefix else ""
    cols = f'<{prefix}cols><{prefix}col min="2" max="4" style="3"/></{prefix}cols>'
    sheet = Sheet(
        f"<{prefix}worksheet{space}>{cols if styled else ''}"
        f"<{prefix}sheetData/></{prefix}worksheet>".encode(),
        "test",
    )
    assert bool(sheet.column_styles) == styled
    rnd = random.Random(5)
    for number in range(1, 300):
        values = {c: random_value(rnd) for c in rnd.sample(range(1, 30), rnd.randint(1, 12))}
        made = sheet._new_row(number, values)
        general = "".join(
            xlsx_cells.render_cell(prefix, number, c, values[c], sheet._style(c))
            for c in sorted(values)
            if not xlsx_cells.empty(values[c])
        )
        assert (made.markup if isinstance(made, xlsx_cells.Row) else made) == (
            f'<{prefix}row r="{number}">{general}</{prefix}row>' if general else ""
        )


@pytest.mark.parametrize("prefix", ["", "x:"])
@pytest.mark.parametrize(
    "rows", ["", '<row r="1"><c r="A1" t="inlineStr"><is><t>Zoë ½ —</t></is></c></row>', "\n  "]
)
@pytest.mark.parametrize("data", ["<{p}sheetData>{rows}</{p}sheetData>", "<{p}sheetData/>"])
def test_rows_appended_keep_the_rows_above_as_the_text_gives_them(
    prefix: str, rows: str, data: str
) -> None:
    """New rows below the last are added to the part's bytes as read (not encoded again):
    the same bytes as the whole sheet's text would give."""
    space = f' xmlns:{prefix[:-1]}="urn:x"' if prefix else ""
    body = data.format(
        p=prefix, rows=rows.replace("<", f"<{prefix}").replace(f"<{prefix}/", f"</{prefix}")
    )
    xml = (
        f'\ufeff<?xml version="1.0"?><{prefix}worksheet{space}><{prefix}dimension ref="A1"/>'
        f"{body}<{prefix}extLst>é</{prefix}extLst></{prefix}worksheet>"
    )
    sheet = Sheet(xml.encode(), "test")
    assert sheet.apply(
        SheetEdit("Rounds", {(3, 1): "Ånna", (3, 2): 7, (4, 5): 1.5}),
        xlsx_cells.SharedStrings(lambda: None),
    )
    assert sheet.appended is not None
    written = sheet.to_bytes().decode()
    head = written[: written.index(f"<{prefix}sheetData")]
    assert head.startswith("\ufeff<?xml") and 'ref="A1:E4"' in head
    appended = "".join(row.markup for row in sheet.appended)
    assert written == head + sheet._sheet_data(sheet.body + appended) + sheet.tail


@pytest.mark.parametrize("name", WORKBOOKS)
def test_rewriting_standings_quickly_gives_what_editing_each_cell_gives(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows keizer_xl wrote before are rewritten whole; the general editor must agree."""
    rnd = random.Random(name)
    weeks = []
    for _ in range(4):
        rows = rnd.randint(5, 40)
        weeks.append(
            {
                (r, c): random_value(rnd) if rnd.random() < 0.2 else rnd.randint(0, 99)
                for r in range(1, rows)
                for c in range(1, rnd.randint(3, 20))
            }
        )
    (tmp_path / "quick").mkdir()
    (tmp_path / "slow").mkdir()
    quick, slow = copy_fixture(name, tmp_path / "quick"), copy_fixture(name, tmp_path / "slow")
    for cells in weeks:
        save_edits(quick, [SheetEdit("Standings", cells, clear_below=1)], backup=False)
    monkeypatch.setattr(Sheet, "_rewritten", lambda self, row, values: None)
    for cells in weeks:
        save_edits(slow, [SheetEdit("Standings", cells, clear_below=1)], backup=False)
    assert members(quick) == members(slow)


@pytest.mark.parametrize(
    "rows",
    [
        '<row r="1"><c r="A1"><v>1.50</v></c></row>',  # the same value written another way
        '<row r="1"><c r="A1"><v>10000000000000000</v></c></row>',  # a float's value as int
        '<row r="1"><c r="A1" s="0"><v>1</v></c>'
        '<c r="B1" t="inlineStr"><is><t>a</t></is></c></row>',
        '<row r="1" spans="1:2"><c r="A1"><v>1</v></c></row>',
        '<row r="1"><c r="B1"><v>2</v></c><c r="A1"><v>1</v></c></row>',  # out of order
        '<row r="1"><c r="A1"><v>1</v></c><c r="C1" t="inlineStr"><is><t>Anna</t></is></c></row>',
    ],
)  # (the last is just like ours)
def test_rows_not_quite_like_ours_are_edited_cell_by_cell(
    tmp_path: Path, rows: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    edits = [
        SheetEdit("Standings", {(1, 1): 1.5, (1, 3): "Anna", (2, 1): 10**16}, clear_below=1),
        SheetEdit("Standings", {(1, 1): 1e16, (1, 2): 2}, clear_below=1),
    ]
    for edit in edits:
        quick = hand_made_workbook(tmp_path / "quick.xlsx", rows)
        slow = hand_made_workbook(tmp_path / "slow.xlsx", rows)
        save_edits(quick, [edit], backup=False)
        with monkeypatch.context() as m:
            m.setattr(Sheet, "_rewritten", lambda self, row, values: None)
            save_edits(slow, [edit], backup=False)
        assert members(quick) == members(slow)


@pytest.mark.parametrize("prefix", ["", "x:"])
def test_formula_rows_written_quickly_give_what_editing_each_cell_gives(
    prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row of formula cells (a Pairings row) is edited the quick way; the general editor,
    cell by cell, must give the same row, for rows like it and rows not quite like it."""
    pieces = [
        '<c r="{c}5"><f>A1+1</f><v>3</v></c>',
        '<c r="{c}5" s="12"><f>"x"&amp;B2</f><v></v></c>',
        '<c r="{c}5" s="2" t="str"><f>B2</f><v>Anna</v></c>',
        '<c r="{c}5"><f>1</f></c>',
        '<c r="{c}5" t="e"><f>1/0</f><v>#DIV/0!</v></c>',
        '<c r="{c}5"><v>7</v></c>',
        '<c r="{c}5" t="s"><v>0</v></c>',
        '<c r="{c}5" t="inlineStr"><is><t>a</t></is></c>',
        '<c r="{c}5" t="shared"><f t="shared" si="0"/><v>1</v></c>',
        '<c r="{c}5"/>',
        '<c s="3"><f>A1</f><v>1</v></c>',
        '<c r="{c}5" s="1"  ><f>A1</f><v>1</v></c>',
        '<c r="{c}5"><f>A1</f><v/></c>',
        '<c r="{c}5"><f xml:space="preserve"> A1</f></c>',
    ]
    values: list[CellValue] = [
        xlsx_cells.Formula("A1", v, restore)
        for v in (None, 0, 3, 2.5, "Anna", "", "a&b", True, "Zoë ½", 10**16)
        for restore in (True, False)
    ] + [None, 7, "text"]
    rnd = random.Random(24)
    space = f' xmlns:{prefix[:-1]}="urn:x"' if prefix else ""
    sheet = Sheet(
        f"<{prefix}worksheet{space}><{prefix}sheetData/></{prefix}worksheet>".encode(), "test"
    )
    strings = xlsx_cells.SharedStrings(lambda: None)
    quick_rows = 0
    for _ in range(3000):
        columns = sorted(rnd.sample(range(1, 9), rnd.randint(0, 5)))
        if rnd.random() < 0.1:
            rnd.shuffle(columns)
        if columns and rnd.random() < 0.1:
            columns.insert(rnd.randrange(len(columns)), rnd.choice(columns))  # twice
        cells = "".join(
            rnd.choice(pieces[:4] if rnd.random() < 0.6 else pieces).format(
                c=xmltext.column_letters(c)
            )
            for c in columns
        )
        start = rnd.choice(
            [
                '<row r="5">',
                '<row r="5" spans="1:5">',
                '<row r="5" s="4" customFormat="1">',
                "<row>",
            ]
        ).replace("<row", f"<{prefix}row")
        markup = (
            (start + cells + rnd.choice(["", "", "<extLst/>"]))
            .replace("<c", f"<{prefix}c")
            .replace("</c>", f"</{prefix}c>")
            .replace("<f", f"<{prefix}f")
            .replace("</f>", f"</{prefix}f>")
            .replace("<v", f"<{prefix}v")
            .replace("</v>", f"</{prefix}v>")
        )
        row = xlsx_cells.Row(5, f"{markup}</{prefix}row>", start)
        written = rnd.sample(range(1, 9), rnd.randint(0, 4))
        if rnd.random() < 0.7:
            written = [c for c in columns if rnd.random() < 0.8]
        edit = {c: rnd.choice(values[:20] if rnd.random() < 0.9 else values) for c in written}
        quick_rows += xlsx_cells.with_formula_values(row, prefix, edit) is not None
        quick = sheet._edit_row(row, edit, None, strings)
        with monkeypatch.context() as m:
            m.setattr(sheet_module, "with_formula_values", lambda *_: None)
            slow = sheet._edit_row(row, edit, None, strings)
        assert quick == slow, (row, edit)
    assert quick_rows > 500  # the quick way was taken often enough to be tested


def test_forbidden_characters_are_the_ones_xml_forbids() -> None:
    everything = "".join(map(chr, range(0x110000)))
    allowed = re.compile("[^\t\n\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
    forbidden = xmltext._forbidden().findall(everything)
    assert forbidden == allowed.findall(everything)
    assert not any(ch.isprintable() for ch in forbidden)  # printable text is kept as it is


def test_attributes_are_found_as_a_pattern_for_their_name_finds_them() -> None:
    """`attr` and `set_attr` search for the name, not with a pattern made for it: they
    read and change a tag just as `\\sname\\s*=\\s*("…"|'…')` would, odd tags too."""

    def pattern(name: str) -> re.Pattern[str]:
        return re.compile(rf"""\s{re.escape(name)}\s*=\s*(?:"([^"]*)"|'([^']*)')""")

    pieces = [
        "<c",
        " ",
        "\t",
        "\n",
        "\u2003",
        "r",
        "s",
        "t",
        "rr",
        "=",
        " = ",
        '"',
        "'",
        "A1",
        '"3"',
        "'x'",
        '"a&amp;b"',
        ">",
        "/>",
        "spans",
        "\"s r='1'\"",
    ]
    draw = random.Random(24)
    for _ in range(20_000):
        tag = "".join(draw.choices(pieces, k=draw.randint(1, 12)))
        for name in ("r", "s", "t", "rr", "spans"):
            m = pattern(name).search(tag)
            found = None if m is None else m.group(1) if m.group(1) is not None else m.group(2)
            assert xmltext.attr(tag, name) == (
                found if found is None or "&" not in found else xmltext.unescape(found)
            ), (tag, name)
            removed = pattern(name).sub("", tag)
            assert xmltext.set_attr(tag, name, None) == removed, (tag, name)
            end = -2 if removed.endswith("/>") else -1
            assert (
                xmltext.set_attr(tag, name, "9")
                == f'{removed[:end].rstrip()} {name}="9"{removed[end:]}'
            ), (tag, name)


def test_a_root_prefix_is_found_as_a_pattern_for_its_name_finds_it() -> None:
    pieces = [
        "<",
        ":",
        "x",
        "x:",
        "_a",
        "1",
        "é",
        ".",
        "-",
        " ",
        "\n",
        ">",
        "/",
        "?",
        "!",
        "worksheet",
        "sst",
        "<x:",
        "<1:",
        "<x:y:",
        "worksheets",
    ]
    draw = random.Random(24)
    for _ in range(20_000):
        text = "".join(draw.choices(pieces, k=draw.randint(1, 10)))
        for name in ("worksheet", "sst"):
            m = re.search(rf"<([A-Za-z_][\w.-]*:)?{name}[\s>/]", text)
            assert xmltext.root_prefix(text, name) == ((m.group(1) or "") if m else ""), text


def test_tags_are_found_as_the_pattern_for_their_name_finds_them() -> None:
    pieces = [
        "<",
        "<f",
        "<x:f",
        "<fx",
        "<col",
        "f",
        " ",
        "\t",
        "/",
        ">",
        "/>",
        '"',
        "'",
        "=",
        '"a>b"',
        "'c>'",
        "x",
        "</f>",
        "<v>1</v>",
    ]
    draw = random.Random(24)
    for _ in range(20_000):
        text = "".join(draw.choices(pieces, k=draw.randint(1, 14)))
        for p, name in (("", "f"), ("x:", "f"), ("", "col")):
            assert list(xmltext.tags(text, p, name)) == [
                (m.start(), m.group(0)) for m in xmltext.start_tag(p, name).finditer(text)
            ], text


def test_references_are_read_as_an_xml_parser_reads_them() -> None:
    """The five entities and character references, decimal and hexadecimal, any code
    point (C1 controls too, which HTML would read as Windows-1252); an escaped value reads
    back as it was."""
    from xml.parsers import expat

    def parsed(markup: str) -> dict[str, str]:
        read: dict[str, str] = {}
        parser = expat.ParserCreate()
        parser.StartElementHandler = lambda name, attrs: read.update(attrs)
        parser.Parse(markup, True)
        return read

    texts = [
        "a &amp; b",
        "&lt;x&gt; &quot;y&quot; &apos;z&apos;",
        "&#233;&#xE9;&#x1F600;",
        "&#x80;&#150;",
        "&amp;amp;",
        "plain",
    ]
    for text in texts:
        markup = f'<c v="{text}"/>'
        assert xmltext.attr(markup, "v") == parsed(markup)["v"] == xmltext.unescape(text)
    for value in ["a&b<c>\"d'e", "Ronde 1", "&amp;"]:
        assert xmltext.unescape(xmltext.escape_attr(value)) == value


# -- the zip package ----------------------------------------------------------------------


def zip_entries(path: Path) -> list[tuple[object, ...]]:
    with zipfile.ZipFile(path) as z:
        return [
            (
                i.filename,
                i.date_time,
                i.compress_type,
                i.comment,
                i.extra,
                i.create_system,
                i.create_version,
                i.extract_version,
                i.flag_bits,
                i.internal_attr,
                i.external_attr,
                i.CRC,
                i.file_size,
                z.read(i),
            )
            for i in z.infolist()
        ]


@pytest.mark.parametrize("name", WORKBOOKS)
def test_copying_stored_parts_gives_the_package_zipfile_writes(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    big_rounds = {(r, c): f"Player {r * c}" for r in range(50, 9000) for c in (3, 4)}
    edits = [
        SheetEdit("Standings", {(1, 1): "Rank", (2, 2): "Anna"}, clear_below=1),
        SheetEdit("Rounds", big_rounds),
    ]  # large enough to be packed early
    (tmp_path / "copied").mkdir()
    (tmp_path / "zipfile").mkdir()
    copied = copy_fixture(name, tmp_path / "copied")
    written = copy_fixture(name, tmp_path / "zipfile")
    assert save_edits(copied, edits, backup=False)
    monkeypatch.setattr(zipcopy, "plain_zip", lambda members: False)
    assert save_edits(written, edits, backup=False)
    assert zip_entries(copied) == zip_entries(written)
    with zipfile.ZipFile(copied) as z:
        assert z.testzip() is None
    styles = "xl/styles.xml"  # untouched: its compressed data is taken over byte for byte
    assert stored(copied, styles) == stored(FIXTURES / name, styles)


def stored(path: Path, name: str) -> bytes | None:
    with zipfile.ZipFile(path) as z:
        return zipcopy.stored_data(path.read_bytes(), z.getinfo(name))


# -- reading cells ------------------------------------------------------------------------


def test_whole_numbers_read_as_their_text_reads() -> None:
    for x in [
        0.0,
        -0.0,
        1.0,
        1534.0,
        -12.0,
        1e15,
        2.0**53 - 1,
        2.0**53,
        1e16,
        2.0**60,
        1e22,
        -(2.0**70),
        123456789012.0,
    ]:
        assert parse_number(x) == parse_number(repr(x))


def test_cells_are_tidied_as_one_by_one() -> None:
    values: list[object] = [
        None,
        "",
        "  ",
        " a ",
        "x",
        0,
        1.5,
        float("nan"),
        True,
        Fraction(1, 3),
        pd.NA,
        pd.NaT,
        3,
        -0.0,
        "\t",
    ]
    assert engine._cells(values) == [engine._cell(v) for v in values]
    grid_values = [v for v in values if v is not pd.NA and v is not pd.NaT and v == v]
    assert sheets._tidy(grid_values) == [engine._cell(v) for v in grid_values]
    # NaN is pandas' blank, but in a sheet it is no blank: an error value, named by check
    (nan,) = sheets._tidy([float("nan")])
    assert isinstance(nan, CellError) and nan == "NaN"


def old_frame(
    grid: sheets.Grid, wanted: tuple[str, ...], layout: sheets.Layout, table: str
) -> pd.DataFrame:
    """A sheet as a DataFrame the plain way, row by row, with blank rows left out."""
    header = list(grid[0]) if grid else []
    positions = sheets.find_columns(header, wanted)
    layout.columns[table] = {name: i + 1 for name, i in positions.items()}
    used = 1 if grid else 0
    records, index = [], []
    for r, row in enumerate(grid[1:], start=2):
        if all(c == "" or c is None for c in row):
            continue
        used = r
        if len(row) < len(header):
            row = [*row, *[None] * (len(header) - len(row))]
        cells = [None if (c := row[i]) == "" else c for i in positions.values()]
        if any(c is not None for c in cells):
            records.append(cells)
            index.append(r)
    layout.used_rows[table] = used
    return pd.DataFrame(
        records, index=pd.Index(index), columns=pd.Index(list(positions)), dtype=object
    )


def through_pandas(
    grid: sheets.Grid, wanted: tuple[str, ...], layout: sheets.Layout, table: str
) -> Table:
    """The way sheets used to reach the checks: grid, DataFrame, then the pandas door's
    table."""
    return engine.table(table, old_frame(grid, wanted, layout, table), wanted)


def test_sheets_read_straight_read_as_through_pandas(monkeypatch: pytest.MonkeyPatch) -> None:
    """Grids become the checks' tables without pandas, and nothing changes: the same
    Competition, or the same problems in the same cells."""
    rnd = random.Random(8)
    names = [f"P{i}" for i in range(8)]
    for _ in range(150):
        players = [["Name", "Rating", "Present", "Notes"][: rnd.randint(1, 4)]]
        for name in names:
            players.append(
                [
                    rnd.choice([name, name, "", " ", None]),
                    rnd.choice([1500.0, "", "x"]),
                    rnd.choice(["x", "", "excused"]),
                    rnd.choice(["", "n"]),
                ][: rnd.randint(1, 4)]
            )
        rounds: list[list[object]] = [["Round", "Board", "White", "Black", "Result", "Notes"]]
        for _ in range(rnd.randint(0, 12)):
            rounds.append(
                [
                    rnd.choice([1.0, 1.0, 2.0, "", "x"]),
                    rnd.choice([1.0, "", None]),
                    rnd.choice([*names, "", "Nobody"]),
                    rnd.choice([*names, ""]),
                    rnd.choice(["1-0", "", "bye", "excused", "??"]),
                    rnd.choice(["", "note"]),
                ][: rnd.randint(0, 6)]
            )
        rounds += [[""] * 6] * rnd.randint(0, 2)
        grids = {
            "Players": players,
            "Rounds": rounds,
            "Standings": [],
            "Settings": [["Setting", "Value"], ["Bye", rnd.choice(["", "1/2", "zz"])]],
        }
        outcomes = []
        for read in (through_pandas, sheets._table):
            monkeypatch.setattr(sheets, "_table", read)
            try:
                competition, layout = sheets.read_book(grids)
                outcomes.append((competition, vars(layout)))  # the same places
            except sheets.BookError as error:
                outcomes.append((None, error.lines()))
        assert outcomes[0] == outcomes[1]
