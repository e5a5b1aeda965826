"""The workbook's VBA project in LibreOffice: it compiles there, and its buttons hand the
work to keizer_xl's Python macro with the document.

LibreOffice compiles every branch of an `#If` (keizer_xl.workbook.vba.portable); one module
it cannot compile silences every macro of the workbook, so each test here asks a macro for
a value it can only give when the whole project compiled. keizer_xl's real Python macro is
not needed: a stand-in in a throwaway profile records which entry it was called for, and
with which document. Two soffice runs for the whole module: one with the stand-in in the
profile, one without it.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
import xlwings

from keizer_xl.workbook import vba
from keizer_xl.workbook.buttons import BUTTONS
from keizer_xl.workbook.newbook import create
from keizer_xl.workbook.template import CODE_NAMES, build_template
from keizer_xl.workbook.vba import project
from keizer_xl.workbook.vba.project import bridge_messages

pytestmark = pytest.mark.libreoffice

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_PYTHON = os.environ.get("KEIZER_UNO_PYTHON", "/usr/bin/python3")
MARK = "Z1"  # the cell of the first sheet the stand-in writes to

# The stand-in for keizer_xl's macro: each button's entry adds its name, the name of the
# document's first sheet (which only the document itself can tell) and the workbook's
# language to the cell MARK.
STAND_IN = (
    f'''
def _mark(document, entry, language):
    cell = document.Sheets.getByIndex(0).getCellRangeByName("{MARK}")
    sheet = document.Sheets.getByIndex(0).Name
    cell.setString(cell.getString() + entry + "@" + sheet + "@" + language + ";")

'''
    + "".join(
        f"def {button.entry}(document, language):\n"
        f"    _mark(document, {button.entry!r}, language)\n\n"
        for button in BUTTONS
    )
    + "def failing(document, language):\n    raise RuntimeError('the stand-in fails')\n"
)

# xlwings' constant, from a project that must compile as a whole to give it. (Not a `New
# Dictionary`: LibreOffice runs both branches of its Class_Initialize, and the Windows one
# asks for Scripting.Dictionary, which LibreOffice does not have. The buttons never run
# xlwings' code there.)
# What the bridge hands over, as it says it: "" once the Python macro has run (and an error
# raised after it, as LibreOffice does when invoke is called the wrong way, would show), its
# message when the macro fails or is not there.
PROBE = """Function XlwingsVersion()
    XlwingsVersion = XLWINGS_VERSION
End Function

Function HandOverRecalculate()
    HandOverRecalculate = HandOver("recalculate")
End Function

Function HandOverFailing()
    HandOverFailing = HandOver("failing")
End Function

Function HandOverMissing()
    HandOverMissing = HandOver("missing")
End Function
"""


def url(module: str, macro: str) -> str:
    return f"vnd.sun.star.script:VBAProject.{module}.{macro}?language=Basic&location=document"


def probe_book(path: Path, modules: dict[str, str]) -> Path:
    """A workbook like `keizer-xl new`'s, with the Probe module beside the given ones."""
    project_bytes = vba.vba_project({**modules, "Probe": PROBE}, sheets=CODE_NAMES)
    build_template(path, vba_project=project_bytes)
    return path


def run(profile: Path, jobs: list[dict[str, Any]], work: Path) -> list[dict[str, Any]]:
    job_file = work / f"{profile.name}.json"
    job_file.write_text(json.dumps(jobs), "utf-8")
    result = subprocess.run(
        [SYSTEM_PYTHON, str(ROOT / "tests" / "uno_macros.py"), str(profile), str(job_file)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    reports: list[dict[str, Any]] = json.loads(result.stdout)
    return reports


@pytest.fixture(scope="module")
def with_stand_in(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """One LibreOffice with the stand-in macro: the probes, then every button of a new book."""
    work = tmp_path_factory.mktemp("with")
    scripts = work / "profile" / "user" / "Scripts" / "python"
    scripts.mkdir(parents=True)
    (scripts / "keizer_xl_buttons.py").write_text(STAND_IN, "utf-8")
    portable = probe_book(work / "portable.xlsm", vba.template_modules())
    club = work / "club.xlsm"
    create(club)
    probes = [
        url("Probe", probe)
        for probe in ("XlwingsVersion", "HandOverRecalculate", "HandOverFailing", "HandOverMissing")
    ]
    jobs = [
        {"book": str(portable), "calls": probes, "cell": MARK},
        {"book": str(club), "buttons": True, "cell": MARK},
    ]
    return run(work / "profile", jobs, work)


@pytest.fixture(scope="module")
def without_stand_in(
    tmp_path_factory: pytest.TempPathFactory,
) -> list[dict[str, Any]]:
    """One LibreOffice with a bare profile: each xlwings module as installed beside the
    other rewritten, then a new book's buttons."""
    work = tmp_path_factory.mktemp("without")
    (work / "profile").mkdir()
    jobs: list[dict[str, Any]] = []
    for name, text in vba.xlwings_modules(as_installed=True).items():
        modules = {**vba.template_modules(), **vba.xlwings_modules(), name: text}
        with pytest.MonkeyPatch.context() as patch:  # build what the check rightly refuses
            patch.setattr(project, "check_portable", lambda name, text: None)
            raw = probe_book(work / f"{name}_as_installed.xlsm", modules)
        jobs.append({"book": str(raw), "calls": [url("Probe", "XlwingsVersion")]})
    portable = probe_book(work / "portable.xlsm", vba.template_modules())
    jobs.append({"book": str(portable), "calls": [url("Probe", "HandOverMissing")]})
    club = work / "club.xlsm"
    create(club, language="de")
    jobs.append({"book": str(club), "buttons": True, "cell": MARK, "module": "LibreOfficeBridge"})
    return run(work / "profile", jobs, work)


def test_the_project_compiles_in_libreoffice(with_stand_in: list[dict[str, Any]]) -> None:
    """A probe gives xlwings' constant, and the Dictionary class is known: every module
    compiled (one that did not would make every macro give nothing)."""
    (_, version, error), *_ = with_stand_in[0]["results"]
    assert (version, error) == (xlwings.__version__, None)


def test_xlwings_as_installed_does_not_compile_there(
    without_stand_in: list[dict[str, Any]],
) -> None:
    """The probe gives nothing when either xlwings module is as installed: each
    module's rewrites are needed."""
    for book in without_stand_in[:2]:
        ((_, version, _),) = book["results"]
        assert version is None


def test_each_button_hands_its_entry_to_the_python_macro_with_the_document(
    with_stand_in: list[dict[str, Any]],
) -> None:
    club = with_stand_in[1]
    bound = [call[0] for call in club["results"]]
    assert bound == [url("KeizerXL", button.macro) for button in BUTTONS]
    assert all(error is None for _, _, error in club["results"])
    first_sheet = "Players"
    assert club["cell"] == "".join(f"{button.entry}@{first_sheet}@en;" for button in BUTTONS)


def test_the_bridge_hands_over_and_says_a_failing_or_missing_python_macro(
    with_stand_in: list[dict[str, Any]], without_stand_in: list[dict[str, Any]]
) -> None:
    """What the bridge would show in its message box (which headless LibreOffice does not
    show): nothing when the Python macro ran, its error when it failed, how to install it
    when it (or its function) is not there."""
    results = with_stand_in[0]["results"]
    (_, ran, _), (_, failing, _), (_, missing_function, _) = results[1:]
    ((_, missing_file, _),) = without_stand_in[2]["results"]
    messages = bridge_messages("en")
    assert ran == ""
    assert with_stand_in[0]["cell"] == "recalculate@Players@en;"
    assert failing.startswith(messages["BUTTON_FAILED"] + " ")
    assert "the stand-in fails" in failing
    assert missing_function == messages["NOT_INSTALLED"]
    assert missing_file == messages["NOT_INSTALLED"]


def test_without_the_python_macro_a_button_returns_and_writes_nothing(
    without_stand_in: list[dict[str, Any]],
) -> None:
    """The bridge says its message (a message box, which headless LibreOffice does not show)
    and stops: no error out of the macro, no RunPython attempt, not a cell written."""
    club = without_stand_in[3]
    assert [call[0] for call in club["results"]] == [
        url("KeizerXL", button.macro) for button in BUTTONS
    ]
    assert all(error is None for _, _, error in club["results"])
    assert club["cell"] == ""


def test_libreoffice_reads_the_message_in_the_workbooks_language(
    without_stand_in: list[dict[str, Any]],
) -> None:
    """The German message, umlauts and all, as LibreOffice decodes the Windows-1252 source."""
    message = bridge_messages("de")["NOT_INSTALLED"]
    assert "ü" in message
    assert f'Private Const NOT_INSTALLED As String = "{message}"' in without_stand_in[3]["module"]
