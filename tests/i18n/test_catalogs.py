"""Every message of the code has its translation in every catalog, and the compiled
catalogs are what their sources compile to."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

import keizer_xl
from keizer_xl.core.settings import SPECS
from keizer_xl.i18n import LANGUAGES, LOCALE, translate
from keizer_xl.workbook.template import build_template

PACKAGE = Path(keizer_xl.__file__).parent
OTHERS = [language for language in LANGUAGES if language != "en"]


# How the code marks a message: the shells' `translate("...", language)` and `_t("...")`,
# the rule book's `msg("...", value=...)` (a `Message`), the xlsx package's errors and
# reasons, which are made from their English template in the same way, the settings'
# explanations (the fifth field of a SettingSpec), and the pages' `t("...")`, in the code
# and in the page templates. The Makefile's `catalogs` extracts with the same words.
KEYWORDS = {"translate": (1,), "_t": (1,), "t": (1,), "msg": (1,), "reason": (1,),
            "WorkbookLocked": (1,), "WorkbookBusy": (1,), "NotAWorkbook": (1,),
            "MissingSheet": (1,), "SheetTooLarge": (2,), "OutsideSheet": (1,),
            "CopiedFormula": (1,), "UnstorableValue": (1,), "NotACellValue": (1,),
            "SettingSpec": (5,), "_choice": (5,)}
METHODS = [("**.py", "python"), ("**/templates/**.j2", "jinja2.ext:babel_extract")]


def messages() -> set[str]:
    """What the code shows: every marked message."""
    found = {entry[2] for entry in extract_from_dir(
        str(PACKAGE), method_map=METHODS, keywords=KEYWORDS, comment_tags=())
        if isinstance(entry[2], str)}
    templates = {entry[2] for entry in extract_from_dir(
        str(PACKAGE / "publish"), method_map=METHODS[1:], keywords=KEYWORDS, comment_tags=())}
    assert len(found) >= 300 and len(templates) >= 40, (len(found), len(templates))
    assert {spec.meaning for spec in SPECS} <= found  # the settings' explanations too
    return found


def test_the_message_template_is_current() -> None:
    """`make catalogs` has been run since a message changed: the template a translator
    starts a new language from holds exactly the code's messages."""
    with open(LOCALE / "keizer_xl.pot", "rb") as f:
        template = {m.id for m in read_po(f) if m.id}
    assert template == messages(), "run `make catalogs`"
    makefile = (PACKAGE.parent / "Makefile").read_text(encoding="utf-8")
    for keyword, (place,) in KEYWORDS.items():
        assert f"-k {keyword}" + (f":{place}" if place > 1 else "") in makefile, keyword


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "keizer_xl.po"


@pytest.mark.parametrize("language", OTHERS)
def test_every_message_is_translated(language: str) -> None:
    with open(po_path(language), "rb") as f:
        catalog = read_po(f)
    translated = {m.id: m.string for m in catalog if m.id and m.string and not m.fuzzy}
    missing = sorted(messages() - set(translated))
    assert not missing, f"no {language} translation for: {missing}"
    unused = sorted(set(translated) - messages())
    assert not unused, f"{language} catalog has messages the code no longer shows: {unused}"
    for message, text in translated.items():
        assert sorted(re.findall(r"{\w+}", message)) == sorted(re.findall(r"{\w+}", text)), \
            message  # the same values, in the order the language needs
        assert message.count("\n") == text.count("\n"), message


@pytest.mark.parametrize("language", OTHERS)
def test_compiled_catalog_is_current(language: str) -> None:
    with open(po_path(language), "rb") as f:
        catalog = read_po(f)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    assert po_path(language).with_suffix(".mo").read_bytes() == compiled.getvalue(), (
        "run `make catalogs`")


def test_translate_reads_the_compiled_catalog() -> None:
    assert translate("Round shown", "nl") == "Getoonde ronde"
    assert translate("Round shown", "en") == "Round shown"
    assert translate("not a message of ours", "nl") == "not a message of ours"


# Words each language's template shows: two input titles and a setting's explanation.
TEMPLATE_WORDS = {
    "nl": ("Getoonde ronde", "Volgende ronde aanwezig?",
           "Hoeveel minder elke volgende plaats waard is."),
    "de": ("Gezeigte Runde", "Nächste Runde anwesend?",
           "Wie viel weniger jeder folgende Platz wert ist."),
    "it": ("Turno mostrato", "Presente al prossimo turno?",
           "Quanto vale in meno ogni posizione successiva."),
}


def test_every_template_speaks_its_language_within_excels_limits(tmp_path: Path) -> None:
    """Excel drops a validation whose title passes 32 characters or message 255, so each
    language's template must keep every one the English has."""
    assert set(TEMPLATE_WORDS) == set(OTHERS)
    counts = {}
    for language in ("en", *OTHERS):
        path = tmp_path / f"{language}.xlsx"
        build_template(path, language=language)
        with zipfile.ZipFile(path) as package:
            sheets = "".join(package.read(n).decode() for n in package.namelist()
                             if n.startswith("xl/worksheets/sheet"))
            strings = package.read("xl/sharedStrings.xml").decode()
        counts[language] = sheets.count("<dataValidation ")
        if language != "en":
            shown, present, explained = TEMPLATE_WORDS[language]
            assert shown in sheets and present in sheets
            for title in re.findall(r'promptTitle="([^"]*)"', sheets):
                assert len(title) <= 32, title
            for message in re.findall(r'prompt="([^"]*)"', sheets):
                assert len(message) <= 255, message
            assert explained in strings
    assert all(count == counts["en"] > 0 for count in counts.values())
