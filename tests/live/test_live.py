"""The Excel buttons through xlwings, on books made from real workbook files.

Excel is not available here, so the tests use the other door into xlwings: its remote
engine builds a Book from the JSON that its Excel clients send (`xw.Book(json=...)`) and
collects what the code does to the book as the actions it would send back (`book.json()`).
The tests make that JSON from a workbook file (the workbook's values, as an Office Scripts
client sends them), make the Book the caller, press the buttons through the package's entry
points, apply the returned actions to the values as Excel would, and check the outcome
against the rule book's golden example and against the command line's file path.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import keizer_xl
from keizer_xl.live import buttons as live
from keizer_xl.workbook import files as workbook
from keizer_xl.workbook.xlsx import column_letters
from tests.programs import another_writer

GOLDEN_A = Path(__file__).parents[1] / "golden" / "A"
NO_EXCEL = "needs Microsoft Excel (Windows/macOS); not available on Linux"
WRITES = {"setValues", "sheetClearContents", "rangeClearContents"}

Grid = list[list[Any]]


# -- the workbook as Excel holds it, and the JSON an xlwings client sends ------------------


@dataclass
class Excel:
    """The values of an open workbook, and what Excel showed while the buttons ran."""

    sheets: dict[str, Grid]
    alerts: list[list[Any]] = field(default_factory=list)
    active: str | None = None
    selection: tuple[str, int, int, int, int] | None = None  # sheet, row, col, rows, cols

    @classmethod
    def from_file(cls, path: Path) -> Excel:
        from python_calamine import CalamineWorkbook

        book = CalamineWorkbook.from_path(str(path))
        sheets = {}
        for name in book.sheet_names:
            rows = book.get_sheet_by_name(name).to_python(skip_empty_area=False)
            sheets[name] = [[None if v == "" else v for v in row] for row in rows]
        return cls(sheets)

    def cell(self, sheet: str, row: int, col: int) -> Any:
        grid = self.sheets[sheet]
        if row > len(grid) or col > len(grid[row - 1]):
            return None
        return grid[row - 1][col - 1]

    def set(self, sheet: str, row: int, col: int, value: Any) -> None:
        grid = self.sheets[sheet]
        while len(grid) < row:
            grid.append([])
        line = grid[row - 1]
        line.extend([None] * (col - len(line)))
        line[col - 1] = value

    def rows(self, sheet: str) -> list[list[Any]]:
        """Non-blank rows from row 2, as lists trimmed of trailing blanks."""
        out = []
        for line in self.sheets[sheet][1:]:
            values = list(line)
            while values and values[-1] is None:
                values.pop()
            if values:
                out.append(values)
        return out

    name: str = "club.xlsm"  # the book's name as the client sends it

    def json(self, used_range: bool = True) -> dict[str, Any]:
        """The book as an Office Scripts client posts it (xlwings/js/xlwings.ts): values
        from A1 to the last used cell, "" for empty cells, dates as ISO text; plus the
        used range's address that the Office.js client adds."""
        import xlwings

        sheets = []
        for name, grid in self.sheets.items():
            used = [
                (r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v is not None
            ]
            bottom = max((r for r, _ in used), default=0)
            right = max((c for _, c in used), default=0)
            values = (
                [
                    [_to_json(grid[r][c] if c < len(grid[r]) else None) for c in range(right + 1)]
                    for r in range(bottom + 1)
                ]
                if used
                else [[]]
            )
            sheet: dict[str, Any] = {"name": name, "values": values, "pictures": [], "tables": []}
            if used_range:
                top, left = (
                    min(r for r, _ in used) if used else 0,
                    min((c for _, c in used), default=0),
                )
                sheet["used_range_address"] = (
                    f"{column_letters(left + 1)}{top + 1}:{column_letters(right + 1)}{bottom + 1}"
                    if used
                    else None
                )
            sheets.append(sheet)
        payload = {
            "client": "Microsoft Office Scripts",
            "version": xlwings.__version__,
            "book": {"name": self.name, "active_sheet_index": 0, "selection": "A1"},
            "names": [],
            "sheets": sheets,
        }
        sent: dict[str, Any] = json.loads(json.dumps(payload))  # what crosses the wire
        return sent

    def apply(self, actions: list[dict[str, Any]]) -> None:
        """Do what Excel does with the actions the xlwings client receives."""
        names = list(self.sheets)
        for action in actions:
            func = action["func"]
            sheet = (
                names[action["sheet_position"]] if action["sheet_position"] is not None else None
            )
            if func == "setValues":
                assert sheet is not None
                for dr, row in enumerate(action["values"]):
                    for dc, value in enumerate(row):
                        self.set(
                            sheet,
                            action["start_row"] + dr + 1,
                            action["start_column"] + dc + 1,
                            None if value == "" else value,
                        )
            elif func == "sheetClearContents":
                assert sheet is not None
                self.sheets[sheet] = []
            elif func == "activateSheet":
                self.active = names[action["args"][0]]
            elif func == "rangeSelect":
                assert sheet is not None
                self.selection = (
                    sheet,
                    action["start_row"] + 1,
                    action["start_column"] + 1,
                    action["row_count"],
                    action["column_count"],
                )
            elif func == "alert":
                self.alerts.append(action["args"])
            elif func == "addSheet":  # (position, name): a new sheet there
                position, name = action["args"]
                items = list(self.sheets.items())
                items.insert(position, (name, []))
                self.sheets = dict(items)
                names = list(self.sheets)
            else:
                raise AssertionError(f"unexpected action {func}")


def _to_json(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.isoformat(timespec="milliseconds") + "Z"
    if isinstance(value, dt.date):
        return dt.datetime.combine(value, dt.time()).isoformat(timespec="milliseconds") + "Z"
    return value


@pytest.fixture
def xw(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """xlwings with its remote engine (its license grants noncommercial use)."""
    monkeypatch.setenv("XLWINGS_LICENSE_KEY", "noncommercial")
    xlwings = pytest.importorskip("xlwings")
    if "remote" not in [engine.name for engine in xlwings.engines]:
        # xlwings was imported before the key was set: register the engine now
        from xlwings.main import Engine
        from xlwings.pro import _xlremote

        xlwings.engines.add(Engine(impl=_xlremote.engine))
    yield xlwings
    if hasattr(xlwings.Book, "_mock_caller"):
        del xlwings.Book._mock_caller


def press(
    xw: Any, excel: Excel, button: Callable[..., None], used_range: bool = True
) -> list[dict[str, Any]]:
    """Click a button as Excel would: the book is the caller, the entry point gets no book.
    Returns the actions sent back, already applied to `excel`."""
    book = xw.Book(json=excel.json(used_range))
    book.set_mock_caller()
    button()
    actions: list[dict[str, Any]] = json.loads(json.dumps(book.json()))["actions"]
    excel.apply(actions)
    return actions


def written(actions: list[dict[str, Any]], excel: Excel) -> dict[str, list[dict[str, Any]]]:
    names = list(excel.sheets)
    out: dict[str, list[dict[str, Any]]] = {}
    for a in actions:
        if a["func"] in WRITES:
            out.setdefault(names[a["sheet_position"]], []).append(a)
    return out


def new_book(tmp_path: Path, players: list[dict[str, object]], name: str = "club.xlsx") -> Path:
    from keizer_xl.workbook.template import build_template

    path = tmp_path / name
    build_template(path, players=players)
    return path


def golden(name: str) -> list[dict[str, str]]:
    with open(GOLDEN_A / name, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def setting_row(excel: Excel, name: str) -> int:
    for r, row in enumerate(excel.sheets["Settings"], start=1):
        if row and row[0] == name:
            return r
    raise AssertionError(name)


def standings(excel: Excel) -> dict[str, dict[str, Any]]:
    grid = excel.sheets["Standings"]
    header = grid[0]
    out = {}
    for row in grid[1:]:
        if len(row) > 1 and row[1] is not None and isinstance(row[0], int | float):
            out[row[1]] = dict(zip(header, row, strict=False))
    return out


def players(n: int, present: str = "x") -> list[dict[str, object]]:
    return [
        {"Name": f"Player {i:02d}", "Rating": 2300 - 10 * i, "Present": present}
        for i in range(1, n + 1)
    ]


# -- the golden example through the buttons ------------------------------------------------


def test_golden_example_a_through_the_buttons(xw: Any, tmp_path: Path) -> None:
    """Keizer's own example: pair round 1, type the results, pair round 2, type those,
    recalculate; the Standings sheet shows the rule book's numbers after each round."""
    book = new_book(
        tmp_path,
        [
            {"Name": p["Name"], "Rating": int(p["Rating"]), "Present": "x"}
            for p in golden("players.csv")
        ],
    )
    excel = Excel.from_file(book)
    excel.set("Settings", setting_row(excel, "Top value"), 2, "50")  # typed in a Text cell
    games = golden("rounds.csv")
    expected: dict[int, list[dict[str, str]]] = {}
    for row in golden("expected.csv"):
        expected.setdefault(int(row["after"]), []).append(row)

    def check_standings(after: int) -> None:
        table = standings(excel)
        assert [row["Name"] for row in expected[after]] == list(table)[: len(expected[after])]
        for row in expected[after]:
            for column in ("Score", "Value"):
                want = Fraction(row[column])
                assert table[row["Name"]][column] == pytest.approx(float(want), abs=0.005), (
                    after,
                    row["Name"],
                    column,
                )
        note = excel.cell("Standings", len(table) + 3, 1)
        assert note.startswith(f"Standings after round {after}.")

    for round_no in (1, 2):
        before = len(excel.rows("Rounds"))
        press(xw, excel, keizer_xl.pair_next_round)
        assert excel.alerts == []
        paired = excel.rows("Rounds")[before:]
        want = [g for g in games if g["Round"] == str(round_no)]
        assert paired == [[round_no, int(g["Board"]), g["White"], g["Black"]] for g in want]
        if round_no == 2:
            check_standings(1)  # the standings the round was paired from
        assert excel.active == "Rounds"
        assert excel.selection == ("Rounds", before + 2, 1, len(want), 4)
        for offset, g in enumerate(want):  # the secretary types the results
            excel.set("Rounds", before + 2 + offset, 5, g["Result"])

    press(xw, excel, keizer_xl.recalculate)
    assert excel.alerts == []
    assert excel.active == "Standings"
    check_standings(2)
    assert excel.rows("Rounds") == [
        [int(g["Round"]), int(g["Board"]), g["White"], g["Black"], g["Result"]] for g in games
    ]


# -- what is written, and where ------------------------------------------------------------


def test_pair_writes_only_the_cells_keizer_xl_owns(xw: Any, tmp_path: Path) -> None:
    """Round 1 with a blank Top value: the Top value cell, the new rows below the last row,
    the Standings sheet; nothing in Players, in the other Settings or on other sheets."""
    field = players(7)
    field[3]["Present"] = "club"
    field[5]["Present"] = None
    excel = Excel.from_file(new_book(tmp_path, field))
    before = json.loads(json.dumps(excel.sheets))
    actions = press(xw, excel, keizer_xl.pair_next_round)
    assert excel.alerts == []
    writes = written(actions, excel)
    assert set(writes) == {"Settings", "Rounds", "Standings", "Crosstable", "Progress", "Pairings"}

    top = setting_row(excel, "Top value")
    assert [(a["start_row"], a["start_column"], a["values"]) for a in writes["Settings"]] == [
        (top - 1, 1, [[9]])
    ]  # B: 1.5 × (7 − 1), fixed now

    (rounds,) = writes["Rounds"]
    assert (rounds["start_row"], rounds["start_column"]) == (1, 0)  # A2: below the header
    assert rounds["values"] == [
        [1, 1, "Player 01", "Player 02", ""],
        [1, 2, "Player 03", "Player 05", ""],
        [1, "", "Player 07", "", "bye"],
        [1, "", "Player 04", "", "club"],
        [1, "", "Player 06", "", "excused"],
    ]
    assert [a["func"] for a in writes["Standings"]] == ["sheetClearContents", "setValues"]
    assert writes["Standings"][1]["start_row"] == writes["Standings"][1]["start_column"] == 0

    assert excel.sheets["Players"] == before["Players"]
    # the Pairings sheet: tonight's stakes beside the boards (F) and their line (B3) only
    pairings = excel.sheets["Pairings"]
    changed = {
        (r, c)
        for r, row in enumerate(pairings, start=1)
        for c, value in enumerate(row, start=1)
        if value
        != (
            before["Pairings"][r - 1][c - 1]
            if r <= len(before["Pairings"]) and c <= len(before["Pairings"][r - 1])
            else None
        )
    }
    assert changed == {(3, 2), (4, 6), (5, 6), (6, 6)}
    value = {name: row["Value"] for name, row in standings(excel).items()}
    assert pairings[4][5] == (
        f"win {value['Player 02']:g} · draw {value['Player 02'] / 2:g} | "
        f"win {value['Player 01']:g} · draw {value['Player 01'] / 2:g}"
    )
    assert "today's values" in pairings[2][1]
    settings = [row for r, row in enumerate(excel.sheets["Settings"], start=1) if r != top]
    assert settings == [row for r, row in enumerate(before["Settings"], start=1) if r != top]
    assert [a["func"] for a in actions if a["func"] not in WRITES] == [
        "activateSheet",
        "rangeSelect",
    ]


def test_rounds_are_appended_below_the_last_row(xw: Any, tmp_path: Path) -> None:
    """Round 2 goes below round 1; the Top value is written once only."""
    excel = Excel.from_file(new_book(tmp_path, players(4)))
    press(xw, excel, keizer_xl.pair_next_round)
    excel.set("Rounds", 2, 5, "1-0")
    excel.set("Rounds", 3, 5, "½-½")
    actions = press(xw, excel, keizer_xl.pair_next_round)
    writes = written(actions, excel)
    assert set(writes) == {"Rounds", "Standings", "Crosstable", "Progress", "Pairings"}
    (rounds,) = writes["Rounds"]
    assert (rounds["start_row"], rounds["start_column"], len(rounds["values"])) == (3, 0, 2)
    assert [row[0] for row in excel.rows("Rounds")] == [1, 1, 2, 2]
    assert excel.selection == ("Rounds", 4, 1, 2, 4)


def test_club_columns_between_ours_are_not_touched(xw: Any, tmp_path: Path) -> None:
    """A club's own column between ours (here "Notes", which might hold formulas showing
    blanks) is never written; the columns are found by header, not place (the table
    starts in column B)."""
    excel = Excel.from_file(new_book(tmp_path, players(5)))
    excel.sheets["Rounds"] = [[None, "Round", "Board", "White", "Black", "Notes", "Result"]]
    actions = press(xw, excel, keizer_xl.pair_next_round)
    assert excel.alerts == []
    covered = {
        a["start_column"] + i
        for a in written(actions, excel)["Rounds"]
        for i in range(a["column_count"])
    }
    assert covered == {1, 2, 3, 4, 6}  # B:E and G, not A or F
    assert excel.rows("Rounds") == [
        [None, 1, 1, "Player 01", "Player 02"],
        [None, 1, 2, "Player 03", "Player 04"],
        [None, 1, None, "Player 05", None, None, "bye"],
    ]


def test_used_range_not_starting_at_a1(xw: Any, tmp_path: Path) -> None:
    """Excel's used range starts at the first used cell, not at A1: the values are put
    back in place before reading (here the Players table starts in row 3, column C)."""
    excel = Excel.from_file(new_book(tmp_path, []))
    excel.sheets["Players"] = [
        [],
        [],
        [None, None, "Name", "Rating", "Present"],
        *([None, None, f"P{i}", 2000 - i, "x"] for i in range(4)),
    ]
    actions = press(xw, excel, keizer_xl.pair_next_round)
    assert "Players" in excel.alerts[0][0]  # the headers belong in row 1
    assert written(actions, excel) == {}

    excel = Excel.from_file(new_book(tmp_path, []))
    excel.sheets["Players"] = [
        [None, None, "Name", "Rating", "Present"],
        *([None, None, f"P{i}", 2000 - i, "x"] for i in range(4)),
    ]
    for used_range in (True, False):  # Office.js sends its address; Office Scripts do not
        copy = Excel(json.loads(json.dumps(excel.sheets)))
        press(xw, copy, keizer_xl.pair_next_round, used_range=used_range)
        assert copy.alerts == []
        assert copy.rows("Rounds") == [[1, 1, "P0", "P1"], [1, 2, "P2", "P3"]]


def test_live_and_file_paths_write_the_same(xw: Any, tmp_path: Path) -> None:
    """The button and `keizer-xl pair` / `recalc` on the same workbook give the same sheets."""
    field = players(9)
    field[2]["Present"] = "excused"
    path = new_book(tmp_path, field)
    excel = Excel.from_file(path)
    for step in range(3):
        press(xw, excel, keizer_xl.pair_next_round)
        workbook.pair(path)
        assert_same(excel, Excel.from_file(path))
        for r, row in enumerate(excel.sheets["Rounds"][1:], start=2):
            if len(row) < 5 or row[4] is None:
                result = ("1-0", "0-1", "½-½")[(r + step) % 3]
                excel.set("Rounds", r, 5, result)
                _type_in_file(path, "Rounds", r, 5, result)
    press(xw, excel, keizer_xl.recalculate)
    workbook.recalc(path)
    assert_same(excel, Excel.from_file(path))


def _type_in_file(path: Path, sheet: str, row: int, col: int, value: str) -> None:
    from keizer_xl.workbook.xlsx import SheetEdit, save_edits

    save_edits(path, [SheetEdit(sheet, {(row, col): value})], backup=False)


def assert_same(live_excel: Excel, file_excel: Excel) -> None:
    for name in ("Players", "Rounds", "Standings", "Settings"):
        assert _trimmed(live_excel.sheets[name]) == _trimmed(file_excel.sheets[name]), name


def _trimmed(grid: Grid) -> Grid:
    rows = [[float(v) if isinstance(v, int) else v for v in row] for row in grid]
    for row in rows:
        while row and row[-1] is None:
            row.pop()
    while rows and not rows[-1]:
        rows.pop()
    return rows


# -- bad input: a message box naming the cells, and nothing written -------------------------


def test_bad_input_gives_one_message_box_naming_every_cell(xw: Any, tmp_path: Path) -> None:
    excel = Excel.from_file(new_book(tmp_path, players(4)))
    press(xw, excel, keizer_xl.pair_next_round)
    excel.set("Rounds", 2, 5, "l-0")
    excel.set("Players", 3, 2, "strong")
    excel.set("Settings", setting_row(excel, "Step"), 1, "Stepp")
    before = json.loads(json.dumps(excel.sheets))
    actions = press(xw, excel, keizer_xl.pair_next_round)
    assert written(actions, excel) == {}
    assert excel.sheets == before
    ((text, title, buttons, mode, _),) = excel.alerts
    assert (title, buttons, mode) == ("Keizer competition: Pair next round", "ok", "critical")
    assert text.startswith("3 problems in the workbook; nothing was changed.")
    for cell in ("Rounds!E2: 'l-0' is not a result", "Players!B3:", "Settings!A"):
        assert cell in text
    assert "Traceback" not in text
    assert text.endswith("Then click 'Pair next round' again.")


def test_unfinished_round_is_refused_with_its_cells(xw: Any, tmp_path: Path) -> None:
    excel = Excel.from_file(new_book(tmp_path, players(6)))
    press(xw, excel, keizer_xl.pair_next_round)
    excel.set("Rounds", 3, 5, "1-0")
    actions = press(xw, excel, keizer_xl.pair_next_round)
    assert written(actions, excel) == {}
    (alert,) = excel.alerts
    assert "2 problems" in alert[0]
    assert "Rounds!E2: round 1, board 1 (Player 01 – Player 02) has no result yet" in alert[0]
    assert "Rounds!E4: round 1, board 3 (" in alert[0]


def test_missing_sheet_and_recalculate_problems(xw: Any, tmp_path: Path) -> None:
    excel = Excel.from_file(new_book(tmp_path, players(4)))
    del excel.sheets["Standings"]
    actions = press(xw, excel, keizer_xl.recalculate)
    assert written(actions, excel) == {}
    ((text, title, *_),) = excel.alerts
    assert title == "Keizer competition: Recalculate"
    assert "Workbook: the workbook has no sheet named 'Standings'" in text
    assert "Then click 'Recalculate' again." in text


def test_many_problems_are_cut_short(xw: Any, tmp_path: Path) -> None:
    excel = Excel.from_file(new_book(tmp_path, players(40)))
    for r in range(2, 42):
        excel.set("Players", r, 2, "unknown")
    press(xw, excel, keizer_xl.recalculate)
    ((text, *_),) = excel.alerts
    assert text.startswith("40 problems")
    assert "... and 21 more." in text
    assert text.count("Players!B") == live.MAX_LINES - 1


def test_a_bug_gives_a_plain_message_not_a_traceback(
    xw: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from keizer_xl.workbook import plans as sheets

    def broken(grids: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(sheets, "plan_pair", broken)
    excel = Excel.from_file(new_book(tmp_path, players(4)))
    actions = press(xw, excel, keizer_xl.pair_next_round)
    assert written(actions, excel) == {}
    ((text, _, _, mode, _),) = excel.alerts
    assert mode == "critical"
    assert text.startswith(
        "Something went wrong inside keizer_xl (ZeroDivisionError: "
        "division by zero). Nothing was changed."
    )


def test_a_refused_write_says_what_may_have_changed(xw: Any, tmp_path: Path) -> None:
    """A write that Excel refuses (a protected sheet) is reported, saying whether earlier
    writes went through."""
    excel = Excel.from_file(new_book(tmp_path, players(4)))
    book = xw.Book(json=excel.json())
    sheet_type = type(book.sheets["Standings"])
    original = sheet_type.clear_contents

    def refuse(self: Any) -> None:
        raise RuntimeError("The cell or chart you're trying to change is on a protected sheet.")

    try:
        sheet_type.clear_contents = refuse
        keizer_xl.pair_next_round(book)
    finally:
        sheet_type.clear_contents = original
    actions = book.json()["actions"]
    excel.apply(actions)
    (alert,) = excel.alerts
    assert alert[0].startswith(
        "Excel did not accept the new values for the sheet "
        "'Standings' (RuntimeError: The cell or chart"
    )
    assert "Some cells were already written" in alert[0]


def test_pairing_notes_are_shown_after_success(xw: Any, tmp_path: Path) -> None:
    """Two players meet again in round 2: the round is paired and the secretary is told."""
    excel = Excel.from_file(new_book(tmp_path, players(2)))
    press(xw, excel, keizer_xl.pair_next_round)
    excel.set("Rounds", 2, 5, "1-0")
    actions = press(xw, excel, keizer_xl.pair_next_round)
    assert "Rounds" in written(actions, excel)
    ((text, _, _, mode, _),) = excel.alerts
    assert mode == "info"
    assert text.startswith("Round 2 is paired. Please note:")
    assert "Rematch window relaxed" in text


# -- the pieces ---------------------------------------------------------------------------


def test_blocks_cover_only_written_columns() -> None:
    cells: dict[tuple[int, int], str | int | float | None] = {
        (5, 1): 1,
        (5, 2): 3,
        (5, 3): "A",
        (6, 1): 1,
        (6, 3): "B",
        (6, 5): "bye",
    }
    assert live.blocks(cells) == [((5, 1), [[1, 3, "A"], [1, None, "B"]]), ((6, 5), [["bye"]])]
    assert live.blocks({(1, 1): "x", (4, 3): 2}, fill_gaps=True) == [
        ((1, 1), [["x", None, None], [None] * 3, [None] * 3, [None, None, 2]])
    ]
    assert live.blocks({}) == []
    from keizer_xl.workbook.cells import SheetRows

    rows = SheetRows()  # the report sheets' cells, kept row by row: the same rectangles
    rows.put(5, [1, 3, "A"])
    rows.put(6, [1, None, "B", None, "bye"])
    rows.put(9, [7], column=4)
    for fill_gaps in (False, True):
        assert live.blocks(rows, fill_gaps) == live.blocks(dict(rows.items()), fill_gaps)


def test_a_block_goes_into_the_action_as_xlwings_own_write_puts_it(xw: Any) -> None:
    """In Lite the values skip xlwings' conversion (for speed): the action must be the one
    `range.value = values` makes, for every kind of value a cell can be given."""
    import numpy as np

    values: list[list[Any]] = [
        ["text", 3, 2.5, None, True],
        [
            float("nan"),
            np.int64(7),
            np.float64(0.5),
            dt.date(2026, 1, 9),
            dt.datetime(2026, 1, 9, 19, 30),
        ],
        ["", 0, -1.0, "=A1", None],
    ]
    ours, xlwings_own = (xw.Book(json=Excel({"Rounds": [["a"]]}).json()) for _ in range(2))
    live._set_values(ours.sheets["Rounds"], 4, 2, values)
    xlwings_own.sheets["Rounds"].range((4, 2)).value = values
    made = [json.loads(json.dumps(book.json()))["actions"] for book in (ours, xlwings_own)]
    assert made[0] == made[1]
    assert made[0][0]["values"][1][0] == ""  # the NaN, emptied as xlwings empties it


def test_a_sheet_is_read_as_xlwings_own_reading_reads_it(xw: Any) -> None:
    """In Lite the values are taken from the add-in's JSON directly (for speed) unless a
    text could be a date: either way they must be what xlwings' own reading gives."""
    plain: list[list[Any]] = [
        ["Name", "Rating", "", "Present"],
        ["Anna", 1800, "#N/A", "x"],
        ["2 Bram", 1700.5, True, ""],
        ["-Tom", 0, "#DIV/0!", "T 12:30"],
    ]
    dated = [*plain, ["2026-01-09T19:30:00Z", "2026-01-10T00:00:00Z", "", ""]]
    for rows in (plain, dated):
        book = xw.Book(json=Excel({"Players": rows}).json())
        used = book.sheets["Players"].used_range
        assert live._values(used) == used.options(ndim=2, err_to_str=True).value
    assert isinstance(live._values(used)[-1][0], dt.datetime)


@pytest.mark.programs  # a fresh Python measures the import
def test_import_stays_light() -> None:
    """Every button click starts Python afresh: `import keizer_xl` must not load pandas,
    numpy or xlwings (they come with the work itself)."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import keizer_xl"],
        capture_output=True,
        text=True,
        check=True,
    )
    modules = {
        line.split("|")[-1].strip().split(".")[0] for line in run.stderr.splitlines() if "|" in line
    }
    assert "keizer_xl" in modules
    assert not modules & {"pandas", "numpy", "xlwings"}


def test_book_caller_outside_excel_is_an_error() -> None:
    """Called from Python without a book and outside Excel, the entry point says how to
    call it instead."""
    xlwings = pytest.importorskip("xlwings")
    assert not hasattr(xlwings.Book, "_mock_caller")
    with pytest.raises(RuntimeError, match="run by the workbook's button in Excel"):
        keizer_xl.recalculate()


@pytest.mark.excel
@pytest.mark.skipif(sys.platform not in ("win32", "darwin"), reason=NO_EXCEL)
def test_buttons_in_excel(tmp_path: Path) -> None:  # pragma: no cover - needs Excel
    xlwings = pytest.importorskip("xlwings")
    path = new_book(tmp_path, players(5))
    try:
        app = xlwings.App(visible=False, add_book=False)
    except Exception as exc:
        pytest.skip(f"{NO_EXCEL} ({exc})")
    try:
        book = app.books.open(str(path))
        keizer_xl.pair_next_round(book)
        rounds = book.sheets["Rounds"].range("A2:E4").value
        assert rounds == [
            [1, 1, "Player 01", "Player 02", None],
            [1, 2, "Player 03", "Player 04", None],
            [1, None, "Player 05", None, "bye"],
        ]
        assert book.sheets["Standings"].range("B2").value == "Player 01"
        assert book.sheets["Settings"].range("B2").value in (6, "6")
        book.close()
    finally:
        app.quit()


# -- hostile and odd workbooks through the buttons (issue 11) ----------------------------


def test_a_value_far_away_is_refused_before_excel_is_asked_for_it(xw: Any, tmp_path: Path) -> None:
    """The used range is checked before its values are asked for: a value in column ALM
    (the 1,001st) makes it reach ALM5, which is named, and nothing is written."""
    excel = Excel.from_file(new_book(tmp_path, players(4)))
    excel.set("Players", 2, 1001, "x")
    actions = press(xw, excel, keizer_xl.pair_next_round)
    assert written(actions, excel) == {}
    ((text, *_),) = excel.alerts
    assert "Players!ALM5: the sheet's used range reaches this cell" in text, text


def test_a_top_value_of_1e308_is_a_problem_naming_its_cell(xw: Any, tmp_path: Path) -> None:
    excel = Excel.from_file(new_book(tmp_path, players(4)))
    row = setting_row(excel, "Top value")
    excel.set("Settings", row, 2, 1e308)
    for button in (keizer_xl.pair_next_round, keizer_xl.recalculate):
        excel.alerts.clear()
        actions = press(xw, excel, button)
        assert written(actions, excel) == {}
        ((text, *_),) = excel.alerts
        assert f"Settings!B{row}: Top value: '1e+308' is outside the sensible range" in text, text


@pytest.mark.parametrize("error", ["#N/A", "#DIV/0!", "#VALUE!"])
def test_an_error_value_is_a_problem_naming_its_cell(xw: Any, tmp_path: Path, error: str) -> None:
    """Excel sends a cell whose formula failed as its error word: the buttons name it,
    where a blank would have passed."""
    excel = Excel.from_file(new_book(tmp_path, players(4)))
    step = setting_row(excel, "Step")
    excel.set("Players", 3, 2, error)  # Rating
    excel.set("Players", 4, 5, error)  # Present
    excel.set("Settings", step, 2, error)
    for button in (keizer_xl.pair_next_round, keizer_xl.recalculate):
        excel.alerts.clear()
        actions = press(xw, excel, button)
        assert written(actions, excel) == {}
        ((text, *_),) = excel.alerts
        for cell in ("Players!B3", "Players!E4", f"Settings!B{step}"):
            assert f"{cell}: the cell shows the error {error}" in text, text


def test_two_games_on_one_board_are_noted_after_the_work(xw: Any, tmp_path: Path) -> None:
    excel = Excel.from_file(new_book(tmp_path, players(4)))
    press(xw, excel, keizer_xl.pair_next_round)
    excel.set("Rounds", 3, 2, 1)  # the second game of round 1 on board 1 too
    excel.set("Rounds", 2, 5, "1-0")
    excel.set("Rounds", 3, 5, "0-1")
    actions = press(xw, excel, keizer_xl.recalculate)
    assert "Standings" in written(actions, excel)
    ((text, _, _, mode, _),) = excel.alerts
    assert mode == "info" and "Rounds!B3: board 1 of round 1 is also used in row 2" in text


@pytest.mark.programs  # another process holds the workbook
def test_a_button_waits_for_a_command_working_on_the_same_file(
    xw: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A book saved on this computer: while `keizer-xl` holds its writer lock, the button
    waits, then says so; once the command is gone, the button works."""
    from keizer_xl.workbook.xlsx import safety

    path = new_book(tmp_path, players(4))
    excel = Excel.from_file(path)

    def click() -> list[dict[str, Any]]:
        payload = excel.json()
        payload["book"]["name"] = str(path)  # the remote engine's fullname is the name
        book = xw.Book(json=payload)
        book.set_mock_caller()
        keizer_xl.pair_next_round()
        actions: list[dict[str, Any]] = json.loads(json.dumps(book.json()))["actions"]
        excel.apply(actions)
        return actions

    with another_writer(path):
        monkeypatch.setattr(safety, "WAIT", 0.5)
        actions = click()
        assert written(actions, excel) == {}
        ((text, *_),) = excel.alerts
        assert "is being changed by another keizer-xl run or button" in text, text
    excel.alerts.clear()
    assert "Rounds" in written(click(), excel) and excel.alerts == []


def test_undo_last_pairing_button_puts_every_cell_back(xw: Any, tmp_path: Path) -> None:
    """Pair next round, then Undo last pairing: every sheet as before; pair again: the
    same round. With a result typed, the button refuses and changes nothing."""
    excel = Excel.from_file(new_book(tmp_path, players(7)))
    press(xw, excel, keizer_xl.recalculate)
    before = json.loads(json.dumps(excel.sheets))
    press(xw, excel, keizer_xl.pair_next_round)
    paired = json.loads(json.dumps(excel.sheets))
    assert excel.rows("Rounds") != []
    press(xw, excel, keizer_xl.undo_last_pairing)
    assert excel.rows("Rounds") == []
    for name in ("Players", "Settings", "Standings"):
        assert _trimmed(excel.sheets[name]) == _trimmed(before[name]), name
    press(xw, excel, keizer_xl.pair_next_round)
    assert _trimmed(excel.sheets["Rounds"]) == _trimmed(paired["Rounds"])
    excel.set("Rounds", 2, 5, "1-0")
    excel.alerts.clear()
    actions = press(xw, excel, keizer_xl.undo_last_pairing)
    assert written(actions, excel) == {}
    assert "already has a result (1-0)" in excel.alerts[0][0]


def test_recalculate_adds_the_report_sheets_to_an_old_workbook(xw: Any, tmp_path: Path) -> None:
    """A workbook made before the Crosstable and Progress sheets existed gets them from the
    button too, as from the command line."""
    from tests.cli.week import openpyxl_book

    path = openpyxl_book(
        tmp_path / "club.xlsx",
        players(4),
        [[1, 1, "Player 01", "Player 02", "1-0"], [1, 2, "Player 03", "Player 04", "0-1"]],
    )
    excel = Excel.from_file(path)
    assert "Crosstable" not in excel.sheets
    press(xw, excel, keizer_xl.recalculate)
    assert list(excel.sheets)[-2:] == ["Crosstable", "Progress"]
    assert excel.cell("Crosstable", 1, 2) == "Name"
    ranked = [row[1] for row in excel.rows("Standings") if isinstance(row[0], int | float)]
    assert [row[1] for row in excel.rows("Crosstable") if len(row) > 1] == ranked
    assert len(ranked) == 4


def test_publish_writes_the_site_beside_the_workbook_and_says_where(
    xw: Any, tmp_path: Path
) -> None:
    excel = Excel.from_file(new_book(tmp_path, players(6)))
    press(xw, excel, keizer_xl.pair_next_round)
    for r, result in ((2, "1-0"), (3, "½-½"), (4, "0-1")):
        excel.set("Rounds", r, 5, result)
    excel.name = str(tmp_path / "club.xlsm")
    press(xw, excel, keizer_xl.publish_site)
    ((text, title, *_),) = excel.alerts
    site = tmp_path / "club_site"
    assert str(site) in text and "index.html" in text and title.endswith("Publish")
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "Player 01" in index and "after round 1" in index.lower()
    assert len(list((site / "players").glob("*.html"))) == 6


def test_publish_asks_to_save_a_new_workbook_first(xw: Any, tmp_path: Path) -> None:
    excel = Excel.from_file(new_book(tmp_path, players(4)))
    excel.name = "Book1"  # never saved: no folder to write beside
    press(xw, excel, keizer_xl.publish_site)
    ((text, *_),) = excel.alerts
    assert "Save the workbook first" in text
    assert not list(tmp_path.glob("*_site"))


def test_clear_present_empties_the_column_through_the_buttons(xw: Any, tmp_path: Path) -> None:
    """Clear present yes: the button pairs from this week's ticks, then empties them, as
    the command does."""
    excel = Excel.from_file(new_book(tmp_path, players(5)))
    excel.set("Settings", setting_row(excel, "Clear present"), 2, "yes")
    column = excel.sheets["Players"][0].index("Present") + 1
    excel.set("Players", 6, column, "club")
    press(xw, excel, keizer_xl.pair_next_round)
    assert [excel.cell("Players", r, column) for r in range(2, 7)] == [None] * 5
    rounds = excel.rows("Rounds")
    assert [row[2] for row in rounds if len(row) > 3 and row[3]] == [
        "Player 01",
        "Player 03",
    ]  # four played: ticks read before they were emptied
    assert rounds[-1][2:5] == ["Player 05", None, "club"]
    ((text, _, _, mode, _),) = excel.alerts
    assert mode == "info" and "the Present column is emptied" in text


def test_team_matches_counted_through_the_buttons(xw: Any, tmp_path: Path) -> None:
    """Club games result: Recalculate scores a club duty row with its team result as a
    game at one's own value, and the Crosstable sheet shows it as a team match."""
    excel = Excel.from_file(new_book(tmp_path, players(4)))
    excel.set("Settings", setting_row(excel, "Top value"), 2, 10)
    excel.set("Settings", setting_row(excel, "Club games"), 2, "result")
    for row, values in enumerate(
        (
            [1, 1, "Player 01", "Player 02", "0-1"],
            [1, None, "Player 03", None, "club ½-½"],
            [1, None, "Player 04", None, "club 1-0"],
        ),
        start=2,
    ):
        for column, value in enumerate(values, start=1):
            excel.set("Rounds", row, column, value)
    press(xw, excel, keizer_xl.recalculate)
    table = standings(excel)
    # values 10, 9, 8, 7: a draw half of one's own value, a win all of it
    assert (table["Player 03"]["Score"], table["Player 04"]["Score"]) == (12, 14)
    assert (table["Player 03"]["Absent"], table["Player 04"]["Won"]) == (0, 1)
    cross = {row[1]: row[2] for row in excel.sheets["Crosstable"][1:5]}
    assert (cross["Player 03"], cross["Player 04"]) == ("club½", "club1")


def test_random_first_round_through_the_buttons(xw: Any, tmp_path: Path) -> None:
    """First round random: the button draws round 1 as the command does, and says the
    seed, from the Competition name, so that the draw can be checked."""
    import hashlib
    import random

    excel = Excel.from_file(new_book(tmp_path, players(6)))
    excel.set("Settings", setting_row(excel, "First round"), 2, "random")
    excel.set("Settings", setting_row(excel, "Competition name"), 2, "Winter 2027")
    press(xw, excel, keizer_xl.pair_next_round)
    seed = int(hashlib.sha256(b"Winter 2027").hexdigest()[:8], 16)
    order = [f"Player {i:02d}" for i in range(1, 7)]
    random.Random(seed).shuffle(order)
    games = [row for row in excel.rows("Rounds") if len(row) > 3 and row[3]]
    assert [{row[2], row[3]} for row in games] == [set(order[k : k + 2]) for k in (0, 2, 4)]
    ((text, _, _, mode, _),) = excel.alerts
    assert mode == "info" and f"seed {seed}, from the Competition name 'Winter 2027'" in text
