"""The setting names docs/languages.md lists are the ones each language's workbook writes."""

from __future__ import annotations

from pathlib import Path

from keizer_xl.core.settings import SETTINGS
from keizer_xl.i18n import LANGUAGES, RECORDS
from keizer_xl.i18n.names import SETTING_TRANSLATIONS

DOC = Path(__file__).parents[2] / "docs" / "languages.md"


def test_the_setting_names_table_is_the_workbooks() -> None:
    section = DOC.read_text(encoding="utf-8").split("## Setting names\n", 1)[1].split("\n## ", 1)[0]
    header, _, *rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in section.splitlines()
        if line.startswith("|")
    ]
    languages = [code for code in LANGUAGES if code != "en"]  # a column each, by its name
    assert header == ["Setting", *(RECORDS[code].name for code in languages)]
    assert [row[0] for row in rows] == list(SETTINGS)
    for row in rows:
        assert row[1:] == [SETTING_TRANSLATIONS[language][row[0]] for language in languages]
