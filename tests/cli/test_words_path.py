"""Words secretaries type, through the workbook and `keizer-xl`: a workbook typed in
another program (openpyxl) with Dutch words and other notations, re-saved by LibreOffice,
gives the same standings and pairing as the same season in the template's words."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.week import libreoffice_resave, openpyxl_book, sheet, standings
from tests.conftest import run_cli

pytestmark = [pytest.mark.libreoffice, pytest.mark.usefixtures("soffice_installed")]

NAMES = [
    ("Anna", 2000),
    ("Bram", 1900),
    ("Cor", 1800),
    ("Dirk", 1700),
    ("Eva", 1600),
    ("Fien", 1500),
    ("Gijs", 1400),
]
# the same season twice: as secretaries type it, and in the template's words
TYPED = [
    [1, 1, "Anna", "Bram", "1:0"],
    [1, 2, "Cor", "Dirk", "½"],
    [1, 3, "Eva", "Fien", "0:1"],
    [1, None, "Gijs", None, "vrij"],
    [2, 1, "Anna", "Cor", "½:½"],
    [2, 2, "Fien", "Bram", "0.5-0.5"],
    [2, 3, "Dirk", "Gijs", "1/2"],
    [2, None, "Eva", None, "afwezig"],
    [3, 1, "Anna", "Fien", "0:1"],
    [3, 2, "Bram", "Cor", "+/-"],
    [3, None, "Dirk", None, "extern"],
    [3, None, "Eva", None, "onafgemeld"],
    [3, None, "Gijs", None, "afgemeld"],
]
PLAIN = {
    "1:0": "1-0",
    "½": "½-½",
    "0:1": "0-1",
    "vrij": "bye",
    "½:½": "½-½",
    "0.5-0.5": "½-½",
    "1/2": "½-½",
    "afwezig": "excused",
    "+/-": "+-",
    "extern": "club",
    "onafgemeld": "unexcused",
    "afgemeld": "excused",
}
PRESENT = ["x", "ja", "nee", "0", "no", "n", "clubwedstrijd"]


@pytest.fixture(scope="module")
def profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("lo-profile")


def test_words_secretaries_type(tmp_path: Path, profile: Path) -> None:
    typed = openpyxl_book(
        tmp_path / "typed.xlsx",
        [{"Name": n, "Rating": r, "Present": p} for (n, r), p in zip(NAMES, PRESENT, strict=True)],
        TYPED,
    )
    libreoffice_resave(typed, profile)
    plain = openpyxl_book(
        tmp_path / "plain.xlsx",
        [
            {
                "Name": n,
                "Rating": r,
                "Present": "x" if p in ("x", "ja") else "club" if p == "clubwedstrijd" else None,
            }
            for (n, r), p in zip(NAMES, PRESENT, strict=True)
        ],
        [[*row[:4], PLAIN[str(row[4])]] for row in TYPED],
    )
    for path in (typed, plain):
        done = run_cli("pair", path)
        assert done.exit_code == 0, done.output + done.stderr
    assert standings(typed) == standings(plain)
    assert len(standings(typed)) == len(NAMES)
    round_4 = [row[:5] for row in sheet(typed, "Rounds") if row[0] == 4.0]
    assert round_4 == [row[:5] for row in sheet(plain, "Rounds") if row[0] == 4.0]
    # Anna and Bram paired; `nee`, `0`, `no`, `n`: absent with the default reason (excused);
    # `clubwedstrijd`: club duty
    reasons = {str(row[2]): row[4] for row in round_4 if row[3] == ""}
    assert reasons == {
        "Cor": "excused",
        "Dirk": "excused",
        "Eva": "excused",
        "Fien": "excused",
        "Gijs": "club",
    }
