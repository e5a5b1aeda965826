"""Ratings from the federation's list: KNSB (Latin-1, `Vries, Anna de`) and FIDE lists,
matched by id, then by name; only the Rating cells change."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from python_calamine import CalamineWorkbook

from keizer_xl.core.errors import FileError
from keizer_xl.exchange.csvfile import decode
from keizer_xl.exchange.ratings import initials_key, name_key, parse_rating_list
from keizer_xl.workbook.xlsx import CellValue, SheetEdit, save_edits
from tests.conftest import run_cli
from tests.helpers_package import members, sheet_parts
from tests.seasons import make_book


@pytest.mark.parametrize(
    ("club", "listed"),
    [
        ("Anna de Vries", "Vries, Anna de"),
        ("Bram van der Berg", "Berg, Bram van der"),
        ("Jan Willem ter Horst", "Horst, Jan Willem ter"),
        ("Zoë Çelik", "Celik, Zoe"),
        ("ANNA DE VRIES", "vries, anna de"),
        ("Sanne van 't Hof", "Hof, Sanne van 't"),
        ("Pieter-Jan O'Brien", "O'Brien, Pieter-Jan"),
    ],
)
def test_one_name_written_two_ways(club: str, listed: str) -> None:
    assert name_key(club) == name_key(listed)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Anna de Vries", "Anna Vries"),
        ("Anna de Vries", "Vries, Anja de"),
        ("Bram van der Berg", "Bram van den Berg"),
        ("Anna de Vries", "Vries, Anna de Jong"),
    ],
)
def test_different_people_stay_apart(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


def test_initials() -> None:
    assert initials_key("Vries, A.J. de") == initials_key("Anna de Vries")
    assert initials_key("Vries, B. de") != initials_key("Anna de Vries")
    assert initials_key("Cher") is None


KNSB = (
    "Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S\n"
    "8001234;Vries, Anna de;;NED;1712;12;1990;V\n"  # line 2: by id (name also fits)
    "8002345;Berg, Bram van der;;NED;1480;20;1985;M\n"  # line 3: by name
    "8003456;Çelik, Zoë;WFM;NED;2010;30;2001;V\n"  # line 4: accents, Latin-1
    "8004567;Jansen, J.;;NED;1555;8;1970;M\n"  # line 5: initials
    "8005678;Bakker, Daan;;NED;1600;5;1999;M\n"  # lines 6 and 7: two of the same name
    "8005679;Bakker, Daan;;NED;1300;5;2010;M\n"
    "8006789;Visser, Eva;;NED;;0;2012;V\n"  # line 8: no rating yet
    "8007890;Mulder, Fleur;;NED;1800;40;1980;V\n"  # line 9: by id although renamed
)
PLAYERS = [
    {"Name": "Anna de Vries", "Rating": 1650},
    {"Name": "Bram van der Berg"},
    {"Name": "Zoë Çelik", "Rating": 1900},
    {"Name": "Joël Jansen", "Rating": 1500},
    {"Name": "Carla Smit", "Rating": 1400},
    {"Name": "Daan Bakker", "Rating": 1450},
    {"Name": "Eva Visser", "Rating": 900},
    {"Name": "Fleur Mulder-de Groot", "Rating": 1790},
]
KNSB_IDS = [8001234, None, None, None, None, None, None, 8007890]


def club_book(
    path: Path,
    rounds: list[list[object]] | None = None,
    id_header: str = "Relatienummer",
    ids: list[object] | None = None,
) -> Path:
    make_book(path, PLAYERS, rounds or [])
    cells: dict[tuple[int, int], CellValue] = {(1, 7): "Phone", (1, 8): id_header}
    for row, ident in enumerate(ids or KNSB_IDS, start=2):
        cells[(row, 7)] = f"06-{row:08d}"
        if ident is not None:
            cells[(row, 8)] = ident  # type: ignore[assignment]
    save_edits(path, [SheetEdit("Players", cells)], backup=False)
    return path


def players_grid(path: Path) -> list[list[object]]:
    book = CalamineWorkbook.from_path(str(path))
    return book.get_sheet_by_name("Players").to_python()  # type: ignore[no-any-return]


def test_knsb_list_updates_the_right_players(tmp_path: Path) -> None:
    book = club_book(tmp_path / "club.xlsx")
    listed = tmp_path / "knsb.csv"
    listed.write_bytes(KNSB.encode("cp1252"))
    before_members = members(book)
    before = players_grid(book)
    result = run_cli("ratings", book, listed)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        f"{listed}: KNSB rating list; 6 of 8 players found.",
        "Changed:",
        "  Anna de Vries: 1650 → 1712 (KNSB id 8001234)",
        "  Bram van der Berg: none → 1480 (by name: line 3, 'Berg, Bram van der')",
        "  Zoë Çelik: 1900 → 2010 (by name: line 4, 'Çelik, Zoë')",
        "  Joël Jansen: 1500 → 1555 (by name: line 5, 'Jansen, J.')",
        "  Fleur Mulder-de Groot: 1790 → 1800 (KNSB id 8007890)",
        "Matched by name only; check that these are the same people:",
        "  Players!A3: Bram van der Berg = line 3 'Berg, Bram van der' (KNSB id 8002345)",
        "  Players!A4: Zoë Çelik = line 4 'Çelik, Zoë' (KNSB id 8003456)",
        "  Players!A5: Joël Jansen = line 5 'Jansen, J.' (KNSB id 8004567)",
        "  Players!A8: Eva Visser = line 8 'Visser, Eva' (KNSB id 8006789)",
        "Not in the list (add their KNSB id to the Players sheet, or check the spelling):",
        "  Players!A6: Carla Smit",
        "More than one line fits; not changed (add their KNSB id to the Players sheet):",
        "  Players!A7: Daan Bakker: lines 6 'Bakker, Daan', 7 'Bakker, Daan'",
        "In the list without a rating; not changed:",
        "  Eva Visser: line 8",
        f"5 ratings written to {book}. Then: keizer-xl recalc {book}",
    ]
    after = players_grid(book)
    expected = [list(row) for row in before]
    for row, rating in ((1, 1712), (2, 1480), (3, 2010), (4, 1555), (8, 1800)):
        expected[row][1] = rating
    assert after == expected
    players_part = sheet_parts(book)["Players"]
    after_members = members(book)
    assert {name for name in after_members if after_members[name] != before_members[name]} == {
        players_part
    }
    # again: everything is as listed now
    again = run_cli("ratings", book, listed)
    assert again.output.splitlines()[-1] == f"Nothing to change in {book}."
    assert members(book) == after_members


def test_after_round_one_only_newcomers_change(tmp_path: Path) -> None:
    rounds: list[list[object]] = [
        [1, 1, "Anna de Vries", "Zoë Çelik", "1-0"],
        [1, 2, "Joël Jansen", "Carla Smit", "0-1"],
        [1, "", "Daan Bakker", "", "excused"],
    ]
    book = club_book(tmp_path / "club.xlsx", rounds)
    listed = tmp_path / "knsb.csv"
    listed.write_bytes(KNSB.encode("cp1252"))
    result = run_cli("ratings", book, listed)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1:4] == [
        "Changed:",
        "  Bram van der Berg: none → 1480 (by name: line 3, 'Berg, Bram van der')",
        "  Fleur Mulder-de Groot: 1790 → 1800 (KNSB id 8007890)",
    ]
    kept = lines.index(
        "Round 1 is paired, so the ratings have set the initial ranking: 3 "
        "players who played keep their rating (add --all to change them too):"
    )
    assert lines[kept + 1 : kept + 4] == [
        "  Anna de Vries: 1650 (list: 1712)",
        "  Zoë Çelik: 1900 (list: 2010)",
        "  Joël Jansen: 1500 (list: 1555)",
    ]
    ratings = {row[0]: row[1] for row in players_grid(book)[1:]}
    assert (ratings["Anna de Vries"], ratings["Bram van der Berg"]) == (1650, 1480)
    everyone = run_cli("ratings", book, listed, "--all")
    assert everyone.exit_code == 0, everyone.output
    assert "Round 1 is paired" not in everyone.output
    ratings = {row[0]: row[1] for row in players_grid(book)[1:]}
    assert (ratings["Anna de Vries"], ratings["Zoë Çelik"], ratings["Joël Jansen"]) == (
        1712,
        2010,
        1555,
    )


def test_fide_list(tmp_path: Path) -> None:
    book = club_book(
        tmp_path / "club.xlsx",
        id_header="FIDE ID",
        ids=[None, None, None, None, 1503014, None, None, None],
    )
    listed = tmp_path / "fide.csv"
    listed.write_text(
        "ID Number,Name,Fed,Sex,Tit,WTit,OTit,FOA,SRtng,SGm,SK,B-day,Flag\n"
        '1503014,"Smit, Carla",NED,F,,,,,1832,10,20,1995,w\n'
        '1503015,"Vries, Anna de",NED,F,,,,,1701,0,40,1990,w\n',
        encoding="utf-8",
    )
    result = run_cli("ratings", book, listed)
    assert result.exit_code == 0, result.output
    assert "  Carla Smit: 1400 → 1832 (FIDE id 1503014)" in result.output
    assert "  Anna de Vries: 1650 → 1701 (by name: line 3, 'Vries, Anna de')" in result.output
    assert result.output.startswith(f"{listed}: FIDE rating list; 2 of 8 players found.")


def test_a_list_without_ratings_changes_nothing(tmp_path: Path) -> None:
    book = club_book(tmp_path / "club.xlsx")
    listed = tmp_path / "members.csv"
    listed.write_text(
        "Relatienummer;Naam;Woonplaats\n8001234;Vries, Anna de;Utrecht\n", encoding="utf-8"
    )
    before = book.read_bytes()
    result = run_cli("ratings", book, listed)
    assert result.exit_code == 1
    assert (
        "members.csv, line 1: the first line should name the columns; found no rating "
        "column (Rating / SRtng)" in result.output
    )
    assert book.read_bytes() == before


def test_parse_keeps_lines_and_ids() -> None:
    listed = parse_rating_list(decode(KNSB.encode("cp1252")), "knsb.csv")
    assert (listed.kind, listed.id_column) == ("KNSB", "KNSB id")
    first, third = listed.entries[0], listed.entries[2]
    assert (first.line, first.id, first.name, first.rating) == (
        2,
        "8001234",
        "Vries, Anna de",
        Fraction(1712),
    )
    assert (third.name, third.rating) == ("Çelik, Zoë", Fraction(2010))
    assert listed.entries[6].rating is None
    with pytest.raises(FileError):
        parse_rating_list("Naam;Rating\n", "empty.csv")


def test_the_dsb_lists_read_by_their_own_headers() -> None:
    """Both shapes of the DWZ list: the name from `Spielername` (a title after a second
    comma left out) or from `Nachname` and `Vorname`; `FIDE-ID` the id, never the newer
    export's own `ID`; the club's code and the member number as one key, zeros in front
    not mattering, a board member's number 0 no key."""
    old = parse_rating_list(
        '"ZPS","Mgl-Nr","Status","Spielername","DWZ","Index","FIDE-Elo","FIDE-ID"\n'
        '"c0327","0017","A","Müller,Jürgen,Dr.","1861","87","1905","4611023"\n',
        "spieler.csv",
    )
    new = parse_rating_list(
        "ID,ZPS,Mitgliedsnummer,Nachname,Vorname,DWZ,FIDE-Elozahl,FIDE-ID\n"
        "10293847,C0327,17,Müller,Jürgen,1861,1905,\n"
        "10293852,C0327,0,Kassner,Walter,,,\n",
        "dwz.csv",
    )
    assert (old.kind, old.id_column) == (new.kind, new.id_column) == ("DSB", "FIDE id")
    jurgen = old.entries[0]
    assert (jurgen.name, jurgen.id, jurgen.member, jurgen.rating) == (
        "Müller, Jürgen",
        "4611023",
        "C0327/17",
        Fraction(1861),
    )
    assert [(e.name, e.id, e.member) for e in new.entries] == [
        ("Müller, Jürgen", "", "C0327/17"),
        ("Kassner, Walter", "", ""),
    ]
    assert old.headers["member"] == "Mgl-Nr" and new.headers["member"] == "Mitgliedsnummer"
    assert name_key(jurgen.name) == name_key("Jürgen Müller")
