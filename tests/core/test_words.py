"""The words a secretary types (core/words.py), and the word tables of docs/words.md, which
must list every accepted word and nothing else."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from keizer_xl.core.model import Absence, Result
from keizer_xl.core.words import (
    ABSENCE_WORDS,
    DEFAULT_ABSENCE,
    NOT_PRESENT_WORDS,
    PRESENT,
    PRESENT_WORDS,
    RESULT_WORDS,
    UNRATED_WORDS,
    WordError,
    parse_presence,
    parse_rating,
    parse_result,
)

README = Path(__file__).parents[2] / "docs" / "words.md"


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("1/2", Result.DRAW),
        ("½", Result.DRAW),
        ("0.5-0.5", Result.DRAW),
        ("½:½", Result.DRAW),
        ("1:0", Result.WHITE_WINS),
        ("0:1", Result.BLACK_WINS),
        (" 1 : 0 ", Result.WHITE_WINS),
        ("0,5 – 0,5", Result.DRAW),
        ("Remise", Result.DRAW),
        ("+/-", Result.WHITE_FORFEIT_WIN),
        ("afwezig", Absence.EXCUSED),
        ("Afgemeld", Absence.EXCUSED),
        ("extern", Absence.CLUB),
        ("clubwedstrijd", Absence.CLUB),
        ("onafgemeld", Absence.UNEXCUSED),
        ("vrij", Absence.BYE),
        ("ONEVEN", Absence.BYE),
        (dt.time(1, 0), Result.WHITE_WINS),
        (dt.time(0, 1), Result.BLACK_WINS),
        (dt.timedelta(hours=1), Result.WHITE_WINS),
        (dt.datetime(2024, 2, 1), Result.DRAW),
    ],
)
def test_results_as_secretaries_type_them(typed: object, meant: Result | Absence) -> None:
    assert parse_result(typed) is meant


@pytest.mark.parametrize("typed", ["l-0", "1-1", "0.5", "2:0", "afwezigg", dt.time(2, 0)])
def test_other_results_are_refused(typed: object) -> None:
    with pytest.raises(WordError):
        parse_result(typed)


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("0", DEFAULT_ABSENCE),
        ("n", DEFAULT_ABSENCE),
        ("No", DEFAULT_ABSENCE),
        ("nee", DEFAULT_ABSENCE),
        (0.0, DEFAULT_ABSENCE),
        (False, DEFAULT_ABSENCE),
        (None, DEFAULT_ABSENCE),
        ("x", PRESENT),
        (1.0, PRESENT),
        ("Ja", PRESENT),
        ("afgemeld", Absence.EXCUSED),
        ("extern", Absence.CLUB),
        ("onafgemeld", Absence.UNEXCUSED),
    ],
)
def test_present_words(typed: object, meant: object) -> None:
    assert parse_presence(typed) == meant


# What German and Italian secretaries type (docs/languages.md lists them per language).
GERMAN_AND_ITALIAN = [
    ("1:0", Result.WHITE_WINS),
    ("Remis", Result.DRAW),
    ("unentschieden", Result.DRAW),
    ("+:-", Result.WHITE_FORFEIT_WIN),
    ("1-0 kampflos", Result.WHITE_FORFEIT_WIN),
    ("0:1 Kampflos", Result.BLACK_FORFEIT_WIN),
    ("-:+", Result.BLACK_FORFEIT_WIN),
    ("-:-", Result.DOUBLE_FORFEIT),
    ("0-0 kampflos", Result.DOUBLE_FORFEIT),
    ("spielfrei", Absence.BYE),
    ("Freilos", Absence.BYE),
    ("frei", Absence.BYE),
    ("entschuldigt", Absence.EXCUSED),
    ("abgemeldet", Absence.EXCUSED),
    ("Mannschaftskampf", Absence.CLUB),
    ("unentschuldigt", Absence.UNEXCUSED),
    ("patta", Result.DRAW),
    ("1-0 forfait", Result.WHITE_FORFEIT_WIN),
    ("0 – 1 Forfait", Result.BLACK_FORFEIT_WIN),
    ("0-0 forfait", Result.DOUBLE_FORFEIT),
    ("riposo", Absence.BYE),
    ("Giustificato", Absence.EXCUSED),
    ("giustificata", Absence.EXCUSED),
    ("squadra", Absence.CLUB),
    ("impegno di squadra", Absence.CLUB),
    ("ingiustificato", Absence.UNEXCUSED),
]


@pytest.mark.parametrize(("typed", "meant"), GERMAN_AND_ITALIAN)
def test_german_and_italian_results(typed: str, meant: Result | Absence) -> None:
    assert parse_result(typed) is meant


@pytest.mark.parametrize("typed", ["kampflos", "forfait", "1-0 kampflo", "spielfre"])
def test_a_forfeit_says_who_won(typed: str) -> None:
    """`kampflos` and `forfait` alone do not say who won, so they are no result."""
    with pytest.raises(WordError):
        parse_result(typed)


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("x", PRESENT),
        ("ja", PRESENT),
        ("J", PRESENT),
        ("anwesend", PRESENT),
        ("nein", DEFAULT_ABSENCE),
        ("entschuldigt", Absence.EXCUSED),
        ("Mannschaftskampf", Absence.CLUB),
        ("unentschuldigt", Absence.UNEXCUSED),
        ("sì", PRESENT),
        ("SI", PRESENT),
        ("Presente", PRESENT),
        ("no", DEFAULT_ABSENCE),
        ("giustificato", Absence.EXCUSED),
        ("squadra", Absence.CLUB),
        ("ingiustificato", Absence.UNEXCUSED),
    ],
)
def test_german_and_italian_attendance(typed: str, meant: object) -> None:
    assert parse_presence(typed) == meant


@pytest.mark.parametrize("typed", ["spielfrei", "riposo"])
def test_a_german_or_italian_bye_is_no_attendance(typed: str) -> None:
    with pytest.raises(WordError):
        parse_presence(typed)


@pytest.mark.parametrize("typed", ["keine", "NC"])
def test_german_and_italian_unrated(typed: str) -> None:
    assert parse_rating(typed) == 0


def test_a_bye_is_no_attendance() -> None:
    with pytest.raises(WordError):
        parse_presence("vrij")


def _readme_tables() -> dict[str, list[tuple[str, list[str]]]]:
    """The word tables of the README's words section: the line before each table -> rows of
    (meaning, the words in backquotes)."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Words keizer_xl understands", 1)[1].split("\n## ", 1)[0]
    tables: dict[str, list[tuple[str, list[str]]]] = {}
    title = ""
    for line in section.splitlines():
        if line.startswith("|") and not line.startswith("|---") and "| words |" not in line:
            meaning, words = (cell.strip() for cell in line.strip("|").split("|"))
            tables.setdefault(title, []).append((meaning, re.findall(r"`([^`]+)`", words)))
        elif line.endswith(":"):
            title = line
    return tables


def test_readme_lists_every_accepted_word_and_nothing_else() -> None:
    tables = _readme_tables()
    games, rests, present, rating = (rows for title, rows in tables.items())
    assert set(rating[0][1]) == set(UNRATED_WORDS)
    assert {parse_rating(w) for w in rating[0][1]} == {0}
    assert [set(words) for _, words in games] == [set(w) for w in RESULT_WORDS.values()]
    assert [set(words) for _, words in rests] == [set(w) for w in ABSENCE_WORDS.values()]
    assert set(present[0][1]) == set(PRESENT_WORDS)
    assert set(present[1][1]) == set(NOT_PRESENT_WORDS)
    # and each line means one thing: every word parses as the line's first word
    for _, words in (*games, *rests):
        assert {parse_result(w) for w in words} == {parse_result(words[0])}
    assert {parse_presence(w) for w in present[0][1]} == {PRESENT}
    assert {parse_presence(w) for w in present[1][1]} == {DEFAULT_ABSENCE}


LANGUAGES_DOC = README.parent / "languages.md"
MEANINGS: dict[str, object] = {
    "White wins": Result.WHITE_WINS,
    "Black wins": Result.BLACK_WINS,
    "Draw": Result.DRAW,
    "White wins by forfeit (Black did not turn up)": Result.WHITE_FORFEIT_WIN,
    "Black wins by forfeit (White did not turn up)": Result.BLACK_FORFEIT_WIN,
    "Neither turned up": Result.DOUBLE_FORFEIT,
    "Bye": Absence.BYE,
    "Excused absence": Absence.EXCUSED,
    "Club duty": Absence.CLUB,
    "Unexcused absence": Absence.UNEXCUSED,
    "Present": PRESENT,
    "Absent, counted as the Settings' Default absence": DEFAULT_ABSENCE,
    "No rating": 0,
}


@pytest.mark.parametrize("section", ["Nederlands", "Deutsch", "Italiano"])
def test_each_languages_words_mean_what_its_table_says(section: str) -> None:
    """docs/languages.md lists each language's own words; each is read as its line says."""
    text = LANGUAGES_DOC.read_text(encoding="utf-8")
    part = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in part.splitlines()
        if line.startswith("| ") and not line.startswith("| meaning")
    ]
    assert {"Bye", "Excused absence", "Club duty", "Present"} <= {row[0] for row in rows}
    for meaning, words in rows:
        meant = MEANINGS[meaning]
        for word in re.findall(r"`([^`]+)`", words):
            if meaning == "No rating":
                assert parse_rating(word) == 0, word
            elif meaning in ("Present", "Absent, counted as the Settings' Default absence"):
                assert parse_presence(word) == meant, word
            else:
                assert parse_result(word) is meant, word


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("club 1-0", Result.WHITE_WINS),
        ("Club ½-½", Result.DRAW),
        ("club 0-1", Result.BLACK_WINS),
        ("extern 1:0", Result.WHITE_WINS),
        ("Mannschaftskampf remis", Result.DRAW),
        ("squadra 0-1", Result.BLACK_WINS),
        ("club duty 1/2-1/2", Result.DRAW),
        ("club", None),
        ("club +-", None),
        ("excused 1-0", None),
        ("1-0", None),
        (1, None),
    ],
)
def test_a_club_duty_row_with_its_team_result(typed: object, meant: Result | None) -> None:
    from keizer_xl.core.words import parse_team

    assert parse_team(typed) is meant
