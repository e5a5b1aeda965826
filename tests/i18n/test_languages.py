"""Every language record is complete: a language more is one record and one catalog, so a
record that leaves a sheet, header, setting, word or mark out must fail here rather than
leave an English word in a secretary's workbook."""

from __future__ import annotations

from pathlib import Path

import pytest

from keizer_xl.core.checks import PLAYER_COLUMNS
from keizer_xl.core.model import Absence
from keizer_xl.core.settings import SETTINGS
from keizer_xl.core.words import PRESENT, parse_presence, parse_result
from keizer_xl.i18n import LANGUAGES, RECORDS, Language, record_of
from keizer_xl.i18n.names import (
    PRESENT_MARKS,
    REST_WORDS,
    SETTING_TRANSLATIONS,
    SETTINGS_TO_CONTRACT,
    TRANSLATIONS,
    contract_headers,
    name_key,
)
from keizer_xl.workbook.layout import IDENTITY_COLUMNS
from keizer_xl.workbook.template import HEADERS, SHEETS

DOCS = Path(__file__).parents[2] / "docs" / "languages.md"
OTHERS = [code for code in LANGUAGES if code != "en"]


def test_the_languages_are_the_records_english_first() -> None:
    assert tuple(RECORDS) == LANGUAGES and LANGUAGES[0] == "en"
    assert all(record.code == code for code, record in RECORDS.items())
    assert len({record.name for record in RECORDS.values()}) == len(RECORDS)
    assert record_of("xx") is RECORDS["en"]  # a language keizer_xl does not speak


def test_english_keeps_the_contract_s_names() -> None:
    english = RECORDS["en"]
    assert not english.names and not english.settings and not english.rest_words
    assert english.catalog is None and english.decimal_mark == "."


@pytest.mark.parametrize("code", OTHERS)
def test_every_sheet_header_and_caption_is_translated(code: str) -> None:
    """Every sheet and header the template writes, and the same names (buttons' captions,
    `withdrawn`, the bye row of the Pairings sheet) as every other language's record."""
    names = RECORDS[code].names
    contract = {*SHEETS, *(h for headers in HEADERS.values() for h in headers)}
    assert sorted(contract - set(names)) == []
    for other in OTHERS:
        assert set(names) == set(RECORDS[other].names), other
    assert all(local.strip() for local in names.values())
    sheets = [names[sheet] for sheet in SHEETS]
    assert len({name_key(s) for s in sheets}) == len(SHEETS)  # no two sheets alike
    for sheet in ("Players", "Rounds", "Settings"):  # the sheets read: headers read back
        assert contract_headers([names[h] for h in HEADERS[sheet]]) == list(HEADERS[sheet])


@pytest.mark.parametrize("code", OTHERS)
def test_every_setting_is_translated_and_read_back(code: str) -> None:
    settings = RECORDS[code].settings
    assert list(settings) == list(SETTINGS)
    assert len({name_key(local) for local in settings.values()}) == len(SETTINGS)
    for name, local in settings.items():
        assert SETTINGS_TO_CONTRACT[name_key(local)] == name


@pytest.mark.parametrize("code", OTHERS)
def test_the_words_a_workbook_writes_are_words_it_reads(code: str) -> None:
    record = RECORDS[code]
    assert set(record.rest_words) == {reason.value for reason in Absence}
    for reason, word in record.rest_words.items():
        assert parse_result(word) is Absence(reason)
        if reason != Absence.BYE.value:
            assert parse_presence(word) is Absence(reason)
    assert parse_presence(record.present_mark) == PRESENT
    assert record.catalog is not None and record.catalog.is_file()


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_record_has_its_marks_and_list_headers(code: str) -> None:
    record = RECORDS[code]
    assert parse_presence(record.present_mark) == PRESENT
    assert record.decimal_mark in {".", ","}
    white, black = record.colour_marks
    assert len(white) == len(black) == 1 and white != black and white.islower()
    assert set(record.member_headers) == {*PLAYER_COLUMNS, "FIDE rating"}
    assert all(record.member_headers.values()), record.member_headers
    assert set(record.name_parts) == {"first", "infix", "last"}
    assert record.name_parts["first"] and record.name_parts["last"]
    listed = record.rating_list
    if listed is not None:  # its ids fill a Players column a workbook knows
        assert listed.players_column in IDENTITY_COLUMNS
        assert listed.ids and listed.names and listed.ratings
        assert bool(listed.last_names) == bool(listed.first_names)
        assert bool(listed.clubs) == bool(listed.members)


def test_no_member_list_header_fills_two_columns() -> None:
    """Over every language's records a header fills one Players column: `Elo` is the FIDE
    rating everywhere (the rating only where no national one is listed), never also the
    national rating; the headers read as a name or as a name's part are the German
    `Name`, the surname beside a `Vorname`, and the Italian `Nome`, the first name beside a
    `Cognome`."""
    filled: dict[str, set[str]] = {}
    for record in RECORDS.values():
        for column, spellings in record.member_headers.items():
            for header in spellings:
                filled.setdefault(_key(header), set()).add(column)
    assert {h: c for h, c in filled.items() if len(c) > 1} == {}
    parts = {_key(h) for r in RECORDS.values() for s in r.name_parts.values() for h in s}
    assert {h for h in parts if filled.get(h) == {"Name"}} == {"name", "nome"}


def test_the_lookups_are_derived_from_the_records() -> None:
    assert (
        sorted(TRANSLATIONS) == sorted(SETTING_TRANSLATIONS) == sorted(REST_WORDS) == sorted(OTHERS)
    )
    assert {code: r.present_mark for code, r in RECORDS.items()} == PRESENT_MARKS
    for code in OTHERS:
        assert TRANSLATIONS[code] == dict(RECORDS[code].names)
        assert {reason.value: word for reason, word in REST_WORDS[code].items()} == dict(
            RECORDS[code].rest_words
        )


def test_each_language_has_its_section_in_the_docs() -> None:
    """docs/languages.md has a section under each language's own name."""
    headings = [
        line[3:] for line in DOCS.read_text(encoding="utf-8").splitlines() if line.startswith("## ")
    ]
    assert all(RECORDS[code].name in headings for code in OTHERS), headings


def test_a_record_has_every_field_a_language_needs() -> None:
    """The recipe in CONTRIBUTING names each field of the record, so it cannot fall behind
    the record."""
    recipe = (Path(__file__).parents[2] / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = recipe.split("## Adding a language\n", 1)[1].split("\n## ", 1)[0]
    assert [f for f in Language._fields if f"`{f}`" not in section] == []


def _key(header: str) -> str:
    return "".join(ch for ch in header.casefold() if ch.isalnum())
