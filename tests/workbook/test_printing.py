"""Readable output: a 60-player, 37-round season printed by LibreOffice on A4 portrait.

The workbook goes through `keizer-xl recalc`, LibreOffice renders it to PDF (Carlito, the
font LibreOffice uses for Calibri, installed by .ci/system-packages), and poppler reads the
pages back: paper, orientation, which columns made it onto the first Standings page, and
the height of the text, as a secretary holding the printout would judge it.
"""

from __future__ import annotations

import html
import re
import subprocess
import zipfile
from fractions import Fraction
from pathlib import Path

import pytest

from keizer_xl.core.settings import SPECS, Settings
from keizer_xl.i18n import translate
from keizer_xl.i18n.names import local_name, local_setting
from keizer_xl.workbook.template import STANDINGS_HEADERS
from tests.cli.week import sheet
from tests.conftest import run_cli
from tests.helpers_package import libreoffice_convert
from tests.seasons import club_season, season_book

pytestmark = [pytest.mark.libreoffice, pytest.mark.usefixtures("soffice_installed")]
MAIN_COLUMNS = STANDINGS_HEADERS[:12]  # Rank ... Own: the first page's columns
SMALLEST_TEXT = 7.0  # points: the height of a word's box, at the least


@pytest.fixture(scope="module")
def season() -> object:
    return club_season(
        60,
        37,
        comings_and_goings=True,
        settings=Settings(top_value=Fraction(88), excused=(Fraction(1, 2),)),
    )


@pytest.fixture(scope="module", params=["en", "nl"])
def printed(
    request: pytest.FixtureRequest, season: object, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, Path, Path]:
    """(language, the workbook after recalc, its PDF as LibreOffice prints it)."""
    return _print(season, request.param, tmp_path_factory)


def _print(
    season: object, language: str, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, Path, Path]:
    folder = tmp_path_factory.mktemp(f"print-{language}")
    path = season_book(
        folder / "club.xlsx",
        season,  # type: ignore[arg-type]
        {"Excused absence": "1/2", "Top value": 88, "Step": 1},
    )  # Step: the default anyway, a warning under the table
    if language == "nl":  # the same season in a Dutch workbook
        path = _dutch(path, folder)
    result = run_cli("recalc", path)
    assert result.exit_code == 0, result.output
    done = libreoffice_convert(path, "pdf", folder, tmp_path_factory.mktemp("lo"))
    pdf = folder / "club.pdf"
    assert done.returncode == 0 and pdf.exists(), done.stdout + done.stderr
    return language, path, pdf


def _dutch(path: Path, folder: Path) -> Path:
    """The same season in a Dutch workbook: the Dutch template, filled with the same
    players, rounds and settings."""
    from keizer_xl.workbook.files import read_grids
    from keizer_xl.workbook.newbook import create
    from keizer_xl.workbook.xlsx import SheetEdit, save_edits

    grids = read_grids(path)
    dutch = folder / "club-nl.xlsx"
    players = [
        {"Name": r[0], "Rating": r[1] or None, "Joined": r[2] or None, "Left": r[3] or None}
        for r in grids["Players"][1:]
        if r and r[0]
    ]
    create(dutch, players, language="nl")
    rows = {
        (r, c): v
        for r, row in enumerate(grids["Rounds"][1:], start=2)
        for c, v in enumerate(row[:5], start=1)
        if v not in ("", None)
    }
    names = [spec.name for spec in SPECS]
    settings = {
        (names.index(name) + 2, 2): value
        for name, value in (("Excused absence", "1/2"), ("Top value", 88), ("Step", 1))
    }
    save_edits(
        dutch, [SheetEdit("Ronden", rows), SheetEdit("Instellingen", settings)], backup=False
    )
    path.unlink()
    return dutch.rename(folder / "club.xlsx")


def _pages(pdf: Path) -> list[tuple[str, str, tuple[float, float]]]:
    """Per page: the sheet named in its header, its text, and its size in points."""
    info = subprocess.run(
        ["pdfinfo", "-f", "1", "-l", "999", str(pdf)], capture_output=True, text=True, check=True
    ).stdout
    sizes = [
        (float(w), float(h)) for w, h in re.findall(r"Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)", info)
    ]
    out = []
    for number, size in enumerate(sizes, start=1):
        text = subprocess.run(
            ["pdftotext", "-f", str(number), "-l", str(number), "-layout", str(pdf), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        first = text.strip().splitlines()[0] if text.strip() else ""
        out.append((first.split()[-1] if first else "", text, size))
    return out


def _word_heights(pdf: Path, page: int) -> list[float]:
    boxes = subprocess.run(
        ["pdftotext", "-f", str(page), "-l", str(page), "-bbox", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [
        float(y2) - float(y1)
        for y1, y2 in re.findall(r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)"', boxes)
    ]


def test_standings_and_pairings_print_on_a4_portrait(printed: tuple[str, Path, Path]) -> None:
    language, path, pdf = printed
    pages = _pages(pdf)
    standings, pairings = local_name("Standings", language), local_name("Pairings", language)
    on = {
        name: [n for n, (sheet_name, _, _) in enumerate(pages, start=1) if sheet_name == name]
        for name in (standings, pairings)
    }
    assert on[standings] and len(on[pairings]) == 1  # the notice-board list: one page
    for number in (*on[standings], *on[pairings]):
        width, height = pages[number - 1][2]
        assert abs(width - 595.3) < 1 and abs(height - 841.9) < 1, number  # A4 portrait
    first = pages[on[standings][0] - 1][1]
    header = next(line for line in first.splitlines() if local_name("Rank", language) in line)
    for title in MAIN_COLUMNS:  # Rank ... Own on the first page, none cut off
        assert (
            local_name(title, language) in header.split() or local_name(title, language) in header
        ), title
    rows = sheet(path, standings)
    assert str(rows[1][1])[:16] in first  # the leader, on the first page (long names clip)
    later = pages[on[standings][-1] - 1][1]
    assert "R37" in later or "R37" in "".join(p[1] for p in pages if p[0] == standings)
    for number in (on[standings][0], on[pairings][0]):
        heights = _word_heights(pdf, number)
        assert heights and min(heights) >= SMALLEST_TEXT, (number, min(heights))
    board_list = pages[on[pairings][0] - 1][1]
    last = max(
        r[0] for r in sheet(path, local_name("Rounds", language))[1:] if isinstance(r[0], float)
    )
    games = [
        r
        for r in sheet(path, local_name("Rounds", language))[1:]
        if r[0] == last and r[3] not in ("", None)
    ]
    assert games and all(str(g[2]) in board_list for g in games)


def test_unrated_blank_withdrawn_marked_and_each_change_named_once(
    printed: tuple[str, Path, Path], season: object
) -> None:
    language, path, _ = printed
    rows = sheet(path, local_name("Standings", language))
    header = rows[0]
    name_col, rating_col = header.index(local_name("Name", language)), header.index("Rating")
    table = [r for r in rows[1:] if isinstance(r[0], float)]
    players = {p.name: p for p in season.players}  # type: ignore[attr-defined]
    withdrawn = f" ({local_name('withdrawn', language)})"
    marked = {
        str(r[name_col]).removesuffix(withdrawn)
        for r in table
        if str(r[name_col]).endswith(withdrawn)
    }
    assert marked == {n for n, p in players.items() if p.left is not None and p.left <= 37}
    assert marked  # the season has leavers
    for r in table:
        player = players[str(r[name_col]).removesuffix(withdrawn)]
        assert (r[rating_col] in ("", None)) == (player.rating == 0), player.name
    assert any(p.rating == 0 for p in players.values())
    note = next(
        str(r[0])
        for r in rows[len(table) + 1 :]
        if str(r[0]).startswith(("Standings after", "Stand na"))
    )
    assert note.lower().count(local_setting("Top value", language).lower()) == 1, note
    assert note.count(local_setting("Excused absence", language)) == 1, note


def test_settings_show_each_default_beside_the_value(printed: tuple[str, Path, Path]) -> None:
    language, path, _ = printed
    rows = sheet(path, local_name("Settings", language))
    assert rows[0][:4] == [
        local_name(h, language) for h in ("Setting", "Value", "Default", "What it does")
    ]
    by_name = {str(r[0]): r for r in rows[1:] if r and r[0]}
    for spec in SPECS:
        row = by_name[local_setting(spec.name, language)]
        blank = translate("blank", language)  # `leeg` in a Dutch workbook
        assert row[2] == (blank if spec.default == "blank" else spec.default), spec.name
    assert str(by_name[local_setting("Excused absence", language)][1]) == "1/2"


# -- a club's season: 25 players, 12 rounds -----------------------------------------------


@pytest.fixture(scope="module", params=["en", "nl"])
def club_printed(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, Path, Path]:
    """A 25-player season of 12 rounds (late entrants, leavers, a warning that stays off the
    printed standings), printed by LibreOffice from an English and a Dutch workbook."""
    return _print(club_season(25, 12, comings_and_goings=True), request.param, tmp_path_factory)


def _boxes(pdf: Path, page: int) -> list[tuple[float, float, float, str]]:
    """(left, top, right, word) of each word on a page, in points."""
    out = subprocess.run(
        ["pdftotext", "-f", str(page), "-l", str(page), "-bbox", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [
        (float(x1), float(y1), float(x2), html.unescape(word))
        for x1, y1, x2, word in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
            r'yMax="[\d.]+">([^<]*)</word>',
            out,
        )
    ]


def _standings_pages(language: str, pdf: Path) -> list[int]:
    name = local_name("Standings", language)
    return [n for n, (sheet_name, _, _) in enumerate(_pages(pdf), start=1) if sheet_name == name]


def test_a_club_standings_prints_on_two_full_pages(club_printed: tuple[str, Path, Path]) -> None:
    language, _, pdf = club_printed
    on = _standings_pages(language, pdf)
    assert len(on) == 2, on  # the figures, then the rounds
    pages = _pages(pdf)
    first, second = (pages[n - 1][1] for n in on)
    for title in STANDINGS_HEADERS:  # every figure of a player on the first page
        assert all(word in first for word in local_name(title, language).split()), title
    assert all(f"R{k}" in second.split() for k in range(1, 13))  # every round on the next
    for number in on:  # no page holds only a sliver: each is filled at least 40% wide
        width = pages[number - 1][2][0]
        words = [
            b
            for b in _boxes(pdf, number)
            if b[3].replace(".", "").isdigit() or re.fullmatch(r"R\d+", b[3])
        ]
        assert max(b[2] for b in words) - min(b[0] for b in words) > 0.4 * width, number


def test_the_note_under_the_standings_is_printed_whole(
    club_printed: tuple[str, Path, Path],
) -> None:
    language, path, pdf = club_printed
    rows = sheet(path, local_name("Standings", language))
    table = [r for r in rows[1:] if isinstance(r[0], float)]
    notes = [str(r[0]) for r in rows[len(table) + 1 :] if r and str(r[0]).strip()]
    # the line under the standings, and no warning: those go to the secretary, not the board
    assert len(notes) == 1, notes
    pages = _pages(pdf)
    texts = [
        " ".join(" ".join(pages[n - 1][1].strip().splitlines()[1:-1]).split())
        for n in _standings_pages(language, pdf)
    ]  # without the page's header, footer
    for note in notes:
        assert note in texts[0], note  # whole, on the first page
        words = [w for w in note.split() if len(w) > 4]
        for text in texts[1:]:  # and no piece of it, cut off, on another
            assert not any(w in text.split() for w in words), (note, text[:300])


def test_the_name_header_is_aligned_as_its_names(club_printed: tuple[str, Path, Path]) -> None:
    language, path, pdf = club_printed
    boxes = _boxes(pdf, _standings_pages(language, pdf)[0])
    header = next(b for b in boxes if b[3] == local_name("Name", language))
    leader = str(sheet(path, local_name("Standings", language))[1][1]).split()[0]
    first = next(b for b in boxes if b[3] == leader and b[1] > header[1])
    assert abs(header[0] - first[0]) < 2, (header, first)  # both start at the left


def test_the_progress_chart_leaves_room_for_the_leader(
    club_printed: tuple[str, Path, Path],
) -> None:
    """Rank 1 is not on the chart's edge, where the leader's line and marks would be cut
    in half; nor is round 1."""
    language, path, _ = club_printed
    with zipfile.ZipFile(path) as book:
        chart = book.read("xl/charts/chart1.xml").decode("utf-8")
    axes = re.findall(r"<c:valAx>.*?</c:valAx>", chart)
    assert len(axes) == 2  # a scatter chart: rounds across, ranks down
    rank, rounds = sorted(axes, key=lambda a: f"<a:t>{local_name('Rank', language)}<" not in a)
    assert '<c:orientation val="maxMin"/>' in rank  # rank 1 at the top
    for axis in (rank, rounds):
        low = re.search(r'<c:min val="([\d.]+)"/>', axis)
        assert low is not None and float(low.group(1)) < 1, axis[:200]
        assert re.search(r'formatCode="[^"]*;;', axis)  # and the 0 it starts at unlabelled
