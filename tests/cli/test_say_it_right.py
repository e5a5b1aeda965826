"""What keizer-xl says to the secretary is right as said: a suggested command works when
pasted, a warning counts what it should, `check` leads with its warnings, and next season
is not published under last season's name. Through the command, in English and Dutch."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from keizer_xl.workbook.xlsx import typed
from tests.cli.week import openpyxl_book
from tests.conftest import run_cli
from tests.seasons import make_book

PLAYERS = [{"Name": f"Player {i}", "Rating": 2000 - 10 * i, "Present": "x"} for i in range(1, 7)]
LIBREOFFICE_LOCK = b"Anna de Vries,club-pc,anna,21.11.2024 20:00,file:///x;"


def suggested(output: str, command: str) -> list[str]:
    """The words of the command suggested in the output (`keizer-xl unlock ...`), as a
    POSIX shell splits them when the line is pasted."""
    start = output.index(f"keizer-xl {command} ")
    line = output[start:].splitlines()[0]
    return shlex.split(line)[1:]


@pytest.mark.parametrize("language", ["en", "nl"])
@pytest.mark.parametrize(
    "name", ["Interne 2026-27.xlsx", "Club's (A&B).xlsx", "Keizer 100%.xlsx", "plain.xlsx"]
)
def test_the_suggested_unlock_command_works_when_pasted(
    tmp_path: Path, language: str, name: str
) -> None:
    path = make_book(tmp_path / name, PLAYERS)
    (tmp_path / f".~lock.{name}#").write_bytes(LIBREOFFICE_LOCK)
    refused = run_cli("--lang", language, "pair", path)
    assert refused.exit_code == 1
    words = suggested(refused.output, "unlock")
    assert words == ["unlock", str(path)], refused.output
    cleared = run_cli(*words)
    assert cleared.exit_code == 0, cleared.output
    assert run_cli("pair", path).exit_code == 0


@pytest.mark.parametrize(
    ("name", "quoted"),
    [
        ("club.xlsx", "club.xlsx"),
        ("Interne 2026-27.xlsx", '"Interne 2026-27.xlsx"'),
        ("a&b.xlsx", '"a&b.xlsx"'),  # cmd's and the shells' command separator
        ("it's.xlsx", '"it\'s.xlsx"'),
        ("$HOME.xlsx", "'$HOME.xlsx'"),  # special inside double quotes: the shells' quotes
    ],
)
def test_a_name_is_quoted_only_where_a_shell_needs_it(name: str, quoted: str) -> None:
    assert typed(name) == quoted
    assert shlex.split(f"keizer-xl pair {typed(name)}") == ["keizer-xl", "pair", name]


IDLE = [
    {"Name": n, "Rating": r, "Present": "" if n == "Eva" else "x"}
    for n, r in [("Anna", 2000), ("Bram", 1900), ("Cor", 1800), ("Dirk", 1700), ("Eva", 1600)]
]
# Eva is not here tonight either (here, she would not have stopped)


def _season(eva: str) -> list[list[object]]:
    """Four rounds; Eva plays round 1, then has `eva` (bye, excused, club, unexcused)."""
    rows: list[list[object]] = [
        [1, 1, "Anna", "Bram", "1-0"],
        [1, 2, "Cor", "Eva", "0-1"],
        [1, None, "Dirk", None, "bye"],
    ]
    for rnd in (2, 3, 4):
        rows += [
            [rnd, 1, "Anna", "Cor", "½-½"],
            [rnd, 2, "Bram", "Dirk", "1-0"],
            [rnd, None, "Eva", None, eva],
        ]
    return rows


IDLE_WARNING = {
    "en": "Eva has not played a game in rounds 2–4; if Eva has stopped, put 4 in Left",
    "nl": "Eva heeft in de ronden 2–4 geen partij gespeeld",
}


@pytest.mark.parametrize(
    ("rest", "warned"), [("bye", False), ("excused", False), ("club", False), ("unexcused", True)]
)
@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_bye_or_an_excused_or_club_round_is_taking_part(
    tmp_path: Path, rest: str, warned: bool, language: str
) -> None:
    """Eva played round 1 and was not at the board in rounds 2-4: only unexcused rounds
    are a sign that she stopped."""
    path = openpyxl_book(tmp_path / "club.xlsx", IDLE, _season(rest))
    done = run_cli("--lang", language, "recalc", path)
    assert done.exit_code == 0, done.output
    assert (IDLE_WARNING[language] in done.output) is warned, done.output


@pytest.mark.parametrize(
    ("language", "head", "clean"),
    [
        (
            "en",
            "club.xlsx: 1 warning, below; nothing refused (5 players, 4 rounds).",
            "no problems found",
        ),
        (
            "nl",
            "club.xlsx: 1 waarschuwing, hieronder; niets geweigerd (5 spelers, 4 ronden).",
            "geen problemen gevonden",
        ),
    ],
)
def test_check_leads_with_the_count_of_warnings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str, head: str, clean: str
) -> None:
    monkeypatch.chdir(tmp_path)
    openpyxl_book(tmp_path / "club.xlsx", IDLE, _season("unexcused"))
    done = run_cli("--lang", language, "check", "club.xlsx")
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[0] == head
    assert clean not in done.output
    assert sum(1 for line in lines if "Eva" in line) == 1
    openpyxl_book(tmp_path / "club.xlsx", IDLE, _season("excused"))
    done = run_cli("--lang", language, "check", "club.xlsx")
    assert done.output.splitlines()[0].startswith(f"club.xlsx: {clean}")


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "en",
            "Competition name is still last season's, 'Interne 2025-26': change it on "
            "Settings before anything is published",
        ),
        (
            "nl",
            "Competitienaam is nog die van vorig seizoen, 'Interne 2025-26': verander hem op "
            "Instellingen voordat er iets gepubliceerd wordt",
        ),
    ],
)
def test_next_season_reminds_to_change_the_competition_name(
    tmp_path: Path, language: str, said: str
) -> None:
    last = make_book(
        tmp_path / "last.xlsx",
        PLAYERS,
        settings={"Competition name": "Interne 2025-26", "Club name": "SV Schaakmat"},
    )
    done = run_cli("--lang", language, "new", tmp_path / "next.xlsx", "--from", last)
    assert done.exit_code == 0, done.output
    assert said in " ".join(done.output.split())
    assert "SV Schaakmat" not in done.output  # the club keeps its name


def test_no_reminder_without_a_competition_name(tmp_path: Path) -> None:
    last = make_book(tmp_path / "last.xlsx", PLAYERS)
    done = run_cli("new", tmp_path / "next.xlsx", "--from", last)
    assert done.exit_code == 0, done.output
    assert "last season's," not in done.output
