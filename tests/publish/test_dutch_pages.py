"""A Dutch club publishes in Dutch: the pages, the chat text and the PDFs of a Dutch
workbook speak Dutch (an English one English, unless --lang asks otherwise), with the same
numbers."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.publish.html import parse, tag, text


@pytest.fixture(scope="module")
def dutch_demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Keizer's example played through a Dutch workbook by `keizer-xl --lang nl demo`."""
    folder = tmp_path_factory.mktemp("demo_nl")
    result = run_cli("--lang", "nl", "demo", "--folder", folder)
    assert result.exit_code == 0, result.output
    assert "Keizers eigen voorbeeld in" in result.output
    assert (
        "Stand na ronde 2" in result.output and "Uitslagen van ronde 1 ingevoerd." in result.output
    )
    return folder / "keizer_demo.xlsx"


def _headings(html: str) -> list[str]:
    return [text(h) for h in parse(html).iter(tag("h2"))]


def test_the_dutch_site_speaks_dutch(dutch_demo: Path, demo_book: Path, tmp_path: Path) -> None:
    result = run_cli("publish", dutch_demo, "--out", tmp_path / "nl")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"Site geschreven in {tmp_path / 'nl'}: stand, indeling")
    index = (tmp_path / "nl" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="nl">' in index
    assert _headings(index) == ["Stand na ronde 2", "Verloop van de plaats", "Geldende regels"]
    tree = parse(index)
    nav = [
        text(a)
        for a in tree.iter(tag("a"))
        if a.get("href", "").endswith(("index.html", "pairings.html", "crosstable.html"))
    ][:3]
    assert nav == ["Stand", "Indeling", "Kruistabel"]
    rules = [text(td) for td in tree.iter(tag("td"))]
    assert "Topwaarde" in rules and "Hoeveel minder elke volgende plaats waard is." in rules
    pairings = (tmp_path / "nl" / "pairings.html").read_text(encoding="utf-8")
    assert _headings(pairings) == ["Ronde 2: uitslagen", "Ronde 1: uitslagen"]
    english = run_cli("publish", demo_book, "--out", tmp_path / "en")
    assert english.exit_code == 0
    en_index = (tmp_path / "en" / "index.html").read_text(encoding="utf-8")

    def numbers(html: str) -> list[str]:  # the standings' cells, words left out
        return [
            text(td)
            for td in parse(html).iter(tag("td"))
            if re.fullmatch(r"[\d½.,−+▲▼-]*", text(td))
        ]

    dutch, english = numbers(index)[:140], numbers(en_index)[:140]
    assert [n.replace(",", ".") for n in dutch] == english  # the same standings,
    assert any("," in n for n in dutch) and not any("." in n for n in dutch)  # 66,5
    asked = run_cli("--lang", "en", "publish", dutch_demo, "--out", tmp_path / "asked")
    assert asked.exit_code == 0
    assert (
        _headings((tmp_path / "asked" / "index.html").read_text(encoding="utf-8"))[0]
        == "Standings after round 2"
    )


def test_the_dutch_chat_text_and_card(dutch_demo: Path, tmp_path: Path) -> None:
    result = run_cli("publish", dutch_demo, "--text")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[:2] == ["Keizercompetitie", "Stand na ronde 2"]
    assert "Ronde 2: uitslagen" in lines
    run_cli("publish", dutch_demo, "--out", tmp_path / "site")
    card = (tmp_path / "site" / "players" / "harrison.html").read_text(encoding="utf-8")
    assert "Per ronde" in card and "Tegenstander" in card and "Eigen waarde" in card
    assert re.search(
        r"<td class=\"name\">(wit|zwart)</td><td class=\"name\">(gewonnen|"
        r"remise|verloren)</td>",
        card,
    )


@pytest.mark.programs("pdftotext")
def test_the_dutch_pdfs(dutch_demo: Path, tmp_path: Path) -> None:
    result = run_cli("publish", dutch_demo, "--pdf", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert "A4, klaar om af te drukken." in result.output
    words = subprocess.run(
        ["pdftotext", str(tmp_path / "standings.pdf"), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "Stand na ronde 2" in words and "Pagina 1 van 1" in words
    assert "Regels: Voorinstelling keizer" in words
    board = subprocess.run(
        ["pdftotext", str(tmp_path / "pairings.pdf"), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert "Ronde 2: uitslagen" in board and "Bord" in board and "Zwart" in board
