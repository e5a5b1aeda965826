"""A Dutch workbook (Spelers, Ronden, Stand, Instellingen; Dutch headers, setting names and
words) is read and written by every command as the English one, with the same numbers."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter
from python_calamine import CalamineWorkbook

from keizer_xl.core.model import Absence, Game
from keizer_xl.core.season import Season
from keizer_xl.core.settings import SETTINGS
from keizer_xl.i18n.names import SETTING_TRANSLATIONS, TRANSLATIONS
from keizer_xl.workbook.template import build_template
from tests.conftest import run_cli
from tests.seasons import club_season, season_book
from tests.workbook.test_template import needs_soffice, soffice

SETTINGS_USED = {
    "Top value": 30,
    "Ties": "shared",
    "Excused absence": "1/3, 1/4",
    "Max rewarded absences": 5,
}
DUTCH_WORDS = {
    Absence.BYE: "vrij",
    Absence.EXCUSED: "afgemeld",
    Absence.CLUB: "extern",
    Absence.UNEXCUSED: "onafgemeld",
}
NL = TRANSLATIONS["nl"]


def present(i: int, season: Season) -> tuple[str, str]:
    """Who comes next week, in English and in Dutch words (those who left: blank)."""
    if season.players[i].left is not None:
        return ("", "")
    return [("x", "ja"), ("excused", "afgemeld"), ("x", "✓"), ("club", "extern")][i % 4]


def dutch_book(path: Path, season: Season) -> Path:
    """The season as a Dutch club would type it, in a workbook of its own making."""
    book = xlsxwriter.Workbook(str(path))
    players = book.add_worksheet("Spelers")
    players.write_row(0, 0, ["Naam", "Rating", "Vanaf ronde", "Tot ronde", "Aanwezig", "Telefoon"])
    for r, p in enumerate(season.players, start=1):
        players.write_string(r, 0, p.name)
        if p.rating:
            players.write_number(r, 1, int(p.rating))
        if p.joined > 1:
            players.write_number(r, 2, p.joined)
        if p.left is not None:
            players.write_number(r, 3, p.left)
        if present(r - 1, season)[1]:
            players.write_string(r, 4, present(r - 1, season)[1])
        players.write_string(r, 5, f"06-{r:08d}")
    rounds = book.add_worksheet("Ronden")
    rounds.write_row(0, 0, ["Ronde", "Bord", "Wit", "Zwart", "Uitslag"])
    for r, e in enumerate(season.entries, start=1):
        if isinstance(e, Game):
            assert e.result is not None
            rounds.write_row(r, 0, [e.round, e.board, e.white, e.black, e.result.value])
        else:
            rounds.write_row(r, 0, [e.round, "", e.player, "", DUTCH_WORDS[e.reason]])
    book.add_worksheet("Stand")
    settings = book.add_worksheet("Instellingen")
    settings.write_row(0, 0, ["Instelling", "Waarde", "Uitleg"])
    for r, name in enumerate(SETTINGS, start=1):
        settings.write_string(r, 0, SETTING_TRANSLATIONS["nl"][name])
        if name in SETTINGS_USED:
            settings.write(r, 1, SETTINGS_USED[name])
    book.add_worksheet("Notities")
    book.close()
    return path


def sheet(path: Path, name: str) -> list[list[object]]:
    return (
        CalamineWorkbook.from_path(str(path))
        .get_sheet_by_name(  # type: ignore[no-any-return]
            name
        )
        .to_python()
    )


def test_every_setting_has_a_dutch_name() -> None:
    assert set(SETTING_TRANSLATIONS["nl"]) == set(SETTINGS)
    assert len(set(SETTING_TRANSLATIONS["nl"].values())) == len(SETTINGS)


def test_a_dutch_season_gives_the_same_numbers(tmp_path: Path) -> None:
    season = club_season(24, 8, seed=4, comings_and_goings=True)
    english = season_book(tmp_path / "club.xlsx", season, SETTINGS_USED)
    from keizer_xl.workbook.xlsx import SheetEdit, save_edits

    save_edits(
        english,
        [
            SheetEdit(
                "Players",
                {
                    (r, 5): present(r - 2, season)[0] or None
                    for r in range(2, len(season.players) + 2)
                },
            )
        ],
        backup=False,
    )
    (tmp_path / "nl").mkdir()
    dutch = dutch_book(tmp_path / "nl" / "club.xlsx", season)

    for path in (english, dutch):
        result = run_cli("check", path)
        assert result.exit_code == 0, result.output
        result = run_cli("recalc", path)
        assert result.exit_code == 0, result.output
    en, nl = sheet(english, "Standings"), sheet(dutch, "Stand")
    assert nl[0] == [NL.get(h, h) for h in en[0]]
    assert nl[0][:4] == ["Plaats", "Naam", "Score", "Waarde"]
    players = len(season.players)
    assert _in_english(nl, players) == en[1 : players + 1]  # every number of every row
    assert any(str(row[1]).endswith(" (teruggetrokken)") for row in nl[1 : players + 1])

    for path in (english, dutch):
        result = run_cli("pair", path)
        assert result.exit_code == 0, result.output
    en_rounds, nl_rounds = sheet(english, "Rounds"), sheet(dutch, "Ronden")
    new = len(season.entries) + 1
    english_words = {a.value: DUTCH_WORDS[a] for a in Absence}
    assert [row[:4] for row in nl_rounds[new:]] == [row[:4] for row in en_rounds[new:]]
    assert [row[4] for row in nl_rounds[new:]] == [
        english_words.get(str(row[4]), row[4]) for row in en_rounds[new:]
    ]
    assert {"afgemeld", "extern"} <= {row[4] for row in nl_rounds[new:]}
    assert (
        _in_english(sheet(dutch, "Stand"), players) == sheet(english, "Standings")[1 : players + 1]
    )
    assert sheet(dutch, "Spelers")[1][5] == "06-00000001"  # the club's own column


def _in_english(rows: list[list[object]], players: int) -> list[list[object]]:
    """The Dutch Standings rows with a leaver's mark in English, to compare the numbers."""
    return [
        [
            str(c).replace("(teruggetrokken)", "(withdrawn)") if i == 1 else c
            for i, c in enumerate(row)
        ]
        for row in rows[1 : players + 1]
    ]


def test_a_problem_names_the_dutch_cell(tmp_path: Path) -> None:
    season = club_season(6, 2, seed=2, comings_and_goings=True)
    dutch = dutch_book(tmp_path / "club.xlsx", season)
    from keizer_xl.workbook.xlsx import SheetEdit, save_edits

    save_edits(
        dutch,
        [SheetEdit("Ronden", {(2, 5): "l-0"}), SheetEdit("Instellingen", {(3, 1): "Stapp"})],
        backup=False,
    )
    result = run_cli("check", dutch)  # said in the workbook's language
    assert result.exit_code == 1
    assert "Ronden!E2: 'l-0' is geen uitslag" in result.output
    assert "Instellingen!A3: 'Stapp' is geen instelling; bedoelt u 'Stap'?" in result.output
    english = run_cli("--lang", "en", "check", dutch)
    assert "Ronden!E2: 'l-0' is not a result" in english.output
    assert "Instellingen!A3: 'Stapp' is not a setting; did you mean 'Step'?" in english.output


def test_new_dutch_workbook_plays_like_the_english_one(tmp_path: Path) -> None:
    import zipfile

    from keizer_xl.workbook.xlsx import SheetEdit, save_edits

    names = [f"Speler {i}" for i in range(1, 10)]
    players = tmp_path / "leden.csv"
    players.write_text(
        "Name,Rating\n" + "".join(f"{n},{2000 - 37 * i}\n" for i, n in enumerate(names)), "utf-8"
    )
    books = {}
    for language, suffix in (("en", "xlsm"), ("nl", "xlsm")):
        path = tmp_path / language / f"club.{suffix}"
        path.parent.mkdir()
        result = run_cli("new", path, "--lang", language, "--players", players)
        assert result.exit_code == 0, result.output
        books[language] = path
    nl = books["nl"]
    grids = {name: sheet(nl, name) for name in ("Spelers", "Ronden", "Stand", "Instellingen")}
    assert grids["Spelers"][0][:5] == ["Naam", "Rating", "Vanaf ronde", "Tot ronde", "Aanwezig"]
    assert grids["Ronden"][0] == ["Ronde", "Bord", "Wit", "Zwart", "Uitslag"]
    assert grids["Instellingen"][0][:2] == ["Instelling", "Waarde"]
    assert [row[0] for row in grids["Instellingen"][1:]] == [
        SETTING_TRANSLATIONS["nl"][name] for name in SETTINGS
    ]
    with zipfile.ZipFile(nl) as package:
        book_xml = package.read("xl/workbook.xml").decode()
        drawings = "".join(
            package.read(n).decode()
            for n in package.namelist()
            if n.startswith("xl/drawings/vmlDrawing")
        )
    assert all(
        f'name="{n}"' in book_xml
        for n in ("Spelers", "Ronden", "Stand", "Instellingen", "Indeling")
    )
    assert "Volgende ronde indelen" in drawings and "Herberekenen" in drawings

    present = {"en": ["x", "excused", "x", "club"], "nl": ["ja", "afgemeld", "✓", "extern"]}
    for language, path in books.items():
        players_sheet = "Players" if language == "en" else "Spelers"
        rounds_sheet = "Rounds" if language == "en" else "Ronden"
        for round_no in (1, 2, 3):
            marks = {
                (r, 5): present[language][(r + round_no) % 4] for r in range(2, len(names) + 2)
            }
            save_edits(path, [SheetEdit(players_sheet, marks)], backup=False)  # type: ignore[arg-type]
            result = run_cli("pair", path)
            assert result.exit_code == 0, result.output
            grid = sheet(path, rounds_sheet)
            results = {
                (r + 1, 5): ("1-0", "0-1", "½-½")[(r + round_no) % 3]
                for r, row in enumerate(grid)
                if row[0] == round_no and row[3]
            }
            save_edits(path, [SheetEdit(rounds_sheet, results)], backup=False)  # type: ignore[arg-type]
        assert run_cli("recalc", path).exit_code == 0
    english, dutch = sheet(books["en"], "Standings"), sheet(nl, "Stand")
    assert dutch[1 : len(names) + 1] == english[1 : len(names) + 1]
    assert dutch[0][:3] == ["Plaats", "Naam", "Score"]
    words = {row[4] for row in sheet(nl, "Ronden")[1:] if not row[3]}
    assert words <= {"vrij", "afgemeld", "extern"} and "afgemeld" in words
    nxt = tmp_path / "volgend.xlsm"
    result = run_cli("new", nxt, "--from", nl)
    assert result.exit_code == 0, result.output
    assert sheet(nxt, "Spelers")[0][0] == "Naam"


@pytest.mark.libreoffice
@needs_soffice
def test_libreoffice_shows_the_dutch_indeling(tmp_path: Path) -> None:
    path = tmp_path / "gespeeld.xlsx"
    build_template(
        path, [{"Name": n} for n in ("Anna", "Bram", "Carla", "Dirk", "Eva")], language="nl"
    )
    workbook = openpyxl.load_workbook(path)
    for row in [
        (1, 1, "Anna", "Bram", "1-0"),
        (1, 2, "Carla", "Dirk", "½-½"),
        (1, None, "Eva", None, "vrij"),
        (2, 1, "Dirk", "Anna", None),
        (2, 2, "Bram", "Carla", "0-1"),
        (2, None, "Eva", None, "vrij"),
    ]:
        workbook["Ronden"].append(row)
    workbook.save(path)
    outdir = soffice(
        tmp_path,
        "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,5",
        path,
    )
    (found,) = outdir.glob("*.csv")
    lines = [row[:4] for row in csv.reader(io.StringIO(found.read_text(encoding="utf-8")))]
    assert lines[0][:2] == ["Ronde", "2"]
    assert lines[1][:2] == ["Vrij", "Eva"]
    assert lines[3] == ["Bord", "Wit", "Zwart", "Uitslag"]
    assert lines[4] == ["1", "Dirk", "Anna", ""]
    assert lines[5] == ["2", "Bram", "Carla", "0-1"]
