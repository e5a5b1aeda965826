"""The whole secretary's path through real workbook files and the `keizer-xl` command."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
import xlsxwriter
from python_calamine import CalamineWorkbook

from keizer_xl.core.settings import SETTINGS
from keizer_xl.workbook.xlsx import SheetEdit, save_edits
from tests.conftest import run_cli
from tests.seasons import golden_book, golden_rows, make_book

PLAYERS = [
    {"Name": n, "Rating": r, "Present": "x"}
    for n, r in [
        ("Anna", 2000),
        ("Bram", 1900),
        ("Carla", 1800),
        ("Daan", 1700),
        ("Eva", 1600),
        ("Fleur", 1500),
    ]
]
ROUND1 = [
    [1, 1, "Anna", "Bram", "1-0"],
    [1, 2, "Carla", "Daan", "½-½"],
    [1, 3, "Eva", "Fleur", "0-1"],
]
SETTING_ROW = {name: i for i, name in enumerate(SETTINGS, start=2)}


def sheet(path: Path, name: str) -> list[list[object]]:
    rows: list[list[object]] = (
        CalamineWorkbook.from_path(str(path))
        .get_sheet_by_name(name)
        .to_python(skip_empty_area=False)
    )
    return rows


def standings_of(path: Path) -> list[tuple[str, object]]:
    rows = sheet(path, "Standings")
    assert rows[0][:4] == ["Rank", "Name", "Score", "Value"]
    return [(r[1], r[2]) for r in rows[1:] if r and r[0] != "" and isinstance(r[0], float)]


# -- the golden examples through the whole path -------------------------------------------


def test_golden_a_from_new_workbook_to_standings(tmp_path: Path) -> None:
    """template -> players -> pair -> results -> pair -> results -> recalc -> read back."""
    path = tmp_path / "club.xlsx"
    players_csv = tmp_path / "players.csv"
    players_csv.write_text(
        "Name,Rating,Present\n"
        + "".join(f"{p['Name']},{p['Rating']},x\n" for p in golden_rows("A", "players")),
        encoding="utf-8",
    )
    assert run_cli("new", path, "--players", players_csv).exit_code == 0
    save_edits(path, [SheetEdit("Settings", {(SETTING_ROW["Top value"], 2): 50})])
    published = golden_rows("A", "rounds")
    for round_no in ("1", "2"):
        result = run_cli("pair", path)
        assert result.exit_code == 0, result.output
        rows = sheet(path, "Rounds")
        want = [(r["Board"], r["White"], r["Black"]) for r in published if r["Round"] == round_no]
        got = [(str(int(r[1])), r[2], r[3]) for r in rows[1:] if r[0] == float(round_no)]
        assert got == want  # the engine's pairing and colours are Keizer's own
        results = {
            (r["White"], r["Black"]): r["Result"] for r in published if r["Round"] == round_no
        }
        cells = {
            (i, 5): results[(r[2], r[3])]
            for i, r in enumerate(rows[1:], start=2)
            if r[0] == float(round_no)
        }
        save_edits(path, [SheetEdit("Rounds", cells)])  # type: ignore[arg-type]
    assert run_cli("recalc", path).exit_code == 0
    expected = [
        (r["Name"], float(Fraction(r["Score"])))
        for r in golden_rows("A", "expected")
        if r["after"] == "2"
    ]
    assert standings_of(path) == expected
    note = [r[0] for r in sheet(path, "Standings") if r and "after round 2" in str(r[0])]
    assert note and "Top value 50" in note[0]


@pytest.mark.parametrize("case", ["B", "C", "C-final"])
def test_golden_by_hand_rounds_through_recalc(tmp_path: Path, case: str) -> None:
    path = golden_book(tmp_path / "club.xlsx", case)
    result = run_cli("recalc", path)
    assert result.exit_code == 0, result.output
    last = max(int(r["after"]) for r in golden_rows(case, "expected"))
    expected = [
        (r["Name"], float(Fraction(r["Score"])))
        for r in golden_rows(case, "expected")
        if int(r["after"]) == last
    ]
    assert standings_of(path) == expected


def test_standings_breakdown_columns(tmp_path: Path) -> None:
    path = golden_book(tmp_path / "club.xlsx", "A")
    run_cli("recalc", path)
    rows = sheet(path, "Standings")
    header = rows[0]
    assert header[:17] == [
        "Rank",
        "Name",
        "Score",
        "Value",
        "Played",
        "Won",
        "Drawn",
        "Lost",
        "Byes",
        "Absent",
        "Rating",
        "Own",
        "Game points",
        "Percentage",
        "Colour balance",
        "Change",
        "R1",
    ]
    harrison = next(r for r in rows if r[1] == "Harrison")
    # 141 = own value 49 + 42 (win over Carter, worth 42 now) + 50 (win over Johnson)
    assert harrison[2] == 141 and harrison[11] == 49 and harrison[16:18] == [42, 50]
    # two wins, 100 %, one white and one black, up one place (from 2nd after round 1)
    assert harrison[12:16] == [2, 100, 0, 1]


def test_recalc_twice_changes_nothing(tmp_path: Path) -> None:
    path = golden_book(tmp_path / "club.xlsx", "A")
    assert run_cli("recalc", path).exit_code == 0
    before, mtime = path.read_bytes(), path.stat().st_mtime_ns
    result = run_cli("recalc", path)
    assert result.exit_code == 0 and "already up to date" in result.output
    assert path.read_bytes() == before and path.stat().st_mtime_ns == mtime


def test_pair_writes_round_bye_absences_and_top_value(tmp_path: Path) -> None:
    players = [dict(p) for p in PLAYERS]
    players[1]["Present"] = "excused"
    players[4]["Present"] = ""  # blank: the default absence (excused)
    players.append({"Name": "Gijs", "Rating": 1400, "Present": "club"})
    path = make_book(tmp_path / "club.xlsx", players)
    result = run_cli("pair", path)
    assert result.exit_code == 0, result.output
    rows = [r[:5] for r in sheet(path, "Rounds")[1:]]
    # present: Anna, Carla, Daan, Fleur -> Anna-Carla, Daan-Fleur; no bye
    assert rows == [
        [1.0, 1.0, "Anna", "Carla", ""],
        [1.0, 2.0, "Daan", "Fleur", ""],
        [1.0, "", "Bram", "", "excused"],
        [1.0, "", "Eva", "", "excused"],
        [1.0, "", "Gijs", "", "club"],
    ]
    settings = sheet(path, "Settings")
    # blank Top value fixed at round 1: 1.5 x (7 - 1) = 9
    assert settings[SETTING_ROW["Top value"] - 1][1] == 9
    assert (tmp_path / "club.backup.xlsx").exists()


def test_pair_gives_the_bye_to_the_lowest_present(tmp_path: Path) -> None:
    path = make_book(tmp_path / "club.xlsx", PLAYERS[:5])
    assert run_cli("pair", path).exit_code == 0
    rows = [r[:5] for r in sheet(path, "Rounds")[1:]]
    assert [1.0, "", "Eva", "", "bye"] in rows


# -- bad input: every problem with its place, and the file untouched ------------------------


def _set(path: Path, sheet_name: str, cells: dict[tuple[int, int], object]) -> Path:
    save_edits(path, [SheetEdit(sheet_name, cells)], backup=False)  # type: ignore[arg-type]
    return path


def _base(tmp_path: Path, rounds: list[list[object]] | None = None) -> Path:
    return make_book(
        tmp_path / "club.xlsx", PLAYERS, ROUND1 if rounds is None else rounds, {"Top value": 10}
    )


def _bare_book(path: Path, sheets: dict[str, list[list[object]]]) -> Path:
    workbook = xlsxwriter.Workbook(str(path))
    for name, rows in sheets.items():
        ws = workbook.add_worksheet(name)
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                ws.write(r, c, value)
    workbook.close()
    return path


MINIMAL = {
    "Players": [["Name"], ["Anna"], ["Bram"]],
    "Rounds": [["Round", "Board", "White", "Black", "Result"]],
    "Standings": [["Rank"]],
    "Settings": [["Setting", "Value"]],
}

Case = Callable[[Path], Path]
BAD: dict[str, tuple[Case, str, list[str]]] = {
    # name: (make the bad workbook, command, [expected pieces of the message])
    "missing Players sheet": (
        lambda t: _bare_book(t / "club.xlsx", {k: v for k, v in MINIMAL.items() if k != "Players"}),
        "recalc",
        ["Workbook: the workbook has no sheet named 'Players'"],
    ),
    "missing Rounds sheet": (
        lambda t: _bare_book(t / "club.xlsx", {k: v for k, v in MINIMAL.items() if k != "Rounds"}),
        "recalc",
        ["no sheet named 'Rounds'"],
    ),
    "missing Settings sheet": (
        lambda t: _bare_book(
            t / "club.xlsx", {k: v for k, v in MINIMAL.items() if k != "Settings"}
        ),
        "pair",
        ["no sheet named 'Settings'"],
    ),
    "missing Standings sheet": (
        lambda t: _bare_book(
            t / "club.xlsx", {k: v for k, v in MINIMAL.items() if k != "Standings"}
        ),
        "recalc",
        ["no sheet named 'Standings'"],
    ),
    "renamed Name header": (
        lambda t: _set(_base(t), "Players", {(1, 1): "Nmae"}),
        "recalc",
        ["Players: no column headed 'Name'"],
    ),
    "renamed Result header": (
        lambda t: _set(_base(t), "Rounds", {(1, 5): "Outcome"}),
        "recalc",
        ["Rounds: no column headed 'Result'"],
    ),
    "duplicate name": (
        lambda t: _set(_base(t), "Players", {(3, 1): "Anna"}),
        "recalc",
        ["Players!A3: 'Anna' is listed twice (also in row 2)"],
    ),
    "duplicate name other case": (
        lambda t: _set(_base(t), "Players", {(4, 1): " anna "}),
        "recalc",
        ["Players!A4: 'anna' is listed twice"],
    ),
    "misspelled name in a game": (
        lambda t: _set(_base(t), "Rounds", {(2, 4): "Brma"}),
        "recalc",
        ["Rounds!D2: 'Brma' is not on the Players sheet; did you mean 'Bram'?"],
    ),
    "player twice in a round": (
        lambda t: _set(_base(t), "Rounds", {(3, 3): "Anna"}),
        "recalc",
        ["Rounds!C3: Anna is in round 1 twice (also row 2)"],
    ),
    "player against himself": (
        lambda t: _set(_base(t), "Rounds", {(2, 4): "Anna"}),
        "recalc",
        ["Rounds!D2: Anna cannot play himself"],
    ),
    "unknown result": (
        lambda t: _set(_base(t), "Rounds", {(2, 5): "l-0"}),
        "recalc",
        ["Rounds!E2: 'l-0' is not a result; use 1-0, 0-1, ½-½, +-, -+ or --"],
    ),
    "result turned into a date": (
        lambda t: _set(_base(t), "Rounds", {(3, 5): 45000}),
        "recalc",
        ["Rounds!E3: '45000' is not a result"],
    ),
    "rating is text": (
        lambda t: _set(_base(t), "Players", {(2, 2): "strong"}),
        "recalc",
        ["Players!B2: 'strong' is not a number (rating)"],
    ),
    "negative rating": (
        lambda t: _set(_base(t), "Players", {(3, 2): -5}),
        "recalc",
        ["Players!B3: '-5' is negative"],
    ),
    "joined is text": (
        lambda t: _set(_base(t), "Players", {(5, 3): "two"}),
        "recalc",
        ["Players!C5: 'two' is not a whole number (round)"],
    ),
    "joined zero": (
        lambda t: _set(_base(t), "Players", {(5, 3): 0}),
        "recalc",
        ["Players!C5: '0' must be 1 or more (round)"],
    ),
    "left before joined": (
        lambda t: _set(_base(t, []), "Players", {(5, 3): 4, (5, 4): 2}),
        "recalc",
        ["Players!D5: Daan leaves after round 2 but joins in round 4"],
    ),
    "round is text": (
        lambda t: _set(_base(t), "Rounds", {(4, 1): "one"}),
        "recalc",
        ["Rounds!A4: 'one' is not a whole number; a round number is 1, 2, 3"],
    ),
    "round not whole": (
        lambda t: _set(_base(t), "Rounds", {(4, 1): 1.5}),
        "recalc",
        ["Rounds!A4: '1.5' is not a whole number"],
    ),
    "round number gap": (
        lambda t: _set(
            _base(t),
            "Rounds",
            {(5, 1): 3, (5, 2): 1, (5, 3): "Anna", (5, 4): "Carla", (5, 5): "1-0"},
        ),
        "recalc",
        ["Rounds!A5: round 3 follows round 1; round 2 has no rows"],
    ),
    "board is text": (
        lambda t: _set(_base(t), "Rounds", {(2, 2): "A"}),
        "recalc",
        ["Rounds!B2: 'A' is not a whole number (board number)"],
    ),
    "unknown attendance": (
        lambda t: _set(_base(t), "Players", {(2, 5): "maybe"}),
        "pair",
        ["Players!E2: 'maybe' is not an attendance"],
    ),
    "misspelled setting": (
        lambda t: _set(_base(t), "Settings", {(2, 1): "Top valeu"}),
        "recalc",
        ["Settings!A2: 'Top valeu' is not a setting; did you mean 'Top value'?"],
    ),
    "bad fraction": (
        lambda t: _set(_base(t), "Settings", {(SETTING_ROW["Bye"], 2): "lots"}),
        "recalc",
        [f"Settings!B{SETTING_ROW['Bye']}: Bye: 'lots' is not a number"],
    ),
    "negative fraction": (
        lambda t: _set(_base(t), "Settings", {(SETTING_ROW["Bye"], 2): "-1/3"}),
        "recalc",
        ["Bye: '-1/3' is negative"],
    ),
    "bad choice": (
        lambda t: _set(_base(t), "Settings", {(SETTING_ROW["Iterate"], 2): "sometimes"}),
        "recalc",
        [
            f"Settings!B{SETTING_ROW['Iterate']}: Iterate: 'sometimes' is not allowed; "
            "use none, final, converge"
        ],
    ),
    "negative window": (
        lambda t: _set(_base(t), "Settings", {(SETTING_ROW["Rematch window"], 2): -1}),
        "recalc",
        ["Rematch window: '-1' must be 0 or more"],
    ),
    "setting twice": (
        lambda t: _set(_base(t), "Settings", {(40, 1): "Bye", (40, 2): "1/2"}),
        "recalc",
        ["Settings!A40: 'Bye' is set twice"],
    ),
    "step zero": (
        lambda t: _set(_base(t), "Settings", {(SETTING_ROW["Step"], 2): 0}),
        "recalc",
        ["Step: '0' must be more than 0"],
    ),
    "top value not whole": (
        lambda t: _set(_base(t), "Settings", {(SETTING_ROW["Top value"], 2): "12.5"}),
        "recalc",
        ["Top value: '12.5' is not a whole number above 0 (or auto)"],
    ),
    "unfinished round before pairing": (
        lambda t: _set(_base(t), "Rounds", {(3, 5): ""}),
        "pair",
        ["Rounds!E3: round 1, board 2 (Carla – Daan) has no result yet"],
    ),
    "bye with an opponent": (
        lambda t: _set(_base(t), "Rounds", {(4, 5): "bye"}),
        "recalc",
        ["Rounds!E4: 'bye' is for a row with one player"],
    ),
    "game result without opponent": (
        lambda t: _set(_base(t), "Rounds", {(4, 4): ""}),
        "recalc",
        ["Rounds!D4: a game result needs a player under 'Black'"],
    ),
    "row without white": (
        lambda t: _set(_base(t), "Rounds", {(4, 3): ""}),
        "recalc",
        ["Rounds!C4: this row has no player under 'White'"],
    ),
    "earlier round missing a result": (
        lambda t: _set(
            _base(t),
            "Rounds",
            {(3, 5): "", (5, 1): 2, (5, 2): 1, (5, 3): "Anna", (5, 4): "Carla", (5, 5): "1-0"},
        ),
        "recalc",
        [
            "Rounds!E3: round 1, board 2 (Carla – Daan) has no result yet, but "
            "round 2 is already there"
        ],
    ),
    "plays after leaving": (
        lambda t: _set(_base(t), "Players", {(2, 4): 0}),
        "recalc",
        ["Players!D2: '0' must be 1 or more (round)"],
    ),
    "plays before joining": (
        lambda t: _set(_base(t), "Players", {(2, 3): 2}),
        "recalc",
        ["Rounds!C2: Anna joins in round 2, so cannot be in round 1"],
    ),
    "present after leaving": (
        lambda t: _set(_base(t), "Players", {(2, 4): 1}),
        "pair",
        ["Players!E2: Anna is marked present but left after round 1"],
    ),
    "nobody present": (
        lambda t: _set(_base(t), "Players", {(r, 5): None for r in range(2, 8)}),
        "pair",
        ["Players!E1: nobody is marked present for round 2; put x in the Present column"],
    ),
    "rating but no name": (
        lambda t: _set(_base(t), "Players", {(9, 2): 1700}),
        "recalc",
        ["Players!A9: this row has no name"],
    ),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_is_reported_with_its_place_and_changes_nothing(
    tmp_path: Path, name: str
) -> None:
    make, command, pieces = BAD[name]
    path = make(tmp_path)
    before = path.read_bytes()
    result = run_cli(command, path)
    assert result.exit_code == 1, result.output
    for piece in pieces:
        assert piece in result.stderr, result.stderr
    assert "Traceback" not in result.output + result.stderr
    assert path.read_bytes() == before
    assert not (tmp_path / "club.backup.xlsx").exists()


def test_many_problems_are_reported_at_once(tmp_path: Path) -> None:
    path = _set(_base(tmp_path), "Rounds", {(2, 5): "l-0", (3, 4): "Dana", (4, 1): "x"})
    _set(path, "Settings", {(SETTING_ROW["Ties"], 2): "random"})
    result = run_cli("check", path)
    assert result.exit_code == 1
    assert "4 problems in the workbook" in result.stderr
    for place in ("Rounds!E2", "Rounds!D3", "Rounds!A4", f"Settings!B{SETTING_ROW['Ties']}"):
        assert place in result.stderr


def test_not_a_workbook_missing_file_and_open_in_excel(tmp_path: Path) -> None:
    fake = tmp_path / "fake.xlsx"
    fake.write_text("just text", encoding="utf-8")
    result = run_cli("recalc", fake)
    assert result.exit_code == 1 and "not an Excel workbook" in result.stderr
    assert fake.read_text(encoding="utf-8") == "just text"
    missing = run_cli("recalc", tmp_path / "nothere.xlsx")
    assert missing.exit_code == 1 and "there is no such file" in missing.stderr
    path = _base(tmp_path)
    (tmp_path / "~$club.xlsx").write_bytes(b"owner")
    before = path.read_bytes()
    locked = run_cli("pair", path)
    assert locked.exit_code == 1 and "club.xlsx is open in Excel" in locked.stderr
    assert "~$club.xlsx" not in locked.stderr and f"keizer-xl unlock {path}" in locked.stderr
    assert path.read_bytes() == before


def test_excel_dates_in_results_and_settings_are_recovered(tmp_path: Path) -> None:
    path = _base(tmp_path)
    # Excel turned "1/2" into 1 February and "2/3" into 2 March: read back as meant
    workbook_date = dt.datetime(2026, 2, 1)
    save_edits(path, [SheetEdit("Settings", {(SETTING_ROW["Bye"], 2): 0.5})])
    assert run_cli("recalc", path).exit_code == 0
    from keizer_xl.core.words import parse_number, parse_result

    assert parse_result(workbook_date).value == "½-½"  # type: ignore[union-attr]
    assert parse_number(dt.datetime(2026, 3, 2)) == Fraction(2, 3)


# -- the command line itself ----------------------------------------------------------------


def test_usage_errors_exit_2_and_help_everywhere() -> None:
    assert run_cli("--help").exit_code == 0
    for command in ("new", "pair", "recalc", "check", "standings", "demo"):
        result = run_cli(command, "--help")
        assert result.exit_code == 0 and "Usage" in result.output
    assert run_cli("recalc").exit_code == 2
    assert run_cli("frobnicate").exit_code == 2
    assert run_cli("new", "club.txt").exit_code == 2


def test_batch_recalc_goes_on_after_a_bad_file(tmp_path: Path) -> None:
    good = [golden_book(tmp_path / f"good{i}.xlsx", "A") for i in range(3)]
    bad = _set(make_book(tmp_path / "bad.xlsx", PLAYERS, ROUND1), "Rounds", {(2, 5): "l-0"})
    result = run_cli("recalc", *good[:2], bad, good[2])
    assert result.exit_code == 1
    assert "3 of 4 workbooks recalculated, 1 with problems" in result.output
    assert "bad.xlsx" in result.stderr or "Rounds!E2" in result.stderr
    for path in good:
        assert standings_of(path)[0] == ("Harrison", 141.0)


@pytest.mark.programs  # worker processes
def test_batch_recalc_in_parallel_processes(tmp_path: Path) -> None:
    files = [golden_book(tmp_path / f"club{i}.xlsx", "B") for i in range(9)]
    result = run_cli("recalc", "--jobs", "2", *files)
    assert result.exit_code == 0, result.output
    assert "9 of 9 workbooks recalculated." in result.output
    assert all(standings_of(p)[0] == ("Pietersen", 12.0) for p in files)


def test_check_and_standings_print_without_writing(tmp_path: Path) -> None:
    path = golden_book(tmp_path / "club.xlsx", "A")
    before = path.read_bytes()
    result = run_cli("check", path)
    assert result.exit_code == 0 and "no problems found (10 players, 2 rounds)" in result.output
    table = run_cli("standings", path)
    assert table.exit_code == 0 and "Harrison" in table.output and "141" in table.output
    after1 = run_cli("standings", path, "--after", "1")
    assert "Johnson" in after1.output and "99" in after1.output
    assert run_cli("standings", path, "--after", "5").exit_code == 1
    assert path.read_bytes() == before


def test_new_refuses_to_overwrite_and_reads_players_csv(tmp_path: Path) -> None:
    path = tmp_path / "club.xlsx"
    csv_file = tmp_path / "players.csv"
    csv_file.write_text("name;rating\nAnna;2000\nBram;1900\n", encoding="utf-8")
    assert run_cli("new", path, "--players", csv_file).exit_code == 0
    assert [r[:2] for r in sheet(path, "Players")[1:3]] == [["Anna", 2000.0], ["Bram", 1900.0]]
    again = run_cli("new", path)
    assert again.exit_code == 1 and "already exists" in again.stderr
    assert oct(path.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_demo_runs_keizers_example(tmp_path: Path) -> None:
    result = run_cli("demo", "--folder", tmp_path)
    assert result.exit_code == 0, result.output
    assert standings_of(tmp_path / "keizer_demo.xlsx")[:3] == [
        ("Harrison", 141.0),
        ("Brown", 136.0),
        ("Johnson", 93.0),
    ]


def test_a_big_round_is_summed_up_not_listed(tmp_path: Path) -> None:
    players = [
        {"Name": f"Player {i:03d}", "Rating": 2000 - i, "Present": "x" if i % 10 else ""}
        for i in range(200)
    ]
    path = make_book(tmp_path / "club.xlsx", players)
    result = run_cli("pair", path)
    assert result.exit_code == 0, result.output
    # 180 present -> 90 games; 20 absent with the default reason
    assert (
        "Round 1: 90 games (boards 1–90), 20 absent. The full list is in the Rounds sheet."
        in result.output
    )
    assert len(sheet(path, "Rounds")) == 1 + 90 + 20
