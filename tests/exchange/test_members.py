"""Member lists as clubs have them, through `keizer-xl new --players LIST`."""

from __future__ import annotations

import unicodedata
from fractions import Fraction
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter

from keizer_xl.core.errors import FileError
from keizer_xl.core.words import WordError, parse_rating
from keizer_xl.exchange.members import parse_members, read_members
from tests.conftest import run_cli

# A club's list as its administration exports it: Dutch headers, own columns, a phone
# number with its leading zero, ratings written with a thousands dot, unrated members.
MEMBERS = [
    ("Naam", "Rating", "Telefoon", "KNSB id", "Lid sinds", "E-mail", "Aanwezig"),
    ("José Müller", "1.650", "0612345678", "8012345", "03-09-2015", "jose@example.nl", "x"),
    ("Zoë de Vries", "1.812", "+31 20 123 4567", "8023456", "2019", "zoe@example.nl", "x"),
    ("Bram van Dijk", "", "0201234567", "", "2021", "", "x"),
    ("Ger O'Brien", "n/a", "", "8034567", "", "ger@example.nl", "x"),
]


def _sheet(path: Path, title: str) -> list[list[object]]:
    book = openpyxl.load_workbook(path)
    try:
        return [list(r) for r in book[title].iter_rows(values_only=True)]
    finally:
        book.close()


def _column(rows: list[list[object]], header: str) -> list[object]:
    col = rows[0].index(header)
    return [row[col] for row in rows[1:] if row[0] is not None]


def test_semicolon_windows_1252_list_keeps_the_clubs_columns(tmp_path: Path) -> None:
    members = tmp_path / "leden.csv"
    members.write_bytes("\r\n".join(";".join(row) for row in MEMBERS).encode("cp1252"))
    path = tmp_path / "club.xlsx"
    result = run_cli("new", path, "--players", members)
    assert result.exit_code == 0, result.output
    assert "4 players" in result.output and "Telefoon" in result.output
    players = _sheet(path, "Players")
    assert _column(players, "Name") == [row[0] for row in MEMBERS[1:]]
    assert _column(players, "Rating") == [1650, 1812, None, None]
    for header in ("Telefoon", "KNSB id", "Lid sinds", "E-mail"):
        typed = [row[MEMBERS[0].index(header)] for row in MEMBERS[1:]]
        kept = _column(players, header)
        assert [str(v) if v is not None else "" for v in kept] == typed, header
    phone = _column(players, "Telefoon")
    assert phone[0] == "0612345678"  # text: the leading zero kept
    assert run_cli("pair", path).exit_code == 0
    rounds = _sheet(path, "Rounds")
    assert len([r for r in rounds[1:] if r[0] == 1]) == 2  # four present: two boards
    assert _column(_sheet(path, "Players"), "Telefoon") == phone  # pair left them alone


@pytest.mark.parametrize(
    ("encoding", "separator"), [("utf-8-sig", ","), ("utf-8", "\t"), ("cp1252", ",")]
)
def test_encodings_and_separators(tmp_path: Path, encoding: str, separator: str) -> None:
    members = tmp_path / "members.csv"
    lines = [
        ["Name", "Elo", "Phone", "Birth year"],
        ["Zoë Ångström", "1,650", "0612345678", "1984"],
        ["Anna Bakker", "1650.0", "", "1990"],
    ]
    members.write_bytes(
        "\n".join(
            separator.join(f'"{c}"' if "," in c and separator == "," else c for c in row)
            for row in lines
        ).encode(encoding)
    )
    path = tmp_path / "club.xlsx"
    assert run_cli("new", path, "--players", members).exit_code == 0
    players = _sheet(path, "Players")
    assert _column(players, "Name") == ["Zoë Ångström", "Anna Bakker"]
    assert _column(players, "Rating") == [1650, 1650]
    assert _column(players, "Phone") == ["0612345678", None]
    assert _column(players, "Birth year") == [1984, 1990]


def _xlsxwriter_list(path: Path) -> None:
    book = xlsxwriter.Workbook(str(path))
    notes = book.add_worksheet("Notes")  # not the list: no name column
    notes.write(0, 0, "Exported from the member administration")
    sheet = book.add_worksheet("Leden")
    for r, row in enumerate(
        [
            ["Voornaam", "Tussenvoegsel", "Achternaam", "Rating", "Mobiel"],
            ["Anna", "de", "Vries", 1650, "0612345678"],
            ["Bram", None, "Bakker", "1.702", "0687654321"],
        ]
    ):
        for c, value in enumerate(row):
            if value is not None:
                sheet.write(r, c, value)
    book.close()


def _openpyxl_list(path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Members"
    for row in (
        ["Name", "KNSB rating", "KNSB id", "Group"],
        ["Anna de Vries", 1650.0, 8012345, "A"],
        ["Bram Bakker", None, None, "B"],
    ):
        sheet.append(row)
    book.save(path)


@pytest.mark.parametrize("maker", [_xlsxwriter_list, _openpyxl_list])
def test_workbook_lists(tmp_path: Path, maker: object) -> None:
    members = tmp_path / "members.xlsx"
    maker(members)  # type: ignore[operator]
    path = tmp_path / "club.xlsx"
    result = run_cli("new", path, "--players", members)
    assert result.exit_code == 0, result.output
    players = _sheet(path, "Players")
    assert _column(players, "Name") == ["Anna de Vries", "Bram Bakker"]
    if maker is _xlsxwriter_list:
        assert _column(players, "Rating") == [1650, 1702]
        assert _column(players, "Mobiel") == ["0612345678", "0687654321"]
        assert "Voornaam" not in players[0]  # the parts made the name
    else:
        assert _column(players, "Rating") == [1650, None]
        assert _column(players, "KNSB id") == [8012345, None]
        assert _column(players, "Group") == ["A", "B"]


@pytest.mark.parametrize(
    ("typed", "rating"),
    [
        ("1650", 1650),
        ("1.650", 1650),
        ("1,650", 1650),
        ("1650.0", 1650),
        ("1650,0", 1650),
        (" 1 650 ", 1650),
        ("", 0),
        ("n/a", 0),
        ("-", 0),
        ("nvt", 0),
        (1650, 1650),
        (1650.0, 1650),
        ("1.65", Fraction(33, 20)),
        ("2.345.678", 2345678),
    ],
)
def test_rating_spellings(typed: object, rating: Fraction) -> None:
    assert parse_rating(typed) == rating


@pytest.mark.parametrize("typed", ["abc", "-3", "1.6.5", "1650 Elo"])
def test_unreadable_ratings(typed: str) -> None:
    with pytest.raises(WordError, match=typed.replace(".", r"\.")):
        parse_rating(typed)


def test_problems_listed_with_their_lines_and_nothing_written(tmp_path: Path) -> None:
    members = tmp_path / "leden.csv"
    zoe_other = unicodedata.normalize("NFD", "Zoë de Vries")
    members.write_text(
        "Naam;Rating;Vanaf ronde\nZoë de Vries;1800;\n;1500;\n"
        f"{zoe_other};1700;\nBram;abc;\nCor;1600;twee\n",
        encoding="utf-8",
    )
    path = tmp_path / "club.xlsx"
    result = run_cli("new", path, "--players", members)
    assert result.exit_code != 0
    out = result.output
    assert "leden.csv, line 3: this line has no name" in out
    assert "leden.csv, line 4: 'Zoë de Vries' is listed twice (also on line 2)" in out
    assert "leden.csv, line 5: Rating: 'abc' is not a number" in out
    assert "leden.csv, line 6: Vanaf ronde: 'twee' is not a whole number" in out
    assert out.count("line 4") == 1
    assert not path.exists()


def test_a_list_without_a_name_column(tmp_path: Path) -> None:
    members = tmp_path / "list.csv"
    members.write_text("Lidnummer,Rating\n1,1500\n", encoding="utf-8")
    with pytest.raises(FileError, match="line 1: the first line should name the columns"):
        read_members(members)


def test_name_column_wins_over_parts() -> None:
    found = parse_members(
        [["Voornaam", "Naam", "Achternaam"], ["Anna", "A. de Vries", "Vries"]], "list"
    )
    assert found.players == [{"Name": "A. de Vries"}]
    assert [title for title, _ in found.own] == ["Voornaam", "Achternaam"]


@pytest.mark.parametrize(
    ("header", "row", "name", "first_to_last"),
    [
        (["Name", "Vorname"], ["Müller", "Jürgen"], "Jürgen Müller", ("Vorname", "Name")),
        (["Vorname", "Name"], ["Jürgen", "Müller"], "Jürgen Müller", ("Vorname", "Name")),
        (
            ["Nachname", "Vorname"],
            ["von Bülow", "Heike"],
            "Heike von Bülow",
            ("Vorname", "Nachname"),
        ),
        (["Cognome", "Nome"], ["D'Angelo", "Lucia"], "Lucia D'Angelo", ("Nome", "Cognome")),
        (["Name"], ["Jürgen Müller"], "Jürgen Müller", ("Name",)),  # alone: the whole name
        (["Nome"], ["Lucia D'Angelo"], "Lucia D'Angelo", ("Nome",)),
    ],
)
def test_a_name_header_beside_the_other_part_is_a_part(
    header: list[str], row: list[str], name: str, first_to_last: tuple[str, ...]
) -> None:
    found = parse_members([header, row], "list")
    assert found.players == [{"Name": name}]
    assert found.own == []
    assert found.name_headers == first_to_last


@pytest.mark.parametrize(
    ("header", "rating", "kept"),
    [
        (["Name", "Vorname", "DWZ", "Elo"], 1600, "Elo"),
        (["Name", "Vorname", "Elo", "DWZ"], 1600, "Elo"),  # the national one, wherever it is
        (["Cognome", "Nome", "Elo FIDE", "Elo Italia"], 1600, "Elo FIDE"),
        (["Naam", "FIDE-rating", "KNSB rating"], 1600, "FIDE-rating"),
        (["Cognome", "Nome", "Elo FIDE"], 1750, ""),  # no national one: FIDE's is the rating
        (["Name", "Elo"], 1750, ""),
    ],
)
def test_a_national_rating_before_a_fide_one(header: list[str], rating: int, kept: str) -> None:
    ratings = {
        "DWZ": "1600",
        "Elo Italia": "1600",
        "KNSB rating": "1600",
        "Elo": "1750",
        "Elo FIDE": "1750",
        "FIDE-rating": "1750",
    }
    row = [ratings.get(h, f"{h} 1") for h in header]
    found = parse_members([header, row], "list")
    assert found.players[0]["Rating"] == rating
    assert found.kept_header == kept
    assert [title for title, _ in found.own] == ([kept] if kept else [])
    if kept:
        assert found.own[0][1] == [1750]


def test_rating_typed_as_text_in_the_players_sheet(tmp_path: Path) -> None:
    """`1.650` typed as text in the Players sheet is 1650 there too (Standings show it)."""
    path = tmp_path / "club.xlsx"
    assert run_cli("new", path).exit_code == 0
    book = openpyxl.load_workbook(path)
    sheet = book["Players"]
    for r, (name, rating) in enumerate(
        [("Anna", "1.650"), ("Bram", "1,702"), ("Cor", "-"), ("Dirk", "1500")], start=2
    ):
        sheet.cell(r, 1, name)
        sheet.cell(r, 2, rating)  # text cells, as a pasted list leaves them
        sheet.cell(r, 5, "x")
    book.save(path)
    result = run_cli("pair", path)
    assert result.exit_code == 0, result.output
    standings = _sheet(path, "Standings")
    header = next(row for row in standings if "Name" in row and "Rating" in row)
    rows = standings[standings.index(header) + 1 :]
    rating = {
        row[header.index("Name")]: row[header.index("Rating")]
        for row in rows
        if row[header.index("Name")]
    }
    assert rating["Bram"] == 1702 and rating["Anna"] == 1650 and rating["Dirk"] == 1500
    assert rating["Cor"] in (None, "", 0)
    ranked = [row[header.index("Name")] for row in rows if row[header.index("Name")]]
    assert ranked[:3] == ["Bram", "Anna", "Dirk"]  # by rating: 1.650 is not 1.65


def test_a_name_longer_than_the_players_sheet_holds_is_refused_with_its_line() -> None:
    """The same limit as the Players sheet's (`MAX_NAME`): a list that makes a workbook
    `check` refuses is refused itself."""
    from keizer_xl.core.words import MAX_NAME

    with pytest.raises(FileError) as info:
        parse_members([["Naam"], ["A" * MAX_NAME], ["B" * (MAX_NAME + 1)]], "leden.csv")
    assert f"leden.csv, line 3: a name of {MAX_NAME + 1} characters; at most {MAX_NAME}" in str(
        info.value
    )
