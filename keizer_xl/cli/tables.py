"""The tables the command line shows in the terminal: a round's pairings and the standings
(rich is imported only when one is shown)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from keizer_xl.cli.speech import note, said, say, speaking, t

LONG_ROUND = 80  # rows: a longer round is summed up rather than listed


def console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def print_round(next_round: Any) -> None:
    """The new round as a table; a big club's round (hundreds of rows, which nobody reads
    in a terminal and which take rich a while to lay out) as a summary instead."""
    from keizer_xl.i18n.names import local_name, rest_word

    language = speaking()
    rows = [(str(g.board), g.white, g.black) for g in next_round.games]
    rows += [("", r.player, rest_word(r.reason, language)) for r in next_round.rests]
    if len(rows) <= LONG_ROUND:
        headers = [local_name(h, language) for h in ("Board", "White", "Black")]
        print_table(t("Round {round}", round=next_round.round), headers, {headers[0]}, rows)
        return
    games = len(next_round.games)
    byes = [r.player for r in next_round.rests if r.reason.value == "bye"]
    absent = len(next_round.rests) - len(byes)
    values = {"round": next_round.round, "games": games, "absent": absent}
    say(
        t(
            "Round {round}: {games} games (boards 1–{games}), bye for {bye}, {absent} absent. "
            "The full list is in the Rounds sheet.",
            bye=byes[0],
            **values,
        )
        if byes
        else t(
            "Round {round}: {games} games (boards 1–{games}), {absent} absent. The full list "
            "is in the Rounds sheet.",
            **values,
        )
    )


def print_standings(
    standings: Any,
    title: str,
    groups: dict[str, str] | None = None,
    short: Collection[str] = (),
    only: str | None = None,
) -> None:
    """The standings table; a Group column when players have groups (`only`: one group's
    rows); ranks marked * for players listed last for too few games; the numbers with the
    language's decimal mark, as the pages write them."""
    from keizer_xl.i18n.numbers import decimal

    language = speaking()
    headers = (
        "#",
        t("Name"),
        *((t("Group"),) if groups else ()),
        t("Score"),
        t("Value"),
        t("Pl"),
        t("W"),
        t("D"),
        t("L"),
        t("Bye"),
        t("Abs"),
    )
    rows = [
        (
            f"{row.rank}{'*' if row.name in short else ''}",
            row.name,
            *((groups.get(row.name, ""),) if groups else ()),
            decimal(row.score, language),
            decimal(row.value, language),
            str(row.played),
            str(row.won),
            str(row.drawn),
            str(row.lost),
            str(row.byes),
            str(row.absent),
        )
        for row in standings.rows
        if only is None or (groups or {}).get(row.name, "").casefold() == only.casefold()
    ]
    print_table(said(title), headers, set(headers) - {t("Name"), t("Group")}, rows)
    if standings.note:
        note(standings.note)


def print_tried(
    now: Any, tried: Any, title: str, groups: dict[str, str] | None = None, only: str | None = None
) -> None:
    """What if: each player's place and score with the tried settings beside the score
    now, and how many places the player moves (+ up, − down), in the tried order."""
    from keizer_xl.i18n.numbers import decimal

    language = speaking()
    before = {row.name: row for row in now.rows}
    headers = ("#", t("Name"), t("Score now"), t("Score tried"), t("Change"))
    rows = [
        (
            str(row.rank),
            row.name,
            decimal(before[row.name].score, language),
            decimal(row.score, language),
            moved(before[row.name].rank - row.rank),
        )
        for row in tried.rows
        if only is None or (groups or {}).get(row.name, "").casefold() == only.casefold()
    ]
    print_table(title, headers, set(headers) - {t("Name")}, rows)


def moved(places: int) -> str:
    """Places moved up (+2) or down (−1); nothing when the place stays."""
    return f"+{places}" if places > 0 else f"−{-places}" if places < 0 else ""


def print_table(
    title: str, headers: Sequence[str], right: Collection[str], rows: Sequence[Sequence[str]]
) -> None:
    """A table in the terminal; `right`: the headers of the right-aligned columns."""
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for header in headers:
        table.add_column(header, justify="right" if header in right else "left")
    for row in rows:
        table.add_row(*row)
    console().print(table)
