"""The code a workbook carries for xlwings Lite: its main.py and requirements.txt, kept in
the Office web-extension part that Lite itself writes (`xl/webextensions/`).

Lite keeps a workbook's Python inside the workbook, as properties of its add-in's web
extension, each value a JSON text. A workbook made here carries them from the start, so a
club with no Python anywhere opens it, adds Lite once, trusts the workbook and clicks. The
part is made and read here alone: the template and `keizer-xl new --lite` write it, and
`keizer-xl lite` reads it, warns when it names another keizer-xl, and with `--write` puts
this version's code into a workbook made before.

Not written: `pyodideVersion` and `addinVersion`. They say which Lite saved the workbook;
a workbook that never was in Lite has none, and Lite chooses its own (docs/lite.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from keizer_xl import __version__
from keizer_xl.workbook.buttons import BUTTONS

if TYPE_CHECKING:
    from keizer_xl.workbook.xlsx import NewPart, Relationship, Workbook

MAIN, REQUIREMENTS = "main.py", "requirements.txt"
SCRIPTS = tuple(button.script for button in BUTTONS)  # of keizer_xl.lite

# Lite's own lines of requirements.txt, marked as it marks them: Lite needs them (sheet
# buttons need xlwings 0.33.14 or later). xlwings at the release the Lite tests run.
XLWINGS = "0.37.8"
XLWINGS_OLDEST = (0, 33, 14)
LITE_REQUIRED = (
    f"xlwings=={XLWINGS}  # required",
    "python-dotenv  # required",
    "pyodide-http  # required",
    "black  # required",
)
PACKAGE = "keizer-xl"

# The parts, as workbooks saved by xlwings Lite have them
TASKPANES = "xl/webextensions/taskpanes.xml"
WEBEXTENSION = "xl/webextensions/webextension1.xml"
TASKPANES_TYPE = "application/vnd.ms-office.webextensiontaskpanes+xml"
WEBEXTENSION_TYPE = "application/vnd.ms-office.webextension+xml"
TASKPANES_REL = "http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes"
WEBEXTENSION_REL = "http://schemas.microsoft.com/office/2011/relationships/webextension"
_WE = "http://schemas.microsoft.com/office/webextensions/webextension/2010/11"
_WETP = "http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11"
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
LITE_ID = "wa200008175"  # xlwings Lite in Office's add-in store
# One fixed id for the extension's instance, so that two builds are byte-identical
_INSTANCE = "{5A3C1E2B-7D4F-4E8A-9B6C-2F1D0E3A4B5C}"
_XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


def main_py(language: str) -> str:
    """Lite's main.py for a workbook in `language`: the scripts of `keizer_xl.lite`, whose
    buttons name the English sheets, or those `scripts(language)` makes."""
    if language == "en":
        return f"from keizer_xl.lite import {', '.join(sorted(SCRIPTS))}\n"
    return f'from keizer_xl.lite import scripts\n\n{", ".join(SCRIPTS)} = scripts("{language}")\n'


def requirements_txt(existing: str | None = None) -> str:
    """Lite's requirements.txt: Lite's own required lines and this keizer-xl. From an
    `existing` one every line is kept but keizer-xl's, which names this version, and an
    xlwings too old for sheet buttons; a required line it lacks is added at the top."""
    ours = f"{PACKAGE}=={__version__}"
    kept: list[str] = []
    for line in (existing or "").splitlines():
        name = package_name(line)
        if name == PACKAGE:
            if ours not in kept:
                kept.append(ours)
        elif name == "xlwings" and _too_old(line):
            kept.append(LITE_REQUIRED[0])
        elif line.strip() or kept:
            kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    have = {package_name(line) for line in kept}
    missing = [line for line in LITE_REQUIRED if package_name(line) not in have]
    if ours not in kept:
        kept.append(ours)
    return "\n".join([*missing, *kept]) + "\n"


def package_name(line: str) -> str | None:
    """The package a requirements line names, normalised (None: a comment, blank, option)."""
    found = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", line)
    if found is None or line.lstrip().startswith(("#", "-")):
        return None
    return re.sub(r"[-_.]+", "-", found.group(1)).lower()


def named_version(requirements: str) -> str | None:
    """The keizer-xl version a requirements.txt pins, if it pins one."""
    for line in requirements.splitlines():
        if package_name(line) == PACKAGE:
            found = re.search(r"==\s*([^\s;#,]+)", line)
            return found.group(1) if found else None
    return None


def _too_old(line: str) -> bool:
    found = re.search(r"==\s*([0-9]+(?:\.[0-9]+)*)", line)
    if found is None:
        return False
    return tuple(int(n) for n in found.group(1).split(".")) < XLWINGS_OLDEST


def lite_code(language: str, existing: Mapping[str, str] | None = None) -> dict[str, str]:
    """main.py and requirements.txt for a workbook in `language` (see `requirements_txt`
    for what is kept of an `existing` requirements.txt)."""
    return {
        MAIN: main_py(language),
        REQUIREMENTS: requirements_txt((existing or {}).get(REQUIREMENTS)),
    }


# -- the part -----------------------------------------------------------------------------


def property_value(text: str) -> str:
    """A property's value as Lite stores it: a JSON text, XML-escaped for its attribute."""
    return _attribute(json.dumps(text, ensure_ascii=False))


def _attribute(value: str) -> str:
    return (
        value.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("\t", "&#9;")
        .replace("\n", "&#10;")
        .replace("\r", "&#13;")
    )


def taskpanes_xml() -> bytes:
    """One task pane, docked right and shown when the workbook opens, for the extension."""
    return (
        f'{_XML}<wetp:taskpanes xmlns:wetp="{_WETP}">'
        '<wetp:taskpane dockstate="right" visibility="1" width="350" row="0">'
        f'<wetp:webextensionref xmlns:r="{_R}" r:id="rId1"/>'
        "</wetp:taskpane></wetp:taskpanes>"
    ).encode()


def webextension_xml(properties: Mapping[str, str], old: bytes | None = None) -> bytes:
    """The web extension of xlwings Lite with these properties; from an `old` one (a part
    Lite saved), everything kept but the values of these properties."""
    if old is not None:
        kept = _with_properties(old.decode("utf-8"), properties)
        if kept is not None:
            return kept.encode("utf-8")
    items = "".join(
        f'<we:property name="{_attribute(name)}" value="{property_value(value)}"/>'
        for name, value in properties.items()
    )
    reference = f'id="{LITE_ID}" version="1.0.0.0" store="en-US" storeType="OMEX"'
    return (
        f'{_XML}<we:webextension xmlns:we="{_WE}" id="{_INSTANCE}">'
        f"<we:reference {reference}/>"
        f'<we:alternateReferences><we:reference id="{LITE_ID}" version="1.0.0.0" '
        'store="WA200008175" storeType="OMEX"/></we:alternateReferences>'
        f"<we:properties>{items}</we:properties>"
        f'<we:bindings/><we:snapshot xmlns:r="{_R}"/></we:webextension>'
    ).encode()


def _with_properties(text: str, properties: Mapping[str, str]) -> str | None:
    """The part's text with these properties' values set (added at the end of the
    property list when missing); None when it has no property list to put them in."""
    root = re.search(r"<(\w+:)?webextension\b", text)
    p = root.group(1) or "" if root else ""
    for name, value in properties.items():
        item = f'<{p}property name="{_attribute(name)}" value="{property_value(value)}"/>'
        found = re.search(
            rf'<{re.escape(p)}property\s+name="{re.escape(_attribute(name))}"'
            r'\s+value="[^"]*"\s*/>',
            text,
        )
        if found is not None:
            text = text[: found.start()] + item + text[found.end() :]
        elif (end := text.find(f"</{p}properties>")) >= 0:
            text = text[:end] + item + text[end:]
        elif (empty := re.search(rf"<{re.escape(p)}properties\s*/>", text)) is not None:
            text = (
                text[: empty.start()]
                + f"<{p}properties>{item}</{p}properties>"
                + text[empty.end() :]
            )
        else:
            return None
    return text


class LiteCode(NamedTuple):
    """What a workbook's web extension of xlwings Lite holds, read back: its properties
    (JSON values decoded) and its part's name and bytes, for writing it again."""

    properties: dict[str, str]
    part: str
    xml: bytes


def read_code(path: Path) -> LiteCode | None:
    """The Lite code the workbook carries, or None when it carries none. A file that
    cannot be read is a FileProblem naming it."""
    from keizer_xl.workbook.files import as_file_problem
    from keizer_xl.workbook.xlsx import Workbook

    with as_file_problem(path):
        return _code_in(Workbook(path, write=False))


def _code_in(book: Workbook) -> LiteCode | None:
    for panes in book.related("", TASKPANES_REL):
        for part in book.related(panes, WEBEXTENSION_REL):
            found = book.elements(part)
            references = [
                a.get("id", "").lower() for _, tag, a in found if tag == f"{_WE}}}reference"
            ]
            if LITE_ID not in references:
                continue
            properties = {
                a.get("name", ""): _decoded(a.get("value", ""))
                for _, tag, a in found
                if tag == f"{_WE}}}property"
            }
            return LiteCode(properties, part, book.package.part(part) or b"")
    return None


def _decoded(value: str) -> str:
    """A property's JSON text as the string it stands for (as it is when it is no JSON
    string)."""
    try:
        decoded = json.loads(value)
    except ValueError:
        return value
    return decoded if isinstance(decoded, str) else value


class CodeWritten(NamedTuple):
    """What `write_code` did: whether the file changed, and the keizer-xl version the
    workbook's code named before (None: no code, or no version)."""

    changed: bool
    before: str | None
    main_replaced: bool  # main.py held something else than keizer_xl's own, now replaced


def write_code(path: Path, language: str) -> CodeWritten:
    """Put this version's main.py and requirements.txt for a workbook in `language` into
    the secretary's workbook (see `put_code`), holding its writer lock, the old one kept as
    its backup; what stops it is a FileProblem naming the file."""
    from keizer_xl.workbook.files import one_writer_held

    with one_writer_held(path):
        return put_code(path, language, backup=True)


def put_code(path: Path, language: str, backup: bool = False) -> CodeWritten:
    """Put this version's main.py and requirements.txt for a workbook in `language` into
    the workbook, in the part Lite reads: made when missing, else only its two values
    changed (Lite's other settings kept). Atomic; every other part is copied as it is."""
    from keizer_xl.workbook.xlsx import NewPart, Workbook

    book = Workbook(path)
    found = _code_in(book)
    old = found.properties if found else {}
    code = lite_code(language, old)
    before = named_version(old.get(REQUIREMENTS, "")) if found else None
    earlier = old.get(MAIN, "").strip()
    replaced = bool(earlier) and earlier not in {main_py(lang).strip() for lang in _languages()}
    if found is not None:
        parts = [NewPart(found.part, webextension_xml(code, found.xml))]
        relationships: list[Relationship] = []
    else:
        parts, relationships = _beside_other_add_ins(book, webextension_xml(code))
    changed = book.save_parts(parts, relationships, backup=backup)
    return CodeWritten(changed, before, replaced and changed)


def _beside_other_add_ins(
    book: Workbook, extension: bytes
) -> tuple[list[NewPart], list[Relationship]]:
    """The parts and relationships that add Lite's extension: the task panes made, or, in a
    workbook that has other add-ins' already, Lite's pane added to theirs and its extension
    under a name of its own, so that nothing of theirs is lost."""
    from keizer_xl.workbook.xlsx import NewPart, Relationship

    panes = next(iter(book.related("", TASKPANES_REL)), None)
    if panes is None:
        return (
            [
                NewPart(TASKPANES, taskpanes_xml(), TASKPANES_TYPE),
                NewPart(WEBEXTENSION, extension, WEBEXTENSION_TYPE),
            ],
            [
                Relationship("", TASKPANES_REL, TASKPANES),
                Relationship(TASKPANES, WEBEXTENSION_REL, WEBEXTENSION, "rId1"),
            ],
        )
    folder = panes.rsplit("/", 1)[0] if "/" in panes else ""
    name = next(
        f"{folder}/webextension{n}.xml"
        for n in range(1, 10_000)
        if book.package.part(f"{folder}/webextension{n}.xml") is None
    )
    rels = f"{folder}/_rels/{panes.rsplit('/', 1)[-1]}.rels"
    taken = (
        {a.get("Id") for _, _, a in book.elements(rels)}
        if book.package.part(rels) is not None
        else set()
    )
    rid = next(f"rId{n}" for n in range(1, len(taken) + 2) if f"rId{n}" not in taken)
    text = (book.package.part(panes) or b"").decode("utf-8")
    root = re.search(r"<(\w+:)?taskpanes\b", text)
    p = (root.group(1) or "") if root else ""
    pane = (
        f'<{p}taskpane dockstate="right" visibility="1" width="350" row="0">'
        f'<{p}webextensionref xmlns:r="{_R}" r:id="{rid}"/></{p}taskpane>'
    )
    end = text.rfind(f"</{p}taskpanes>")
    if end < 0:  # <taskpanes/>: no pane yet
        empty = re.search(rf"<{re.escape(p)}taskpanes\b[^>]*/>", text)
        if empty is None:
            from keizer_xl.core.messages import msg
            from keizer_xl.workbook.files import FileProblem

            raise FileProblem(
                msg(
                    "{file} is damaged (its part {part} is unreadable).",
                    file=book.path.name,
                    part=panes,
                )
            )
        text = text[: empty.end() - 2] + ">" + pane + f"</{p}taskpanes>" + text[empty.end() :]
    else:
        text = text[:end] + pane + text[end:]
    return (
        [NewPart(panes, text.encode("utf-8")), NewPart(name, extension, WEBEXTENSION_TYPE)],
        [Relationship(panes, WEBEXTENSION_REL, name, rid)],
    )


def _languages() -> tuple[str, ...]:
    from keizer_xl.i18n import LANGUAGES

    return tuple(LANGUAGES)
