"""No internal error from any file another program makes: each reader is fed real files
with bytes flipped, cut, repeated and inserted (Hypothesis), and may only answer with
keizer_xl's own errors. And what a door lets in, `check` accepts: a workbook made from a
member list, a TRF or a KeizerForClubs file, or given a rating list's ratings, is one
that `check` passes."""

from __future__ import annotations

import io
import shutil
import sqlite3
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager, suppress
from pathlib import Path

import pytest
import xlsxwriter
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from keizer_xl.core.errors import KeizerXLError
from keizer_xl.workbook import files as workbook
from tests.profiles import examples
from tests.seasons import golden_book, make_book

FUZZ = settings(
    max_examples=examples(80),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
KFC = Path(__file__).parents[1] / "fixtures" / "kfc" / "Test-Tournament.s3db"

# What a careless editor, a bad copy or a hostile file puts into a file: quotes, separators,
# line ends, byte-order marks, zero-width spaces, huge and odd numbers, error values.
TOKENS = [
    b'"',
    b";",
    b",",
    b"\t",
    b"\n",
    b"\r",
    b"\x00",
    b"\xef\xbb\xbf",
    b"\xe2\x80\x8b",
    b"99999",
    b"1e308",
    b"1e-9999999",
    b"-1",
    b"0",
    b"#N/A",
    b"NaN",
    b"\xff\xfe",
    b"9" * 40,
    b"x" * 300,
    b"\xb2",
]

# Odd values for a cell or a row of a file.
ODD_VALUES = st.one_of(
    st.integers(-10, 20),
    st.integers(-(2**63), 2**63 - 1),
    st.sampled_from(
        [
            99999,
            10_001,
            1_001,
            0,
            None,
            "",
            "x",
            "1.5",
            2.5,
            float("nan"),
            float("inf"),
            1e308,
            "\u200bAnna",
            "\ufeff",
            "A" * 20_000,
        ]
    ),
    st.text(max_size=12),
)


@st.composite
def mutated(draw: st.DrawFn, seed: bytes) -> bytes:
    """The seed with one to five changes: a byte flipped, the end cut off, a stretch
    repeated, a token inserted, a stretch taken out."""
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 5))):
        if not data:
            break
        kind = draw(st.sampled_from(["flip", "cut", "repeat", "insert", "delete"]))
        at = draw(st.integers(0, len(data) - 1))
        if kind == "flip":
            data[at] = draw(st.integers(0, 255))
        elif kind == "cut":
            del data[at:]
        elif kind == "repeat":
            end = min(len(data), at + draw(st.integers(1, 80)))
            data[end:end] = data[at:end] * draw(st.integers(1, 30))
        elif kind == "insert":
            data[at:at] = draw(st.sampled_from(TOKENS))
        else:
            del data[at : at + draw(st.integers(1, 40))]
    return bytes(data)


@contextmanager
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


def only_our_errors(work: Callable[[], object]) -> bool:
    """Run the work; True when it went through, False when it refused with keizer_xl's own
    error. Any other exception is an internal error, and fails the test."""
    try:
        work()
    except KeizerXLError as exc:
        event(f"refused: {type(exc).__name__}")
        return False
    event("let in")
    return True


def checks_clean(book: Path) -> None:
    """`check` accepts what the door let in."""
    workbook.check(book)


def made_or_nothing(make: Callable[[], object], book: Path) -> None:
    """A door makes a workbook `check` accepts, or says why in its own words and makes
    none."""
    if only_our_errors(make):
        checks_clean(book)
    else:
        assert not book.exists()


# -- member lists -----------------------------------------------------------------------------

MEMBERS_CSV = (
    "Naam;Rating;Telefoon;KNSB id;Vanaf ronde;Tot ronde;Aanwezig\r\n"
    "José Müller;1.650;0612345678;8012345;;;x\r\n"
    'Zoë de Vries;1.812;"+31 20, 123";8023456;2;;x\r\n'
    "Bram van Dijk;;0201234567;;;5;\r\n"
    "Ger O'Brien;n/a;;8034567;;;afgemeld\r\n"
).encode("cp1252")
MEMBERS_UTF8 = (
    "\ufeffVoornaam,Tussenvoegsel,Achternaam,Elo,Geboortejaar\n"
    'Anna,de,Vries,"1,650",1984\nBram,,Bakker,1702,1990\n'
    'Çelik,,"Zoë ""Z""",,2001\n'
).encode("utf-8")


@FUZZ
@given(st.sampled_from([MEMBERS_CSV, MEMBERS_UTF8]).flatmap(mutated))
def test_member_lists_as_csv(data: bytes) -> None:
    from keizer_xl.exchange.members import new_from_members

    with folder() as here:
        listed, book = here / "leden.csv", here / "club.xlsx"
        listed.write_bytes(data)
        made_or_nothing(lambda: new_from_members(listed, book), book)


MEMBER_ROWS: list[list[object]] = [
    ["Naam", "Rating", "Vanaf ronde", "Mobiel", "Lid sinds"],
    ["Anna de Vries", 1650, None, "0612345678", "2015-09-03"],
    ["Bram Bakker", "1.702", 3, "0687654321", None],
    ["Zoë Çelik", None, None, None, 2019],
]


def member_workbook(error: bool = False, rows: list[list[object]] = MEMBER_ROWS) -> bytes:
    """A member list as a workbook; with `error`, a Rating whose formula failed (#N/A)."""
    made = io.BytesIO()
    book = xlsxwriter.Workbook(
        made, {"in_memory": True, "strings_to_formulas": False, "nan_inf_to_errors": True}
    )
    sheet = book.add_worksheet("Leden")
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if value is not None:
                sheet.write(r, c, value)
    sheet.write_formula(4, 0, '="Daan"&" Smit"', None, "Daan Smit")
    if error:
        sheet.write_formula(4, 1, "=NA()", None, "#N/A")
    book.close()
    return made.getvalue()


def with_part_mutated(package: bytes, part: str, data: bytes) -> bytes:
    """The zip package with one part's bytes replaced (the rest as it was)."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(package)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for info in source.infolist():
            target.writestr(info.filename, data if info.filename == part else source.read(info))
    return out.getvalue()


MEMBER_BOOK = member_workbook()
MEMBER_PARTS = [
    "xl/worksheets/sheet1.xml",
    "xl/sharedStrings.xml",
    "xl/workbook.xml",
    "[Content_Types].xml",
    "xl/_rels/workbook.xml.rels",
]


@st.composite
def member_workbooks(draw: st.DrawFn) -> bytes:
    way = draw(st.sampled_from(["package", "part", "cells"]))
    if way == "package":  # the package's own bytes
        return draw(mutated(MEMBER_BOOK))
    if way == "cells":  # odd values in the list's cells
        rows = [list(row) for row in MEMBER_ROWS]
        for _ in range(draw(st.integers(1, 4))):
            row = draw(st.integers(1, len(rows)))
            rows.extend([] for _ in range(row + 1 - len(rows)))
            column = draw(st.integers(0, 5))
            rows[row].extend(None for _ in range(column + 1 - len(rows[row])))
            rows[row][column] = draw(ODD_VALUES)
        return member_workbook(rows=rows)
    part = draw(st.sampled_from(MEMBER_PARTS))
    with zipfile.ZipFile(io.BytesIO(MEMBER_BOOK)) as package:
        seed = package.read(part)
    return with_part_mutated(MEMBER_BOOK, part, draw(mutated(seed)))


@FUZZ
@given(member_workbooks())
def test_member_lists_as_workbooks(data: bytes) -> None:
    from keizer_xl.exchange.members import new_from_members

    with folder() as here:
        listed, book = here / "leden.xlsx", here / "club.xlsx"
        listed.write_bytes(data)
        made_or_nothing(lambda: new_from_members(listed, book), book)


def test_the_member_workbook_seed_comes_in_and_an_error_value_does_not() -> None:
    from keizer_xl.exchange.members import read_members

    with folder() as here:
        listed = here / "leden.xlsx"
        listed.write_bytes(MEMBER_BOOK)
        assert [p["Name"] for p in read_members(listed).players] == [
            "Anna de Vries",
            "Bram Bakker",
            "Zoë Çelik",
            "Daan Smit",
        ]
        listed.write_bytes(member_workbook(error=True))
        with pytest.raises(
            KeizerXLError,
            match=r"line 5: Rating: the cell shows the error "
            r"#N/A",
        ):
            read_members(listed)


# -- rating lists -----------------------------------------------------------------------------

KNSB = (
    "Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\n"
    "8001234;Vries, Anna de;;NED;1712;12;1990;V\n"
    "8002345;Berg, Bram van der;;NED;1480;20;1985;M\n"
    "8003456;Çelik, Zoë;WFM;NED;2010;30;2001;V\n"
    "8004567;Jansen, J.;;NED;1555;8;1970;M\n"
    "8006789;Visser, Eva;;NED;;0;2012;V\n"
).encode("cp1252")
FIDE = (
    b"ID Number,Name,Fed,Sex,Tit,WTit,OTit,FOA,SRtng,SGm,SK,B-day,Flag\n"
    b'1503014,"Smit, Carla",NED,F,,,,,1832,10,20,1995,w\n'
    b'1503015,"Vries, Anna de",NED,F,,,,,1701,0,40,1990,w\n'
)
CLUB = [
    {"Name": "Anna de Vries", "Rating": 1650},
    {"Name": "Bram van der Berg"},
    {"Name": "Zoë Çelik", "Rating": 1900},
    {"Name": "Joël Jansen", "Rating": 1500},
    {"Name": "Carla Smit", "Rating": 1400},
    {"Name": "Eva Visser"},
]


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_book(tmp_path_factory.mktemp("club") / "club.xlsx", CLUB)


@FUZZ
@given(data=st.sampled_from([KNSB, FIDE]).flatmap(mutated))
def test_rating_lists(club: Path, data: bytes) -> None:
    from keizer_xl.exchange.ratingfiles import update_ratings

    with folder() as here:
        listed, book = here / "list.csv", here / "club.xlsx"
        listed.write_bytes(data)
        shutil.copyfile(club, book)
        before = book.read_bytes()
        if only_our_errors(lambda: update_ratings(book, listed)):
            checks_clean(book)
        else:
            assert book.read_bytes() == before


# -- TRF --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def season_trf(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    from keizer_xl.exchange.trffiles import export_trf

    here = tmp_path_factory.mktemp("trf")
    export_trf(golden_book(here / "season.xlsx", "C"), here / "season.trf")
    return (here / "season.trf").read_bytes()


@FUZZ
@given(data=st.data())
def test_trf_files(season_trf: bytes, data: st.DataObject) -> None:
    from keizer_xl.exchange.trffiles import new_from_trf

    text = data.draw(mutated(season_trf))
    with folder() as here:
        source, book = here / "season.trf", here / "club.xlsx"
        source.write_bytes(text)
        made_or_nothing(lambda: new_from_trf(source, book), book)


# -- KeizerForClubs ---------------------------------------------------------------------------

KFC_COLUMNS = [
    ("Player", "name"),
    ("Player", "rating"),
    ("Player", "state"),
    ("Pairing", "Rnd"),
    ("Pairing", "board"),
    ("Pairing", "PID_W"),
    ("Pairing", "PID_B"),
    ("Pairing", "Result"),
    ("ConfigTab", "CfgValue"),
    ("ConfigTab", "CfgText"),
]


@st.composite
def kfc_files(draw: st.DrawFn) -> tuple[bytes | None, list[tuple[str, str, int, object]]]:
    """Either the file's bytes mutated, or values of its rows changed: (table, column,
    the row's number among the table's rows, the new value)."""
    if draw(st.integers(0, 3)) == 0:
        return draw(mutated(KFC.read_bytes())), []
    values = st.one_of(ODD_VALUES, st.just("A" * 40_000))  # a name no cell holds
    changes = draw(
        st.lists(
            st.tuples(st.sampled_from(KFC_COLUMNS), st.integers(0, 40), values),
            min_size=1,
            max_size=4,
        )
    )
    return None, [(table, column, row, value) for (table, column), row, value in changes]


@FUZZ
@given(kfc_files())
def test_keizerforclubs_files(
    made: tuple[bytes | None, list[tuple[str, str, int, object]]],
) -> None:
    from keizer_xl.exchange.kfcfiles import new_from_kfc

    data, changes = made
    with folder() as here:
        source, book = here / "tournament.s3db", here / "club.xlsx"
        if data is not None:
            source.write_bytes(data)
        else:
            shutil.copyfile(KFC, source)
            with closing(sqlite3.connect(source)) as db:
                for table, column, row, value in changes:
                    with suppress(sqlite3.IntegrityError):  # one the file cannot hold
                        db.execute(
                            f"UPDATE {table} SET {column} = ? WHERE rowid = (SELECT "
                            f"rowid FROM {table} ORDER BY rowid LIMIT 1 OFFSET ?)",
                            (value, row),
                        )
                db.commit()
        made_or_nothing(lambda: new_from_kfc(source, book), book)
