"""The workbook's names in each language, looked up: sheets, headers, settings, absence
words, as the language records (`i18n.languages`) give them.

A workbook is read in any language (sheets and headers found in either) and written in its
own. The tables live with the catalogs, below the workbook layer, so that the shells' `say`
writes a workbook's names as its workbooks do without reaching up into that layer.
"""

from __future__ import annotations

from collections.abc import Sequence

from keizer_xl.core.model import Absence
from keizer_xl.core.words import text
from keizer_xl.i18n.languages import LANGUAGES, RECORDS

# Every name keizer_xl reads or writes in a workbook, for each language besides English
# (whose record leaves them empty: they are the contract's own): sheets, headers, setting
# names and the words of bye and absence rows.
TRANSLATIONS: dict[str, dict[str, str]] = {
    code: dict(record.names) for code, record in RECORDS.items() if record.names
}
SETTING_TRANSLATIONS: dict[str, dict[str, str]] = {
    code: dict(record.settings) for code, record in RECORDS.items() if record.settings
}
# How keizer_xl writes a bye or absence row in each language (all are read in every one).
REST_WORDS: dict[str, dict[Absence, str]] = {
    code: {Absence(reason): word for reason, word in record.rest_words.items()}
    for code, record in RECORDS.items()
    if record.rest_words
}
# The word a workbook's Present dropdown offers first for "here this week".
PRESENT_MARKS: dict[str, str] = {code: record.present_mark for code, record in RECORDS.items()}


def name_key(name: object) -> str:
    """A name as matched: spaces and case ignored."""
    return " ".join(text(name).split()).casefold()


# Any language's name (as matched: spaces and case ignored) -> the contract's name.
_TO_CONTRACT = {
    name_key(local): name for names in TRANSLATIONS.values() for name, local in names.items()
}
SETTINGS_TO_CONTRACT = {
    name_key(local): name
    for names in SETTING_TRANSLATIONS.values()
    for name, local in names.items()
}


def local_name(name: str, language: str) -> str:
    """A sheet name, header or caption as a workbook in `language` writes it."""
    return TRANSLATIONS.get(language, {}).get(name) or name


def withdrawn_mark(language: str) -> str:
    """`(withdrawn)`: what follows the name of a player who has left, on every output."""
    return f"({local_name('withdrawn', language)})"


def withdrawn_name(name: str, language: str) -> str:
    """`Anna de Vries (withdrawn)`: a player who has left, as the Standings sheet, the
    pages, the chat text and the PDFs all write the name."""
    return f"{name} {withdrawn_mark(language)}"


def local_setting(name: str, language: str) -> str:
    """A setting's name as a workbook in `language` writes it."""
    return SETTING_TRANSLATIONS.get(language, {}).get(name) or name


def sheet_names(sheet: str) -> set[str]:
    """Every language's name of one of the contract's sheets, as matched (case folded)."""
    return {name_key(local_name(sheet, language)) for language in LANGUAGES}


def contract_headers(header: Sequence[object]) -> list[object]:
    """A header row with every language's names turned into the contract's."""
    return [_TO_CONTRACT.get(name_key(cell), cell) for cell in header]


def present_mark(language: str) -> str:
    """The word for present a workbook in `language` offers first (English: x)."""
    return PRESENT_MARKS.get(language) or PRESENT_MARKS["en"]


def rest_word(reason: Absence, language: str) -> str:
    """The word of a bye or absence row as a workbook in `language` writes it."""
    return REST_WORDS.get(language, {}).get(reason, reason.value)
