"""The code a workbook carries for xlwings Lite (`workbook.liteparts`): the web-extension part
read back here independently (zipfile and an XML parser, following the relationships as
Office does), from `keizer-xl new --lite` in every language and with every source of
players, and from the committed templates; the JSON-in-XML values round-tripped; `keizer-xl
lite --write` on workbooks made before, atomic and leaving every other part as it was; the
warning for code of another keizer-xl."""

from __future__ import annotations

import json
import os
import posixpath
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from defusedxml.ElementTree import fromstring

from keizer_xl import __version__
from keizer_xl.i18n import LANGUAGES
from keizer_xl.workbook.liteparts import (
    put_code,
    read_code,
    requirements_txt,
    webextension_xml,
)
from keizer_xl.workbook.template import build_template
from tests.helpers_package import libreoffice_convert, members

REPO = Path(__file__).resolve().parents[2]
PKG = "{http://schemas.openxmlformats.org/package/2006/relationships}"
TYPES = "{http://schemas.openxmlformats.org/package/2006/content-types}"
WE = "{http://schemas.microsoft.com/office/webextensions/webextension/2010/11}"
WETP = "{http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11}"
R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
PANES_REL = "http://schemas.microsoft.com/office/2011/relationships/webextensiontaskpanes"
EXTENSION_REL = "http://schemas.microsoft.com/office/2011/relationships/webextension"

# main.py as docs/lite.md shows it, for an English workbook and for a Dutch one
ENGLISH_MAIN = (
    "from keizer_xl.lite import pair_next_round, publish, recalculate, undo_last_pairing\n"
)
SCRIPTS_MAIN = (
    "from keizer_xl.lite import scripts\n\n"
    'pair_next_round, recalculate, undo_last_pairing, publish = scripts("{}")\n'
)


def expected_main(language: str) -> str:
    return ENGLISH_MAIN if language == "en" else SCRIPTS_MAIN.format(language)


def relationships(package: zipfile.ZipFile, source: str) -> list[tuple[str, str]]:
    """(type, target part) of a part's relationships ('' for the package's)."""
    folder, name = posixpath.split(source)
    rels = fromstring(package.read(posixpath.join(folder, "_rels", f"{name}.rels")))
    return [
        (r.get("Type"), posixpath.normpath(posixpath.join(folder, r.get("Target"))))
        for r in rels.iter(f"{PKG}Relationship")
    ]


def lite_part(path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The properties of xlwings Lite's web extension (JSON values decoded) and the
    attributes of its reference, found as Office finds them: from the package's
    relationships to the task panes, from theirs to the extension. Asserts the content
    types the spec gives on the way."""
    with zipfile.ZipFile(path) as package:
        types = {
            o.get("PartName"): o.get("ContentType")
            for o in fromstring(package.read("[Content_Types].xml")).iter(f"{TYPES}Override")
        }
        (panes,) = [t for kind, t in relationships(package, "") if kind == PANES_REL]
        assert panes == "xl/webextensions/taskpanes.xml"
        assert types[f"/{panes}"] == "application/vnd.ms-office.webextensiontaskpanes+xml"
        root = fromstring(package.read(panes))
        assert root.tag == f"{WETP}taskpanes"
        (pane,) = root.iter(f"{WETP}taskpane")
        assert pane.get("dockstate") == "right" and pane.get("visibility") in ("0", "1")
        (ref,) = pane.iter(f"{WETP}webextensionref")
        rel_id = ref.get(R_ID)
        folder, name = posixpath.split(panes)
        rels = fromstring(package.read(f"{folder}/_rels/{name}.rels"))
        (target,) = [
            r.get("Target")
            for r in rels.iter(f"{PKG}Relationship")
            if r.get("Id") == rel_id and r.get("Type") == EXTENSION_REL
        ]
        part = posixpath.join(folder, target)
        assert part == "xl/webextensions/webextension1.xml"
        assert types[f"/{part}"] == "application/vnd.ms-office.webextension+xml"
        extension = fromstring(package.read(part))
    assert extension.tag == f"{WE}webextension"
    assert re.fullmatch(r"\{[0-9A-F-]{36}\}", extension.get("id"))
    reference = extension.find(f"{WE}reference")
    alternate = extension.find(f"{WE}alternateReferences/{WE}reference")
    assert alternate is not None and alternate.get("store") == "WA200008175"
    assert [child.tag.removeprefix(WE) for child in extension] == [
        "reference",
        "alternateReferences",
        "properties",
        "bindings",
        "snapshot",
    ]
    properties = {
        p.get("name"): json.loads(p.get("value")) for p in extension.iter(f"{WE}property")
    }
    return properties, dict(reference.attrib)


def assert_lite_code(path: Path, language: str) -> None:
    properties, reference = lite_part(path)
    assert reference == {
        "id": "wa200008175",
        "version": "1.0.0.0",
        "store": "en-US",
        "storeType": "OMEX",
    }
    assert set(properties) == {"main.py", "requirements.txt"}  # Lite chooses its Pyodide
    assert properties["main.py"] == expected_main(language)
    lines = properties["requirements.txt"].splitlines()
    assert properties["requirements.txt"].endswith("\n")
    assert lines[-1] == f"keizer-xl=={__version__}"
    xlwings = re.fullmatch(r"xlwings==(\d+)\.(\d+)\.(\d+)  # required", lines[0])
    assert xlwings is not None, lines[0]  # sheet buttons need 0.33.14 or later
    assert tuple(map(int, xlwings.groups())) >= (0, 33, 14)
    assert [re.split(r"[=\s]", line)[0] for line in lines[1:-1]] == [
        "python-dotenv",
        "pyodide-http",
        "black",
    ]
    assert all(line.endswith("  # required") for line in lines[:-1])


def assert_sound_package(path: Path) -> None:
    """Every part has a content type, every Override and relationship names a part that is
    there, and every XML part is well-formed: what Excel would otherwise call damage."""
    with zipfile.ZipFile(path) as package:
        names = set(package.namelist())
        types = fromstring(package.read("[Content_Types].xml"))
        overrides = {o.get("PartName").lstrip("/") for o in types.iter(f"{TYPES}Override")}
        defaults = {d.get("Extension").lower() for d in types.iter(f"{TYPES}Default")}
        assert overrides <= names
        for name in names - {"[Content_Types].xml"}:
            assert name in overrides or name.rsplit(".", 1)[-1].lower() in defaults, name
            if name.endswith((".xml", ".rels")):
                fromstring(package.read(name))
            if name.endswith(".rels"):
                source = name.replace("_rels/", "").removesuffix(".rels")
                for rel in fromstring(package.read(name)).iter(f"{PKG}Relationship"):
                    if rel.get("TargetMode") != "External" and not rel.get("Target").startswith(
                        "#"
                    ):  # a place in the book
                        target = posixpath.normpath(
                            posixpath.join(posixpath.dirname(source), rel.get("Target"))
                        )
                        assert target.lstrip("/") in names, (name, target)


# -- new workbooks and the templates carry it ------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_new_lite_carries_the_code_in_every_language(
    tmp_path: Path, language: str, cli: Callable[..., Result]
) -> None:
    path = tmp_path / "club.xlsx"
    done = cli("new", path, "--lite", "--lang", language)
    assert done.exit_code == 0, done.output
    assert_lite_code(path, language)
    assert_sound_package(path)
    code = read_code(path)
    assert code is not None and code.properties == lite_part(path)[0]


def test_every_way_of_making_a_lite_workbook_carries_it(
    tmp_path: Path, cli: Callable[..., Result]
) -> None:
    """From a member list, and from last season's (Dutch) workbook: the new one's language."""
    members_list = tmp_path / "leden.csv"
    members_list.write_text("Naam;Rating\nAnna;1800\nBram;1700\n", encoding="utf-8")
    listed = tmp_path / "listed.xlsx"
    assert cli("new", listed, "--players", members_list, "--lite").exit_code == 0
    assert_lite_code(listed, "en")
    last = tmp_path / "vorig.xlsx"
    assert cli("new", last, "--players", members_list, "--lang", "nl").exit_code == 0
    following = tmp_path / "volgend.xlsx"
    done = cli("new", following, "--from", last, "--lite")
    assert done.exit_code == 0, done.output
    assert_lite_code(following, "nl")
    with pytest.raises(ValueError):  # a workbook not for Lite carries none
        lite_part(last)
    assert read_code(last) is None


@pytest.mark.parametrize(
    "name, language",
    [
        ("keizer_xl_lite.xlsx", "en"),
        ("keizer_xl_lite_nl.xlsx", "nl"),
        ("keizer_xl_lite_de.xlsx", "de"),
        ("keizer_xl_lite_it.xlsx", "it"),
    ],
)
def test_the_lite_templates_carry_the_code_and_are_fresh_builds(
    tmp_path: Path, name: str, language: str
) -> None:
    """For a club with no Python anywhere: the committed template is all it needs."""
    committed = REPO / "templates" / name
    assert_lite_code(committed, language)
    fresh = tmp_path / name
    build_template(fresh, language=language, lite=True)
    assert committed.read_bytes() == fresh.read_bytes(), "run `make template`"


def test_the_status_area_says_how_to_start_lite(tmp_path: Path) -> None:
    """Below the buttons, until the first click writes its message in their place."""
    from tests.live.test_live import Excel

    path = tmp_path / "club.xlsx"
    build_template(path, language="nl", lite=True)
    lines = [row[6] for row in Excel.from_file(path).sheets["Indeling"][13:] if len(row) > 6]
    text = " ".join(line for line in lines if line)
    assert text.startswith("Om te beginnen: Start ▸ Invoegtoepassingen, voeg xlwings Lite toe")
    assert "vertrouw" in text and text.endswith("komt hier te staan.")


# -- the values: JSON texts inside XML attributes ---------------------------------------------

AWKWARD = (
    '# "quotes" & <tags> </we:property> \\ backslash\n\ttab, line\r\nbreaks\n'
    "Ünïcödé ♞ 象棋 — and a / slash\n"
)


def test_values_round_trip_through_json_and_xml() -> None:
    xml = webextension_xml({"main.py": AWKWARD, "requirements.txt": "keizer-xl==0.2.0\n"})
    extension = fromstring(xml)
    values = {p.get("name"): p.get("value") for p in extension.iter(f"{WE}property")}
    assert json.loads(values["main.py"]) == AWKWARD
    assert b"\n" not in xml.split(b"?>\n", 1)[1]  # the newlines are JSON's \n, inside one line
    assert b'value="&quot;# \\&quot;quotes\\&quot; &amp; &lt;tags&gt;' in xml


LITE_SAVED = (  # written for this test after the spec: a part as xlwings Lite saves it
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<we:webextension xmlns:we="http://schemas.microsoft.com/office/webextensions/webextension/'
    '2010/11" id="{0B9B6A4E-1C2D-4E5F-8A9B-0C1D2E3F4A5B}"><we:reference id="wa200008175" '
    'version="1.0.0.0" store="en-IN" storeType="OMEX"/><we:alternateReferences>'
    '<we:reference id="WA200008175" version="1.0.0.0" store="WA200008175" storeType="OMEX"/>'
    "</we:alternateReferences><we:properties>"
    '<we:property name="main.py" value="&quot;import xlwings as xw\\n\\n# Lite\\u0027s '
    'example, \\&quot;hello\\&quot; \\/ world\\n&quot;"/>'
    '<we:property name="requirements.txt" value="&quot;xlwings==0.33.15  # required\\n'
    "python-dotenv==1.0.1  # required\\npyodide-http  # required\\nblack  # required\\n"
    'keizer-xl==0.1.0\\npolars\\n&quot;"/>'
    '<we:property name="pyodideVersion" value="&quot;0.27.5&quot;"/>'
    '<we:property name="addinVersion" value="&quot;1.0.0.0-18&quot;"/></we:properties>'
    '<we:bindings/><we:snapshot xmlns:r="http://schemas.openxmlformats.org/officeDocument/'
    '2006/relationships"/><we:extLst><a:ext xmlns:a="http://schemas.openxmlformats.org/'
    'drawingml/2006/main" uri="{D87F86FE-615C-45B5-9D79-34F1136793EB}"><we:containsCustom'
    'Functions val="1"/></a:ext></we:extLst></we:webextension>'
)


def lite_saved(tmp_path: Path, language: str = "en") -> Path:
    """A season's workbook as Lite saves it: its code, its settings, its extension list."""
    path = tmp_path / "club.xlsx"
    build_template(
        path, [{"Name": "Anna", "Rating": 1800, "Present": "x"}], language=language, lite=True
    )
    with zipfile.ZipFile(path) as old:
        parts = [(info, old.read(info)) for info in old.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as new:
        for info, data in parts:
            if info.filename == "xl/webextensions/webextension1.xml":
                data = LITE_SAVED.encode()
            new.writestr(info, data)
    return path


def test_a_part_lite_saved_is_read(tmp_path: Path) -> None:
    code = read_code(lite_saved(tmp_path))
    assert code is not None
    assert (
        code.properties["main.py"] == 'import xlwings as xw\n\n# Lite\'s example, "hello" / world\n'
    )
    assert code.properties["pyodideVersion"] == "0.27.5"


def test_write_keeps_lites_own_lines_and_settings(
    tmp_path: Path, cli: Callable[..., Result]
) -> None:
    """Lite's required lines and the club's own packages stay; keizer-xl's line names this
    version; main.py is this version's; Lite's other settings stay as they were."""
    path = lite_saved(tmp_path)
    done = cli("lite", path, "--write")
    assert done.exit_code == 0, done.output
    code = read_code(path)
    assert code is not None
    properties = code.properties
    assert properties["requirements.txt"] == (
        "xlwings==0.33.15  # required\npython-dotenv==1.0.1  # required\n"
        f"pyodide-http  # required\nblack  # required\nkeizer-xl=={__version__}\npolars\n"
    )
    assert properties["main.py"] == ENGLISH_MAIN
    assert (properties["pyodideVersion"], properties["addinVersion"]) == ("0.27.5", "1.0.0.0-18")
    text = members(path)["xl/webextensions/webextension1.xml"].decode()
    assert 'store="en-IN"' in text and '<we:containsCustomFunctions val="1"/>' in text
    assert "was for keizer-xl 0.1.0" in done.output
    assert "held other code" in done.output  # Lite's example, in the backup
    backup = read_code(path.with_name("club.backup.xlsx"))
    assert backup is not None and backup.properties["main.py"].startswith("import xlwings")


def test_an_xlwings_too_old_for_sheet_buttons_is_raised() -> None:
    merged = requirements_txt("xlwings==0.33.10  # required\nnumpy\nkeizer-xl==0.1.0\n")
    lines = merged.splitlines()
    (xlwings,) = [line for line in lines if line.startswith("xlwings")]
    version = re.fullmatch(r"xlwings==(\d+)\.(\d+)\.(\d+)  # required", xlwings)
    assert version is not None and tuple(map(int, version.groups())) >= (0, 33, 14)
    assert [line for line in lines if line.startswith("keizer-xl")] == [f"keizer-xl=={__version__}"]
    assert "numpy" in lines
    assert {re.split(r"[=\s]", line)[0] for line in lines} == {
        "xlwings",
        "python-dotenv",
        "pyodide-http",
        "black",
        "numpy",
        "keizer-xl",
    }


# -- lite --write on a workbook made before ---------------------------------------------------


def test_write_adds_the_part_and_changes_nothing_else(
    tmp_path: Path, cli: Callable[..., Result]
) -> None:
    """A club moving to this keizer-xl with last year's Lite workbook (no code inside): the
    three parts are added; of the rest only the content types and the package's
    relationships change, each by the one element added."""
    path = tmp_path / "club.xlsx"
    build_template(
        path,
        [{"Name": f"P{n}", "Rating": 1500 + n, "Present": "x"} for n in range(6)],
        language="de",
    )
    assert cli("pair", path).exit_code == 0
    before = members(path)
    with zipfile.ZipFile(path) as package:
        order = package.namelist()
    done = cli("lite", path, "--write")
    assert done.exit_code == 0, done.output
    after = members(path)
    added = {
        "xl/webextensions/taskpanes.xml",
        "xl/webextensions/webextension1.xml",
        "xl/webextensions/_rels/taskpanes.xml.rels",
    }
    assert set(after) == set(before) | added
    with zipfile.ZipFile(path) as package:
        assert package.namelist()[: len(order)] == order
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"[Content_Types].xml", "_rels/.rels"}
    for name, element in (
        (
            "[Content_Types].xml",
            rb'<Override PartName="/xl/webextensions/'
            rb'[^"]+" ContentType="[^"]+"/>',
        ),
        (
            "_rels/.rels",
            rb'<Relationship Id="rId\d+" Type="[^"]+'
            rb'webextensiontaskpanes" Target="[^"]+"/>',
        ),
    ):
        assert re.sub(element, b"", after[name]) == before[name]
    assert_lite_code(path, "de")
    assert_sound_package(path)
    assert (tmp_path / "club.backup.xlsx").read_bytes() != path.read_bytes()
    again = cli("lite", path, "--write")
    assert again.exit_code == 0 and "es wurde nichts geändert" in again.output
    assert members(path) == after


OTHER_ADD_IN = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<we:webextension xmlns:we="'
    b'http://schemas.microsoft.com/office/webextensions/webextension/2010/11" id="{11111111-'
    b'2222-3333-4444-555555555555}"><we:reference id="wa104380000" version="2.0.0.0" '
    b'store="nl-NL" storeType="OMEX"/><we:alternateReferences/><we:properties>'
    b'<we:property name="main.py" value="&quot;not ours&quot;"/></we:properties>'
    b"<we:bindings/><we:snapshot/></we:webextension>"
)


def test_write_keeps_another_add_ins_pane(tmp_path: Path, cli: Callable[..., Result]) -> None:
    """A workbook that another add-in keeps settings in: that add-in's pane and part stay as
    they were; Lite's pane is added beside it, its extension under a name of its own."""
    from keizer_xl.workbook.xlsx import NewPart, Relationship, Workbook

    path = tmp_path / "club.xlsx"
    build_template(path)
    panes = (
        b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<wetp:taskpanes '
        b'xmlns:wetp="http://schemas.microsoft.com/office/webextensions/taskpanes/2010/11">'
        b'<wetp:taskpane dockstate="left" visibility="0" width="300" row="2">'
        b'<wetp:webextensionref xmlns:r="http://schemas.openxmlformats.org/officeDocument/'
        b'2006/relationships" r:id="rId1"/></wetp:taskpane></wetp:taskpanes>'
    )
    folder = "xl/webextensions"
    assert Workbook(path).save_parts(
        [
            NewPart(
                f"{folder}/taskpanes.xml",
                panes,
                "application/vnd.ms-office.webextensiontaskpanes+xml",
            ),
            NewPart(
                f"{folder}/webextension1.xml",
                OTHER_ADD_IN,
                "application/vnd.ms-office.webextension+xml",
            ),
        ],
        [
            Relationship("", PANES_REL, f"{folder}/taskpanes.xml"),
            Relationship(
                f"{folder}/taskpanes.xml", EXTENSION_REL, f"{folder}/webextension1.xml", "rId1"
            ),
        ],
        backup=False,
    )
    assert read_code(path) is None  # another add-in's main.py is not Lite's
    done = cli("lite", path, "--write")
    assert done.exit_code == 0, done.output
    after = members(path)
    assert after[f"{folder}/webextension1.xml"] == OTHER_ADD_IN
    root = fromstring(after[f"{folder}/taskpanes.xml"])
    refs = [ref.get(R_ID) for ref in root.iter(f"{WETP}webextensionref")]
    assert refs == ["rId1", "rId2"]
    with zipfile.ZipFile(path) as package:
        assert sorted(relationships(package, f"{folder}/taskpanes.xml")) == [
            (EXTENSION_REL, f"{folder}/webextension1.xml"),
            (EXTENSION_REL, f"{folder}/webextension2.xml"),
        ]
    code = read_code(path)
    assert code is not None and code.part == f"{folder}/webextension2.xml"
    assert code.properties["main.py"] == ENGLISH_MAIN
    assert_sound_package(path)


def test_write_is_atomic_and_refused_while_open(
    tmp_path: Path, cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Open in Excel: refused, nothing changed. Failing halfway through the write: the
    workbook is as it was, and no half-written file is left beside it."""
    path = tmp_path / "club.xlsx"
    build_template(path)
    before = path.read_bytes()
    lock = tmp_path / "~$club.xlsx"
    lock.write_bytes(b"\x0bsecretary" + b"\x00" * 40)
    refused = cli("lite", path, "--write")
    assert refused.exit_code == 1 and before == path.read_bytes()
    lock.unlink()

    from keizer_xl.workbook.xlsx import _package

    real_write = _package.Package.write

    def broken(self: _package.Package, target: Path) -> None:
        real_write(self, target)
        with open(target, "r+b") as half:
            half.truncate(os.path.getsize(target) // 2)
        raise OSError(28, "No space left on device", str(target))

    monkeypatch.setattr(_package.Package, "write", broken)
    failed = cli("lite", path, "--write")
    assert failed.exit_code == 1
    assert "nothing was changed" in failed.output
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.xlsx"]


def test_put_code_on_a_template_built_twice_is_the_same(tmp_path: Path) -> None:
    path = tmp_path / "club.xlsx"
    build_template(path, lite=True)
    made = path.read_bytes()
    assert not put_code(path, "en").changed
    assert path.read_bytes() == made


# -- another version's code -------------------------------------------------------------------


def older(path: Path, version: str = "0.1.0") -> Path:
    """The workbook with its code naming another keizer-xl, as one made by that version."""
    with zipfile.ZipFile(path) as old:
        parts = [(info, old.read(info)) for info in old.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as new:
        for info, data in parts:
            new.writestr(
                info,
                data.replace(
                    f"keizer-xl=={__version__}".encode(), f"keizer-xl=={version}".encode()
                ),
            )
    return path


def test_code_for_another_version_is_warned_of_in_the_workbooks_language(
    tmp_path: Path, cli: Callable[..., Result]
) -> None:
    english = tmp_path / "club.xlsx"
    build_template(english, lite=True)
    older(english)
    said = cli("lite", english)
    assert said.exit_code == 0
    assert (
        f"Warning: the code in club.xlsx is for keizer-xl 0.1.0, and this is keizer-xl "
        f"{__version__}."
    ) in said.output
    dutch = tmp_path / "nl.xlsx"
    build_template(dutch, language="nl", lite=True)
    older(dutch, "0.1.9")
    said = cli("lite", dutch)
    assert (
        f"Let op: de code in nl.xlsx is voor keizer-xl 0.1.9, en dit is keizer-xl "
        f"{__version__}." in said.output
    )
    assert cli("lite", dutch, "--write").exit_code == 0
    assert "Let op" not in cli("lite", dutch).output
    assert lite_part(dutch)[0]["requirements.txt"].endswith(f"keizer-xl=={__version__}\n")


# -- LibreOffice opens it ---------------------------------------------------------------------


@pytest.mark.libreoffice
@pytest.mark.usefixtures("soffice_installed")
def test_libreoffice_opens_workbooks_that_carry_the_code(tmp_path: Path) -> None:
    """A new one and one given its code by `lite --write`: LibreOffice reads both whole
    (their Players sheet comes out as it went in)."""
    made = tmp_path / "made.xlsx"
    build_template(made, [{"Name": "Anna", "Rating": 1800}], language="nl", lite=True)
    written = tmp_path / "written.xlsx"
    build_template(written, [{"Name": "Bram", "Rating": 1700}])
    put_code(written, "en")
    out = tmp_path / "out"
    for path, name in ((made, "Anna"), (written, "Bram")):
        done = libreoffice_convert(path, "csv", out, tmp_path / "profile")
        assert done.returncode == 0, done.stderr
        text = (out / f"{path.stem}.csv").read_text(encoding="utf-8", errors="replace")
        assert name in text and "1" in text, text
