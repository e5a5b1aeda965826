"""The rule book's golden examples (keizer-rules.md §7 A–D), from data files."""

from __future__ import annotations

import csv
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

from keizer_xl.engine import Competition, standings_frame

GOLDEN = Path(__file__).parents[1] / "golden"
CASES = sorted(p.name for p in GOLDEN.iterdir() if p.is_dir())


def load(case: str) -> Competition:
    folder = GOLDEN / case
    frames = {
        name: pd.read_csv(folder / f"{name}.csv", dtype=str, keep_default_na=False)
        for name in ("players", "rounds", "settings")
    }
    return Competition.from_frames(frames["players"], frames["rounds"], frames["settings"])


def expected(case: str) -> dict[int, list[dict[str, str]]]:
    out: dict[int, list[dict[str, str]]] = {}
    with open(GOLDEN / case / "expected.csv", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            out.setdefault(int(row.pop("after")), []).append(row)
    return out


@pytest.mark.parametrize("case", CASES)
def test_golden_standings(case: str) -> None:
    competition = load(case)
    for after, rows in expected(case).items():
        table = standings_frame(competition.standings(after)).set_index("Name")
        if "Score" in rows[0]:
            assert list(table.index[: len(rows)]) == [r["Name"] for r in rows]
        for row in rows:
            for column, want in row.items():
                if column == "Name":
                    continue
                assert table.loc[row["Name"], column] == Fraction(want), (after, row, column)


def test_cases_found() -> None:
    assert {"A", "B", "C", "C-final", "D"} <= set(CASES)
