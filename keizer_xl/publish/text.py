"""Standings and the latest pairings as plain text for a group chat or an e-mail.

Chat apps use proportional fonts and narrow screens: short lines, no columns to line up,
no box drawing; one player or one game per line.
"""

from __future__ import annotations

from keizer_xl.core.model import Absence
from keizer_xl.core.report import Report, latest_round
from keizer_xl.i18n.names import withdrawn_name
from keizer_xl.i18n.numbers import change, number
from keizer_xl.publish.site import Titles, Words, stakes_note, stakes_said


def standings_text(report: Report, titles: Titles) -> list[str]:
    after = report.after_round
    t = Words(titles.language).t
    lines = [
        titles.heading,
        t("Standings after round {round}", round=after) if after else t("Ranking before round 1"),
        "",
    ]
    for p in report.players:
        row = p.standing
        arrow = change(p.change)[0]
        score = f" {number(row.score, titles.language)}" if row.score is not None else ""
        name = withdrawn_name(row.name, titles.language) if report.withdrawn(row.name) else row.name
        lines.append(f"{row.rank}. {name}{score}" + (f" {arrow}" if arrow else ""))
    return lines


def pairings_text(report: Report, language: str = "en") -> list[str]:
    words = Words(language)
    t = words.t
    round_no, games, rests = latest_round(report.season)
    if not round_no:
        return [t("No round has been paired yet.")]
    complete = all(g.result is not None for g in games)
    lines = [
        t("Round {round}: results", round=round_no)
        if complete
        else t("Round {round}: pairings", round=round_no),
        "",
    ]
    staked = False
    for g in games:
        board = f"{g.board}. " if g.board is not None else ""
        result = f" {g.result.value}" if g.result is not None else ""
        lines.append(f"{board}{g.white} – {g.black}{result}")
        stakes = report.stakes(g)
        if stakes is not None:  # tonight's stakes, indented under the game
            staked = True
            lines += [
                f"   {g.white}: {stakes_said(stakes[0], words)}",
                f"   {g.black}: {stakes_said(stakes[1], words)}",
            ]
    if staked:
        lines += ["", stakes_note(report, words)]
    byes = [r.player for r in rests if r.reason is Absence.BYE]
    if byes:
        lines += ["", t("Bye:") + " " + ", ".join(byes)]
    counted = report.standings.settings.club_games == "result"
    absent = [
        f"{r.player} ({words.rest(r, counted)})" for r in rests if r.reason is not Absence.BYE
    ]
    if absent:
        lines += ["", t("Absent:") + " " + ", ".join(absent)]
    return lines


def report_text(report: Report, titles: Titles) -> str:
    """Both, with a blank line between: ready to paste."""
    return (
        "\n".join([*standings_text(report, titles), "", *pairings_text(report, titles.language)])
        + "\n"
    )
