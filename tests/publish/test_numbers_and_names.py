"""Numbers and names in what is published, through `keizer-xl publish` on an English, a
Dutch, a German and an Italian workbook: decimal commas in Dutch, German and Italian pages,
chat text and PDFs; a player who left
marked alike on the Standings and Crosstable sheets and every published output (standings,
crosstable and the player's page, chat text, PDF); player pages named with
every letter written out; PDF headings never broken inside a word."""

from __future__ import annotations

import html
import re
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

from keizer_xl.i18n import translate
from keizer_xl.i18n.names import local_name
from tests.cli.week import sheet
from tests.conftest import run_cli
from tests.publish.books import pdf_words, season_workbook
from tests.publish.html import parse, table_rows, tag, text
from tests.seasons import club_season

pytestmark = pytest.mark.programs("pdftotext")

NAMES = (
    "Bjørn Halvorsen",
    "Jürgen Groß",
    "Łukasz Đorđević",
    "Æsa Œhlenschläger",
    "Ruben Koster",
    "Işık Çelik",
    "Mohamed El Amrani",
    "Anna de Vries",
    "Daan Bakker",
    "Eva Visser",
    "Fleur Mulder",
    "Gert de Boer",
    "Hanna Bos",
)
LEAVER = NAMES.index("Ruben Koster")  # leaves after round 2
WITHDRAWN = {"en": "withdrawn", "nl": "teruggetrokken", "de": "zurückgezogen", "it": "ritirato"}
DECIMAL = {"en": ".", "nl": ",", "de": ",", "it": ","}


@pytest.fixture(scope="module", params=sorted(DECIMAL))
def published(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, Path, Path, str]:
    """(language, the workbook, its site folder with the PDFs, the chat text), each made by
    `keizer-xl publish` as the secretary runs it."""
    language = request.param
    folder = tmp_path_factory.mktemp(f"published-{language}")
    book = season_workbook(
        folder / "club.xlsx", club_season(NAMES, 7, seed=3, leaver=LEAVER), language
    )
    site = folder / "club_site"
    for options in ((), ("--pdf",)):
        done = run_cli("publish", book, "--out", site, *options)
        assert done.exit_code == 0, done.output
    chat = run_cli("publish", book, "--text")
    assert chat.exit_code == 0, chat.output
    return language, book, site, chat.output


def _value(shown: str, language: str) -> Fraction:
    """A published number read back: 153,33 or 153.33; 3½."""
    return Fraction(shown.replace(DECIMAL[language], ".").replace("½", ".5") or "0")


def test_numbers_with_the_language_s_decimal_mark(published: tuple[str, Path, Path, str]) -> None:
    language, book, site, chat = published
    standings = sheet(book, local_name("Standings", language))
    table = [r for r in standings[1:] if isinstance(r[0], float)]
    rows = table_rows(parse((site / "index.html").read_text(encoding="utf-8")), "standings")
    assert len(rows) == len(table)
    scores = []
    for cells, row in zip(rows, table, strict=True):
        score, value = text(cells[3]), text(cells[4])
        assert abs(_value(score, language) - Fraction(row[2])) < Fraction(1, 200)
        assert abs(_value(value, language) - Fraction(row[3])) < Fraction(1, 200)
        scores.append(score)
    decimals = [s for s in scores if not s.isdigit()]
    assert decimals, "the season should have scores that are not whole"
    other = "," if DECIMAL[language] == "." else "."
    assert all(DECIMAL[language] in s and other not in s for s in decimals), decimals
    lines = chat.splitlines()
    pdf = pdf_words(site / "standings.pdf")
    for rank, score in enumerate(scores, start=1):  # chat text and PDF alike
        line = next(line for line in lines if line.startswith(f"{rank}. "))
        assert re.search(rf" {re.escape(score)}( [▲▼]\d+)?$", line), line
        assert f" {score} " in pdf
    card = (site / "players" / "bjorn-halvorsen.html").read_text(encoding="utf-8")
    worth = [text(r[-1]) for r in table_rows(parse(card), "card")]
    assert not any(other in w for w in worth)


def test_a_player_who_left_is_marked_alike_everywhere(
    published: tuple[str, Path, Path, str],
) -> None:
    language, book, site, chat = published
    mark = f"({WITHDRAWN[language]})"
    marked = f"{NAMES[LEAVER]} {mark}"
    standings = sheet(book, local_name("Standings", language))
    names = [str(r[1]) for r in standings[1:] if isinstance(r[0], float)]
    assert marked in names and sum(mark in n for n in names) == 1  # the sheet
    index = parse((site / "index.html").read_text(encoding="utf-8"))
    shown = [text(r[2]) for r in table_rows(index, "standings")]
    assert shown == names  # the pages: the same names, the same mark
    lines = [line for line in chat.splitlines() if mark in line]
    assert len(lines) == 1 and re.match(rf"\d+\. {re.escape(marked)} ", lines[0])
    pdf = pdf_words(site / "standings.pdf")
    assert pdf.count(mark) == 1 and marked in pdf
    crosstable = sheet(book, local_name("Crosstable", language))  # the sheet and the page
    assert sorted(str(r[1]) for r in crosstable[1:] if isinstance(r[0], float)) == sorted(names)
    page = parse((site / "crosstable.html").read_text(encoding="utf-8"))
    assert sorted(text(r[1]) for r in table_rows(page, "cross")) == sorted(names)
    card = parse((site / "players" / "ruben-koster.html").read_text(encoding="utf-8"))
    assert text(next(card.iter(tag("h2")))) == marked  # the player's page


def test_player_pages_are_named_with_every_letter(published: tuple[str, Path, Path, str]) -> None:
    _, _, site, _ = published
    expected = {
        "Bjørn Halvorsen": "bjorn-halvorsen.html",
        "Jürgen Groß": "jurgen-gross.html",
        "Łukasz Đorđević": "lukasz-dordevic.html",
        "Æsa Œhlenschläger": "aesa-oehlenschlager.html",
        "Işık Çelik": "isik-celik.html",
        "Mohamed El Amrani": "mohamed-el-amrani.html",
    }
    for name, file in expected.items():
        card = site / "players" / file
        assert card.is_file(), f"{name}: no {file} in {sorted(card.parent.iterdir())}"
        heading = text(next(parse(card.read_text(encoding="utf-8")).iter(tag("h2"))))
        assert heading == name
        index = (site / "index.html").read_text(encoding="utf-8")
        assert f'href="players/{file}"' in index


def _heading_line(pdf: Path, first: str) -> list[str]:
    """The words on the line of a PDF's first page that holds the word `first`."""
    boxes = subprocess.run(
        ["pdftotext", "-f", "1", "-l", "1", "-bbox", str(pdf), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    words = [
        (float(y), html.unescape(word))
        for y, word in re.findall(r'<word xMin="[\d.]+" yMin="([\d.]+)"[^>]*>([^<]*)</word>', boxes)
    ]
    top = next(y for y, word in words if word == first)
    return [word for y, word in words if abs(y - top) < 1]


def test_pdf_headings_never_break_inside_a_word(published: tuple[str, Path, Path, str]) -> None:
    language, _, site, _ = published

    def t(*words: str) -> list[str]:
        return [translate(w, language) for w in words]

    standings = _heading_line(site / "standings.pdf", "#")
    headings = t("Name", "Score", "Value", "Pl", "W", "D", "L", "Pts", "±W", "Bye", "Abs")
    assert [h for h in headings if h not in standings] == [], standings
    board = t("Board", "White", "Result", "Black")
    assert _heading_line(site / "pairings.pdf", board[0]) == board
