"""TRF out and in: checked against the TRF-16 column layout by a reader written here, and
against the season itself, for Keizer's example and a 60-player season."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest

from keizer_xl.core.errors import FileError
from keizer_xl.core.model import Absence, Game, Rest, Result
from keizer_xl.core.season import Season
from keizer_xl.core.settings import Settings
from keizer_xl.exchange.trf import (
    Identity,
    parse_trf,
    report_from_season,
    season_from_report,
    write_trf,
)
from keizer_xl.workbook.files import load
from tests.conftest import run_cli
from tests.seasons import club_season, season_book

# -- a second reader, written from the TRF-16 column table alone ---------------------------


@dataclass
class Line:
    start: int
    name: str
    rating: str
    fide_id: str
    points: Fraction
    rank: str
    rounds: list[tuple[int, str, str]]  # opponent, colour, result


def read_columns(text: str) -> dict[int, Line]:
    """Player lines by starting rank: columns 5–8, 15–47, 49–52, 58–68, 81–84, 86–89, and
    from column 92 ten columns per round (opponent 1–4, colour 6, result 8)."""
    lines = {}
    for raw in text.splitlines():
        if not raw.startswith("001"):
            continue
        line = raw.ljust(91)
        blocks = []
        for k in range(91, len(line), 10):
            block = line[k : k + 10].ljust(10)
            blocks.append((int(block[0:4]), block[5], block[7]))
        lines[int(line[4:8])] = Line(
            int(line[4:8]),
            line[14:47].rstrip(),
            line[48:52].strip(),
            line[57:68].strip(),
            Fraction(line[80:84].strip()),
            line[85:89].strip(),
            blocks,
        )
    return lines


# -- what the file should say, worked out from the season -------------------------------

WHITE_CODE = {
    Result.WHITE_WINS: "1",
    Result.BLACK_WINS: "0",
    Result.DRAW: "=",
    Result.WHITE_FORFEIT_WIN: "+",
    Result.BLACK_FORFEIT_WIN: "-",
    Result.DOUBLE_FORFEIT: "-",
}
BLACK_CODE = {
    Result.WHITE_WINS: "0",
    Result.BLACK_WINS: "1",
    Result.DRAW: "=",
    Result.WHITE_FORFEIT_WIN: "-",
    Result.BLACK_FORFEIT_WIN: "+",
    Result.DOUBLE_FORFEIT: "-",
}


def expected_rounds(season: Season, rounds: int) -> dict[str, list[tuple[int, str, str]]]:
    start = {p.name: n for n, p in enumerate(season.players, start=1)}
    out = {p.name: [(0, "-", "Z")] * rounds for p in season.players}
    for e in season.entries:
        if e.round > rounds:
            continue
        k = e.round - 1
        if isinstance(e, Game):
            assert e.result is not None
            out[e.white][k] = (start[e.black], "w", WHITE_CODE[e.result])
            out[e.black][k] = (start[e.white], "b", BLACK_CODE[e.result])
        elif e.reason is Absence.BYE:
            out[e.player][k] = (0, "-", "U")
    return out


def points(blocks: list[tuple[int, str, str]]) -> Fraction:
    return sum(
        (
            Fraction(1) if r in "1+" else Fraction(1, 2) if r == "=" else Fraction(0)
            for _, _, r in blocks
        ),
        Fraction(0),
    )


def check_against_season(text: str, book: Path) -> None:
    competition, _ = load(book)
    season = competition.season
    standings = competition.standings()
    rounds = standings.after_round
    ranks = {row.name: str(row.rank) for row in standings.rows}
    lines = read_columns(text)
    expected = expected_rounds(season, rounds)
    assert sorted(lines) == list(range(1, len(season.players) + 1))
    for n, p in enumerate(season.players, start=1):
        line = lines[n]
        assert line.name == p.name[:33]
        assert line.rating == (str(int(p.rating)) if p.rating else "")
        assert line.rounds == expected[p.name], p.name
        assert line.points == points(expected[p.name])
        assert line.rank == ranks.get(p.name, "")


def check_import(text: str, original: Path, imported: Path) -> None:
    """The imported workbook holds the same season (names cut to the file's 33 columns),
    ranks the same, and its standings count the games as the file does."""
    source, _ = load(original)
    competition, _ = load(imported)
    rounds = source.standings().after_round
    season = competition.season

    def cut(name: str) -> str:
        return name[:33]

    assert [(p.name, p.joined, p.left) for p in season.players] == [
        (cut(p.name), p.joined, p.left) for p in source.season.players
    ]
    assert [p.rating for p in season.players] == [
        Fraction(round(p.rating)) for p in source.season.players
    ]

    def rows(s: Season, name: Callable[[str], str]) -> Counter[tuple[object, ...]]:
        return Counter(
            (e.round, name(e.white), name(e.black), e.result)
            if isinstance(e, Game)
            else (e.round, name(e.player), e.reason)
            for e in s.entries
            if e.round <= rounds
        )

    assert rows(season, str) == rows(source.season, cut)
    assert competition.standings().ranking == tuple(map(cut, source.standings().ranking))

    lines = {line.name: line for line in read_columns(text).values()}
    for row in competition.standings().rows:
        player = season.player(row.name)
        taking_part = [
            b for k, b in enumerate(lines[row.name].rounds, start=1) if player.takes_part_in(k)
        ]
        codes = Counter(r for _, _, r in taking_part)
        over_board = [(c, r) for _, c, r in taking_part if c in "wb"]
        assert row.won == sum(1 for _, r in over_board if r == "1")
        assert row.drawn == codes["="]
        assert row.lost == sum(1 for _, r in over_board if r == "0")
        assert row.played == row.won + row.drawn + row.lost
        assert row.byes == codes["U"] + codes["+"]
        assert row.absent == codes["Z"] + codes["-"]


def round_trip(book: Path, tmp_path: Path) -> tuple[str, Path]:
    """Export, import into a new workbook, export again: the same file (the name in line
    012 comes back as the setting Competition name)."""
    first = tmp_path / "season.trf"
    result = run_cli("export", book, "--trf", first)
    assert result.exit_code == 0, result.output
    again = tmp_path / "again.xlsx"
    result = run_cli("new", again, "--from", first)
    assert result.exit_code == 0, result.output
    second = tmp_path / "again.trf"
    result = run_cli("export", again, "--trf", second)
    assert result.exit_code == 0, result.output
    assert second.read_bytes() == first.read_bytes()
    return first.read_text(encoding="utf-8"), again


def test_demo_season_out_and_in(tmp_path: Path) -> None:
    assert run_cli("demo", "--folder", tmp_path).exit_code == 0
    book = tmp_path / "keizer_demo.xlsx"
    text, again = round_trip(book, tmp_path)
    assert text.splitlines()[:5] == [
        "012 keizer_demo",
        "062 10",
        "072 10",
        "092 Keizer (internal competition)",
        "KZS Top value = 50",
    ]
    check_against_season(text, book)
    check_import(text, book, again)
    # Keizer's published example: Harrison first, Brown second after round 2
    ranks = {line.name: line.rank for line in read_columns(text).values()}
    assert (ranks["Harrison"], ranks["Brown"], ranks["Johnson"]) == ("1", "2", "3")
    # the imported workbook ranks as the original: same settings, same games
    original, _ = load(book)
    imported, _ = load(again)
    assert imported.standings().ranking == original.standings().ranking


def test_sixty_players_out_and_in(tmp_path: Path) -> None:
    season = club_season(60, 20, seed=7, comings_and_goings=True)
    n = len(season.players)
    own = {
        "FIDE id": [1503014 + i if i % 4 == 0 else None for i in range(n)],
        "Title": ["FM" if i == 0 else "WIM" if i == 1 else None for i in range(n)],
        "Fed": ["NED" if i % 3 else "BEL" for i in range(n)],
        "Sex": ["V" if i % 2 else "M" for i in range(n)],
        "Born": ["1990/05/17" if i % 5 == 0 else 1985 if i % 5 == 1 else None for i in range(n)],
    }
    book = season_book(
        tmp_path / "club.xlsx",
        season,
        {
            "Top value": 90,
            "Excused absence": "1/3, 1/4",
            "Ties": "shared",
            "Competition name": "Winter 2025-26",
        },
        own,
    )
    text, again = round_trip(book, tmp_path)
    assert "KZS Excused absence = 1/3, 1/4" in text.splitlines()
    assert text.startswith("012 Winter 2025-26\n")
    assert "Competition name" not in text
    check_against_season(text, book)
    check_import(text, book, again)
    lines = read_columns(text)
    assert lines[1].fide_id == "1503014" and lines[2].fide_id == ""
    first = next(raw for raw in text.splitlines() if raw.startswith("001    1"))
    second = next(raw for raw in text.splitlines() if raw.startswith("001    2"))
    assert (first[9], first[10:13], first[53:56], first[69:79]) == ("m", "FM ", "BEL", "1990/05/17")
    assert (second[9], second[10:13], second[53:56], second[69:79].strip()) == (
        "w",
        "WIM",
        "NED",
        "1985",
    )
    codes = Counter(r for line in lines.values() for _, _, r in line.rounds)
    assert all(codes[c] for c in "10=+-UZ"), codes  # every kind of round is in the file


def test_unfinished_round_is_left_out(tmp_path: Path) -> None:
    season = club_season(12, 4, seed=3, comings_and_goings=True)
    last = [e for e in season.entries if e.round == 4]
    cut = Season(
        season.players,
        tuple(
            Game(e.round, e.board, e.white, e.black, None)
            if isinstance(e, Game) and e.round == 4
            else e
            for e in season.entries
        ),
    )
    assert any(isinstance(e, Game) for e in last)
    book = season_book(tmp_path / "club.xlsx", cut)
    out = tmp_path / "club.trf"
    result = run_cli("export", book, "--trf", out)
    assert result.exit_code == 0, result.output
    assert "round 4 is not complete yet" in result.output
    assert {len(line.rounds) for line in read_columns(out.read_text("utf-8")).values()} == {3}
    assert out.read_text("utf-8").startswith("012 club\n")


# -- the pure functions, on their own ------------------------------------------------------


def test_text_and_season_round_trip_in_memory() -> None:
    from keizer_xl.core.scoring import compute_standings

    settings = Settings(top_value=Fraction(30))
    season = club_season(21, 6, seed=11, settings=settings, comings_and_goings=True)
    standings = compute_standings(season, settings)
    ids = {season.players[0].name: Identity("m", "IM", "NED", "1000017", "1970")}
    text = write_trf(report_from_season(season, standings, "Winter", ids, [("Top value", "30")]))
    report = parse_trf(text)
    assert write_trf(report) == text
    imported = season_from_report(report)
    assert imported.name == "Winter"
    assert imported.settings == (("Top value", "30"),)
    assert imported.identities == ids
    assert [p.name[:33] for p in season.players] == [p.name for p in imported.season.players]


def trf_line(
    start: int,
    name: str,
    blocks: list[str],
    rating: str = "",
    sex: str = " ",
    title: str = "",
    fed: str = "",
    fide: str = "",
    born: str = "",
    points: str = "",
    rank: str = "",
) -> str:
    """A 001 line put together column by column from the TRF-16 table."""
    line = [" "] * 91
    for first, text in (
        (1, "001"),
        (5, f"{start:>4}"),
        (10, sex),
        (11, title),
        (15, name),
        (49, f"{rating:>4}"),
        (54, fed),
        (58, f"{fide:>11}"),
        (70, born),
        (81, f"{points:>4}"),
        (86, f"{rank:>4}"),
    ):
        line[first - 1 : first - 1 + len(text)] = text
    return "".join(line) + "".join(f"{b:<10}" for b in blocks)


FOREIGN = (
    "\n".join(
        [
            "012 Open Winter",
            "092 Swiss",
            "XXR 4",
            trf_line(
                1,
                "Carlsen, Magnus",
                ["   2 w 1", "   2 b =", "0000 - H", "   4 w W"],
                "2830",
                "m",
                "GM",
                "NOR",
                "1503014",
                "1990/11/30",
                "2.5",
                "1",
            ),
            trf_line(
                2,
                "Polgar, Judit",
                ["   1 b 0", "   1 w =", "   4 b +", "0000 - U"],
                "2675",
                "w",
                "",
                "HUN",
                "700070",
                "1976/07/23",
                "1.5",
                "2",
            ),
            trf_line(
                3,
                "de Vries, Anna",
                ["0000 - Z", "   4 w L", "0000 - U", "0000 - Z"],
                "1800",
                fed="NED",
                points="0.0",
                rank="4",
            ),
            trf_line(
                4, "Late, Lucy", ["", "   3 b W", "   2 w -", "   1 b L"], points="1.0", rank="3"
            ),
        ]
    )
    + "\n"
)


def test_a_file_from_another_program() -> None:
    report = parse_trf(FOREIGN)
    assert report.header == (("012", "Open Winter"), ("092", "Swiss"))
    imported = season_from_report(report)
    season = imported.season
    players = {p.name: p for p in season.players}
    assert (players["Late, Lucy"].joined, players["de Vries, Anna"].joined) == (2, 1)
    assert players["Carlsen, Magnus"].rating == 2830
    games = {(g.round, g.white, g.black): g.result for g in season.games()}
    assert games == {
        (1, "Carlsen, Magnus", "Polgar, Judit"): Result.WHITE_WINS,
        (2, "Polgar, Judit", "Carlsen, Magnus"): Result.DRAW,
        (2, "de Vries, Anna", "Late, Lucy"): Result.BLACK_WINS,
        (3, "Late, Lucy", "Polgar, Judit"): Result.BLACK_FORFEIT_WIN,
        (4, "Carlsen, Magnus", "Late, Lucy"): Result.WHITE_WINS,
    }
    rests = {(e.round, e.player): e.reason for e in season.entries if isinstance(e, Rest)}
    assert rests == {
        (1, "de Vries, Anna"): Absence.EXCUSED,
        (3, "Carlsen, Magnus"): Absence.EXCUSED,
        (3, "de Vries, Anna"): Absence.BYE,
        (4, "Polgar, Judit"): Absence.BYE,
        (4, "de Vries, Anna"): Absence.EXCUSED,
    }
    assert imported.identities["Carlsen, Magnus"] == Identity(
        "m", "GM", "NOR", "1503014", "1990/11/30"
    )
    assert imported.notes == (
        "3 absences (Z, H or F in the TRF file) entered as excused; "
        "change them to club or unexcused in the Rounds sheet where "
        "that is what they were",
    )


BROKEN = (
    "\n".join(
        [
            "012 Broken",
            trf_line(1, "Anna", ["   2 w 1", "   3 b X"]),
            trf_line(2, "Bram", ["   1 b 0"]),
            trf_line(2, "Carla", []),
            trf_line(4, "Daan", ["   9 w 1"]),
            "KZS Stepp = 2",
            "KZS Top value = lots",
            "KZP    2 joined three",
        ]
    )
    + "\n"
)


def test_every_problem_with_its_line(tmp_path: Path) -> None:
    with pytest.raises(FileError) as caught:
        parse_trf(BROKEN, "broken.trf")
    lines = caught.value.lines()
    assert (
        "broken.trf, line 2: round 2 (columns 102–111): 'X' is not a result; use 1, 0, =, "
        "+, -, U, Z, H or F" in lines
    )
    assert any(
        line.startswith("broken.trf, line 4: starting rank 2 is used twice") for line in lines
    )
    assert any(
        line.startswith("broken.trf, line 5: round 1: opponent 9 has no player line")
        for line in lines
    )
    assert any(line.startswith("broken.trf, line 6: 'Stepp' is not a setting") for line in lines)
    assert any(line.startswith("broken.trf, line 7: Top value:") for line in lines)
    assert any(
        line.startswith("broken.trf, line 8: 'three' is not understood here") for line in lines
    )
    assert "broken.trf, line 2: round 2: opponent 3 has no player line" in lines
    assert len(lines) == 7, lines
    assert [int(line.split("line ")[1].split(":")[0]) for line in lines] == [2, 2, 4, 5, 6, 7, 8]
    source = tmp_path / "broken.trf"
    source.write_text(BROKEN, encoding="utf-8")
    result = run_cli("new", tmp_path / "club.xlsx", "--from", source)
    assert result.exit_code == 1
    assert "line 6: 'Stepp' is not a setting" in result.output
    assert not (tmp_path / "club.xlsx").exists()
    assert list(tmp_path.iterdir()) == [source]


def test_disagreeing_lines_are_named() -> None:
    text = (
        "001    1      Anna" + " " * 73 + "   2 w 1\n001    2      Bram" + " " * 73 + "   1 w 0\n"
    )
    with pytest.raises(FileError) as caught:
        parse_trf(text, "x.trf")
    assert caught.value.lines() == [
        "x.trf, line 1: round 1: Anna (w 1) and Bram (w 0, line 2) do not agree"
    ]


def test_latin1_file_is_read(tmp_path: Path) -> None:
    text = "\n".join(
        [
            "012 Zoë's club",
            trf_line(1, "Çelik, Zoë", ["   2 w 1"], points="1.0", rank="1"),
            trf_line(2, "Jansen, Bram", ["   1 b 0"], points="0.0", rank="2"),
        ]
    )
    source = tmp_path / "club.trf"
    source.write_bytes(text.encode("cp1252"))
    result = run_cli("new", tmp_path / "club.xlsx", "--from", source)
    assert result.exit_code == 0, result.output
    competition, _ = load(tmp_path / "club.xlsx")
    assert [p.name for p in competition.season.players] == ["Çelik, Zoë", "Jansen, Bram"]
