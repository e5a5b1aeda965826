"""German and Italian clubs publish in their language: the pages, the chat text, the PDFs
and the terminal's standings of a German or Italian workbook speak it, with the numbers of
the English one written with a decimal comma."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.publish.html import parse, tag, text

# What each language's season says: the demo's lines, the site's, the chat text's and the
# PDFs' (Keizer's example played through two rounds).
SAYS = {
    "de": {
        "demo": (
            "Keizers eigenes Beispiel in",
            "Tabelle nach Runde 2",
            "Ergebnisse der Runde 1 eingetragen.",
        ),
        "site": "Website in {folder} geschrieben: Tabelle, Paarungen",
        "headings": ["Tabelle nach Runde 2", "Platzverlauf", "Geltende Regeln"],
        "nav": ["Tabelle", "Paarungen", "Kreuztabelle"],
        "rules": ("Höchstwert", "Wie viel weniger jeder folgende Platz wert ist."),
        "rounds": ["Runde 2: Ergebnisse", "Runde 1: Ergebnisse"],
        "title": "Keizer-Turnier",
        "card": ("Runde für Runde", "Gegner", "Eigenwert"),
        "colour": "Weiß|Schwarz",
        "result": "gewonnen|remis|verloren",
        "pdf": "A4, druckfertig.",
        "page": "Seite 1 von 1",
        "pdf rules": "Regeln: Voreinstellung keizer",
        "pdf board": ("Brett", "Schwarz"),
    },
    "it": {
        "demo": (
            "L'esempio di Keizer stesso in",
            "Classifica dopo il turno 2",
            "Risultati del turno 1 inseriti.",
        ),
        "site": "Sito scritto in {folder}: classifica, abbinamenti",
        "headings": ["Classifica dopo il turno 2", "Andamento della posizione", "Regole in vigore"],
        "nav": ["Classifica", "Abbinamenti", "Tabellone"],
        "rules": ("Valore massimo", "Quanto vale in meno ogni posizione successiva."),
        "rounds": ["Turno 2: risultati", "Turno 1: risultati"],
        "title": "Torneo Keizer",
        "card": ("Turno per turno", "Avversario", "Valore proprio"),
        "colour": "Bianco|Nero",
        "result": "vinta|patta|persa",
        "pdf": "A4, pronti da stampare.",
        "page": "Pagina 1 di 1",
        "pdf rules": "Regole: Preimpostazione keizer",
        "pdf board": ("Scacchiera", "Nero"),
    },
}
LANGUAGES = sorted(SAYS)
HIGGINS = ("66,5", "66.5")  # his score after round 2 in Keizer's example: comma, not point


@pytest.fixture(scope="module", params=LANGUAGES)
def season(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, Path]:
    """Keizer's example played through a German or Italian workbook by
    `keizer-xl --lang de|it demo`."""
    language = str(request.param)
    folder = tmp_path_factory.mktemp(f"demo_{language}")
    result = run_cli("--lang", language, "demo", "--folder", folder)
    assert result.exit_code == 0, result.output
    assert all(line in result.output for line in SAYS[language]["demo"])
    return language, folder / "keizer_demo.xlsx"


def _headings(html: str) -> list[str]:
    return [text(h) for h in parse(html).iter(tag("h2"))]


def _numbers(html: str) -> list[str]:
    """The standings' cells, words left out."""
    return [
        text(td) for td in parse(html).iter(tag("td")) if re.fullmatch(r"[\d½.,−+▲▼-]*", text(td))
    ]


def test_the_site_speaks_the_workbooks_language(
    season: tuple[str, Path], demo_book: Path, tmp_path: Path
) -> None:
    language, book = season
    says = SAYS[language]
    out = tmp_path / language
    result = run_cli("publish", book, "--out", out)
    assert result.exit_code == 0, result.output
    assert result.output.startswith(str(says["site"]).format(folder=out))
    index = (out / "index.html").read_text(encoding="utf-8")
    assert f'<html lang="{language}">' in index
    assert _headings(index) == says["headings"]
    tree = parse(index)
    nav = [
        text(a)
        for a in tree.iter(tag("a"))
        if a.get("href", "").endswith(("index.html", "pairings.html", "crosstable.html"))
    ][:3]
    assert nav == says["nav"]
    rules = [text(td) for td in tree.iter(tag("td"))]
    assert all(word in rules for word in says["rules"])
    pairings = (out / "pairings.html").read_text(encoding="utf-8")
    assert _headings(pairings) == says["rounds"]
    english = run_cli("publish", demo_book, "--out", tmp_path / "en")
    assert english.exit_code == 0
    en_index = (tmp_path / "en" / "index.html").read_text(encoding="utf-8")
    local, english = _numbers(index)[:140], _numbers(en_index)[:140]
    assert [n.replace(",", ".") for n in local] == english  # the same standings,
    assert HIGGINS[0] in local and not any("." in n for n in local)  # with a decimal comma
    asked = run_cli("--lang", "en", "publish", book, "--out", tmp_path / "asked")
    assert asked.exit_code == 0
    assert (
        _headings((tmp_path / "asked" / "index.html").read_text(encoding="utf-8"))[0]
        == "Standings after round 2"
    )


def test_the_chat_text_and_a_card(season: tuple[str, Path], tmp_path: Path) -> None:
    language, book = season
    says = SAYS[language]
    result = run_cli("publish", book, "--text")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[:2] == [says["title"], says["headings"][0]]
    assert says["rounds"][0] in lines
    higgins = next(line for line in lines if " Higgins " in line)
    assert HIGGINS[0] in higgins and HIGGINS[1] not in higgins, higgins
    assert run_cli("publish", book, "--out", tmp_path / "site").exit_code == 0
    card = (tmp_path / "site" / "players" / "harrison.html").read_text(encoding="utf-8")
    assert all(word in card for word in says["card"])
    assert re.search(
        rf"<td class=\"name\">({says['colour']})</td><td class=\"name\">"
        rf"({says['result']})</td>",
        card,
    )


@pytest.mark.programs("pdftotext")
def test_the_pdfs(season: tuple[str, Path], tmp_path: Path) -> None:
    language, book = season
    says = SAYS[language]
    result = run_cli("publish", book, "--pdf", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert says["pdf"] in result.output
    words = subprocess.run(
        ["pdftotext", str(tmp_path / "standings.pdf"), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert says["headings"][0] in words and says["page"] in words
    assert says["pdf rules"] in words
    assert HIGGINS[0] in words and HIGGINS[1] not in words
    board = subprocess.run(
        ["pdftotext", "-layout", str(tmp_path / "pairings.pdf"), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert says["rounds"][0] in board
    headings = [line for line in board.splitlines() if says["pdf board"][0] in line]
    assert headings and says["pdf board"][1] in headings[0]  # on one line, none broken


def test_the_terminal_s_standings(season: tuple[str, Path]) -> None:
    """`keizer-xl standings` of a German or Italian workbook: its headers, and the scores
    with a decimal comma; `--lang en` asks for English, with a point."""
    language, book = season
    result = run_cli("standings", book)
    assert result.exit_code == 0, result.output
    assert says_heading(result.output) == SAYS[language]["headings"][0]
    higgins = next(line for line in result.output.splitlines() if " Higgins " in line)
    assert HIGGINS[0] in higgins and HIGGINS[1] not in higgins, higgins
    english = run_cli("--lang", "en", "standings", book)
    assert english.exit_code == 0, english.output
    higgins = next(line for line in english.output.splitlines() if " Higgins " in line)
    assert HIGGINS[1] in higgins and HIGGINS[0] not in higgins, higgins


def says_heading(output: str) -> str:
    """The table's title: its first line."""
    return output.splitlines()[0].strip()
