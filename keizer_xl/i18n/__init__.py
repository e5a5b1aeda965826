"""Messages in the secretary's language, from gettext catalogs.

The English text in the code is the message id; each other language has a catalog
`locale/<language>/LC_MESSAGES/keizer_xl.po`, compiled to the `.mo` beside it (`make
catalogs`, with Babel), which the standard library's gettext reads. Another language is
one catalog more and one record in `i18n.languages` (its workbook's names, marks and the
headers of its country's lists). A test fails when a message of the code has no
translation in a catalog.

Two kinds of message are marked: those of the shells where they are shown,
`translate("...", language)` (the command line's `_t("...")`, the pages' `t("...")`), and
those of the rule book, which cannot read a catalog and makes a `core.messages.Message`
instead (`msg("...", value=...)`; the xlsx package's errors keep a template the same way);
a shell says one with `say(message, language)`. The settings' explanations (in
`core.settings`) are messages too, translated where the template writes them.

Which language: `--lang` (or the buttons' workbook) first, then the environment's
KEIZER_XL_LANG, then the language the workbook is written in (`choose`).

Figures in the language's own decimal mark (`numbers`: 320.83, 320,83) are written here too,
for the pages, the terminal and the Pairings sheet's stakes alike.

Ranks just above `core`: imports nothing of keizer_xl but core and itself. Importing it reads
no catalog and builds no name table (only the language records); each is loaded when first
needed.
"""

from __future__ import annotations

import functools
import gettext
import os
from typing import TYPE_CHECKING, Any

from keizer_xl.core.messages import Message, Tongue
from keizer_xl.i18n.languages import (
    DOMAIN,
    LANGUAGES,
    LOCALE,
    RECORDS,
    Language,
    RatingListHeaders,
    record_of,
)

if TYPE_CHECKING:
    from keizer_xl.core.report import CrosstableMarks

__all__ = [
    "DOMAIN",
    "ENVIRONMENT",
    "LANGUAGES",
    "LOCALE",
    "RECORDS",
    "Language",
    "RatingListHeaders",
    "catalog",
    "choose",
    "crosstable_marks",
    "from_environment",
    "legend_marks",
    "names",
    "numbers",
    "record_of",
    "say",
    "tongue",
    "translate",
]


@functools.cache
def catalog(language: str) -> gettext.NullTranslations:
    """The compiled catalog of a language (none for English: the ids are English)."""
    return gettext.translation(DOMAIN, LOCALE, [language], fallback=True)


def translate(message: str, language: str) -> str:
    """A message in `language` (as it is, in English or without a translation)."""
    if language == "en" or not message:
        return message
    return catalog(language).gettext(message)


class _Catalog(Tongue):
    """A language as the shells speak it: templates from its catalog, the workbook's names
    as its workbooks write them."""

    def __init__(self, language: str) -> None:
        self.language = language

    def text(self, template: str) -> str:
        return translate(template, self.language)

    def name(self, name: str, kind: str) -> str:
        from keizer_xl.core.model import Absence
        from keizer_xl.i18n.names import local_name, local_setting, rest_word

        if kind == "rest":
            return rest_word(Absence(name), self.language)
        return (local_setting if kind == "setting" else local_name)(name, self.language)


@functools.cache
def crosstable_marks(language: str) -> CrosstableMarks:
    """A crosstable's marks in `language`: the colour letters of its record (German w/s,
    Italian b/n, Dutch w/z) and the bye and absence marks of its catalog, so that no
    English `bye`, `exc` or `club` stands in a German, Dutch or Italian crosstable."""
    from keizer_xl.core.model import Absence
    from keizer_xl.core.report import CrosstableMarks

    white, black = record_of(language).colour_marks
    return CrosstableMarks(
        white,
        black,
        (
            (Absence.BYE.value, translate("bye", language)),
            (Absence.EXCUSED.value, translate("exc", language)),
            (Absence.CLUB.value, translate("club", language)),
            (Absence.UNEXCUSED.value, "—"),
        ),
    )


def legend_marks(language: str) -> dict[str, str]:
    """The marks a crosstable's legend names, as the values of its message."""
    from keizer_xl.core.model import Absence

    marks = crosstable_marks(language)
    return {
        "white": marks.white,
        "black": marks.black,
        "bye": marks.rest(Absence.BYE.value),
        "excused": marks.rest(Absence.EXCUSED.value),
        "club": marks.rest(Absence.CLUB.value),
    }


@functools.cache
def tongue(language: str) -> Tongue:
    return _Catalog(language)


def say(text: Any, language: str) -> str:
    """A message (or any text) in `language`: a rule-book `Message` translated with its
    values, a plain text as it is."""
    if language == "en" or not isinstance(text, Message):
        return str(text)  # a message reads as its English already
    return text.said_as(tongue(language))


ENVIRONMENT = "KEIZER_XL_LANG"


def from_environment() -> str | None:
    """The language KEIZER_XL_LANG asks for (None when unset or not one of ours)."""
    language = os.environ.get(ENVIRONMENT, "").strip().lower()
    return language if language in LANGUAGES else None


def choose(asked: str | None, workbook: str | None = None) -> str:
    """The language to speak: the one asked for (`--lang`), else the environment's
    KEIZER_XL_LANG, else the workbook's own, else English. An unknown one is English."""
    for language in (asked, from_environment(), workbook):
        if language in LANGUAGES:
            return language
    return "en"
