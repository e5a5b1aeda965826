"""The web site: valid HTML5, the engine's numbers, names shown as typed, no dead links."""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

import pytest

from keizer_xl.core.report import Report
from keizer_xl.publish.book import workbook_report
from keizer_xl.publish.names import page_names, slug
from keizer_xl.publish.site import PAGES, Titles, build_site, write_site
from tests.publish.conftest import HOSTILE_TITLES
from tests.publish.html import links, parse, resolve, table_rows, tag, text


def number(cell: str) -> Fraction:
    """A shown number back as a Fraction (½ signs, real minus signs)."""
    word = cell.replace("−", "-").replace("%", "")
    if word.endswith("½"):
        return Fraction(word[:-1] or 0) + Fraction(1, 2)
    return Fraction(word)


def check_site(report: Report, pages: dict[str, str]) -> None:
    trees = {path: parse(html) for path, html in pages.items()}  # strict: no parse errors
    # no dead links, and nothing points outside the site
    for path, tree in trees.items():
        for href in links(tree):
            target = resolve(path, href)
            assert target in pages, f"{path}: dead link {href}"
        assert not list(tree.iter(tag("script")))
        for element in tree.iter():
            for attribute in ("src", "srcset"):
                assert element.get(attribute) is None  # nothing loaded from anywhere
    # the standings table shows the engine's numbers
    rows = table_rows(trees["index.html"], "standings")
    assert len(rows) == len(report.players)
    for cells, p in zip(rows, report.players, strict=True):
        row = p.standing
        shown = [text(c) for c in cells]
        assert shown[0] == str(row.rank)
        left = report.season.player(row.name).left
        gone = left is not None and left <= report.after_round
        assert shown[2] == (f"{row.name} (withdrawn)" if gone else row.name)  # as typed,
        # never markup; a player who left marked as on the Standings sheet
        if row.score is not None:
            assert abs(number(shown[3]) - row.score) < Fraction(1, 200)
            assert (
                abs(number(shown[10]) - p.percentage) <= Fraction(1, 2)
                if p.percentage is not None
                else shown[10] == ""
            )
        assert abs(number(shown[4]) - row.value) < Fraction(1, 200)
        assert [int(x) for x in shown[5:9]] == [row.played, row.won, row.drawn, row.lost]
        assert number(shown[9]) == p.game_points
        assert int(number(shown[11])) == p.colour_balance
        assert [int(x) for x in shown[12:14]] == [row.byes, row.absent]
        arrow = shown[1]
        if p.change:
            assert arrow == ("▲" if p.change > 0 else "▼") + str(abs(p.change))
        else:
            assert arrow in ("", "new")
    # every player has a card, linked from the standings; cards link back and to each other
    index_links = {resolve("index.html", h) for h in links(trees["index.html"])}
    cards = {path for path in pages if path.startswith("players/")}
    assert len(cards) == len(report.players)
    assert cards <= index_links
    card_of = {}
    for path in cards:
        heading = text(next(trees[path].iter(tag("h2"))))
        card_of[heading.removesuffix(" (withdrawn)")] = path
        assert "index.html" in {resolve(path, h) for h in links(trees[path])}
    assert set(card_of) == {p.name for p in report.players}
    for p in report.players:
        mine = {resolve(card_of[p.name], h) for h in links(trees[card_of[p.name]])}
        for line in p.rounds:
            if line.opponent is not None and line.opponent in card_of:
                assert card_of[line.opponent] in mine
                theirs = {
                    resolve(card_of[line.opponent], h) for h in links(trees[card_of[line.opponent]])
                }
                assert card_of[p.name] in theirs  # and back
        # the card's rounds: worth now as the engine prices them, adding up to the score
        card_rows = table_rows(trees[card_of[p.name]], "card")
        assert len(card_rows) == len(p.rounds)
        for cells, line in zip(card_rows, p.rounds, strict=True):
            worth = text(cells[-1])
            assert (worth == "") == (line.worth is None)
            if line.worth is not None:
                assert abs(number(worth) - line.worth) < Fraction(1, 200)
    # crosstable: one row per player, one cell per round
    cross = table_rows(trees["crosstable.html"], "cross")
    for cells, p in zip(cross, report.players, strict=True):
        assert text(cells[1]) == (f"{p.name} (withdrawn)" if report.withdrawn(p.name) else p.name)
        assert len(cells) == 3 + report.after_round
        for cell, line in zip(cells[2:-1], p.rounds, strict=True):
            rank = report.rank(line.opponent) if line.opponent else None
            assert text(cell) == line.short(rank)


def test_demo_site(demo_book: Path) -> None:
    report, titles = workbook_report(demo_book)
    pages = build_site(report, titles)
    assert set(PAGES) <= set(pages)
    check_site(report, pages)
    index = parse(pages["index.html"])
    rows = table_rows(index, "standings")
    # Keizer's published example: Harrison 141, Brown 136, Johnson 93
    assert [(text(r[2]), text(r[3])) for r in rows[:3]] == [
        ("Harrison", "141"),
        ("Brown", "136"),
        ("Johnson", "93"),
    ]
    assert len(list(index.iter("{http://www.w3.org/2000/svg}svg"))) == 1  # the rank-progress chart
    cross = table_rows(parse(pages["crosstable.html"]), "cross")
    harrison = [text(c) for c in cross[0]]
    assert harrison[:2] == ["1", "Harrison"]
    assert harrison[2][1:] == "b1" and harrison[3][1:] == "w1"  # beat Carter, then Johnson


def test_hostile_names_stay_text(hostile_report: Report) -> None:
    pages = build_site(hostile_report, HOSTILE_TITLES)
    check_site(hostile_report, pages)
    for path, html in pages.items():
        tree = parse(html)
        assert text(tree.find(f"{tag('head')}/{tag('title')}")).endswith(HOSTILE_TITLES.heading), (
            path
        )
        assert not list(tree.iter(tag("b")))  # the club name's <b> is text
        assert "<script>alert" not in html
    names = {p.name for p in hostile_report.players}
    assert "../x" in names and "O'Brien & <Zoë>" in names
    index = parse(pages["index.html"])
    shown = {text(r[2]).removesuffix(" (withdrawn)") for r in table_rows(index, "standings")}
    assert shown == names  # the leaver's name marked after it, as typed too
    files = [path for path in pages if path.startswith("players/")]
    assert len(set(files)) == len(names)
    for path in files:
        name = path.removeprefix("players/")
        assert "/" not in name and "\\" not in name and not name.startswith(".")
        assert name.removesuffix(".html").replace("-", "").isalnum()


def test_pairings_page_shows_the_open_round_and_earlier_results(hostile_report: Report) -> None:
    tree = parse(build_site(hostile_report, Titles())["pairings.html"])
    headings = [text(h) for h in tree.iter(tag("h2"))]
    last = hostile_report.season.last_round
    assert headings[0] == f"Round {last}: pairings"
    assert headings[1:] == [f"Round {r}: results" for r in range(last - 1, 0, -1)]
    first = table_rows(tree, "pairings")
    games = [e for e in hostile_report.season.round_entries(last) if hasattr(e, "white")]
    assert len(first) == len(games)
    assert all(text(cells[2]) == "" for cells in first)  # no results typed yet


def test_fragments_have_no_page_frame(hostile_report: Report) -> None:
    pages = build_site(hostile_report, HOSTILE_TITLES, fragment=True)
    assert set(pages) == {"standings.html", "pairings.html", "crosstable.html"}
    for html in pages.values():
        assert "<html" not in html and "<body" not in html and "<!DOCTYPE" not in html
        tree = parse(html, fragment=True)
        assert not links(tree)  # no cards to link to from someone else's website
        assert not list(tree.iter(tag("script")))


def test_file_names_are_safe_and_unique() -> None:
    names = [
        "Jan de Vries",
        "jan-de-vries",
        "JAN DE VRIES!",
        "../../etc/passwd",
        "CON",
        "",
        "   ",
        "李小龙",
        "Zoë",
        "Zoe",
        "x" * 300,
    ]
    files = page_names(names)
    assert len(set(files.values())) == len(names)
    assert files["Jan de Vries"] == "jan-de-vries.html"
    assert files["jan-de-vries"] == "jan-de-vries-2.html"
    assert files["Zoë"] == "zoe.html" and files["Zoe"] == "zoe-2.html"
    assert files["CON"] == "con-player.html"
    assert files["../../etc/passwd"] == "etc-passwd.html"
    assert slug("李小龙") == "lixiaolong"  # every script written in ASCII letters
    assert slug("¿?") == slug("") == "player"  # nothing to write: a word of our own
    assert len(files["x" * 300]) <= 65


def test_written_site_opens_from_a_folder(tmp_path: Path, hostile_report: Report) -> None:
    pages = build_site(hostile_report, HOSTILE_TITLES)
    written = write_site(pages, tmp_path / "site")
    assert sorted(p.relative_to(tmp_path / "site").as_posix() for p in written) == sorted(pages)
    for path in written:
        assert path.resolve().is_relative_to((tmp_path / "site").resolve())
    assert not [p for p in (tmp_path / "site").rglob(".*")]  # no temporary files left
    assert (tmp_path / "site" / "index.html").read_text(encoding="utf-8") == pages["index.html"]


@pytest.mark.skipif(os.name != "posix", reason="asks whether a process is alive")
def test_writing_the_site_clears_what_killed_runs_left_of_its_pages(
    tmp_path: Path, hostile_report: Report
) -> None:
    pages = build_site(hostile_report, HOSTILE_TITLES)
    site = tmp_path / "site"
    card = site / next(path for path in pages if path.startswith("players/"))
    card.parent.mkdir(parents=True)
    # no process has this pid (past the largest Linux or macOS gives): its temporaries
    # are left over, as a killed process's are
    gone = 4_194_305
    left = [
        site / f".index.html.{gone}-0a1b2c3d.keizer-xl.tmp",
        card.with_name(f".{card.name}.{gone}-0a1b2c3d.keizer-xl.tmp"),
    ]
    kept = [
        card.with_name(f".{card.name}.{os.getppid()}-0a1b2c3d.keizer-xl.tmp"),  # alive
        site / f".notes.txt.{gone}-0a1b2c3d.keizer-xl.tmp",
    ]  # not a page
    for path in (*left, *kept):
        path.write_bytes(b"half")
    write_site(pages, site)
    assert [path for path in left if path.exists()] == []
    assert [path for path in kept if path.exists()] == kept


@pytest.mark.parametrize("page", PAGES)
def test_pages_fit_a_phone_and_print_on_a4(demo_book: Path, page: str) -> None:
    report, titles = workbook_report(demo_book)
    html = build_site(report, titles)[page]
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "@media print" in html and "size: A4 portrait" in html
    assert 'class="scroll"' in html  # wide tables scroll sideways on a phone
