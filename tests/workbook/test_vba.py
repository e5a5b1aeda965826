"""The VBA project: read back by independent parsers (olefile, oletools, LibreOffice).

Excel is the only program that really runs the macros; the `excel` test does that where
Excel exists. Everything else checks the file against MS-OVBA/MS-CFB with readers that share
no code with keizer_xl.workbook.vba.
"""

from __future__ import annotations

import io
import json
import os
import re
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import olefile  # type: ignore[import-untyped]
import pytest
import xlsxwriter
from hypothesis import given, settings
from hypothesis import strategies as st
from oletools.olevba import VBA_Parser, decompress_stream

import keizer_xl
from keizer_xl.workbook import vba
from keizer_xl.workbook.vba.compression import compress
from tests.profiles import examples

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_DIR = ROOT / "templates" / "vba"
SHEETS = ("Sheet1", "Sheet2", "Sheet3")
OURS = ("KeizerXL", "LibreOfficeBridge")  # the modules of templates/vba
# The Python that has LibreOffice's uno module (Debian's python3-uno).
SYSTEM_PYTHON = os.environ.get("KEIZER_UNO_PYTHON", "/usr/bin/python3")


def crlf(text: str) -> str:
    """A module text the way the VBA editor stores it: CRLF line ends, a final one."""
    lines = text.replace("\r\n", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()
    return "\r\n".join(lines) + "\r\n"


def read_modules(data: bytes, name: str = "vbaProject.bin") -> dict[str, str]:
    """Module name -> stored source, as oletools' olevba extracts it."""
    parser = VBA_Parser(name, data=data)
    try:
        found: dict[str, str] = {}
        for _, stream_path, _, code in parser.extract_macros():
            found[stream_path.split("/")[-1]] = code
        return found
    finally:
        parser.close()


def dir_records(data: bytes) -> list[tuple[int, bytes]]:
    """The dir stream's records (MS-OVBA 2.3.4.2), PROJECTVERSION's odd size included."""
    ole = olefile.OleFileIO(io.BytesIO(data))
    raw = bytes(decompress_stream(bytearray(ole.openstream("VBA/dir").read())))
    records, at = [], 0
    while at < len(raw):
        rid, size = struct.unpack_from("<HI", raw, at)
        if rid == 0x0009:
            size = 6
        records.append((rid, raw[at + 6 : at + 6 + size]))
        at += 6 + size
    return records


def decrypt(hex_text: str) -> tuple[int, int, bytes]:
    """MS-OVBA 2.4.3.3 Data Decryption: (version, project key, data)."""
    raw = bytes.fromhex(hex_text)
    seed, version_enc, key_enc = raw[0], raw[1], raw[2]
    plain1, enc1, enc2 = seed ^ key_enc, key_enc, version_enc
    plain = []
    for byte_enc in raw[3:]:
        byte = byte_enc ^ ((enc2 + plain1) & 0xFF)
        plain.append(byte)
        enc2, enc1, plain1 = enc1, byte_enc, byte
    rest = bytes(plain[(seed & 6) // 2 :])
    (length,) = struct.unpack_from("<I", rest)
    assert len(rest) == 4 + length
    return seed ^ version_enc, seed ^ key_enc, rest[4:]


@pytest.fixture(scope="module")
def project() -> bytes:
    return vba.vba_project(sheets=SHEETS)


@pytest.fixture(scope="module")
def xlsm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A throwaway workbook like the club's: sheets, two buttons, our project."""
    path = tmp_path_factory.mktemp("book") / "club.xlsm"
    book = xlsxwriter.Workbook(str(path))
    players = book.add_worksheet("Players")
    book.add_worksheet("Rounds")
    book.add_worksheet("Standings")
    players.write(0, 0, "Name")
    for number, macro in enumerate(vba.MACROS):
        players.insert_button(2 + 3 * number, 3, {"caption": macro, "macro": macro})
    vba.add_to_workbook(book)
    book.close()
    return path


# --- the module texts --------------------------------------------------------------------


def test_template_has_the_button_macros_and_they_call_existing_functions() -> None:
    text = (TEMPLATE_DIR / "KeizerXL.bas").read_text(encoding="cp1252")
    for macro in vba.MACROS:
        assert re.search(rf"^Sub {macro}\(\)$", text, re.MULTILINE)
    for call in re.findall(r'RunPython "import keizer_xl; keizer_xl\.(\w+)\(\)"', text):
        assert callable(getattr(keizer_xl, call))
    assert len(re.findall("RunPython", text)) == len(vba.MACROS) + 1  # one in a comment


def test_default_modules_come_from_templates_folder() -> None:
    assert vba.template_modules() == vba.template_modules(TEMPLATE_DIR)
    assert "KeizerXL" in vba.template_modules()


def test_xlwings_modules_match_the_installed_xlwings() -> None:
    """RunPython's DLL is named after the xlwings version: the VBA must be that version's."""
    import xlwings

    modules = vba.xlwings_modules()
    assert set(modules) == {"xlwings", "Dictionary"}
    assert f'XLWINGS_VERSION As String = "{xlwings.__version__}"' in modules["xlwings"]
    assert "Public Function RunPython(" in modules["xlwings"]


# --- reading the project back --------------------------------------------------------------


def test_olevba_reads_back_exactly_our_module_text(project: bytes) -> None:
    modules = read_modules(project)
    assert modules["KeizerXL"] == crlf((TEMPLATE_DIR / "KeizerXL.bas").read_text("cp1252"))
    assert modules["xlwings"] == crlf(vba.xlwings_modules()["xlwings"])


def test_a_module_without_vb_name_gets_one_and_that_is_the_only_change() -> None:
    body = 'Sub Hello()\n    MsgBox "hi"\nEnd Sub\n'
    modules = read_modules(vba.vba_project({"Hello": body}, standalone=False))
    assert modules["Hello"] == 'Attribute VB_Name = "Hello"\r\n' + crlf(body)


def test_class_module_is_stored_like_the_vba_editor_stores_it(project: bytes) -> None:
    stored = read_modules(project)["Dictionary"]
    exported = vba.xlwings_modules()["Dictionary"].replace("\r\n", "\n").split("\n")
    end = exported.index("END")
    body = [line for line in exported[end + 1 :] if not line.startswith("Attribute VB_")]
    assert stored.startswith(
        'Attribute VB_Name = "Dictionary"\r\n'
        'Attribute VB_Base = "0{FCFB3D2A-A0FA-1068-A738-08002B3371B5}"\r\n'
    )
    assert "VERSION 1.0 CLASS" not in stored
    assert "Attribute VB_TemplateDerived = False\r\nAttribute VB_Customizable = False" in stored
    assert stored.endswith(crlf("\n".join(body)))


def test_document_modules_for_workbook_and_each_sheet(project: bytes) -> None:
    modules = read_modules(project)
    assert (
        'Attribute VB_Base = "0{00020819-0000-0000-C000-000000000046}"' in (modules["ThisWorkbook"])
    )
    for sheet in SHEETS:
        assert f'Attribute VB_Name = "{sheet}"' in modules[sheet]
        assert '"0{00020820-0000-0000-C000-000000000046}"' in modules[sheet]
        assert "Attribute VB_PredeclaredId = True" in modules[sheet]
    ole = olefile.OleFileIO(io.BytesIO(project))
    text = ole.openstream("PROJECT").read().decode("cp1252")
    documents = re.findall(r"^Document=(\w+)/&H00000000\r$", text, re.MULTILINE)
    assert documents == ["ThisWorkbook", *SHEETS]
    modules = re.findall(r"^Module=(\w+)\r$", text, re.MULTILINE)
    assert modules == ["KeizerXL", "LibreOfficeBridge", "xlwings"]
    assert re.findall(r"^Class=(\w+)\r$", text, re.MULTILINE) == ["Dictionary"]


def test_add_to_workbook_keeps_given_code_names_and_knows_chartsheets(tmp_path: Path) -> None:
    path = tmp_path / "named.xlsm"
    book = xlsxwriter.Workbook(str(path))
    book.set_vba_name("Werkmap")
    book.add_worksheet("Spelers").set_vba_name("Spelers")
    book.add_worksheet("Ronden")
    chart = book.add_chart({"type": "line"})
    chart.add_series({"values": "=Ronden!$A$1:$A$3"})
    book.add_chartsheet("Grafiek").set_chart(chart)
    vba.add_to_workbook(book)
    book.close()
    with zipfile.ZipFile(path) as archive:
        modules = read_modules(archive.read("xl/vbaProject.bin"))
        assert 'codeName="Werkmap"' in archive.read("xl/workbook.xml").decode()
        assert "codeName" not in archive.read("xl/chartsheets/sheet1.xml").decode()
    assert '"0{00020819-0000-0000-C000-000000000046}"' in modules["Werkmap"]
    assert '"0{00020820-0000-0000-C000-000000000046}"' in modules["Spelers"]
    assert '"0{00020820-0000-0000-C000-000000000046}"' in modules["Sheet2"]
    assert set(modules) == {"Werkmap", "Spelers", "Sheet2", *OURS, "xlwings", "Dictionary"}


def test_document_module_can_carry_code() -> None:
    code = "Private Sub Workbook_Open()\nEnd Sub\n"
    modules = read_modules(vba.vba_project({"ThisWorkbook": code}, standalone=False))
    assert modules["ThisWorkbook"].endswith("Attribute VB_Customizable = True\r\n" + crlf(code))


def test_interoperable_form_without_compiled_code(project: bytes) -> None:
    """Version 0xFFFF, no performance cache, and every module's source at offset 0."""
    ole = olefile.OleFileIO(io.BytesIO(project))
    assert ole.openstream("VBA/_VBA_PROJECT").read() == bytes.fromhex("CC61FFFF000100")
    records = dir_records(project)
    names = [data.decode("cp1252") for rid, data in records if rid == 0x0019]
    offsets = [struct.unpack("<I", data)[0] for rid, data in records if rid == 0x0031]
    assert names == ["ThisWorkbook", *SHEETS, *OURS, "xlwings", "Dictionary"]
    assert offsets == [0] * len(names)
    kinds = [rid for rid, _ in records if rid in (0x0021, 0x0022)]
    assert kinds == [0x0022] * 4 + [0x0021, 0x0021, 0x0021, 0x0022]
    assert records[-1] == (0x0010, b"")
    (count,) = [struct.unpack("<H", data)[0] for rid, data in records if rid == 0x000F]
    assert count == len(names)
    wm = ole.openstream("PROJECTwm").read()
    expected = b"".join(n.encode() + b"\0" + n.encode("utf-16-le") + b"\0\0" for n in names)
    assert wm == expected + b"\0\0"


def test_protection_values_say_unprotected_and_are_keyed_to_the_project_id(
    project: bytes,
) -> None:
    text = olefile.OleFileIO(io.BytesIO(project)).openstream("PROJECT").read().decode()
    project_id = re.search(r'^ID="(\{[0-9A-F-]{36}\})"\r$', text, re.MULTILINE)
    assert project_id is not None
    key = sum(project_id.group(1).encode()) & 0xFF
    for field, plain in (("CMG", bytes(4)), ("DPB", b"\0"), ("GC", b"\xff")):
        found = re.search(rf'^{field}="([0-9A-F]+)"\r$', text, re.MULTILINE)
        assert found is not None
        assert decrypt(found.group(1)) == (2, key, plain)


def test_compound_file_is_clean(project: bytes) -> None:
    assert len(project) % 512 == 0
    ole = olefile.OleFileIO(io.BytesIO(project), raise_defects=olefile.DEFECT_INCORRECT)
    assert sorted("/".join(path) for path in ole.listdir(storages=True)) == sorted(
        [
            "PROJECT",
            "PROJECTwm",
            "VBA",
            "VBA/_VBA_PROJECT",
            "VBA/dir",
            "VBA/KeizerXL",
            "VBA/LibreOfficeBridge",
            "VBA/xlwings",
            "VBA/Dictionary",
            "VBA/ThisWorkbook",
            *(f"VBA/{s}" for s in SHEETS),
        ]
    )
    assert ole.get_size("VBA/xlwings") >= 4096  # both regular and mini streams in use
    assert ole.get_size("VBA/KeizerXL") < 4096


RED, BLACK = 0, 1  # MS-CFB 2.6.1 ColorFlag


def test_sibling_trees_are_red_black_trees(project: bytes) -> None:
    """MS-CFB wants each storage's children as a red-black tree in its name order."""
    ole = olefile.OleFileIO(io.BytesIO(project))
    entries = ole.direntries

    def order(name: str) -> tuple[int, str]:
        return len(name), name.upper()

    def check(sid: int, low: tuple[int, str] | None, high: tuple[int, str] | None) -> int:
        if sid == olefile.NOSTREAM:
            return 1
        entry = entries[sid]
        key = order(entry.name)
        assert (low is None or low < key) and (high is None or key < high)
        red = entry.color == RED
        for child in (entry.sid_left, entry.sid_right):
            if red and child != olefile.NOSTREAM:
                assert entries[child].color == BLACK
        left = check(entry.sid_left, low, key)
        right = check(entry.sid_right, key, high)
        assert left == right
        return left + (0 if red else 1)

    for entry in entries:
        if entry is not None and entry.sid_child != olefile.NOSTREAM:
            assert entries[entry.sid_child].color == BLACK
            check(entry.sid_child, None, None)


@pytest.mark.programs  # another Python process builds it too
def test_reproducible_across_processes(project: bytes) -> None:
    assert vba.vba_project(sheets=SHEETS) == project
    script = (
        "import sys; from keizer_xl.workbook import vba; "
        f"sys.stdout.buffer.write(vba.vba_project(sheets={list(SHEETS)!r}))"
    )
    other = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
    ).stdout
    assert other == project


def test_content_changes_the_bytes(project: bytes) -> None:
    modules = vba.template_modules()
    modules["KeizerXL"] += "' one more line\n"
    assert vba.vba_project(modules, sheets=SHEETS) != project


@pytest.mark.parametrize(
    ("modules", "message"),
    [
        ({"Bad Name": "Sub A()\nEnd Sub\n"}, "not a VBA module name"),
        ({"A": 'Attribute VB_Name = "B"\nSub A()\nEnd Sub\n'}, "VB_Name"),
        ({"A": 'Sub A()\n    MsgBox "\u0107"\nEnd Sub\n'}, "Windows-1252"),
        ({"Sheet1": "", "sheet1": ""}, "two VBA modules"),
    ],
)
def test_bad_modules_are_refused(modules: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        vba.vba_project(modules, standalone=False)


@settings(max_examples=examples(60), deadline=None)
@given(st.binary(max_size=9000) | st.text(alphabet=" \r\nabcSubEnd()\"'", max_size=20000))
def test_compression_round_trips_through_olevba(data: bytes | str) -> None:
    raw = data.encode() if isinstance(data, str) else data
    try:
        packed = compress(raw)
    except ValueError:
        # Only a short last chunk that does not compress at all is refused (never text).
        tail = len(raw) % 4096
        assert tail > 3640
        return
    assert bytes(decompress_stream(bytearray(packed))) == raw


# --- inside a workbook ---------------------------------------------------------------------


def test_xlsm_carries_the_project_and_matching_code_names(xlsm: Path) -> None:
    with zipfile.ZipFile(xlsm) as archive:
        stored = archive.read("xl/vbaProject.bin")
        workbook = archive.read("xl/workbook.xml").decode()
        sheets = [archive.read(f"xl/worksheets/sheet{n}.xml").decode() for n in (1, 2, 3)]
        types = archive.read("[Content_Types].xml").decode()
        vml = archive.read("xl/drawings/vmlDrawing1.vml").decode()
    assert stored == vba.vba_project(sheets=SHEETS)
    assert '<workbookPr codeName="ThisWorkbook"' in workbook
    for number, xml in enumerate(sheets, start=1):
        assert f'codeName="Sheet{number}"' in xml
    assert "application/vnd.ms-excel.sheet.macroEnabled.main+xml" in types
    assert re.findall(r"<x:FmlaMacro>\[0\]!(\w+)</x:FmlaMacro>", vml) == list(vba.MACROS)


def test_olevba_reads_our_modules_from_the_xlsm(xlsm: Path) -> None:
    parser = VBA_Parser(str(xlsm))
    try:
        found = {path.split("/")[-1]: code for _, path, _, code in parser.extract_macros()}
    finally:
        parser.close()
    assert found["KeizerXL"] == crlf((TEMPLATE_DIR / "KeizerXL.bas").read_text("cp1252"))
    assert set(found) == {"ThisWorkbook", *SHEETS, *OURS, "xlwings", "Dictionary"}


@pytest.mark.libreoffice
def test_libreoffice_loads_the_modules_and_binds_the_buttons(xlsm: Path) -> None:
    """LibreOffice has its own VBA import: it must see our modules and buttons."""
    result = subprocess.run(
        [SYSTEM_PYTHON, str(ROOT / "tests" / "uno_probe.py"), str(xlsm)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["vba_mode"] is True
    library = report["libraries"]["VBAProject"]
    assert set(library) >= {"ThisWorkbook", *SHEETS, *OURS, "xlwings", "Dictionary"}
    # LibreOffice swaps the Attribute line for two header lines of its own, adds one "\n".
    ours = (TEMPLATE_DIR / "KeizerXL.bas").read_text("cp1252").split("\n", 1)[1]
    header = "Rem Attribute VBA_ModuleType=VBAModule\nOption VBASupport 1\n"
    assert library["KeizerXL"] == header + ours + "\n"
    bound = {
        button["label"]: [event["code"] for event in button["events"]]
        for button in report["buttons"]
    }
    for macro in vba.MACROS:
        assert bound[macro] == [
            f"vnd.sun.star.script:VBAProject.KeizerXL.{macro}?language=Basic&location=document"
        ]


# --- Excel itself ---------------------------------------------------------------------------


def _excel_available() -> bool:
    """Excel is installed: registered for automation (Windows) or in Applications (macOS)."""
    if sys.platform == "win32":
        import winreg

        try:
            winreg.CloseKey(winreg.OpenKey(winreg.HKEY_CLASSES_ROOT, "Excel.Application"))
        except OSError:
            return False
        return True
    return sys.platform == "darwin" and Path("/Applications/Microsoft Excel.app").exists()


@pytest.mark.excel
@pytest.mark.skipif(not _excel_available(), reason="needs Microsoft Excel (Windows or macOS)")
def test_excel_compiles_the_project_and_runs_a_macro(tmp_path: Path) -> None:
    """Excel compiles the source-only project: a probe macro reads an xlwings constant."""
    import xlwings

    modules = vba.template_modules()
    modules["Probe"] = "Function Probe() As String\n    Probe = XLWINGS_VERSION\nEnd Function\n"
    path = tmp_path / "probe.xlsm"
    book = xlsxwriter.Workbook(str(path))
    book.add_worksheet("Players")
    vba.add_to_workbook(book, modules)
    book.close()
    app = xlwings.App(visible=False, add_book=False)
    try:
        opened = app.books.open(str(path))
        assert opened.macro("Probe")() == xlwings.__version__
        opened.close()
    finally:
        app.quit()
