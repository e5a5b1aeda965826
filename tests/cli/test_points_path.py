"""The new point systems through real workbooks and the command: the golden examples F
(esgapp: Pricing frozen, Bye in points) and G (KeizerForClubs' author: Top value rounding
down) by `recalc` and `pair`; a new workbook's Settings sheet listing the new settings in
English and Dutch; and a Dutch club's published rules saying them in Dutch."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from python_calamine import CalamineWorkbook

from keizer_xl.core.settings import SETTINGS, SPECS
from keizer_xl.i18n.names import SETTING_TRANSLATIONS
from keizer_xl.workbook.xlsx import SheetEdit, save_edits
from tests.conftest import run_cli
from tests.publish.html import parse, tag, text
from tests.seasons import golden_book, golden_rows, make_book

SETTING_ROW = {name: i for i, name in enumerate(SETTINGS, start=2)}


def sheet(path: Path, name: str) -> list[list[object]]:
    rows: list[list[object]] = (
        CalamineWorkbook.from_path(str(path))
        .get_sheet_by_name(name)
        .to_python(skip_empty_area=False)
    )
    return rows


def standings(path: Path, name: str = "Standings") -> list[tuple[object, object, object]]:
    """(name, score, value) of each ranked row."""
    return [(r[1], r[2], r[3]) for r in sheet(path, name)[1:] if isinstance(r[0], float)]


def note(path: Path, name: str = "Standings") -> str:
    return next(
        str(r[0]) for r in sheet(path, name) if "Rules:" in str(r[0]) or "Regels:" in str(r[0])
    )


@pytest.mark.parametrize("case", ["F", "G"])
def test_golden_point_systems_through_recalc(tmp_path: Path, case: str) -> None:
    path = golden_book(tmp_path / "club.xlsx", case)
    result = run_cli("recalc", path)
    assert result.exit_code == 0, result.output
    last = max(int(r["after"]) for r in golden_rows(case, "expected"))
    want = [
        (r["Name"], float(Fraction(r["Score"])), float(Fraction(r["Value"])))
        for r in golden_rows(case, "expected")
        if int(r["after"]) == last
    ]
    assert standings(path) == want
    for row in golden_rows(case, "settings"):
        assert f"{row['Setting']} {row['Value']}" in note(path)


def test_esgapp_round_columns_keep_what_a_round_earned(tmp_path: Path) -> None:
    path = golden_book(tmp_path / "club.xlsx", "F")
    assert run_cli("recalc", path).exit_code == 0
    rows = sheet(path, "Standings")
    r1 = rows[0].index("R1")
    own = rows[0].index("Own")
    bob = next(r for r in rows if r[1] == "Bob")
    # 60 for beating Alice when she was worth 60 (she is worth 58 now), 40 for the bye
    assert (bob[own], bob[r1], bob[r1 + 1]) == (0, 60, 40)


def test_pairing_round_one_writes_the_top_value_rounded_down(tmp_path: Path) -> None:
    players = [{**p, "Present": "x"} for p in golden_rows("G", "players")]
    path = make_book(tmp_path / "club.xlsx", players, (), {"Top value rounding": "down"})
    result = run_cli("pair", path)
    assert result.exit_code == 0, result.output
    settings = {r[0]: r[1] for r in sheet(path, "Settings")[1:]}
    assert settings["Top value"] == 7  # 1.5 × 5 = 7.5, rounded down
    assert [r[:4] for r in sheet(path, "Rounds")[1:4]] == [
        [1, 1, "Botwinnik", "Lasker"],
        [1, 2, "Capablanca", "Steinitz"],
        [1, 3, "Tal", "Keres"],
    ]
    even = make_book(tmp_path / "even.xlsx", players)
    assert run_cli("pair", even).exit_code == 0
    assert {r[0]: r[1] for r in sheet(even, "Settings")[1:]}["Top value"] == 8


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_new_workbook_lists_the_new_settings(tmp_path: Path, language: str) -> None:
    members = tmp_path / "members.csv"
    members.write_text("Name,Rating\nAnna,2000\nBram,1900\n", encoding="utf-8")
    path = tmp_path / "club.xlsx"
    result = run_cli("new", path, "--lang", language, "--players", members)
    assert result.exit_code == 0, result.output
    rows = sheet(path, "Settings" if language == "en" else "Instellingen")
    listed = {str(r[0]): (r[1], r[2], r[3]) for r in rows[1:] if r and r[0]}
    names = SETTING_TRANSLATIONS.get(language, {})
    specs = {spec.name: spec for spec in SPECS}
    meanings = {
        "en": {
            "Pricing": specs["Pricing"].meaning,
            "Top value rounding": specs["Top value rounding"].meaning,
        },
        "nl": {
            "Pricing": "current (elke ronde opnieuw gewaardeerd met de waarden van nu) of "
            "frozen (de punten van een ronde liggen vast zodra die is geteld).",
            "Top value rounding": "Hoe een berekende Topwaarde wordt afgerond: even "
            "(halven naar even) of down (naar beneden).",
        },
    }[language]
    for name, default in (("Pricing", "current"), ("Top value rounding", "even")):
        assert listed[names.get(name, name)] == ("", default, meanings[name])
    bye = listed[names.get("Bye", "Bye")][2]
    assert ("40 points" if language == "en" else "40 punten") in str(bye)


def test_a_dutch_club_plays_esgapp_and_publishes_its_rules_in_dutch(tmp_path: Path) -> None:
    members = tmp_path / "leden.csv"
    members.write_text(
        "Name,Rating\n"
        + "".join(f"{r['Name']},{r['Rating']}\n" for r in golden_rows("F", "players")),
        encoding="utf-8",
    )
    path = tmp_path / "club.xlsx"
    assert run_cli("new", path, "--lang", "nl", "--players", members).exit_code == 0
    typed = {"Top value": 60, "Own value": "none", "Pricing": "frozen", "Bye": "40 punten"}
    words = {"bye": "vrij"}
    rounds = {
        (i, c): (words.get(v, v) if isinstance(v, str) else v)
        for i, row in enumerate(golden_rows("F", "rounds"), start=2)
        for c, v in enumerate(
            [
                int(row["Round"]),
                row["Board"] and int(row["Board"]),
                row["White"],
                row["Black"],
                row["Result"],
            ],
            start=1,
        )
        if v not in ("", None)
    }
    save_edits(
        path,
        [
            SheetEdit("Instellingen", {(SETTING_ROW[k], 2): v for k, v in typed.items()}),
            SheetEdit("Ronden", rounds),
        ],
        backup=False,
    )  # type: ignore[arg-type]
    result = run_cli("recalc", path)
    assert result.exit_code == 0, result.output
    assert standings(path, "Stand") == [
        ("Bob", 100.0, 60.0),
        ("Alice", 59.0, 59.0),
        ("Carol", 40.0, 58.0),
    ]
    assert "Waardering frozen" in note(path, "Stand")
    assert "Vrije ronde 40 punten" in note(path, "Stand")
    result = run_cli("publish", path, "--out", tmp_path / "site")
    assert result.exit_code == 0, result.output
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    cells = [text(td) for td in parse(index).iter(tag("td"))]
    assert cells[cells.index("Waardering") + 1] == "frozen"
    assert cells[cells.index("Vrije ronde") + 1] == "40 punten"
    assert cells[cells.index("Eigen waarde") + 1] == "none"


def test_next_season_knows_the_rounded_down_top_value_as_automatic(tmp_path: Path) -> None:
    players = [{**p, "Present": "x"} for p in golden_rows("G", "players")]
    last = make_book(tmp_path / "2025.xlsx", players, (), {"Top value rounding": "down"})
    assert run_cli("pair", last).exit_code == 0  # fixes Top value 7 (rounded down)
    nxt = tmp_path / "2026.xlsx"
    result = run_cli("new", nxt, "--from", last)
    assert result.exit_code == 0, result.output
    assert "Top value 7 was last season's automatic value" in result.output
    settings = {r[0]: r[1] for r in sheet(nxt, "Settings")[1:]}
    assert settings["Top value"] == "" and settings["Top value rounding"] == "down"
