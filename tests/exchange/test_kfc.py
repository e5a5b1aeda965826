"""A KeizerForClubs season brought in with `keizer-xl new FILE --from TOURNAMENT.s3db`, as a
secretary would: KeizerForClubs' own test tournament must come out with KeizerForClubs' own
totals, a tournament made here must come in row by row, and a file that is no tournament
must be refused without anything written."""

from __future__ import annotations

import random
import shutil
import sqlite3
import struct
from collections.abc import Sequence
from contextlib import closing
from fractions import Fraction
from pathlib import Path

import pytest
from python_calamine import CalamineWorkbook

from keizer_xl.i18n import LANGUAGES
from keizer_xl.i18n.names import local_name
from keizer_xl.workbook.files import load, read_grids
from keizer_xl.workbook.layout import language_of
from tests.conftest import run_cli

EXAMPLE = Path(__file__).parents[1] / "fixtures" / "kfc" / "Test-Tournament.s3db"


def query(path: Path, sql: str) -> list[tuple[object, ...]]:
    """Rows of the tournament file, read the way the test expects them (not by the code
    under test)."""
    with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
        return db.execute(sql).fetchall()


def sheet(book: Path, name: str) -> list[dict[str, object]]:
    """A sheet's rows below its header up to the first blank row, by the English header
    ("" for a blank cell)."""
    workbook = CalamineWorkbook.from_path(str(book))
    language = language_of(dict.fromkeys(workbook.sheet_names))
    grid = workbook.get_sheet_by_name(local_name(name, language)).to_python()
    english = {
        local_name(h, language): h
        for h in (
            "Name",
            "Rating",
            "Joined",
            "Left",
            "Round",
            "Board",
            "White",
            "Black",
            "Result",
            "Rank",
            "Score",
            "Setting",
            "Value",
        )
    }
    header = [english.get(str(h), str(h)) for h in grid[0]]
    rows = []
    for row in grid[1:]:
        if all(v in ("", None) for v in row):
            break
        rows.append({h: ("" if v is None else v) for h, v in zip(header, row, strict=False)})
    return rows


def example(folder: Path) -> Path:
    copy = folder / "Test-Tournament.s3db"
    shutil.copyfile(EXAMPLE, copy)
    return copy


# -- KeizerForClubs' own test tournament -------------------------------------------------


def test_the_test_tournament_gives_keizerforclubs_totals(tmp_path: Path) -> None:
    source = example(tmp_path)
    before = source.read_bytes()
    book = tmp_path / "club.xlsx"
    made = run_cli("new", book, "--from", source)
    assert made.exit_code == 0, made.output
    assert f"Made {book} from {source}: 9 players, 5 rounds" in made.output
    assert "agree with KeizerForClubs' own totals to the cent (8 players)" in made.output
    # the tournament file is only read; nothing is left beside it
    assert source.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Test-Tournament.s3db", "club.xlsx"]
    recalc = run_cli("recalc", book)
    assert recalc.exit_code == 0, recalc.output

    # every total, and the order, as KeizerForClubs has them; the retired player is dropped
    players = query(source, "SELECT id, name, rank, state, Keizer_SumPts FROM Player")
    ranked = sorted((p for p in players if p[3] != 9), key=lambda p: p[2])
    retired = [p for p in players if p[3] == 9]
    assert len(ranked) == 8 and len(retired) == 1
    standings = sheet(book, "Standings")
    assert [row["Name"] for row in standings] == [p[1] for p in ranked]
    for row, p in zip(standings, ranked, strict=True):
        assert round(row["Score"], 2) == round(p[4], 2), (row, p)
    assert retired[0][1] not in {row["Name"] for row in standings}

    # the retired player left after his last round, which is before the last one
    rid, name = retired[0][:2]
    his = query(source, f"SELECT max(Rnd) FROM Pairing WHERE PID_W = {rid} OR PID_B = {rid}")
    last = query(source, "SELECT max(Rnd) FROM Pairing")[0][0]
    left = {row["Name"]: row["Left"] for row in sheet(book, "Players")}
    assert left.pop(name) == his[0][0] and his[0][0] < last
    assert set(left.values()) == {""}

    # the settings are the file's percentages, ratio and rematch window
    config = dict(query(source, "SELECT CfgKey, CfgValue FROM ConfigTab"))
    settings = load(book)[0].settings
    assert settings.preset == "kfc" and settings.top_value_auto
    share = {
        key: Fraction(str(config[key])) / 100
        for key in (
            "BONUS.Freilos",
            "BONUS.Excused",
            "BONUS.Clubgame",
            "BONUS.Unexcused",
            "BONUS.Retired",
            "BONUS.Verlust",
        )
    }
    assert (
        settings.bye,
        settings.excused,
        settings.club,
        settings.unexcused,
        settings.withdrawn_opponent,
        settings.loss,
    ) == (
        share["BONUS.Freilos"],
        (share["BONUS.Excused"],),
        (share["BONUS.Clubgame"],),
        share["BONUS.Unexcused"],
        share["BONUS.Retired"],
        share["BONUS.Verlust"],
    )
    assert settings.ratio == Fraction(str(config["OPTION.RatioFirst2Last"]))
    assert settings.rematch_window == config["OPTION.GameRepeat"]
    assert settings.withdrawn == "drop"
    assert source.read_bytes() == before


# -- a tournament made here, with every result code --------------------------------------

PLAYER = (
    "CREATE TABLE Player (id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, name "
    "VARCHAR(30) NOT NULL, rating INTEGER(4) NOT NULL, rank INTEGER(3) NOT NULL, state "
    "INTEGER(2), Keizer_StartPts FLOAT, Keizer_SumPts FLOAT, RatingWDelta INTEGER NOT "
    "NULL DEFAULT 0, Keizer_PrevPts FLOAT)"
)
PAIRING = (
    "CREATE TABLE Pairing (Rnd INTEGER NOT NULL, board INTEGER NOT NULL, PID_W INTEGER "
    "NOT NULL, PID_B INTEGER NOT NULL, Result INTEGER(2), Pts_W FLOAT, Pts_B FLOAT)"
)
CONFIG = (
    "CREATE TABLE ConfigTab (CfgKey VARCHAR(20) NOT NULL PRIMARY KEY, CfgText "
    "VARCHAR(5), CfgValue FLOAT)"
)


def single(number: float) -> float:
    """A number as KeizerForClubs stores it: in single precision."""
    return float(struct.unpack("f", struct.pack("f", number))[0])


def tournament(
    path: Path,
    players: Sequence[tuple[int, str, int, int]],
    pairings: Sequence[tuple[int, int, int, int, int | None]],
    config: Sequence[tuple[str, str | None, float | None]],
) -> Path:
    """A tournament file with the documented tables: players (id, name, rating, state),
    pairings (round, board, white, black or -1, result), settings (key, text, number)."""
    with closing(sqlite3.connect(path)) as db:
        db.execute(PLAYER)
        db.execute(PAIRING)
        db.execute(CONFIG)
        db.executemany(
            "INSERT INTO Player (id, name, rating, rank, state) VALUES (?, ?, ?, 99, ?)", players
        )
        db.executemany("INSERT INTO Pairing VALUES (?, ?, ?, ?, ?, 0, 0)", pairings)
        db.executemany("INSERT INTO ConfigTab VALUES (?, ?, ?)", config)
        db.commit()
    return path


SMALL_PLAYERS = [
    (1, "Anna", 2000, 1),
    (2, "Bram", 1900, 1),
    (3, "Cees", 1800, 6),
    (4, "Dirk", 1700, 1),
    (5, "Eva", 1600, 1),
    (6, "Fleur", 1500, 1),
    (7, "Gijs", 1400, 1),
    (8, "Hans", 1300, 9),
    (9, "Ilse", 0, 10),
    (10, "Joop", 1200, 11),
]
SMALL_PAIRINGS: list[tuple[int, int, int, int, int | None]] = [
    (1, 1, 1, 2, 1),
    (1, 2, 3, 4, 2),
    (1, 3, 5, 6, 3),
    (1, 100, 8, -1, 4),
    (1, 101, 7, -1, 12),
    (2, 1, 1, 3, 8),
    (2, 2, 2, 4, 9),
    (2, 3, 5, 8, 10),
    (2, 100, 6, -1, 5),
    (2, 101, 7, -1, 12),
    (3, 1, 1, 4, 1),
    (3, 2, 2, 7, 2),
    (3, 3, 6, 5, 1),
    (3, 100, 3, -1, 6),
    (4, 1, 1, 2, 0),
    (4, 2, 4, 7, None),
    (4, 3, 5, 6, 11),
    (4, 100, 3, -1, 7),
]
SMALL_CONFIG: list[tuple[str, str | None, float | None]] = [
    ("LANGCODE", "EN", None),
    ("BONUS.Freilos", None, 50.0),
    ("BONUS.Excused", None, 40.0),
    ("BONUS.Clubgame", None, 70.0),
    ("BONUS.Unexcused", None, 35.0),
    ("BONUS.Retired", None, 75.0),
    ("BONUS.Verlust", None, 5.0),
    ("OPTION.RatioFirst2Last", None, single(2.2)),
    ("OPTION.GameRepeat", None, 3.0),
    ("OPTION.Html", None, 1.0),
    ("WIN.locX", None, 230.0),
]


def test_every_result_code_comes_in_as_its_row(tmp_path: Path) -> None:
    source = tournament(tmp_path / "Spring.s3db", SMALL_PLAYERS, SMALL_PAIRINGS, SMALL_CONFIG)
    book = tmp_path / "spring.xlsx"
    made = run_cli("new", book, "--from", source)
    assert made.exit_code == 0, made.output
    assert "Ilse" in made.output and "3 games of round 4 without a result" in made.output
    assert "KeizerForClubs' own totals" not in made.output  # round 4 is still being played

    assert [(r["Name"], r["Rating"], r["Joined"], r["Left"]) for r in sheet(book, "Players")] == [
        ("Anna", 2000, "", ""),
        ("Bram", 1900, "", ""),
        ("Cees", 1800, "", ""),
        ("Dirk", 1700, "", ""),
        ("Eva", 1600, "", ""),
        ("Fleur", 1500, "", ""),
        ("Gijs", 1400, 3, ""),
        ("Hans", 1300, "", 2),
        ("Joop", 1200, 5, ""),
    ]
    rounds = [
        (r["Round"], r["Board"], r["White"], r["Black"], r["Result"]) for r in sheet(book, "Rounds")
    ]
    assert rounds == [
        (1, 1, "Anna", "Bram", "1-0"),
        (1, 2, "Cees", "Dirk", "½-½"),
        (1, 3, "Eva", "Fleur", "0-1"),
        (1, "", "Hans", "", "bye"),
        (2, 1, "Anna", "Cees", "+-"),
        (2, 2, "Bram", "Dirk", "-+"),
        (2, 3, "Eva", "Hans", "--"),
        (2, "", "Fleur", "", "club"),
        (3, 1, "Anna", "Dirk", "1-0"),
        (3, 2, "Bram", "Gijs", "½-½"),
        (3, 3, "Fleur", "Eva", "1-0"),
        (3, "", "Cees", "", "excused"),
        (4, 1, "Anna", "Bram", ""),
        (4, 2, "Dirk", "Gijs", ""),
        (4, 3, "Eva", "Fleur", ""),
        (4, "", "Cees", "", "unexcused"),
    ]
    filled = {r["Setting"]: r["Value"] for r in sheet(book, "Settings") if r["Value"] != ""}
    assert filled == {
        "Preset": "kfc",
        "Excused absence": "40%",
        "Loss": "5%",
        "Ratio first to last": "2.2",
        "Competition name": "Spring",
    }

    recalc = run_cli("recalc", book)
    assert recalc.exit_code == 0, recalc.output
    assert "after round 3" in recalc.output
    ranked = {row["Name"] for row in sheet(book, "Standings")}
    assert "Hans" not in ranked and {"Anna", "Gijs"} <= ranked  # Hans retired: dropped


@pytest.mark.parametrize("code", ["NL", "DE"])
def test_the_workbook_speaks_the_files_language(tmp_path: Path, code: str) -> None:
    config = [
        (key, code if key == "LANGCODE" else text, value) for key, text, value in SMALL_CONFIG
    ]
    source = tournament(tmp_path / "t.s3db", SMALL_PLAYERS, SMALL_PAIRINGS, config)
    made = run_cli("new", tmp_path / "own.xlsx", "--from", source)
    assert made.exit_code == 0, made.output
    own = language_of(read_grids(tmp_path / "own.xlsx"))
    if code.lower() in LANGUAGES:  # German as soon as keizer_xl has German workbooks
        assert own == code.lower()
        assert "has no workbooks" not in made.output
    else:
        assert own == "en"
        assert f"the file's language ({code}) has no workbooks in keizer_xl yet" in made.output
    asked = run_cli("new", tmp_path / "asked.xlsx", "--from", source, "--lang", "en")
    assert asked.exit_code == 0, asked.output
    assert language_of(read_grids(tmp_path / "asked.xlsx")) == "en"
    dutch = run_cli("--lang", "nl", "new", tmp_path / "dutch.xlsx", "--from", source)
    assert dutch.exit_code == 0, dutch.output
    assert language_of(read_grids(tmp_path / "dutch.xlsx")) == "nl"
    assert "Let op: instellingen uit het bestand: " in dutch.output


# -- files that are no tournament ---------------------------------------------------------


def refused(tmp_path: Path, source: Path, *words: str) -> None:
    """`new --from source` fails, saying so with the file's name, and writes nothing."""
    before = sorted(p.name for p in tmp_path.iterdir())
    result = run_cli("new", tmp_path / "club.xlsx", "--from", source)
    assert result.exit_code == 1, result.output
    assert source.name in result.output
    for word in words:
        assert word in result.output, result.output
    assert "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no workbook, no leftovers


def test_a_truncated_file_is_refused(tmp_path: Path) -> None:
    cut = tmp_path / "cut.s3db"
    cut.write_bytes(EXAMPLE.read_bytes()[:6000])
    refused(tmp_path, cut, "the file is damaged", "database disk image is malformed")


def test_random_bytes_are_refused(tmp_path: Path) -> None:
    noise = tmp_path / "noise.s3db"
    noise.write_bytes(random.Random(23).randbytes(12288))
    refused(tmp_path, noise, "not a KeizerForClubs tournament file (it is not an SQLite database)")


def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "members.s3db"
    with closing(sqlite3.connect(other)) as db:
        db.execute("CREATE TABLE Members (id INTEGER PRIMARY KEY, name TEXT)")
        db.execute("INSERT INTO Members VALUES (1, 'Anna')")
        db.commit()
    refused(
        tmp_path,
        other,
        "not a KeizerForClubs tournament file (it has no table Player, Pairing, ConfigTab)",
    )


def test_rows_that_make_no_sense_are_all_named(tmp_path: Path) -> None:
    pairings = [
        *SMALL_PAIRINGS[:4],
        (1, 4, 7, 11, 1),
        (1, 101, 10, -1, 2),
        (2, 1, 1, 3, 13),
        (2, 2, 2, 12, 1),
    ]
    players = [*SMALL_PLAYERS, (11, "anna", 1000, 1)]
    source = tournament(tmp_path / "odd.s3db", players, pairings, SMALL_CONFIG)
    refused(
        tmp_path,
        source,
        "4 problems in odd.s3db",
        "players 1 and 11 are both called 'anna'",
        "round 1, board 101: result 2 is not one KeizerForClubs writes for a round without a game",
        "round 2, board 1: result 13 is not one KeizerForClubs writes for a game",
        "round 2, board 2: player 12 is not in the Player table",
    )
    missing = run_cli("new", tmp_path / "club.xlsx", "--from", tmp_path / "gone.s3db")
    assert missing.exit_code == 1 and "gone.s3db: there is no such file" in missing.output


def test_the_command_says_where_keizerforclubs_differs(tmp_path: Path) -> None:
    source = example(tmp_path)
    with closing(sqlite3.connect(source)) as db:  # a copy: what an older version might hold
        db.execute("UPDATE Player SET Keizer_SumPts = 99 WHERE name = 'Ajax'")
        db.execute("UPDATE Player SET state = 9 WHERE name = 'Hermes'")  # played round 5
        db.commit()
    made = run_cli("new", tmp_path / "club.xlsx", "--from", source)
    assert made.exit_code == 0, made.output
    assert (
        "the standings differ from KeizerForClubs' own totals for Ajax 10.3 "
        "(KeizerForClubs 99.00)" in made.output
    )
    assert "retired after round 5, the last so far: Hermes" in made.output
    left = {row["Name"]: row["Left"] for row in sheet(tmp_path / "club.xlsx", "Players")}
    assert (left["Hermes"], left["Verdandi"]) == (5, 4)


# -- files as they come: adjourned games, a locked file, no players, a late starter --------


def german(
    config: Sequence[tuple[str, str | None, float | None]],
) -> list[tuple[str, str | None, float | None]]:
    return [(key, "DE" if key == "LANGCODE" else text, value) for key, text, value in config]


@pytest.mark.parametrize(
    ("code", "adjourned", "no_result"),
    [
        (
            "DE",
            "Runde 2, Brett 3 (Eva – Hans) ist vertagt",
            "Runde 3, Brett 1 (Anna – Dirk) hat kein Ergebnis",
        ),
        (
            "IT",
            "turno 2, scacchiera 3 (Eva – Hans) è sospesa",
            "turno 3, scacchiera 1 (Anna – Dirk) non ha risultato",
        ),
    ],
)
def test_an_earlier_game_without_a_result_comes_in_as_keizerforclubs_counts_it(
    tmp_path: Path, code: str, adjourned: str, no_result: str
) -> None:
    """Adjourned (11) is one of KeizerForClubs' "drawish" results: a draw; no result (0)
    earns neither player anything, as `--` does with preset kfc. Each game is named, in the
    file's language, and the rest comes in."""
    pairings = [row if row[:2] != (2, 3) else (2, 3, 5, 8, 11) for row in SMALL_PAIRINGS]
    pairings = [row if row[:2] != (3, 1) else (3, 1, 1, 4, 0) for row in pairings]
    config = [
        (key, code if key == "LANGCODE" else text, value) for key, text, value in SMALL_CONFIG
    ]
    source = tournament(tmp_path / "Herbst.s3db", SMALL_PLAYERS, pairings, config)
    book = tmp_path / "herbst.xlsx"
    made = run_cli("new", book, "--from", source)
    assert made.exit_code == 0, made.output
    assert adjourned in made.output and no_result in made.output, made.output
    assert "adjourned" not in made.output and "has no result" not in made.output
    assert language_of(read_grids(book)) == code.lower()
    rounds = {(r["Round"], r["Board"]): r["Result"] for r in sheet(book, "Rounds")}
    assert (rounds[(2, 3)], rounds[(3, 1)]) == ("½-½", "--")
    assert rounds[(3, 2)] == "½-½" and rounds[(1, 1)] == "1-0"  # the rest as it was
    recalc = run_cli("recalc", book)
    assert recalc.exit_code == 0, recalc.output
    # -- earns Anna and Dirk nothing in round 3: what is left of their score is their own
    # value and their other rounds, as KeizerForClubs counts them
    competition, _ = load(book)
    standings = competition.standings()
    third = {row.name: row.rounds[2] for row in standings.rows if row.terms}
    assert third["Anna"] == 0 and third["Dirk"] == 0
    assert third["Bram"] != 0


def test_a_locked_file_says_keizerforclubs_may_have_it_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from keizer_xl.exchange import kfcfiles

    monkeypatch.setattr(kfcfiles, "LOCK_WAIT", 0.05)
    source = example(tmp_path)
    with closing(sqlite3.connect(source, isolation_level=None)) as writer:
        writer.execute("BEGIN EXCLUSIVE")  # as KeizerForClubs holds it while it writes
        refused(tmp_path, source, "the file is locked; KeizerForClubs may still have it open")
        writer.execute("ROLLBACK")
    german_file = tournament(
        tmp_path / "offen.s3db", SMALL_PLAYERS, SMALL_PAIRINGS, german(SMALL_CONFIG)
    )
    with closing(sqlite3.connect(german_file, isolation_level=None)) as writer:
        writer.execute("BEGIN EXCLUSIVE")
        refused(
            tmp_path,
            german_file,
            "die Datei ist gesperrt; KeizerForClubs hat sie vielleicht noch geöffnet",
        )
        writer.execute("ROLLBACK")


def test_a_file_without_players_says_so_in_its_language(tmp_path: Path) -> None:
    source = tournament(tmp_path / "leer.s3db", [], [], german(SMALL_CONFIG))
    refused(tmp_path, source, "das Turnier hat keine Spieler")
    italian = tournament(
        tmp_path / "vuoto.s3db",
        [],
        [],
        [(k, "IT" if k == "LANGCODE" else t, v) for k, t, v in SMALL_CONFIG],
    )
    refused(tmp_path, italian, "il torneo non ha giocatori")
    english = tournament(tmp_path / "empty.s3db", [], [], SMALL_CONFIG)
    refused(tmp_path, english, "the tournament has no players; enter them in KeizerForClubs")
    # players who all retired before they played leave none either
    gone = tournament(
        tmp_path / "gone.s3db", [(1, "Anna", 2000, 9), (2, "Bram", 1900, 10)], [], SMALL_CONFIG
    )
    refused(tmp_path, gone, "the tournament has no players")


def kfc_top_value(players: int, ratio: float = 3) -> int:
    """KeizerForClubs' value of the first place (RankingCalculator.FirstStartPtsInner):
    Convert.ToInt32((N - 1) × ratio / (ratio - 1)), halves to even, N every player not
    retired, a late starter included."""
    return round((players - 1) * ratio / (ratio - 1))


def test_a_late_starter_counts_for_the_top_value_from_round_one(tmp_path: Path) -> None:
    """KeizerForClubs counts every player who has not retired, a late starter too, so 11
    players give 15 after round 1 (the 10 who played would give 14), and his rounds before
    he starts earn the unexcused share of his own value."""
    players = [(i, f"Spieler {i}", 2100 - 50 * i, 1) for i in range(1, 12)]
    pairings: list[tuple[int, int, int, int, int | None]] = [  # Spieler 11 starts in round 3
        (1, 1, 1, 2, 1),
        (1, 2, 3, 4, 2),
        (1, 3, 5, 6, 3),
        (1, 4, 7, 8, 1),
        (1, 5, 9, 10, 2),
        (1, 101, 11, -1, 12),
        (2, 1, 1, 3, 2),
        (2, 2, 2, 4, 1),
        (2, 3, 5, 7, 3),
        (2, 4, 6, 8, 2),
        (2, 5, 9, 10, 1),
        (2, 101, 11, -1, 12),
    ]
    config = [
        *german(SMALL_CONFIG[:1]),
        ("BONUS.Excused", None, 40.0),
        ("BONUS.Unexcused", None, 20.0),
    ]
    source = tournament(tmp_path / "spaet.s3db", players, pairings, config)
    book = tmp_path / "spaet.xlsx"
    made = run_cli("new", book, "--from", source)
    assert made.exit_code == 0, made.output
    assert kfc_top_value(11) == 15 and kfc_top_value(10) == 14
    competition, _ = load(book)
    after_one = competition.standings(1)
    assert after_one.top_value == kfc_top_value(11)
    assert competition.standings(2).top_value == kfc_top_value(11)
    late = next(row for row in after_one.rows if row.name == "Spieler 11")
    assert late.score is not None and late.rounds[0] == Fraction(20, 100) * late.value
    assert sheet(book, "Standings")[0]["Value"] == 15
    assert {row["Name"]: row["Joined"] for row in sheet(book, "Players")}["Spieler 11"] == 3
