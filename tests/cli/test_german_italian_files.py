"""German and Italian clubs' own files through the command: member lists as their
administrations export them (`Name;Vorname`, `Cognome;Nome` with `Elo Italia` and `Elo
FIDE`) and the DSB's DWZ list in both its shapes, each said in the workbook's language.

The files are in tests/fixtures/de and tests/fixtures/it, written as the exports write
them: `mitglieder.csv` semicolons, Windows-1252 and CRLF (Excel's CSV); `spieler.csv` the
DSB's older export, commas, quoted text, ISO-8859-1, `Spielername` as `Nachname,Vorname`
with a title after a second comma; `dwz-neu.csv` the newer export of the federation's
league system, Windows-1252, with `Nachname` and `Vorname`, an `ID` of its own, a board
member with Mitgliedsnummer 0 and the three FIDE columns of September 2026; `soci.csv` an
Italian club's list as Excel saves UTF-8 (with a byte-order mark), semicolons.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from python_calamine import CalamineWorkbook

from tests.conftest import run_cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GERMAN_MEMBERS = FIXTURES / "de" / "mitglieder.csv"
OLD_DWZ = FIXTURES / "de" / "spieler.csv"
NEW_DWZ = FIXTURES / "de" / "dwz-neu.csv"
ITALIAN_MEMBERS = FIXTURES / "it" / "soci.csv"

# The German club, first name before surname, with the DWZ its member list gives.
GERMAN_CLUB = [
    ("Jürgen Müller", 1843),
    ("Anna Müller", 1620),
    ("Björn Schäfer", 1755),
    ("Günter Weiß", 1402),
    ("Uwe Köhler", None),
    ("Franziska Zimmermann", 1510),
    ("Heike von Bülow", 1688),
    ("Deniz Öztürk", 1299),
]


def sheet(path: Path, name: str) -> list[list[object]]:
    return (
        CalamineWorkbook.from_path(str(path))
        .get_sheet_by_name(  # type: ignore[no-any-return]
            name
        )
        .to_python()
    )


def column(rows: list[list[object]], header: str) -> list[object]:
    """A column's values under its header, blanks as None, numbers as whole numbers."""
    at = rows[0].index(header)
    return [
        None if row[at] == "" else int(row[at]) if isinstance(row[at], float) else row[at]
        for row in rows[1:]
        if row[0]
    ]


@pytest.fixture
def german_club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The German club's workbook, made from its member list."""
    monkeypatch.chdir(tmp_path)  # the messages name the files as typed
    made = run_cli("--lang", "de", "new", "club.xlsx", "--players", GERMAN_MEMBERS)
    assert made.exit_code == 0, made.output
    return Path("club.xlsx")


def test_a_german_member_list_says_name_is_the_surname(german_club: Path) -> None:
    made = run_cli("--lang", "de", "new", "again.xlsx", "--players", GERMAN_MEMBERS)
    assert made.exit_code == 0, made.output
    assert made.output.splitlines()[0] == (
        "Name als Nachname und Vorname als Vorname gelesen; DWZ als Wertungszahl; Elo als "
        "Ihre eigene Spalte behalten."
    )
    players = sheet(german_club, "Spieler")
    assert column(players, "Name") == [name for name, _ in GERMAN_CLUB]  # two Müllers
    assert column(players, "Wertungszahl") == [dwz for _, dwz in GERMAN_CLUB]
    assert column(players, "Elo") == [1901, None, 1780, None, None, None, None, None]
    assert column(players, "Mitgliedsnummer") == [17, 18, 21, 23, 25, 31, 34, 40]
    assert column(players, "Telefon")[0] == "0171 2345678"


def test_the_older_dwz_list_by_fide_id_then_club_and_number_then_name(german_club: Path) -> None:
    result = run_cli("ratings", german_club, OLD_DWZ)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].endswith("spieler.csv: Wertungsliste von DSB; 7 von 8 Spielern gefunden.")
    assert lines[1:7] == [
        "Geändert:",
        "  Jürgen Müller: 1843 → 1861 (FIDE id 4611023)",  # `Müller,Jürgen,Dr.`
        # her club and number, not the Anna Müller of club C0601 (1288)
        "  Anna Müller: 1620 → 1633 (ZPS C0327, Mgl-Nr 18)",
        "  Günter Weiß: 1402 → 1415 (ZPS C0327, Mgl-Nr 23)",
        "  Franziska Zimmermann: 1510 → 1530 (nach Namen: Zeile 7, 'Zimmermann, Franziska')",
        "  Heike von Bülow: 1688 → 1690 (ZPS C0327, Mgl-Nr 34)",
    ]
    assert "Nur am Namen erkannt; prüfen Sie, ob es dieselben Personen sind:" in lines
    assert (
        "Nicht in der Liste (tragen Sie ihre FIDE id, oder ZPS und Mgl-Nr, auf dem Blatt "
        "Spieler ein, oder prüfen Sie die Schreibweise):"
    ) in lines
    assert "  Spieler!A9: Deniz Öztürk" in lines
    assert "  Uwe Köhler: Zeile 6" in lines  # listed without a DWZ yet
    assert lines[-1] == (
        "5 Wertungszahlen in club.xlsx geschrieben. Dann: keizer-xl recalc club.xlsx"
    )
    ratings = column(sheet(german_club, "Spieler"), "Wertungszahl")
    assert ratings == [1861, 1633, 1755, 1415, None, 1530, 1690, 1299]


def test_the_newer_dwz_list_by_club_and_number(german_club: Path) -> None:
    result = run_cli("ratings", german_club, NEW_DWZ)
    assert result.exit_code == 0, result.output
    assert "  Deniz Öztürk: 1299 → 1342 (ZPS C0327, Mitgliedsnummer 40)" in result.output
    assert "  Jürgen Müller: 1843 → 1861 (FIDE id 4611023)" in result.output
    assert "Kassner" not in result.output  # a board member, number 0: no player of ours
    ratings = column(sheet(german_club, "Spieler"), "Wertungszahl")
    assert ratings == [1861, 1633, 1755, 1415, None, 1510, 1690, 1342]


def test_the_newer_dwz_list_by_name_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A workbook that keeps neither FIDE ids nor club numbers: `Nachname` and `Vorname`
    against `Vorname Nachname`; the list's own `ID` is not taken for a FIDE id."""
    monkeypatch.chdir(tmp_path)
    Path("liste.csv").write_bytes(
        "Nachname;Vorname;DWZ\r\nMüller;Jürgen;1800\r\nWeiß;Günter;1400\r\n"
        "Schmidt;Lena;1500\r\n".encode("cp1252")
    )
    made = run_cli("--lang", "de", "new", "club.xlsx", "--players", "liste.csv")
    assert made.exit_code == 0, made.output
    assert made.output.startswith(
        "Nachname als Nachname und Vorname als Vorname gelesen; DWZ als Wertungszahl.\n"
    )
    result = run_cli("ratings", "club.xlsx", NEW_DWZ)
    assert result.exit_code == 0, result.output
    assert (
        "  Jürgen Müller: 1800 → 1861 (nach Namen: Zeile 2, 'Müller, Jürgen')"
        in result.output.splitlines()
    )
    assert (
        "  Spieler!A2: Jürgen Müller = Zeile 2 'Müller, Jürgen' (FIDE id 4611023)"
        in result.output.splitlines()
    )
    assert "10293847" not in result.output
    assert "  Spieler!A4: Lena Schmidt" in result.output.splitlines()
    assert column(sheet(Path("club.xlsx"), "Spieler"), "Wertungszahl") == [1861, 1415, 1500]


def test_a_list_without_its_columns_is_refused_naming_german_headers(german_club: Path) -> None:
    before = german_club.read_bytes()
    Path("ohne.csv").write_text(
        '"ZPS","Mgl-Nr","Spielername","Index"\n"C0327","0017","Müller,Jürgen","87"\n',
        encoding="latin-1",
    )
    result = run_cli("ratings", german_club, "ohne.csv")
    assert result.exit_code == 1
    assert (
        "ohne.csv, Zeile 1: die erste Zeile sollte die Spalten benennen; keine "
        "Wertungsspalte gefunden (DWZ / Rating / SRtng)"
    ) in result.output
    Path("leer.csv").write_text("Telefon;Ort\n0421 1;Bremen\n", encoding="utf-8")
    result = run_cli("ratings", german_club, "leer.csv")
    assert result.exit_code == 1
    assert (
        "keine Namensspalte (Spielername / Nachname + Vorname / Name) und keine "
        "Wertungsspalte (DWZ / Rating / SRtng) gefunden"
    ) in result.output
    assert "Naam" not in result.output
    assert german_club.read_bytes() == before
    refused = run_cli("--lang", "de", "new", "neu.xlsx", "--players", "leer.csv")
    assert refused.exit_code == 1
    assert (
        "leer.csv, Zeile 1: die erste Zeile sollte die Spalten benennen, mit einer für "
        "den Namen (Name, oder Vorname und Nachname)"
    ) in refused.output
    assert "Naam" not in refused.output and not Path("neu.xlsx").exists()


def test_an_italian_member_list_takes_elo_italia_and_keeps_elo_fide(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    made = run_cli("--lang", "it", "new", "club.xlsx", "--players", ITALIAN_MEMBERS)
    assert made.exit_code == 0, made.output
    assert made.output.splitlines()[0] == (
        "Letto Cognome come cognome e Nome come nome; Elo Italia come Elo; Elo FIDE tenuto "
        "come tua colonna."
    )
    players = sheet(Path("club.xlsx"), "Giocatori")
    assert column(players, "Nome") == [
        "Mario Rossi",
        "Giuseppe Bianchi",
        "Lucia D'Angelo",
        "Niccolò De Santis",
        "Francesca Esposito",
        "Luca Ricci",
    ]
    # the national rating, column by column: Francesca has a FIDE rating only, and it is
    # kept in its own column rather than mixed into the national ones
    assert column(players, "Elo") == [1712, 1540, 1865, 1440, None, 1988]
    assert column(players, "Elo FIDE") == [1698, None, 1840, None, 1602, 2011]
    assert column(players, "Tessera")[0] == "A12345"


def test_an_italian_list_with_only_elo_fide_rates_by_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("soci.csv").write_bytes(
        "Cognome;Nome;Tessera;Elo FIDE\r\nRossi;Mario;A12345;1698\r\nRicci;Luca;A12350;\r\n".encode(
            "cp1252"
        )
    )
    made = run_cli("--lang", "it", "new", "club.xlsx", "--players", "soci.csv")
    assert made.exit_code == 0, made.output
    assert made.output.startswith(
        "Letto Cognome come cognome e Nome come nome; Elo FIDE come Elo.\n"
    )
    players = sheet(Path("club.xlsx"), "Giocatori")
    assert column(players, "Elo") == [1698, None]
    assert "Elo FIDE" not in players[0]
