"""Every message of the code has its translation in every catalog, and the compiled
catalogs are what their sources compile to."""

from __future__ import annotations

import ast
import functools
import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract, extract_from_dir
from babel.messages.mofile import read_mo
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
# and in the page templates. The Makefile's `catalogs` extracts with the same words, and
# reads the code as calls (keizer_xl/i18n/extract.py, named in babel.cfg), as here.
KEYWORDS = {
    "translate": (1,),
    "_t": (1,),
    "t": (1,),
    "msg": (1,),
    "reason": (1,),
    "WorkbookLocked": (1,),
    "WorkbookBusy": (1,),
    "NotAWorkbook": (1,),
    "MissingSheet": (1,),
    "SheetTooLarge": (2,),
    "OutsideSheet": (1,),
    "CopiedFormula": (1,),
    "UnstorableValue": (1,),
    "NotACellValue": (1,),
    "SettingSpec": (5,),
    "_choice": (5,),
}
CALLS = "keizer_xl.i18n.extract:marked_calls"
METHODS = [("**.py", CALLS), ("**/templates/**.j2", "jinja2.ext:babel_extract")]


@functools.cache  # the code does not change during a test run: extracted once
def messages() -> frozenset[str]:
    """What the code shows: every marked message."""
    found = {
        entry[2]
        for entry in extract_from_dir(
            str(PACKAGE), method_map=METHODS, keywords=KEYWORDS, comment_tags=()
        )
        if isinstance(entry[2], str)
    }
    templates = {
        entry[2]
        for entry in extract_from_dir(
            str(PACKAGE / "publish"), method_map=METHODS[1:], keywords=KEYWORDS, comment_tags=()
        )
    }
    assert len(found) >= 300 and len(templates) >= 40, (len(found), len(templates))
    assert {spec.meaning for spec in SPECS} <= found  # the settings' explanations too
    return frozenset(found)


# -- templates chosen in code ----------------------------------------------------------------
# `make catalogs` (Babel) finds a template only where it is written inside the marked call:
# `msg("1 game" if n == 1 else "{n} games")`, or `template = ...; msg(template)`, are not
# found, never translated, and said in English in a Dutch workbook. The walk below finds
# what such a call can receive, so that each is looked up in every catalog too.


def _marked(node: ast.Call) -> ast.expr | None:
    """The template argument of a call with one of the keywords, if it has one."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    places = KEYWORDS.get(name)
    if places is None or len(node.args) < places[0]:
        return None
    return node.args[places[0] - 1]


def _assigned(name: str, scopes: list[ast.AST]) -> Iterator[ast.expr]:
    """The values assigned to `name` in the innermost scope that assigns it."""
    for scope in reversed(scopes):
        found = [
            node.value
            for node in ast.walk(scope)
            if isinstance(node, ast.Assign)
            and node.value is not None
            and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
        ]
        if found:
            yield from found
            return


def _templates(
    node: ast.expr, scopes: list[ast.AST], where: str, found: dict[str, str], unfit: list[str]
) -> None:
    """What a template argument can be: literals, chosen between (`a if n == 1 else b`, `or`,
    a dict of them) or assigned to a name first. A parameter of the function is passed
    through (its callers are walked), and so is an attribute (a template kept by an object
    made with a marked call: a setting's explanation, an xlsx error); a template made up of
    pieces (an f-string, `+`) cannot be in a catalog at all."""
    choices: list[ast.expr] = (
        [node.body, node.orelse]
        if isinstance(node, ast.IfExp)
        else list(node.values)
        if isinstance(node, ast.BoolOp | ast.Dict)
        else [node.value]
        if isinstance(node, ast.Subscript)
        else []
    )
    for choice in choices:
        _templates(choice, scopes, where, found, unfit)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        found.setdefault(node.value, where)
    elif isinstance(node, ast.Name):
        function = next(
            (s for s in reversed(scopes) if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)),
            None,
        )
        parameters = (
            {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}
            if function is not None
            else set()
        )
        if node.id not in parameters:
            for value in _assigned(node.id, scopes):
                _templates(value, scopes, where, found, unfit)
    elif isinstance(node, ast.JoinedStr | ast.BinOp):
        unfit.append(where)


def chosen_in_code(source: str, file: str = "<code>") -> tuple[dict[str, str], list[str]]:
    """The templates a marked call in `source` receives other than as its own literal,
    each with where (file:line); and the calls whose template is made up of pieces."""
    found: dict[str, str] = {}
    unfit: list[str] = []

    def walk(node: ast.AST, scopes: list[ast.AST]) -> None:
        if isinstance(node, ast.Call):
            argument = _marked(node)
            if argument is not None and not (isinstance(argument, ast.Constant)):
                _templates(argument, scopes, f"{file}:{node.lineno}", found, unfit)
        inner = (
            [*scopes, node]
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            else scopes
        )
        for child in ast.iter_child_nodes(node):
            walk(child, inner)

    tree = ast.parse(source)
    walk(tree, [tree])
    return found, unfit


@functools.cache
def every_template() -> tuple[frozenset[str], dict[str, str]]:
    """Every template the code can say: those `make catalogs` extracts, and those chosen
    in code (with where they are chosen)."""
    chosen: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        found, unfit = chosen_in_code(
            path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE))
        )
        assert not unfit, f"a template made up of pieces cannot be translated: {unfit}"
        chosen.update(found)
    return messages() | set(chosen), chosen


def test_the_walk_finds_a_template_chosen_in_code() -> None:
    source = (
        "def warn(players, kind):\n"
        "    template = ('{names} is in no row' if len(players) == 1 else\n"
        "                '{names} are in no row')\n"
        "    words = {'bye': 'a bye', 'club': 'club duty'}\n"
        "    return msg(template, names=players), msg(words[kind]), t(kind)\n"
        "def said(template):\n"
        "    return translate(template, 'nl')\n"
        "def glued(n):\n"
        "    return msg(f'{n} games')\n"
    )
    found, unfit = chosen_in_code(source, "warn.py")
    assert set(found) == {"{names} is in no row", "{names} are in no row", "a bye", "club duty"}
    assert found["a bye"] == "warn.py:5" and unfit == ["warn.py:9"]


def test_only_a_call_makes_a_message() -> None:
    """A marked name that is no call (`self.reason[...]`, a parameter `t`), a docstring, an
    f-string with values: none of them is a message. (Babel 2.19's own Python method took
    the docstring below for one, glued to "excused".)"""
    source = (
        "class Table:\n"
        "    def fill(self, t, kind):\n"
        "        self.reason[kind] = CODE[kind]\n"
        '        if kind == "excused":\n'
        "            self.points(t[0])\n"
        "\n"
        "    def points(self, n):\n"
        '        """A docstring, never a message."""\n'
        '        said = reason("{n} points" " a round", n=n)\n'
        '        return (said, t(f"plain"), t(f"{n} games"),\n'
        '                words.msg("a bye"), SheetTooLarge(sheet, "{rows} rows"),\n'
        '                SettingSpec("name", 1, int, "x", meaning="What it does."))\n'
    )
    found = {entry[1] for entry in extract(CALLS, io.BytesIO(source.encode()), keywords=KEYWORDS)}
    assert found == {"{n} points a round", "plain", "a bye", "{rows} rows", "What it does."}
    babel = (PACKAGE / "i18n" / "babel.cfg").read_text(encoding="utf-8")
    assert f"calls = {CALLS}\n" in babel and "[calls: **.py]" in babel  # as make catalogs


def test_a_template_chosen_in_code_is_where_make_catalogs_finds_it() -> None:
    """A template chosen in code is also written inside a marked call, so that `make
    catalogs` keeps it in the catalogs (else it would be dropped as no longer used)."""
    _, chosen = every_template()
    lost = {template: where for template, where in chosen.items() if template not in messages()}
    assert not lost, f"write these inside the msg(...)/t(...) call: {lost}"


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
    missing = sorted(every_template()[0] - set(translated))
    assert not missing, f"no {language} translation for: {missing}"
    unused = sorted(set(translated) - messages())
    assert not unused, f"{language} catalog has messages the code no longer shows: {unused}"
    for message, text in translated.items():
        assert sorted(re.findall(r"{\w+}", message)) == sorted(re.findall(r"{\w+}", text)), (
            message
        )  # the same values, in the order the language needs
        assert message.count("\n") == text.count("\n"), message


def said(catalog: Catalog) -> tuple[set[tuple[object, ...]], list[tuple[str, str]]]:
    """What a catalog makes keizer_xl say, as compiled (no untranslated or fuzzy entry), and
    its header less the Babel version that wrote it."""
    return (
        {(m.id, m.string, m.context) for m in catalog if m.id and m.string and not m.fuzzy},
        [h for h in catalog.mime_headers if h[0] != "Generated-By"],
    )


@pytest.mark.parametrize("language", OTHERS)
def test_compiled_catalog_is_current(language: str) -> None:
    with open(po_path(language), "rb") as f:
        source = read_po(f)
    with open(po_path(language).with_suffix(".mo"), "rb") as f:
        compiled = read_mo(f)
    assert said(compiled) == said(source), "run `make catalogs`"
    assert len(said(source)[0]) >= 300


def test_translate_reads_the_compiled_catalog() -> None:
    assert translate("Round shown", "nl") == "Getoonde ronde"
    assert translate("Round shown", "en") == "Round shown"
    assert translate("not a message of ours", "nl") == "not a message of ours"


# Words each language's template shows: two input titles and a setting's explanation.
TEMPLATE_WORDS = {
    "nl": (
        "Getoonde ronde",
        "Volgende ronde aanwezig?",
        "Hoeveel minder elke volgende plaats waard is.",
    ),
    "de": (
        "Gezeigte Runde",
        "Nächste Runde anwesend?",
        "Wie viel weniger jeder folgende Platz wert ist.",
    ),
    "it": (
        "Turno mostrato",
        "Presente al prossimo turno?",
        "Quanto vale in meno ogni posizione successiva.",
    ),
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
            sheets = "".join(
                package.read(n).decode()
                for n in package.namelist()
                if n.startswith("xl/worksheets/sheet")
            )
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
