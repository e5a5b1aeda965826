"""`keizer-xl publish`: the site, the fragments and the text, from a real workbook."""

from __future__ import annotations

from pathlib import Path

from keizer_xl.publish.book import workbook_report
from tests.conftest import run_cli
from tests.publish.html import parse
from tests.seasons import make_book


def test_publish_writes_the_site_beside_the_workbook(demo_book: Path) -> None:
    result = run_cli("publish", demo_book)
    assert result.exit_code == 0, result.output
    site = demo_book.parent / "keizer_demo_site"
    assert f"Open {site / 'index.html'}" in result.output
    assert (site / "index.html").is_file() and (site / "players" / "harrison.html").is_file()
    assert len(list((site / "players").glob("*.html"))) == 10
    parse((site / "crosstable.html").read_text(encoding="utf-8"))


def test_publish_to_a_folder_and_as_fragments(demo_book: Path, tmp_path: Path) -> None:
    result = run_cli("publish", demo_book, "--fragment", "--out", tmp_path / "web")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "web").iterdir()) == [
        "crosstable.html",
        "pairings.html",
        "standings.html",
    ]


def test_publish_text_reads_well_in_a_chat(demo_book: Path) -> None:
    result = run_cli("publish", demo_book, "--text")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    report, _ = workbook_report(demo_book)
    assert lines[:3] == ["Keizer competition", "Standings after round 2", ""]
    assert lines[3:6] == ["1. Harrison 141 ▲1", "2. Brown 136 ▲1", "3. Johnson 93 ▼2"]
    assert (
        len([line for line in lines if line[:1].isdigit() and ". " in line])
        == len(report.players) + 5
    )  # ten players, five games
    assert "Round 2: results" in lines
    assert max(map(len, lines)) <= 60
    assert not set("┃━│┏┓└┘") & set(result.output)


def test_publish_names_the_cell_of_a_problem(tmp_path: Path) -> None:
    book = make_book(
        tmp_path / "bad.xlsx", [{"Name": "Anna"}, {"Name": "Bram"}], [[1, 1, "Anna", "Bram", "l-0"]]
    )
    result = run_cli("publish", book)
    assert result.exit_code == 1
    assert "Rounds!E2: 'l-0' is not a result" in result.output
    assert not (tmp_path / "bad_site").exists()


def test_club_and_competition_names_come_from_the_settings(tmp_path: Path) -> None:
    book = make_book(
        tmp_path / "club.xlsx",
        [{"Name": "Anna"}, {"Name": "Bram"}],
        [[1, 1, "Anna", "Bram", "1-0"]],
        {"Club name": "SC <De Toren> & co", "Competition name": "Keizer 2025-26"},
    )
    report, titles = workbook_report(book)
    assert titles.heading == "SC <De Toren> & co · Keizer 2025-26"
    assert "Club name" not in report.standings.settings.describe()  # a name, not a rule
    result = run_cli("publish", book, "--text")
    assert result.output.splitlines()[0] == "SC <De Toren> & co · Keizer 2025-26"
    assert run_cli("publish", book).exit_code == 0
    index = (tmp_path / "club_site" / "index.html").read_text(encoding="utf-8")
    assert "<h1>SC &lt;De Toren&gt; &amp; co · Keizer 2025-26</h1>" in index


def test_publish_one_group(tmp_path: Path) -> None:
    """`--group B`: B's players on every page with their ranks in the whole field, the
    games they played, their cards; other groups' players named without a link."""
    from tests.cli.test_groups_minimum import GROUPS, PLAYERS, ROUNDS, book
    from tests.publish.html import links, resolve, table_rows, text

    path = book(tmp_path, ROUNDS)
    result = run_cli("publish", path, "--group", "b", "--out", tmp_path / "web")
    assert result.exit_code == 0, result.output
    assert "player pages of group b" in result.output
    web = tmp_path / "web"
    members = {p["Name"] for p, g in zip(PLAYERS, GROUPS, strict=True) if g == "B"}
    assert {p.stem for p in (web / "players").glob("*.html")} == {n.lower() for n in members}
    report, _ = workbook_report(path)
    rank = {p.name: p.standing.rank for p in report.players}
    index = parse((web / "index.html").read_text(encoding="utf-8"))
    rows = table_rows(index, "standings")
    shown = {text(row[2]) for row in rows}
    assert shown == members
    assert {int(text(row[0])) for row in rows} == {rank[n] for n in members}
    assert "group b" in text(index.find(".//" + "{http://www.w3.org/1999/xhtml}h1"))
    pairings = parse((web / "pairings.html").read_text(encoding="utf-8"))
    shown_games = []
    for table in pairings.iter("{http://www.w3.org/1999/xhtml}table"):
        if "pairings" in table.get("class", ""):
            body = table.find("{http://www.w3.org/1999/xhtml}tbody")
            for tr in body.iter("{http://www.w3.org/1999/xhtml}tr"):
                names = [text(td).split("(")[0] for td in tr if "name" in td.get("class", "")]
                shown_games.append(frozenset(names))
    played = [frozenset(g[2:4]) for g in ROUNDS if g[3]]
    assert sorted(map(sorted, shown_games)) == sorted(
        sorted(g) for g in played if g & members
    )  # the games of B's players, no others
    for page in web.rglob("*.html"):  # no dead links
        relative = page.relative_to(web).as_posix()
        for href in links(parse(page.read_text(encoding="utf-8"))):
            if not href.startswith(("http", "#")):
                assert (web / resolve(relative, href.split("#")[0])).is_file(), (page, href)


def test_publish_an_unknown_group(tmp_path: Path) -> None:
    from tests.cli.test_groups_minimum import ROUNDS, book

    path = book(tmp_path, ROUNDS)
    result = run_cli("publish", path, "--group", "Z", "--out", tmp_path / "web")
    assert result.exit_code == 1
    assert "no player is in group 'Z'" in result.output and "A, B, Jeugd" in result.output
    assert not (tmp_path / "web").exists()
