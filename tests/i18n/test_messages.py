"""Every message reaches the secretary in the workbook's language: the problems with their
cells, the notes and warnings, the Standings note and the buttons' message boxes. The
language is the workbook's own unless `--lang` or KEIZER_XL_LANG asks for another."""

from __future__ import annotations

import ast
import pickle
import re
from pathlib import Path
from typing import Any

import pytest
from python_calamine import CalamineWorkbook

import keizer_xl
from keizer_xl.core.errors import KeizerError
from keizer_xl.core.messages import ENGLISH, Joined, Message, Name, Tongue, listed, msg
from keizer_xl.i18n import ENVIRONMENT, choose, say
from keizer_xl.workbook import files as workbook
from keizer_xl.workbook.files import _REASONS
from keizer_xl.workbook.template import build_template
from keizer_xl.workbook.xlsx import SheetEdit, save_edits
from tests.conftest import run_cli
from tests.live.test_live import Excel, press, xw

__all__ = ["xw"]  # the fixture, for pytest

PACKAGE = Path(keizer_xl.__file__).parent


def players(here: str = "x") -> list[dict[str, object]]:
    return [{"Name": f"Speler {i}", "Rating": 2000 - 10 * i, "Present": here} for i in range(1, 7)]


def book(tmp_path: Path, language: str, name: str = "club.xlsx") -> Path:
    path = tmp_path / name
    build_template(path, players("ja" if language == "nl" else "x"), language=language)
    return path


def typo_book(tmp_path: Path, language: str) -> Path:
    """A round with a result typed wrongly and a player nobody knows."""
    path = book(tmp_path, language)
    rounds = "Ronden" if language == "nl" else "Rounds"
    save_edits(
        path,
        [
            SheetEdit(
                rounds,
                {
                    (2, 1): 1,
                    (2, 2): 1,
                    (2, 3): "Speler 1",
                    (2, 4): "Speler 2",
                    (2, 5): "l-0",
                    (3, 1): 1,
                    (3, 2): 2,
                    (3, 3): "Speler 3",
                    (3, 4): "Spelr 4",
                    (3, 5): "1-0",
                },
            )
        ],
        backup=False,
    )
    return path


# -- the message itself ---------------------------------------------------------------------


class Shouting(Tongue):
    """A language for the test: every template upper case, names in brackets."""

    def text(self, template: str) -> str:
        return "".join(
            part if part.startswith("{") else part.upper()
            for part in re.split(r"(\{\w+\})", template)
        )

    def name(self, name: str, kind: str) -> str:
        return f"[{kind}:{name}]"


def test_a_message_reads_as_english_and_is_said_in_another_tongue() -> None:
    m = msg("{name} has the bye in round {round}", name="Anna", round=3)
    assert m == "Anna has the bye in round 3" and isinstance(m, str)
    assert m.said_as(ENGLISH) == "Anna has the bye in round 3"
    assert m.said_as(Shouting()) == "Anna HAS THE BYE IN ROUND 3"  # values stay as typed
    inner = msg("{setting}: {problem}", setting=Name("Top value", "setting"), problem=m)
    assert inner == "Top value: Anna has the bye in round 3"
    assert inner.said_as(Shouting()) == "[setting:Top value]: Anna HAS THE BYE IN ROUND 3"
    both = Joined("\n", [m, "plain"])
    assert both.said_as(Shouting()) == "Anna HAS THE BYE IN ROUND 3\nplain"
    assert listed(["A", "B", "C"]) == "A, B and C" and listed(["A"]) == "A"


def test_a_message_keeps_its_template_across_processes() -> None:
    m = Joined("\n", [msg("{count} problems found:", count=2), Name("Rounds")])
    again = pickle.loads(pickle.dumps(m))
    assert again == m and isinstance(again, Joined)
    assert say(again, "nl") == "2 problemen gevonden:\nRonden"


def test_the_language_is_asked_then_environment_then_workbook(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    assert choose(None, "nl") == "nl" and choose(None, None) == "en"
    assert choose("en", "nl") == "en"
    monkeypatch.setenv(ENVIRONMENT, "NL")
    assert choose(None, "en") == "nl" and choose("en", "en") == "en"
    monkeypatch.setenv(ENVIRONMENT, "klingon")  # not one of ours: as if unset
    assert choose(None, "nl") == "nl"


# -- the command line ---------------------------------------------------------------------


def test_a_dutch_workbook_says_its_problems_in_dutch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    path = typo_book(tmp_path, "nl")
    result = run_cli("check", path)
    assert result.exit_code == 1
    assert "2 problemen in het werkboek:" in result.output
    assert (
        "Ronden!E2: 'l-0' is geen uitslag; gebruik 1-0, 0-1, ½-½, +-, -+ of -- (of vrij, "
        "afgemeld, extern of onafgemeld)"
    ) in result.output
    assert (
        "Ronden!D3: 'Spelr 4' staat niet op het blad Spelers; bedoelt u 'Speler 4'?"
        in result.output
    )
    english = run_cli("--lang", "en", "check", path)
    assert "Ronden!E2: 'l-0' is not a result; use 1-0" in english.output  # the sheet's name
    assert "2 problems in the workbook:" in english.output


def test_the_environment_and_lang_choose_the_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = typo_book(tmp_path, "en")
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    assert "Rounds!E2: 'l-0' is not a result" in run_cli("check", path).output
    monkeypatch.setenv(ENVIRONMENT, "nl")
    assert "Rounds!E2: 'l-0' is geen uitslag" in run_cli("check", path).output
    assert "Rounds!E2: 'l-0' is not a result" in run_cli("--lang", "en", "check", path).output


def test_a_dutch_season_speaks_dutch_in_the_terminal_and_the_standings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    path = book(tmp_path, "nl")
    paired = run_cli("pair", path)
    assert paired.exit_code == 0, paired.output
    assert f"Ronde 1 geschreven in {path}." in paired.output
    assert "Bord" in paired.output and "Wit" in paired.output
    competition, layout = workbook.load(path)
    results = {
        (int(g.source), layout.columns["Rounds"]["Result"]): "1-0"  # type: ignore
        for g in competition.season.games()
    }
    results[(2, layout.columns["Rounds"]["Result"])] = "-+"
    save_edits(path, [SheetEdit("Ronden", results)], backup=False)
    recalc = run_cli("recalc", path)
    assert recalc.exit_code == 0, recalc.output
    assert f"{path}: Stand bijgewerkt (na ronde 1, 6 spelers)." in recalc.output
    stand = CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Stand").to_python()
    notes = [str(row[0]) for row in stand if row and str(row[0]).startswith("Stand na")]
    # the Top value pairing round 1 fixed is named among the changed settings
    assert notes == [
        "Stand na ronde 1. Regels: Voorinstelling keizer; veranderd: Topwaarde 8. "
        "Eigen = eigen waarde meegeteld."
    ]
    cross = CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Kruistabel").to_python()
    assert any(
        str(row[0]).startswith("Na ronde 1. Per ronde: de plaats van de tegenstander")
        for row in cross
        if row
    )
    shown = run_cli("standings", path)
    assert "Stand na ronde 1" in shown.output and "Naam" in shown.output
    undone = run_cli("unpair", path, "--force")
    assert undone.exit_code == 0
    assert "Ronde 1 teruggedraaid in" in undone.output
    assert "De Stand toont weer de beginvolgorde." in undone.output


def test_a_missing_file_is_said_in_the_asked_language(tmp_path: Path) -> None:
    result = run_cli("--lang", "nl", "recalc", tmp_path / "weg.xlsx")
    assert result.exit_code == 1
    assert f"{tmp_path / 'weg.xlsx'}: dit bestand bestaat niet" in result.output


def test_the_writers_reasons_are_the_ones_the_xlsx_package_gives() -> None:
    """The reasons `files` translates are word for word those xlsx raises (first letter
    lowered), so none of them slips through in English."""
    raised = set()
    for path in (PACKAGE / "workbook" / "xlsx").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", "") in ("PermissionError", "FileNotFoundError")
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
            ):
                text = str(node.args[1].value)
                raised.add(text[:1].lower() + text[1:])
    assert raised and raised == set(_REASONS)


def _error_classes() -> set[str]:
    """Every error class of ours whose message reaches the secretary (the roots and their
    kinds, found in the source), plus the collectors' `add` and `caution`."""
    roots = {"KeizerXLError", "XlsxError"}
    found = set(roots)
    for _ in range(3):  # kinds of kinds
        for path in PACKAGE.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef) and any(
                    getattr(b, "id", "") in found for b in node.bases
                ):
                    found.add(node.name)
    return found - roots


MESSAGE_CALLS = {"add", "caution", "Problem", "Caution", "LineProblem", *_error_classes()}


def test_no_message_is_written_as_a_plain_string() -> None:
    """A message for the secretary is made with `msg` (or `translate`, `_t`), never as an
    f-string or a plain string, which could not be said in Dutch."""
    plain = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            template = path.parent.name == "xlsx"  # its errors take a template, not `msg`
            if name in MESSAGE_CALLS and (
                isinstance(first, ast.JoinedStr)
                or (
                    isinstance(first, ast.Constant)
                    and isinstance(first.value, str)
                    and first.value
                    and not template
                )
            ):
                plain.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert {
        "WordError",
        "FileProblem",
        "TrfLimit",
        "PdfProblem",
        "WorkbookLocked",
    } <= MESSAGE_CALLS  # the search found the error classes
    assert plain == []


# -- the buttons ------------------------------------------------------------------------------


def test_the_buttons_speak_the_workbooks_language(
    xw: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    excel = Excel.from_file(typo_book(tmp_path, "nl"))
    press(xw, excel, keizer_xl.recalculate)
    ((text, title, *_),) = excel.alerts
    assert title == "Keizercompetitie: Herberekenen"
    assert text.startswith("2 problemen in het werkboek; er is niets veranderd. Herstel:")
    assert "Ronden!E2: 'l-0' is geen uitslag" in text
    assert text.endswith("Klik dan opnieuw op 'Herberekenen'.")
    monkeypatch.setenv(ENVIRONMENT, "en")
    excel.alerts.clear()
    press(xw, excel, keizer_xl.recalculate)
    ((text, title, *_),) = excel.alerts
    assert title == "Keizer competition: Recalculate"
    assert "Ronden!E2: 'l-0' is not a result" in text


def test_a_dutch_pairing_note_is_dutch(
    xw: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seven present: the note names the bye's reason only when needed, but the standings
    note of a new season is always there, so the message box shows Dutch."""
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    path = tmp_path / "nl.xlsx"
    build_template(path, [*players("ja"), {"Name": "Speler 7", "Present": "ja"}], language="nl")
    excel = Excel.from_file(path)
    press(xw, excel, keizer_xl.pair_next_round)
    texts = [alert[0] for alert in excel.alerts]
    assert texts and texts[0].startswith("Ronde 1 is ingedeeld. Let op:")
    assert "Waarschuwing: Spelers!B8: Speler 7 heeft geen rating" in texts[0]


def test_a_problem_raised_in_the_rule_book_is_said_in_dutch() -> None:
    from keizer_xl.core.checks import Table
    from keizer_xl.core.round import Competition
    from keizer_xl.core.settings import Settings

    players = Table("Players", [2, 3], {"Name": ["Anna", "Anna"], "Rating": ["veel", 1800]})
    rounds = Table("Rounds", [], {c: [] for c in ("Round", "Board", "White", "Black", "Result")})
    with pytest.raises(KeizerError) as caught:
        Competition.from_tables(players, rounds, Settings())
    message = caught.value.message
    assert isinstance(message, Message)
    assert "Players!3:3: 'Anna' is listed twice" in str(message)
    dutch = say(message, "nl")
    assert "Spelers!3:3: 'Anna' staat er twee keer (ook in rij 2)" in dutch
    assert "Spelers!2:2: 'veel' is geen getal (rating)" in dutch
    assert dutch.startswith("2 problemen gevonden:")


def test_a_value_typed_far_away_is_reported_in_dutch(tmp_path: Path) -> None:
    """The xlsx package's own refusals (here: data past the limits) are said in Dutch too,
    each part of them."""
    from keizer_xl.workbook.files import most_rows

    MAX_ROWS = most_rows("Spelers")
    path = book(tmp_path, "nl")
    save_edits(path, [SheetEdit("Spelers", {(MAX_ROWS + 5, 1): "oeps"})], backup=False)
    result = run_cli("check", path)
    assert result.exit_code == 1
    far = f"{MAX_ROWS + 5:,}"
    assert (
        f"Spelers!A{MAX_ROWS + 5}: de gegevens van het blad reiken tot deze cel (rij {far}, "
        f"voorbij {MAX_ROWS:,} rijen)" in result.output
    )
    assert "keizer_xl leest hoogstens" in result.output
    english = run_cli("--lang", "en", "check", path)
    assert "the sheet's data reaches this cell (row" in english.output


def test_the_language_asked_for_makes_a_new_workbook_in_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Dutch secretary who set KEIZER_XL_LANG=nl (or typed --lang nl first) gets Dutch
    workbooks from `new`; the command's own --lang still decides when given."""
    from keizer_xl.workbook.xlsx import Workbook

    made = run_cli("--lang", "nl", "new", tmp_path / "a.xlsx")
    assert made.exit_code == 0 and made.output.startswith(f"{tmp_path / 'a.xlsx'} gemaakt.")
    assert "Spelers" in Workbook(tmp_path / "a.xlsx").worksheets()
    monkeypatch.setenv(ENVIRONMENT, "nl")
    assert run_cli("new", tmp_path / "b.xlsx").exit_code == 0
    assert "Spelers" in Workbook(tmp_path / "b.xlsx").worksheets()
    assert run_cli("new", tmp_path / "c.xlsx", "--lang", "en").exit_code == 0
    assert "Players" in Workbook(tmp_path / "c.xlsx").worksheets()
