"""German and Italian clubs run their season through the command as a Dutch or English club
does: `--lang de|it new --players`, `pair`, the results typed in their own words, `recalc`;
the workbook has their sheets, headers, settings and words, every message speaks their
language, and the numbers are the English workbook's."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from python_calamine import CalamineWorkbook

from keizer_xl.core.model import Absence
from keizer_xl.core.settings import SETTINGS
from keizer_xl.core.words import PRESENT, parse_presence, parse_result
from keizer_xl.i18n import ENVIRONMENT, LANGUAGES
from keizer_xl.i18n.names import (
    REST_WORDS,
    SETTING_TRANSLATIONS,
    SETTINGS_TO_CONTRACT,
    TRANSLATIONS,
    contract_headers,
    name_key,
    present_mark,
)
from keizer_xl.workbook.template import build_template
from keizer_xl.workbook.xlsx import SheetEdit, save_edits
from tests.conftest import run_cli

FIRST = ["Anna", "Bernd", "Clara", "Dieter", "Eva", "Fritz", "Greta", "Hans", "Ida"]
LAST = ["Berg", "Carl", "Dorn", "Eck", "Fuchs", "Gold", "Horn", "Igel", "Jung"]
NAMES = [f"{first} {last}" for first, last in zip(FIRST, LAST, strict=True)]


# What each club types and reads: its member list, its words for present, excused and club
# duty, its results, and what the command says back.
CLUBS = {
    "de": {
        "members": "Vorname,Nachname,DWZ,Telefon\n"
        + "".join(
            f"{f},{la},{2000 - 37 * i},0171-{i:07d}\n"
            for i, (f, la) in enumerate(zip(FIRST, LAST, strict=True))
        ),
        "present": ["ja", "entschuldigt", "x", "Mannschaftskampf"],
        "results": ("1:0", "0:1", "remis"),
        "forfeit": "1-0 kampflos",
        "made": "de/club.xlsm mit 9 Spielern aus mitglieder.csv und Ihrer eigenen Spalte "
        "Telefon erstellt. Kreuzen Sie auf dem Blatt Spieler an, wer anwesend ist, "
        "dann: keizer-xl pair de/club.xlsm",
        "paired": "Runde {round} in de/club.xlsm geschrieben.",
        "recalculated": "de/club.xlsm: Tabelle aktualisiert (nach Runde 3, 9 Spieler).",
        "note": "Tabelle nach Runde 3. Regeln: Voreinstellung keizer; geändert: Höchstwert 12. "
        "Eigen = Eigenwert mitgezählt.",
        "buttons": ("Nächste Runde auslosen", "Neu berechnen"),
        "own": "Telefon",
        "list": "mitglieder.csv",
    },
    "it": {
        "members": "Cognome;Nome;Elo;Telefono\n"
        + "".join(
            f"{la};{f};{2000 - 37 * i};333-{i:07d}\n"
            for i, (f, la) in enumerate(zip(FIRST, LAST, strict=True))
        ),
        "present": ["sì", "giustificato", "x", "squadra"],
        "results": ("1-0", "0-1", "patta"),
        "forfeit": "1-0 forfait",
        "made": "Creato it/club.xlsm con 9 giocatori da soci.csv e la tua colonna Telefono. "
        "Segna chi è presente nel foglio Giocatori, poi: keizer-xl pair it/club.xlsm",
        "paired": "Turno {round} scritto in it/club.xlsm.",
        "recalculated": "it/club.xlsm: Classifica aggiornata (dopo il turno 3, 9 giocatori).",
        "note": "Classifica dopo il turno 3. Regole: Preimpostazione keizer; modificate: Valore "
        "massimo 12. Proprio = valore proprio conteggiato.",
        "buttons": ("Abbina il prossimo turno", "Ricalcola"),
        "own": "Telefono",
        "list": "soci.csv",
    },
}
ENGLISH = {
    "present": ["x", "excused", "x", "club"],
    "results": ("1-0", "0-1", "½-½"),
    "forfeit": "+-",
}


def sheet(path: Path, name: str) -> list[list[object]]:
    return (
        CalamineWorkbook.from_path(str(path))
        .get_sheet_by_name(  # type: ignore[no-any-return]
            name
        )
        .to_python()
    )


@pytest.mark.parametrize("language", ["de", "it"])
def test_every_name_has_a_translation(language: str) -> None:
    """The same names as the Dutch workbook's, each read back as the contract's, and the
    words the workbook writes are words keizer_xl reads."""
    assert language in LANGUAGES
    assert set(TRANSLATIONS[language]) == set(TRANSLATIONS["nl"])
    assert set(SETTING_TRANSLATIONS[language]) == set(SETTINGS)
    assert len(set(SETTING_TRANSLATIONS[language].values())) == len(SETTINGS)
    for name, local in SETTING_TRANSLATIONS[language].items():
        assert SETTINGS_TO_CONTRACT[name_key(local)] == name
    headers = (
        "Name",
        "Rating",
        "Joined",
        "Left",
        "Present",
        "Group",
        "Round",
        "Board",
        "White",
        "Black",
        "Result",
        "Setting",
        "Value",
        "Default",
    )
    assert contract_headers([TRANSLATIONS[language][h] for h in headers]) == list(headers)
    for reason, word in REST_WORDS[language].items():
        assert parse_result(word) is reason
        if reason is not Absence.BYE:
            assert parse_presence(word) is reason
    assert parse_presence(present_mark(language)) == PRESENT


@pytest.mark.parametrize("language", ["de", "it"])
def test_a_season_through_the_command(
    language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the messages name the files as typed
    club = CLUBS[language]
    local = TRANSLATIONS[language]
    members = Path(str(club["list"]))
    members.write_text(str(club["members"]), "utf-8")
    english_list = Path("members.csv")
    english_list.write_text(
        "Name,Rating\n" + "".join(f"{n},{2000 - 37 * i}\n" for i, n in enumerate(NAMES)), "utf-8"
    )
    ours, english = Path(language, "club.xlsm"), Path("en", "club.xlsm")
    ours.parent.mkdir()
    english.parent.mkdir()

    made = run_cli("--lang", language, "new", ours, "--players", members)
    assert made.exit_code == 0, made.output
    assert str(club["made"]) in made.output
    assert run_cli("new", english, "--players", english_list).exit_code == 0

    players, rounds = local["Players"], local["Rounds"]
    grid = sheet(ours, players)
    assert grid[0][:6] == [local[h] for h in ("Name", "Rating", "Joined", "Left", "Present")] + [
        club["own"]
    ]
    assert [row[0] for row in grid[1:]] == NAMES  # Vorname Nachname, Nome Cognome
    assert sheet(ours, rounds)[0] == [
        local[h] for h in ("Round", "Board", "White", "Black", "Result")
    ]
    settings = sheet(ours, local["Settings"])
    assert [row[0] for row in settings[1:]] == [
        SETTING_TRANSLATIONS[language][name] for name in SETTINGS
    ]
    with zipfile.ZipFile(ours) as package:
        book_xml = package.read("xl/workbook.xml").decode()
        drawings = "".join(
            package.read(n).decode()
            for n in package.namelist()
            if n.startswith("xl/drawings/vmlDrawing")
        )
    for name in (
        "Players",
        "Rounds",
        "Standings",
        "Settings",
        "Pairings",
        "Crosstable",
        "Progress",
    ):
        assert f'name="{local[name]}"' in book_xml
    assert all(caption in drawings for caption in club["buttons"])

    for round_no in (1, 2, 3):
        for path, words, players_sheet, rounds_sheet in (
            (ours, club, players, rounds),
            (english, ENGLISH, "Players", "Rounds"),
        ):
            present = words["present"]
            marks = {(r, 5): present[(r + round_no) % 4] for r in range(2, len(NAMES) + 2)}
            save_edits(path, [SheetEdit(players_sheet, marks)], backup=False)  # type: ignore[arg-type]
            paired = run_cli("pair", path)
            assert paired.exit_code == 0, paired.output
            if path == ours:
                assert str(club["paired"]).format(round=round_no) in paired.output
            typed = words["results"]
            grid = sheet(path, rounds_sheet)
            results = {
                (r + 1, 5): typed[(r + round_no) % 3]
                for r, row in enumerate(grid)
                if row[0] == round_no and row[3]
            }
            if round_no == 3:  # Black did not come to the first board
                results[min(results)] = words["forfeit"]
            save_edits(path, [SheetEdit(rounds_sheet, results)], backup=False)  # type: ignore[arg-type]
    recalculated = run_cli("recalc", ours)
    assert recalculated.exit_code == 0, recalculated.output
    assert str(club["recalculated"]) in recalculated.output
    assert run_cli("recalc", english).exit_code == 0

    table, standings = sheet(ours, local["Standings"]), sheet(english, "Standings")
    assert table[0] == [local.get(h, h) for h in standings[0]]
    assert table[1 : len(NAMES) + 1] == standings[1 : len(NAMES) + 1]  # every number
    assert [club["note"]] in [row[:1] for row in table]
    rests = {row[4] for row in sheet(ours, rounds)[1:] if not row[3]}
    words = REST_WORDS[language]
    assert {words[Absence.EXCUSED], words[Absence.CLUB]} <= rests <= set(words.values())
    assert club["forfeit"] in {row[4] for row in sheet(ours, rounds)[1:]}

    nxt = Path("next.xlsm")
    following = run_cli("new", nxt, "--from", ours)  # next season keeps the language
    assert following.exit_code == 0, following.output
    assert sheet(nxt, players)[0][0] == local["Name"]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "de",
            [
                "Runden!E2: 'l-0' ist kein Ergebnis; verwenden Sie 1-0, 0-1, ½-½, +-, -+ oder -- "
                "(oder spielfrei, entschuldigt, Mannschaftskampf oder unentschuldigt)",
                "Runden!D3: 'Spelr 4' steht nicht auf dem Blatt Spieler; meinten Sie 'Speler 4'?",
                "Einstellungen!A3: 'Schrit' ist keine Einstellung",
            ],
        ),
        (
            "it",
            [
                "Turni!E2: 'l-0' non è un risultato; usa 1-0, 0-1, ½-½, +-, -+ o -- (oppure "
                "riposo, giustificato, squadra o ingiustificato)",
                "Turni!D3: 'Spelr 4' non è nel foglio Giocatori; intendevi 'Speler 4'?",
                "Impostazioni!A3: 'Passso' non è un'impostazione",
            ],
        ),
    ],
)
def test_a_problem_names_the_cell_in_the_workbooks_language(
    language: str, said: list[str], tmp_path: Path
) -> None:
    local = TRANSLATIONS[language]
    path = tmp_path / "club.xlsx"
    build_template(
        path,
        [{"Name": f"Speler {i}", "Present": present_mark(language)} for i in range(1, 7)],
        language=language,
    )
    step = "Schrit" if language == "de" else "Passso"
    save_edits(
        path,
        [
            SheetEdit(
                local["Rounds"],
                {
                    (2, 1): 1,
                    (2, 2): 1,
                    (2, 3): "Speler 1",
                    (2, 4): "Speler 2",
                    (2, 5): "l-0",
                    (3, 1): 1,
                    (3, 2): 2,
                    (3, 3): "Speler 3",
                    (3, 4): "Spelr 4",
                    (3, 5): "1-0",
                },
            ),
            SheetEdit(local["Settings"], {(3, 1): step}),
        ],
        backup=False,
    )
    result = run_cli("check", path)
    assert result.exit_code == 1
    for line in said:
        assert line in result.output
    english = run_cli("--lang", "en", "check", path)
    assert f"{local['Rounds']}!E2: 'l-0' is not a result" in english.output


def test_the_environment_asks_for_italian(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT, "it")
    made = run_cli("new", tmp_path / "club.xlsx")
    assert made.exit_code == 0, made.output
    assert made.output.startswith("Creato ")
    assert CalamineWorkbook.from_path(str(tmp_path / "club.xlsx")).sheet_names[:4] == [
        "Giocatori",
        "Turni",
        "Classifica",
        "Impostazioni",
    ]
    german = run_cli("--lang", "de", "check", tmp_path / "club.xlsx")  # --lang comes first
    assert "noch keine Spieler" in german.output
