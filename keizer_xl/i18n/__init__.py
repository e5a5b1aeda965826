"""Messages in the secretary's language, from gettext catalogs.

The English text in the code is the message id; each other language has a catalog
`locale/<language>/LC_MESSAGES/keizer_xl.po`, compiled to the `.mo` beside it (`make
catalogs`, with Babel), which the standard library's gettext reads. A third language is
one catalog more (and its names in `workbook.contract`). A test fails when a message of
the code has no translation in a catalog.

A message is marked where it is shown: `translate("...", language)`. The settings'
explanations (in `core.settings`, which keeps to the standard library and so to English)
are messages too, translated where the template writes them.
"""

from __future__ import annotations

import functools
import gettext
from pathlib import Path

DOMAIN = "keizer_xl"
LOCALE = Path(__file__).parent / "locale"
LANGUAGES = ("en", "nl")  # English is the code's own


@functools.cache
def catalog(language: str) -> gettext.NullTranslations:
    """The compiled catalog of a language (none for English: the ids are English)."""
    return gettext.translation(DOMAIN, LOCALE, [language], fallback=True)


def translate(message: str, language: str) -> str:
    """A message in `language` (as it is, in English or without a translation)."""
    if language == "en" or not message:
        return message
    return catalog(language).gettext(message)

