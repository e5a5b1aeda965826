"""Nothing silent: where keizer_xl once said "done" or "no problems" and the secretary went
on to publish something wrong, it now says what it sees, with the cell, in the workbook's
language; through the workbook and `keizer-xl`, in English and in Dutch."""

from __future__ import annotations

import re
import shlex
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest
from python_calamine import CalamineWorkbook

from keizer_xl.core.scoring import automatic_top_value
from keizer_xl.i18n.names import local_name, local_setting
from keizer_xl.workbook.template import BUTTONS, build_template
from keizer_xl.workbook.xlsx import CellValue, SheetEdit, save_edits
from tests.cli.week import libreoffice_resave, openpyxl_book
from tests.conftest import run_cli

LANGUAGES = ["en", "nl"]
NAMES = ["Anna", "Bram", "Cor", "Dirk", "Eva", "Frits"]
ROUND_1 = [
    [1, 1, "Anna", "Bram", "1-0"],
    [1, 2, "Cor", "Dirk", "½-½"],
    [1, 3, "Eva", "Frits", "0-1"],
]


def players(present: str = "x", **changes: Mapping[str, object]) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = [
        {"Name": n, "Rating": 2000 - 50 * i, "Present": present} for i, n in enumerate(NAMES)
    ]
    for row in rows:
        row.update(changes.get(str(row["Name"]), {}))
    return rows


def season_book(
    path: Path,
    language: str,
    rows: Sequence[Sequence[object]] = (),
    people: Sequence[Mapping[str, object]] | None = None,
) -> Path:
    """A workbook from the template, in `language`, with these players and Rounds rows."""
    build_template(path, players() if people is None else people, language=language)
    cells: dict[tuple[int, int], CellValue] = {}
    for r, row in enumerate(rows, start=2):
        for c, value in enumerate(row, start=1):
            if value not in (None, ""):
                cells[(r, c)] = value  # type: ignore[assignment]
    if cells:
        save_edits(path, [SheetEdit(local_name("Rounds", language), cells)], backup=False)
    return path


def said(language: str, english: str, dutch: str) -> str:
    return dutch if language == "nl" else english


def warnings(output: str, language: str) -> list[str]:
    word = said(language, "Warning: ", "Waarschuwing: ")
    return [line.removeprefix(word) for line in output.splitlines() if line.startswith(word)]


def sheet(path: Path, name: str) -> list[list[object]]:
    rows: list[list[object]] = (
        CalamineWorkbook.from_path(str(path))
        .get_sheet_by_name(name)
        .to_python(skip_empty_area=False)
    )
    return rows


# -- 1. a missing result is named at once ----------------------------------------------------


def round_2(*results: str | None) -> list[list[object]]:
    pairs = [("Bram", "Cor"), ("Dirk", "Anna"), ("Frits", "Eva")]
    return [
        [2, board, white, black, result]
        for board, ((white, black), result) in enumerate(zip(pairs, results, strict=True), start=1)
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_missing_result_is_named_by_recalc_check_and_publish(
    tmp_path: Path, language: str
) -> None:
    path = season_book(tmp_path / "club.xlsx", language, [*ROUND_1, *round_2("1-0", "0-1", None)])
    game = said(
        language,
        "Rounds!E7: round 2, board 3 (Frits – Eva) has no result yet",
        "Ronden!E7: ronde 2, bord 3 (Frits – Eva) heeft nog geen uitslag",
    )
    done = run_cli("recalc", path)
    assert done.exit_code == 0, done.output
    assert warnings(done.output, language) == [game]
    under = [str(cell) for row in sheet(path, local_name("Standings", language)) for cell in row]
    assert not any(game in cell for cell in under)  # told, never printed on the notice board
    done = run_cli("check", path)
    assert done.exit_code == 0, done.output
    assert warnings(done.output, language) == [game]
    done = run_cli("publish", path, "--out", tmp_path / "site")
    assert done.exit_code == 0, done.output
    assert (
        said(
            language,
            "Standings after round 1: round 2 is not complete yet, so it is left "
            "out until every result is in.",
            "Stand na ronde 1: ronde 2 is nog niet "
            "compleet en telt pas mee als elke uitslag is ingevuld.",
        )
        in done.output
    )
    assert warnings(done.output, language) == [game]
    # the chat text stays clean: what to know goes beside it
    done = run_cli("publish", path, "--text")
    assert done.exit_code == 0
    assert game not in done.stdout and game in done.stderr


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_result_typed_beside_the_table_is_named(tmp_path: Path, language: str) -> None:
    rows = [*ROUND_1, *round_2(None, None, None)]
    rows[4] = [*rows[4], "0-1"]  # typed one column too far right, in F6 (no header)
    path = season_book(tmp_path / "club.xlsx", language, rows)
    done = run_cli("check", path)
    assert done.exit_code == 0, done.output
    assert warnings(done.output, language) == [
        said(
            language,
            "Rounds!E6: round 2, board 2 (Dirk – Anna) has no result yet; F6 beside the "
            "table holds '0-1': if that is its result, move it to E6",
            "Ronden!E6: ronde 2, bord 2 (Dirk – Anna) heeft nog geen uitslag; F6 naast de tabel "
            "bevat '0-1': is dat de uitslag, zet die dan in E6",
        )
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_round_just_paired_is_no_warning_but_publish_says_what_it_shows(
    tmp_path: Path, language: str
) -> None:
    path = season_book(tmp_path / "club.xlsx", language, [*ROUND_1, *round_2(None, None, None)])
    done = run_cli("recalc", path)
    assert done.exit_code == 0 and warnings(done.output, language) == []
    done = run_cli("publish", path, "--out", tmp_path / "site")
    assert done.exit_code == 0 and warnings(done.output, language) == []
    assert (
        said(
            language,
            "Standings after round 1; round 2 is paired, its results are not typed yet.",
            "Stand na ronde 1; ronde 2 is ingedeeld, de uitslagen zijn nog niet ingevuld.",
        )
        in done.output
    )


@pytest.mark.libreoffice
@pytest.mark.usefixtures("soffice_installed")
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_missing_result_in_a_libreoffice_workbook(tmp_path: Path, language: str) -> None:
    rows = [*ROUND_1, *round_2("1-0", None, None)]
    rows[5] = [*rows[5], "½-½"]  # F7
    path = libreoffice_resave(
        season_book(tmp_path / "club.xlsx", language, rows), tmp_path / "profile"
    )
    done = run_cli("recalc", path)
    assert done.exit_code == 0, done.output
    assert warnings(done.output, language) == [
        said(
            language,
            "Rounds!E6: round 2, board 2 (Dirk – Anna) has no result yet",
            "Ronden!E6: ronde 2, bord 2 (Dirk – Anna) heeft nog geen uitslag",
        ),
        said(
            language,
            "Rounds!E7: round 2, board 3 (Frits – Eva) has no result yet; F7 beside the "
            "table holds '½-½': if that is its result, move it to E7",
            "Ronden!E7: ronde 2, bord 3 (Frits – Eva) heeft nog geen uitslag; F7 naast de tabel "
            "bevat '½-½': is dat de uitslag, zet die dan in E7",
        ),
    ]
    # while LibreOffice has it open, it is read, not written
    open_in_libreoffice(path)
    before = path.read_bytes()
    done = run_cli("check", path)
    assert done.exit_code == 0 and len(warnings(done.output, language)) == 2
    assert (
        said(language, "club.xlsx is open in LibreOffice", "club.xlsx is geopend in LibreOffice")
        in done.output
    )
    assert run_cli("recalc", path).exit_code == 1 and path.read_bytes() == before


# -- 2. next season starts clean ---------------------------------------------------------------


def top_value(path: Path, language: str) -> object:
    name = local_setting("Top value", language)
    return next(row[1] for row in sheet(path, local_name("Settings", language)) if row[0] == name)


@pytest.mark.parametrize("language", LANGUAGES)
def test_next_season_leaves_the_automatic_top_value_blank_after_a_late_entrant(
    tmp_path: Path, language: str
) -> None:
    last = tmp_path / "2025.xlsx"
    members = tmp_path / "leden.csv"
    members.write_text(
        "Name,Rating\n" + "".join(f"{n},{2000 - 50 * i}\n" for i, n in enumerate(NAMES)),
        encoding="utf-8",
    )
    assert run_cli("new", last, "--players", members, "--lang", language).exit_code == 0
    players_sheet, rounds_sheet = local_name("Players", language), local_name("Rounds", language)
    save_edits(last, [SheetEdit(players_sheet, {(r, 5): "x" for r in range(2, 8)})], backup=False)
    assert run_cli("pair", last).exit_code == 0  # round 1 fixes the Top value for 6 players
    fixed = automatic_top_value(6)
    assert top_value(last, language) == int(fixed)
    # a late entrant, and round 1's results
    save_edits(
        last,
        [
            SheetEdit(players_sheet, {(8, 1): "Gijs", (8, 2): 1500, (8, 3): 2, (8, 5): "x"}),
            SheetEdit(rounds_sheet, {(r, 5): "1-0" for r in range(2, 5)}),
        ],
        backup=False,
    )
    assert run_cli("pair", last).exit_code == 0
    assert automatic_top_value(7) != fixed  # the final count would not recognise it
    nxt = tmp_path / "2026.xlsx"
    done = run_cli("new", nxt, "--from", last)
    assert done.exit_code == 0, done.output
    assert top_value(nxt, language) == ""
    assert (
        said(
            language,
            f"Note: Top value {fixed} was last season's automatic value; it is blank again",
            f"Let op: Topwaarde {fixed} was de automatische waarde van vorig seizoen",
        )
        in done.output
    )
    # a value the club chose stays
    name = local_setting("Top value", language)
    row = next(
        n
        for n, r in enumerate(sheet(last, local_name("Settings", language)), start=1)
        if r[0] == name
    )
    save_edits(last, [SheetEdit(local_name("Settings", language), {(row, 2): 40})], backup=False)
    done = run_cli("new", tmp_path / "2026b.xlsx", "--from", last)
    assert done.exit_code == 0, done.output
    assert str(top_value(tmp_path / "2026b.xlsx", language)) == "40"


# -- 3. a round with no games left is not complete ------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("rounds", [1, 2])
def test_a_round_whose_games_were_deleted_is_refused(
    tmp_path: Path, language: str, rounds: int
) -> None:
    last = [[rounds, None, "Anna", None, "excused"], [rounds, None, "Frits", None, "club"]]
    rows = [*(ROUND_1 if rounds == 2 else []), *last]
    path = season_book(tmp_path / "club.xlsx", language, rows)
    before = path.read_bytes()
    done = run_cli("pair", path)
    assert done.exit_code == 1
    row = len(rows) - len(last) + 2  # the round's first row
    assert (
        said(
            language,
            f"Rounds!A{row}: round {rounds} has no games, only bye and absence "
            "rows: if its game rows were deleted, enter them again",
            f"Ronden!A{row}: ronde {rounds} heeft geen partijen, alleen rijen met vrij en "
            "afwezigheid: als de partijrijen zijn gewist, vul ze dan opnieuw in",
        )
        in done.output
    )
    assert said(language, "is in no round yet", "staat nog in geen enkele ronde") not in done.output
    assert said(language, "in no row", "in geen enkele rij") not in done.output
    assert path.read_bytes() == before
    for command in ("recalc", "check", "publish"):  # refused as by pair, naming the round
        done = run_cli(command, path)
        assert done.exit_code == 1, (command, done.output)
        assert (
            said(
                language,
                f"Rounds!A{row}: round {rounds} has no games",
                f"Ronden!A{row}: ronde {rounds} heeft geen partijen",
            )
            in done.output
        )
    assert path.read_bytes() == before
    assert not any(p.is_dir() for p in tmp_path.iterdir())  # no pages published


def gijs_from_round_2() -> list[list[object]]:
    """Three rounds; Gijs is in rows from round 2 on only."""
    return [
        *ROUND_1,
        [2, 1, "Anna", "Cor", "1-0"],
        [2, 2, "Bram", "Gijs", "0-1"],
        [2, 3, "Dirk", "Eva", "½-½"],
        [2, None, "Frits", None, "bye"],
        [3, 1, "Gijs", "Anna", "½-½"],
        [3, 2, "Cor", "Frits", "1-0"],
        [3, 3, "Eva", "Bram", "0-1"],
        [3, None, "Dirk", None, "excused"],
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_lost_joined_round_gets_the_advice_that_fits(tmp_path: Path, language: str) -> None:
    people = [*players(), {"Name": "Gijs", "Rating": 1500, "Present": "x"}]
    path = season_book(tmp_path / "club.xlsx", language, gijs_from_round_2(), people)
    before = path.read_bytes()
    done = run_cli("pair", path)
    assert done.exit_code == 1
    lines = [line.strip() for line in done.output.splitlines()[1:]]
    assert lines == [
        said(
            language,
            "Players!C8: Gijs is in no row before round 2, so round 1 counts as excused "
            "(Default absence); if Gijs joined in round 2, put 2 in Joined",
            "Spelers!C8: Gijs staat in geen enkele rij vóór ronde 2, dus ronde 1 telt als afgemeld "
            "(Standaard afwezigheid); als Gijs in ronde 2 is begonnen, zet dan 2 in Vanaf ronde",
        )
    ]
    assert path.read_bytes() == before
    # typed as advised, the round is paired
    save_edits(path, [SheetEdit(local_name("Players", language), {(8, 3): 2})], backup=False)
    assert run_cli("pair", path).exit_code == 0


def test_a_lost_joined_column_gets_the_advice_too(tmp_path: Path) -> None:
    """The Joined column deleted, in a workbook typed in another program."""
    people = [*players(), {"Name": "Gijs", "Rating": 1500, "Present": "x"}]
    path = openpyxl_book(
        tmp_path / "club.xlsx",
        people,
        gijs_from_round_2(),
        player_headers=("Name", "Rating", "Present"),
    )
    done = run_cli("pair", path)
    assert done.exit_code == 1
    assert (
        "Players!8:8: Gijs is in no row before round 2, so round 1 counts as excused "
        "(Default absence); if Gijs joined in round 2, put 2 in Joined"
    ) in done.output


@pytest.mark.parametrize("language", LANGUAGES)
def test_players_missing_from_a_round_are_named_in_the_workbooks_language(
    tmp_path: Path, language: str
) -> None:
    """The template chosen for one player or more is said in Dutch too."""
    rows = [*ROUND_1, [2, 1, "Bram", "Cor", "1-0"], [2, 2, "Dirk", "Anna", "0-1"]]
    path = season_book(tmp_path / "club.xlsx", language, rows)
    done = run_cli("pair", path)
    assert done.exit_code == 1
    assert (
        said(
            language,
            "round 2: Eva and Frits are in no row, so counted as excused",
            "ronde 2: Eva en Frits staan in geen enkele rij en tellen dus als afgemeld",
        )
        in done.output
    )
    path = season_book(tmp_path / "one.xlsx", language, [*rows, [2, None, "Eva", None, "bye"]])
    done = run_cli("recalc", path)
    assert (
        said(
            language,
            "round 2: Frits is in no row, so counted as excused (Default "
            "absence); if a game row was deleted, enter it again, otherwise add a row "
            "with excused, club or unexcused",
            "ronde 2: Frits staat in geen enkele rij en "
            "telt dus als afgemeld (Standaard afwezigheid); als een partijrij is gewist, "
            "vul die dan opnieuw in, anders voeg een rij toe met afgemeld, extern of "
            "onafgemeld",
        )
        in done.output
    )


# -- 4 and 5. a workbook open in LibreOffice or Excel ----------------------------------------


def open_in_libreoffice(path: Path) -> Path:
    """The lock file LibreOffice keeps beside a workbook it has open."""
    lock = path.with_name(f".~lock.{path.name}#")
    lock.write_text(
        "Marie Jansen,marie,club-pc,25.11.2026 19:30,file:///home/marie;", encoding="utf-8"
    )
    return lock


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_workbook_open_elsewhere_is_read_but_not_written(tmp_path: Path, language: str) -> None:
    path = season_book(tmp_path / "club.xlsx", language, ROUND_1)
    lock = open_in_libreoffice(path)
    before = path.read_bytes()
    note = said(
        language,
        "club.xlsx is open in LibreOffice; read as last saved there",
        "club.xlsx is geopend in LibreOffice; gelezen zoals het daar het laatst is opgeslagen",
    )
    for command in (
        ["check", path],
        ["standings", path],
        ["publish", path, "--out", tmp_path / "site"],
        ["export", path, "--trf", tmp_path / "club.trf"],
    ):
        done = run_cli(*command)
        assert done.exit_code == 0, (command, done.output)
        assert note in done.output, command
    assert (tmp_path / "site" / "index.html").exists() and (tmp_path / "club.trf").exists()
    refusal = said(
        language,
        "club.xlsx is open in LibreOffice by Marie Jansen",
        "club.xlsx is geopend in LibreOffice door Marie Jansen",
    )
    for command in (
        ["pair", path],
        ["recalc", path],
        ["unpair", path],
        ["rename", path, "Anna", "Anne"],
    ):
        done = run_cli(*command)
        assert done.exit_code == 1, command
        assert refusal in done.output, (command, done.output)
    assert path.read_bytes() == before
    # open in Excel (on a shared drive, say): the same
    lock.unlink()
    (tmp_path / "~$club.xlsx").write_bytes(b"")
    done = run_cli("check", path)
    assert done.exit_code == 0
    assert (
        said(language, "club.xlsx is open in Excel;", "club.xlsx is geopend in Excel;")
        in done.output
    )
    done = run_cli("recalc", path)
    assert done.exit_code == 1
    assert (
        said(
            language, "club.xlsx is open in Excel. Close it there", "club.xlsx is geopend in Excel"
        )
        in done.output
    )
    assert "~$club.xlsx" not in done.output  # the secretary's files only, no lock file
    assert path.read_bytes() == before


# -- 6. say what happened -----------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_pairing_a_round_already_paired_says_so_and_how_to_take_it_back(
    tmp_path: Path, language: str
) -> None:
    path = season_book(tmp_path / "Interne 2025-26.xlsx", language)
    assert run_cli("pair", path).exit_code == 0
    before = path.read_bytes()
    done = run_cli("pair", path)
    assert done.exit_code == 1
    lines = done.output.splitlines()
    assert [line.strip() for line in lines[1:]] == [
        said(
            language,
            "Rounds!E2: round 1 is already paired and none of its results is typed yet: "
            "type them, then pair round 2; to pair round 1 again, take it back first",
            "Ronden!E2: ronde 1 is al ingedeeld en er is nog geen enkele uitslag van ingevuld: vul "
            "de uitslagen in en deel dan ronde 2 in; om ronde 1 opnieuw in te delen, draai die "
            "eerst terug",
        ),
        said(
            language,
            f'To take round 1 back: keizer-xl unpair "{path}"',
            f'Ronde 1 terugdraaien: keizer-xl unpair "{path}"',
        ),
    ]
    assert path.read_bytes() == before
    # the command as suggested does it
    command = shlex.split(lines[-1].split(": ", 1)[1])
    assert command[:2] == ["keizer-xl", "unpair"] and command[2] == str(path)
    assert run_cli(*command[1:]).exit_code == 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_suggested_commands_quote_a_name_with_spaces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    monkeypatch.chdir(tmp_path)
    members = Path("leden.csv")
    members.write_text("Naam,Rating\nAnna,2000\nBram,1900\n", encoding="utf-8")
    done = run_cli("new", "Interne 2025-26.xlsx", "--players", members, "--lang", language)
    assert done.exit_code == 0
    suggested = re.findall(r"keizer-xl .*$", done.output.strip())
    assert suggested == ['keizer-xl pair "Interne 2025-26.xlsx"']
    assert shlex.split(suggested[0])[2] == "Interne 2025-26.xlsx"
    done = run_cli("rename", "Interne 2025-26.xlsx", "Anna", "Anne")
    assert done.exit_code == 0
    assert 'keizer-xl recalc "Interne 2025-26.xlsx"' in done.output
    # a name a shell takes as it is stays as it is
    done = run_cli("new", "club.xlsx", "--players", members, "--lang", language)
    assert done.output.rstrip().endswith("keizer-xl pair club.xlsx")


def test_new_help_names_the_buttons_the_workbook_has(tmp_path: Path) -> None:
    path = tmp_path / "club.xlsm"
    assert run_cli("new", path).exit_code == 0
    with zipfile.ZipFile(path) as package:
        drawings = "".join(
            package.read(n).decode()
            for n in package.namelist()
            if n.startswith("xl/drawings/") and n.endswith(".vml")
        )
    captions = [caption for caption, _ in BUTTONS]
    assert all(caption in drawings for caption in captions)  # what the workbook really has
    assert len(re.findall(r"<x:ClientData ObjectType=\"Button\"", drawings)) == len(captions)
    helped = " ".join(run_cli("new", "--help").output.split())
    assert all(caption in helped for caption in captions), helped
    assert "two buttons" not in helped


# -- 10. warnings that are right --------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_player_away_with_word_and_here_tonight_is_not_taken_for_gone(
    tmp_path: Path, language: str
) -> None:
    """Dirk was excused for three rounds and is here tonight; Frits was away on club duty;
    Eva stayed away without a word and is not here: only Eva may have stopped."""
    rows: list[list[object]] = list(ROUND_1)
    for r in (2, 3, 4):
        rows += [
            [r, 1, "Anna", "Bram", "1-0"],
            [r, 2, "Cor", "Gijs", "0-1"],
            [r, None, "Dirk", None, "excused"],
            [r, None, "Eva", None, "unexcused"],
            [r, None, "Frits", None, "club"],
        ]
    people = [
        *players(Eva={"Present": ""}, Frits={"Present": "club"}),
        {"Name": "Gijs", "Rating": 1500, "Joined": 2, "Present": "x"},
    ]
    path = season_book(tmp_path / "club.xlsx", language, rows, people)
    done = run_cli("recalc", path)
    assert done.exit_code == 0, done.output
    assert warnings(done.output, language) == [
        said(
            language,
            "Players!D6: Eva has not played a game in rounds 2–4; if Eva has stopped, "
            "put 4 in Left",
            "Spelers!D6: Eva heeft in de ronden 2–4 geen partij gespeeld; als "
            "Eva gestopt is, zet dan 4 in Tot ronde",
        )
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_trf_file_of_a_dutch_workbook_opens_as_one(tmp_path: Path, language: str) -> None:
    path = season_book(tmp_path / "club.xlsx", language, ROUND_1)
    trf = tmp_path / "club.trf"
    assert run_cli("export", path, "--trf", trf).exit_code == 0
    text = trf.read_text(encoding="utf-8")
    assert ("KZL nl\n" in text) == (language == "nl")
    again = tmp_path / "again.xlsx"
    done = run_cli("new", again, "--from", trf)
    assert done.exit_code == 0, done.output
    assert CalamineWorkbook.from_path(str(again)).sheet_names[:4] == [
        local_name(name, language) for name in ("Players", "Rounds", "Standings", "Settings")
    ]
    assert done.output.splitlines()[-1].startswith(
        said(language, f"Made {again} from", f"{again} gemaakt uit")
    )
    # --lang says otherwise
    english = tmp_path / "english.xlsx"
    assert run_cli("new", english, "--from", trf, "--lang", "en").exit_code == 0
    assert CalamineWorkbook.from_path(str(english)).sheet_names[0] == "Players"
    # exported again, the file is the same
    assert run_cli("export", again, "--trf", tmp_path / "again.trf").exit_code == 0
    assert (tmp_path / "again.trf").read_text(encoding="utf-8") == text
