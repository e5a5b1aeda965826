"""VBA that LibreOffice compiles too: each rewrite of keizer_xl.workbook.vba.portable on small
texts and on the installed xlwings, and the check that refuses what LibreOffice cannot compile.

Excel's side is read by `excel_view`, a small model of VBA's conditional compilation written
here from the language reference (not from the code under test): the lines Excel compiles for
given values of Mac, VBA7, Win64. LibreOffice's side is in test_vba_libreoffice.py.
"""

from __future__ import annotations

import itertools
import re
import zipfile
from pathlib import Path

import pytest
from oletools.olevba import VBA_Parser

from keizer_xl.workbook import vba
from keizer_xl.workbook.newbook import create
from keizer_xl.workbook.vba import portable
from keizer_xl.workbook.vba.portable import check_portable, make_portable
from keizer_xl.workbook.vba.project import bridge_messages, fill_messages

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_DIR = ROOT / "templates" / "vba"
_TOKEN = re.compile(r'"[^"]*"|<>|>=|<=|=|\w+|[()]|\s+|.')


def _value(expression: str, constants: dict[str, object]) -> object:
    """A conditional-compilation expression's value (undefined constants are 0, as in VBA)."""
    words = {"not": " not ", "and": " and ", "or": " or ", "true": "True", "false": "False"}
    python = []
    for token in _TOKEN.findall(expression):
        lower = token.lower()
        if token.startswith('"') or token.isspace() or token in "()" or token.isdigit():
            python.append(token)
        elif token in ("=", "<>", ">=", "<="):
            python.append({"=": "==", "<>": "!="}.get(token, token))
        elif lower in words:
            python.append(words[lower])
        else:
            python.append(repr(constants.get(lower, 0)))
    return eval("".join(python))  # a model of VBA's few operators, on module texts of ours


def excel_view(text: str, **given: object) -> list[str]:
    """The lines Excel compiles (no directive lines) with the given compiler constants."""
    constants = {name.lower(): value for name, value in given.items()}
    out: list[str] = []
    stack: list[tuple[bool, bool]] = []  # (this branch is compiled, a branch was taken)
    for line in text.replace("\r\n", "\n").split("\n"):
        code = line.split("'")[0].strip() if line.lstrip().startswith("#") else ""
        active = all(compiled for compiled, _ in stack)
        if match := re.match(r"#Const\s+(\w+)\s*=\s*(.+)", code, re.I):
            if active:
                constants[match.group(1).lower()] = _value(match.group(2), constants)
        elif match := re.match(r"#If\s+(.+?)\s+Then$", code, re.I):
            taken = bool(_value(match.group(1), constants))
            stack.append((taken, taken))
        elif match := re.match(r"#ElseIf\s+(.+?)\s+Then$", code, re.I):
            _, done = stack.pop()
            taken = not done and bool(_value(match.group(1), constants))
            stack.append((taken, done or taken))
        elif re.match(r"#Else$", code, re.I):
            _, done = stack.pop()
            stack.append((not done, True))
        elif re.match(r"#End\s*If$", code, re.I):
            stack.pop()
        elif active:
            out.append(line)
    assert not stack
    return out


EXCELS = [
    {"Mac": mac, "VBA7": vba7, "Win64": win64 and not mac, "MAC_OFFICE_VERSION": 16 if mac else 0}
    for mac, vba7, win64 in itertools.product((True, False), repeat=3)
]


def libreoffice_view(text: str) -> list[str]:
    """What LibreOffice compiles: every line but the directives."""
    return [line for line in text.split("\n") if not line.lstrip().startswith("#")]


# --- resolving #If App ----------------------------------------------------------------------

APP_CHAINS = """#Const App = "Microsoft Excel" 'adjust outside Excel
#If App = "Microsoft Excel" Then
Function Where(Optional wb As Workbook) As String
#Else
Function Where(Optional wb As Variant) As String
#End If
    #If App = "Microsoft Word" Then
        Where = ThisDocument.Path
    #ElseIf App = "Microsoft Excel" Then
        #If Mac Then
        Where = "mac"
        #Else
        Where = "windows"
        #End If
    #Else
        Exit Function
    #End If
End Function
"""


@pytest.mark.parametrize("excel", EXCELS)
def test_resolving_app_keeps_what_excel_compiles(excel: dict[str, object]) -> None:
    resolved = portable.resolve_app(APP_CHAINS)
    assert excel_view(resolved, **excel) == excel_view(APP_CHAINS, **excel)


def test_resolving_app_keeps_other_tests_and_leaves_no_app_test() -> None:
    resolved = portable.resolve_app(APP_CHAINS)
    assert "App =" not in resolved.replace('#Const App = "Microsoft Excel"', "")
    assert resolved.count("#If Mac Then") == 1
    assert libreoffice_view(resolved).count("Function Where(Optional wb As Workbook) As String")
    check_portable("Where", resolved)
    with pytest.raises(ValueError, match=r"line 5: Where is declared twice \(also line 3\)"):
        check_portable("Where", APP_CHAINS)


def test_resolving_app_follows_the_modules_own_const() -> None:
    word = APP_CHAINS.replace('#Const App = "Microsoft Excel"', '#Const App = "Microsoft Word"')
    resolved = portable.resolve_app(word)
    assert "As Variant" in resolved and "ThisDocument.Path" in resolved
    assert "As Workbook" not in resolved


def test_a_module_without_app_const_is_left_alone() -> None:
    text = APP_CHAINS.split("\n", 1)[1]
    assert portable.resolve_app(text) == text


def test_an_app_chain_mixed_with_other_tests_is_refused() -> None:
    text = '#Const App = "Word"\n#If App = "Word" Then\n#ElseIf Mac Then\n#End If\n'
    with pytest.raises(ValueError, match="line 2: an #If App chain with other tests"):
        portable.resolve_app(text, "Mixed")


def test_unbalanced_directives_are_refused() -> None:
    with pytest.raises(ValueError, match="Odd, line 2: #If without #End If"):
        portable.make_portable("Odd", "Sub A()\n#If Mac Then\nEnd Sub\n")
    with pytest.raises(ValueError, match="Odd, line 1: #endif without #If"):
        portable.make_portable("Odd", "#End If\n")


# --- a variable declared in several branches -----------------------------------------------

TWO_DIMS = """Function Config()
    Dim lastCell As Range
    #If Mac Then
    Dim d As Dictionary
    Set d = New Dictionary
    #Else
    Dim d As Object
    Set d = CreateObject("Scripting.Dictionary")
    #End If
    Set Config = d
End Function
"""


def test_a_variable_dimmed_in_both_branches_is_declared_once_before_them() -> None:
    hoisted = portable.hoist_declarations(TWO_DIMS)
    lines = hoisted.split("\n")
    assert lines[2:5] == ["    Dim d As Object", "    #If Mac Then", "    Set d = New Dictionary"]
    assert hoisted.count("Dim d") == 1
    check_portable("Config", hoisted)
    with pytest.raises(ValueError, match=r"line 7: d is declared twice in Config \(also line 4\)"):
        check_portable("Config", TWO_DIMS)


@pytest.mark.parametrize("excel", EXCELS)
def test_hoisting_changes_only_where_and_as_what_excel_declares(excel: dict[str, object]) -> None:
    before = excel_view(TWO_DIMS, **excel)
    after = excel_view(portable.hoist_declarations(TWO_DIMS), **excel)
    assert [line for line in before if "Dim d" not in line] == [
        line for line in after if "Dim d" not in line
    ]
    assert [line.strip() for line in after if "Dim d" in line] == ["Dim d As Object"]


def test_the_same_type_in_both_branches_is_kept() -> None:
    text = TWO_DIMS.replace("Dim d As Dictionary", "Dim d As Object")
    assert "    Dim d As Object\n    #If Mac Then" in portable.hoist_declarations(text)


def test_two_types_that_are_not_objects_are_refused() -> None:
    text = TWO_DIMS.replace("Dim d As Dictionary", "Dim d As Long").replace(
        "As Object", "As Integer"
    )
    with pytest.raises(ValueError, match="Odd, line 4: d is declared as Long and Integer"):
        portable.hoist_declarations(text, "Odd")


def test_dims_of_different_procedures_in_one_branch_are_no_business_of_hoisting() -> None:
    text = (
        "#If Mac Then\nSub A()\n    Dim i As Long\nEnd Sub\n#Else\nSub B()\n    Dim i As Integer\n"
        "End Sub\n#End If\n"
    )
    assert portable.hoist_declarations(text) == text
    check_portable("Apart", text)


# --- a block If opened in both branches ---------------------------------------------------

TWO_IFS = """Function Save(sFileName As String) As Boolean
  #If Mac Then
    If Not FileOrFolderExistsOnMac(ParentFolder(sFileName)) Then
  #Else
    If Len(Dir(ParentFolder(sFileName), vbDirectory)) = 0 Then ' "Then" in a comment
  #End If
     MkDir ParentFolder(sFileName)
  End If
End Function
"""


def test_a_block_if_opened_in_both_branches_becomes_one_if_on_a_variable() -> None:
    merged = portable.merge_block_ifs(TWO_IFS)
    assert merged.split("\n")[1:9] == [
        "    Dim portableCondition1 As Variant",
        "  #If Mac Then",
        "    portableCondition1 = Not FileOrFolderExistsOnMac(ParentFolder(sFileName))",
        "  #Else",
        "    portableCondition1 = Len(Dir(ParentFolder(sFileName), vbDirectory)) = 0",
        "  #End If",
        "    If portableCondition1 Then",
        "     MkDir ParentFolder(sFileName)",
    ]
    check_portable("Save", merged)
    with pytest.raises(ValueError, match=r"line 3: a block If in Save has no End If"):
        check_portable("Save", TWO_IFS)


@pytest.mark.parametrize("excel", EXCELS)
def test_excel_tests_the_same_condition_at_the_same_place(excel: dict[str, object]) -> None:
    before = excel_view(TWO_IFS, **excel)
    after = [line for line in excel_view(portable.merge_block_ifs(TWO_IFS), **excel)]
    opener = next(line for line in before if line.strip().startswith("If "))
    condition = re.match(r"\s*If (.*) Then", opener)
    assert condition is not None
    assert after[1:4] == [
        "    Dim portableCondition1 As Variant",
        f"    portableCondition1 = {condition.group(1)}",
        "    If portableCondition1 Then",
    ]
    assert after[4:] == before[2:]


def test_the_variable_takes_a_name_the_module_does_not_use() -> None:
    text = TWO_IFS.replace("MkDir", "portableCondition1 = 0\n     MkDir")
    assert "Dim portableCondition2 As Variant" in portable.merge_block_ifs(text)


def test_an_if_without_an_else_branch_is_left_to_the_check() -> None:
    text = TWO_IFS.replace("  #Else\n", "  #ElseIf Win64 Then\n")
    assert portable.merge_block_ifs(text) == text


# --- Enum members ---------------------------------------------------------------------------

ENUM = """Public Enum CompareMethod
    BinaryCompare = VBA.vbBinaryCompare
    TextCompare = VBA.vbTextCompare ' as Excel's
    DatabaseCompare = VBA.vbDatabaseCompare
End Enum

Function Compared() As Long
    Compared = VBA.vbTextCompare
End Function
"""


def test_enum_members_from_vba_constants_get_their_numbers() -> None:
    rewritten = portable.enum_literals(ENUM)
    assert rewritten.split("\n")[1:4] == [
        "    BinaryCompare = 0 ' VBA.vbBinaryCompare",
        "    TextCompare = 1 ' VBA.vbTextCompare ' as Excel's",
        "    DatabaseCompare = 2 ' VBA.vbDatabaseCompare",
    ]
    assert "Compared = VBA.vbTextCompare" in rewritten  # outside an Enum: left as it is
    check_portable("Enums", rewritten)
    with pytest.raises(
        ValueError, match=r"line 2: an Enum member is valued by VBA\.vbBinaryCompare"
    ):
        check_portable("Enums", ENUM)


def test_an_unknown_vba_constant_is_left_for_the_check_to_refuse() -> None:
    text = ENUM.replace("VBA.vbDatabaseCompare", "VBA.vbSomethingNew")
    with pytest.raises(
        ValueError, match=r"line 4: an Enum member is valued by VBA\.vbSomethingNew"
    ):
        check_portable("Enums", make_portable("Enums", text))


# --- the check on its own -----------------------------------------------------------------------


def test_the_check_reads_statements_as_vba_does() -> None:
    """Property Get and Let of one name, one-line Ifs, continued lines, a `Then` or `'` in a
    string, Dim inside a nested procedure-level block: none of these is a problem."""
    check_portable(
        "Fine",
        "Property Get Mode() As Long\n    If x Then Mode = 1 Else Mode = 2\nEnd Property\n"
        "Property Let Mode(value As Long)\n    If value > 1 And _\n        value < 3 Then\n"
        '        MsgBox "it'
        's Then"\n    End If\nEnd Property\n'
        'Sub Read()\n    Dim a As Long, b(1, 2) As String\n    Dim c As String: c = "Dim a"\n'
        "    Rem If a Then\nEnd Sub\n",
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Sub A()\nEnd Sub\nFunction a()\nEnd Function\n", "line 3: a is declared twice"),
        ("Sub A()\n    Dim x As Long, y\n    Dim y\nEnd Sub\n", "line 3: y is declared twice in A"),
        ("Sub A()\n    If x Then\nEnd Sub\n", "line 2: a block If in A has no End If"),
        ("Sub A()\n    End If\nEnd Sub\n", "line 2: an End If in A closes no If"),
        ("Sub A()\nSub B()\nEnd Sub\n", "line 2: B starts inside A"),
        ("Sub A()\n    x = 1\n", "line 1: A has no end"),
        (
            "Enum E\n    One = VBA.vbTrue\nEnd Enum\n",
            r"line 2: an Enum member is valued by VBA\.vbTrue",
        ),
    ],
)
def test_the_check_refuses_naming_module_and_line(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=f"VBA module Odd, {message}"):
        check_portable("Odd", text)


def test_the_check_reads_the_text_as_libreoffice_does_with_directives_dropped() -> None:
    text = "Sub A()\n#If Mac Then\n    Dim x As Long\n#Else\n    Dim x As Long\n#End If\nEnd Sub\n"
    with pytest.raises(ValueError, match="line 5: x is declared twice in A"):
        check_portable("Odd", text)


# --- the installed xlwings --------------------------------------------------------------


@pytest.mark.parametrize("name", ["xlwings", "Dictionary"])
def test_the_installed_xlwings_needs_the_rewrites_and_passes_after_them(name: str) -> None:
    as_installed = vba.xlwings_modules(as_installed=True)[name]
    with pytest.raises(ValueError, match=f"VBA module {name}, line"):
        check_portable(name, as_installed)
    rewritten = vba.xlwings_modules()[name]
    assert rewritten == make_portable(name, as_installed)
    check_portable(name, rewritten)


@pytest.mark.parametrize("name", ["xlwings", "Dictionary"])
def test_rewriting_a_rewritten_module_changes_nothing(name: str) -> None:
    """The project may be given modules already rewritten (`vba_project(modules)`)."""
    rewritten = vba.xlwings_modules()[name]
    assert make_portable(name, rewritten) == rewritten


@pytest.mark.parametrize("excel", EXCELS)
def test_excel_compiles_xlwings_module_as_before_but_for_the_two_rewritten_places(
    excel: dict[str, object],
) -> None:
    """Only the declaration of GetConfigFromSheet's dictionary and SaveConfigToFile's folder
    test differ in what Excel compiles, as the rewrites say; all else is the same line for
    line. The module's #If App chains are gone."""
    as_installed = vba.xlwings_modules(as_installed=True)["xlwings"]
    rewritten = vba.xlwings_modules()["xlwings"]
    assert not re.search(r"#(If|ElseIf) App", rewritten)
    before, after = excel_view(as_installed, **excel), excel_view(rewritten, **excel)
    changed = {line.strip() for line in set(before) ^ set(after)}
    assert changed <= {
        "Dim d As Dictionary",
        "Dim d As Object",
        "Dim portableCondition1 As Variant",
        "If Not FileOrFolderExistsOnMac(ParentFolder(sFileName)) Then",
        "If Len(Dir(ParentFolder(sFileName), vbDirectory)) = 0 Then",
        "portableCondition1 = Not FileOrFolderExistsOnMac(ParentFolder(sFileName))",
        "portableCondition1 = Len(Dir(ParentFolder(sFileName), vbDirectory)) = 0",
        "If portableCondition1 Then",
    }
    assert len(after) == len(before) + 2  # the Variant's Dim and the one If after #End If


def test_the_vba_project_refuses_a_module_libreoffice_cannot_compile() -> None:
    with pytest.raises(ValueError, match="VBA module Twice, line 3: A is declared twice"):
        vba.vba_project({"Twice": "Sub A()\nEnd Sub\nSub A()\nEnd Sub\n"}, standalone=False)


# --- the bridge's messages ---------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "nl", "de", "it"])
def test_the_bridge_speaks_the_workbooks_language_in_windows_1252(language: str) -> None:
    bridge = (TEMPLATE_DIR / "LibreOfficeBridge.bas").read_text("cp1252")
    filled = fill_messages("LibreOfficeBridge", bridge, language)
    for key, message in bridge_messages(language).items():
        assert f'"{{{key}}}"' in bridge
        assert f'Private Const {key} As String = "{message}"' in filled
        message.encode("cp1252")
        if language != "en":
            assert message != bridge_messages("en")[key]
    assert "{" not in filled
    assert max(len(line) for line in filled.split("\n")) <= 1023  # the VBA editor's longest


def test_a_quote_in_a_message_is_doubled_and_an_unwritable_one_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = 'Const NOT_INSTALLED As String = "{NOT_INSTALLED}"\n'
    from keizer_xl.workbook.vba import project

    monkeypatch.setattr(project, "bridge_messages", lambda language: {"NOT_INSTALLED": 'a "b"'})
    assert fill_messages("M", text, "en") == 'Const NOT_INSTALLED As String = "a ""b"""\n'
    monkeypatch.setattr(project, "bridge_messages", lambda language: {"NOT_INSTALLED": "\u0107"})
    with pytest.raises(ValueError, match="M: the en text of NOT_INSTALLED is not Windows-1252"):
        fill_messages("M", text, "en")


def test_the_bridge_is_for_libreoffice_only_and_excel_compiles_it() -> None:
    """No Option Explicit (ThisComponent must be an implicit, empty Variant in Excel), the
    first statement leaves at once in Excel, and no LibreOffice-only function is called."""
    bridge = (TEMPLATE_DIR / "LibreOfficeBridge.bas").read_text("cp1252")
    code = [line.strip() for line in bridge.split("\n") if line.strip() and line[0] != "'"]
    assert not any(line.lower().startswith("option explicit") for line in code)
    start = code.index("Function HandedToLibreOffice(entry As String) As Boolean")
    assert code[start + 1] == "If Not IsObject(ThisComponent) Then Exit Function"
    for only_libreoffice in ("createUnoService", "GetProcessServiceManager", "BasicLibraries"):
        assert only_libreoffice.lower() not in bridge.lower()
    assert '"vnd.sun.star.script:keizer_xl_buttons.py$" & entry & "?language=Python' in bridge


# --- in the workbook keizer-xl new makes ------------------------------------------------------


def stored_body(text: str) -> list[str]:
    """A module's lines but its header: a class export's VERSION block and every `Attribute
    VB_` line of the module itself (the project writes those anew), no empty last lines."""
    lines = text.replace("\r\n", "\n").split("\n")
    if "END" in lines:
        lines = lines[lines.index("END") + 1 :]
    lines = [line for line in lines if not line.startswith("Attribute VB_")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def test_olevba_reads_back_the_rewritten_modules_from_a_new_workbook(tmp_path: Path) -> None:
    path = tmp_path / "club.xlsm"
    create(path, language="de")
    with zipfile.ZipFile(path) as archive:
        assert "xl/vbaProject.bin" in archive.namelist()
    parser = VBA_Parser(str(path))
    try:
        found = {p.split("/")[-1]: code for _, p, _, code in parser.extract_macros()}
    finally:
        parser.close()
    for name, as_installed in vba.xlwings_modules(as_installed=True).items():
        stored = stored_body(found[name])
        assert stored == stored_body(make_portable(name, as_installed))
        assert stored != stored_body(as_installed)
    bridge = found["LibreOfficeBridge"]
    assert bridge_messages("de")["NOT_INSTALLED"] in bridge
    assert "{NOT_INSTALLED}" not in bridge
