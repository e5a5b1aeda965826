"""The club's web pages: standings, pairings, crosstable and one card per player.

Everything shown is worked out before a template sees it (numbers from `core.report`,
words and links here); the templates only lay it out, with Jinja2 escaping every text, so a
name such as `O'Brien & <Zoë>` shows as typed and never becomes markup. Pages carry their
own style and charts (inline CSS and SVG): no scripts, fonts or pictures from elsewhere.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace as View
from typing import Any

from keizer_xl.core.model import Absence, Entry, Game, Rest
from keizer_xl.core.report import (
    FORFEIT,
    GAME,
    GONE,
    NOT_YET,
    OPEN,
    TEAM,
    PlayerReport,
    Report,
    RoundLine,
    Stakes,
    next_game,
)
from keizer_xl.core.report import latest_round as find_latest_round
from keizer_xl.core.results import DRAW, FORFEIT_WIN, LOSS, NO_SHOW, RESULTS, WIN
from keizer_xl.i18n import crosstable_marks, legend_marks, say, translate
from keizer_xl.i18n.names import withdrawn_mark
from keizer_xl.i18n.numbers import change, number, percent, points, signed
from keizer_xl.publish.charts import Chart, rank_chart
from keizer_xl.publish.names import page_names, shown
from keizer_xl.publish.rules import settings_in_force
from keizer_xl.workbook.xlsx import write_files_atomically

TOP_CHART = 10  # players on the index page's chart
PLAYERS_DIR = "players"
PAGES = ("index.html", "pairings.html", "crosstable.html")


class Words:
    """The pages' words in one language: `t` for a message of the catalog, the words for a
    reason of absence and for a result, and numbers with the language's decimal mark."""

    def __init__(self, language: str) -> None:
        self.language = language
        # said tens of thousands of times on a large site's pages: translated once
        self._reasons = {
            Absence.BYE.value: translate("bye", language),
            Absence.EXCUSED.value: translate("excused absence", language),
            Absence.CLUB.value: translate("club duty", language),
            Absence.UNEXCUSED.value: translate("unexcused absence", language),
            TEAM: translate("team match", language),
        }
        self._results = {
            WIN: translate("won", language),
            DRAW: translate("draw", language),
            LOSS: translate("lost", language),
            FORFEIT_WIN: translate("won by forfeit", language),
            NO_SHOW: translate("lost by forfeit", language),
        }
        self._not_played = translate("not played yet", language)
        self.marks = crosstable_marks(language)  # the crosstable's colour and rest marks
        self._texts: dict[str, str] = {}  # each message looked up in the catalog once

    def t(self, template: str, **values: Any) -> str:
        text = self._texts.get(template)
        if text is None:
            text = self._texts[template] = translate(template, self.language)
        return text.format(**values) if values else text

    def number(self, x: Fraction | int | None) -> str:
        return number(x, self.language)

    def points(self, x: Fraction) -> str:
        return points(x, self.language)

    def reason(self, kind: str) -> str:
        return self._reasons.get(kind, kind)

    def result(self, mark: str) -> str:
        return self._results.get(mark) or self._not_played

    def team(self, mark: str) -> str:
        """A team match counted as a game, with its result: "team match, won"."""
        return self.t("{what}, {result}", what=self.reason(TEAM), result=self.result(mark))

    def rest(self, rest: Rest, counted: bool) -> str:
        """A rest row of a round: its reason, or the team match with its result where
        team-match results count (Club games `result`)."""
        if counted and rest.team is not None:
            return self.team(RESULTS[rest.team].marks[0])
        return self.reason(rest.reason.value)


@dataclass(frozen=True)
class Titles:
    """The club's and the competition's names from the Settings sheet (either may be blank)."""

    club: str = ""
    competition: str = ""
    language: str = "en"  # of the pages (the workbook's, or the one asked for)

    @property
    def heading(self) -> str:
        return " · ".join(shown(t) for t in (self.club, self.competition) if t) or translate(
            "Keizer competition", self.language
        )


@functools.cache
def _environment() -> Any:
    import jinja2

    # the templates ship with the package: no look at each one's date for every page
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("keizer_xl.publish", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        auto_reload=False,
    )
    return env


def render(template: str, **context: Any) -> str:
    rendered: str = _environment().get_template(template).render(**context)
    return rendered


# -- what the pages show --------------------------------------------------------------------


class _Links:
    """Where each player's card is, seen from the site's top folder or from players/."""

    def __init__(self, report: Report, fragment: bool, only: Collection[str] | None = None) -> None:
        self.only = None if only is None else frozenset(only)
        self.files = (
            {} if fragment else page_names(p.name for p in report.players if self.shown(p.name))
        )

    def shown(self, name: str) -> bool:
        """Is this player on the pages (all are, unless one group is published)?"""
        return self.only is None or name in self.only

    def card(self, name: str | None, from_card: bool = False) -> str | None:
        if name is None or name not in self.files:
            return None
        return self.files[name] if from_card else f"{PLAYERS_DIR}/{self.files[name]}"


def standings_lines(report: Report, links: _Links, words: Words) -> list[View]:
    out = []
    for p in report.players:
        if not links.shown(p.name):
            continue
        row = p.standing
        arrow, direction = change(p.change)
        fresh = p.change is None and report.after_round > 1 and row.score is not None
        out.append(
            View(
                rank=row.rank,
                change="new" if fresh else arrow,
                direction=direction,
                name=shown(row.name),
                href=links.card(row.name),
                gone=gone(report, row.name, words),
                score=words.number(row.score),
                value=words.number(row.value),
                played=row.played,
                won=row.won,
                drawn=row.drawn,
                lost=row.lost,
                points=words.points(p.game_points),
                percent=percent(p.percentage),
                balance=signed(p.colour_balance),
                byes=row.byes,
                absent=row.absent,
                unranked=row.score is None,
            )
        )
    return out


def gone(report: Report, name: str, words: Words) -> str:
    """The mark after the name of a player who has left (`(withdrawn)`), else ""."""
    return withdrawn_mark(words.language) if report.withdrawn(name) else ""


def _game_line(report: Report, links: _Links, game: Game, words: Words) -> View:
    stakes = report.stakes(game)

    def side(name: str, at: int) -> View:
        return View(
            name=shown(name),
            rank=report.rank(name),
            href=links.card(name),
            stakes=stakes_said(stakes[at], words) if stakes else "",
        )

    return View(
        board=game.board or "",
        white=side(game.white, 0),
        black=side(game.black, 1),
        result=game.result.value if game.result is not None else "",
    )


def stakes_said(stakes: Stakes, words: Words) -> str:
    """`win 12 · draw 6` (and `loss 3` with the Loss setting): what one player's game
    tonight earns, with the language's decimal mark."""
    said = [
        words.t("win {points}", points=words.number(stakes.win)),
        words.t("draw {points}", points=words.number(stakes.draw)),
    ]
    if stakes.loss:
        said.append(words.t("loss {points}", points=words.number(stakes.loss)))
    return " · ".join(said)


def stakes_note(report: Report, words: Words) -> str:
    """The line under tonight's stakes: what they are, and that they are today's values
    (the Pairings sheet says the second half, shorter)."""
    what = (
        words.t(
            "Win, draw, loss: what the game earns each player tonight (the "
            "opponent's value; half of it for a draw; the Loss share of it for a "
            "loss)."
        )
        if report.standings.settings.loss
        else words.t(
            "Win, draw: what the game earns each player tonight (the opponent's value; "
            "half of it for a draw)."
        )
    )
    when = (
        words.t(
            "These are today's values: earlier games are priced again next week, "
            "with the new ranking."
        )
        if report.priced_again
        else words.t("These are today's values; with Pricing frozen the game keeps them.")
    )
    return f"{what} {when}"


def round_view(
    report: Report,
    links: _Links,
    round_no: int,
    games: Iterable[Game],
    rests: Iterable[Rest],
    words: Words,
) -> View:
    games = [g for g in games if links.shown(g.white) or links.shown(g.black)]
    rests = [r for r in rests if links.shown(r.player)]
    lines = [_game_line(report, links, g, words) for g in games]
    return View(
        round=round_no,
        complete=all(g.result is not None for g in games),
        games=lines,
        stakes=stakes_note(report, words) if any(line.white.stakes for line in lines) else "",
        byes=[
            View(name=shown(r.player), href=links.card(r.player))
            for r in rests
            if r.reason is Absence.BYE
        ],
        absent=[
            View(
                name=shown(r.player),
                href=links.card(r.player),
                reason=words.rest(r, report.standings.settings.club_games == "result"),
            )
            for r in rests
            if r.reason is not Absence.BYE
        ],
    )


def rounds_view(report: Report, links: _Links, words: Words) -> list[View]:
    """The latest round first, then every earlier round."""
    season = report.season
    latest, games, rests = find_latest_round(season)
    out = [round_view(report, links, latest, games, rests, words)] if latest else []
    by_round: dict[int, list[Entry]] = {}  # one pass over the season, not one per round
    for e in season.entries:
        by_round.setdefault(e.round, []).append(e)
    for r in range(latest - 1, 0, -1):
        entries = by_round.get(r, [])
        played = sorted(
            (e for e in entries if isinstance(e, Game)),
            key=lambda g: (g.board is None, g.board or 0),
        )
        out.append(
            round_view(
                report,
                links,
                r,
                played,
                sorted(
                    (e for e in entries if isinstance(e, Rest)),
                    key=lambda e: e.reason is not Absence.BYE,
                ),
                words,
            )
        )
    return out


def crosstable_view(report: Report, links: _Links, words: Words) -> list[View]:
    out = []
    titles = _RoundTitles(words)
    for p in report.players:
        if not links.shown(p.name):
            continue
        cells = []
        for line in p.rounds:
            text = line.short(report.rank(line.opponent) if line.opponent else None, words.marks)
            cells.append(
                View(text=text, kind=_cell_class(line.kind, line.mark), title=titles.of(line))
            )
        out.append(
            View(
                rank=p.standing.rank,
                name=shown(p.name),
                href=links.card(p.name),
                gone=gone(report, p.name, words),
                cells=cells,
                score=words.number(p.standing.score),
            )
        )
    return out


_MARK_CLASSES = {WIN: "win", FORFEIT_WIN: "win", DRAW: "draw"}


def _cell_class(kind: str, mark: str) -> str:
    if kind in (GAME, FORFEIT, TEAM):
        return _MARK_CLASSES.get(mark, "loss")
    return "rest" if kind not in (NOT_YET, GONE, OPEN) else "none"


class _RoundTitles:
    """What each crosstable cell says on hover ("Round 3: white against Anna, won; worth 12
    now"): a large site has tens of thousands, so each message is looked up once."""

    def __init__(self, words: Words) -> None:
        t = words.t  # without values: the message as translated, its fields still to fill
        self.words = words
        self.white = t("white against {opponent}").format
        self.black = t("black against {opponent}").format
        self.result = t("{what}, {result}").format
        self.not_yet = t("not yet in the competition")
        self.gone = t("no longer in the competition")
        self.worth = t("Round {round}: {what}; worth {worth} now").format
        self.plain = t("Round {round}: {what}").format

    def of(self, line: RoundLine) -> str:
        words = self.words
        if line.opponent is not None:
            what = (self.white if line.white else self.black)(opponent=shown(line.opponent))
            if line.mark:
                what = self.result(what=what, result=words.result(line.mark))
        elif line.kind == NOT_YET:
            what = self.not_yet
        elif line.kind == GONE:
            what = self.gone
        elif line.kind == TEAM:
            what = words.team(line.mark)
        else:
            what = words.reason(line.kind)
        if line.worth is not None:
            return self.worth(round=line.round, what=what, worth=words.number(line.worth))
        return self.plain(round=line.round, what=what)


def card_view(
    report: Report,
    links: _Links,
    p: PlayerReport,
    previous: str | None,
    following: str | None,
    words: Words,
) -> View:
    row = p.standing
    lines = []
    for line in p.rounds:
        worth = words.number(line.worth)
        if line.opponent is not None:
            lines.append(
                View(
                    round=line.round,
                    worth=worth,
                    opponent=shown(line.opponent),
                    gone=gone(report, line.opponent, words),
                    rank=report.rank(line.opponent),
                    href=links.card(line.opponent, from_card=True),
                    colour=words.t("white") if line.white else words.t("black"),
                    result=words.result(line.mark),
                )
            )
            continue
        if line.kind in (NOT_YET, GONE):
            note = (
                words.t("not yet in the competition")
                if line.kind == NOT_YET
                else words.t("no longer in the competition")
            )
        elif line.kind == TEAM:
            note = words.team(line.mark)
        else:
            note = (
                words.t("{reason} (not on the Rounds sheet)", reason=words.reason(line.kind))
                if line.default
                else words.reason(line.kind)
            )
        lines.append(View(round=line.round, worth=worth, opponent=None, note=note))
    tonight = next_game(report, p.name)
    return View(
        tonight=_tonight(report, links, p.name, tonight, words) if tonight else None,
        name=shown(p.name),
        gone=gone(report, p.name, words),
        rank=row.rank,
        score=words.number(row.score),
        value=words.number(row.value),
        played=row.played,
        won=row.won,
        drawn=row.drawn,
        lost=row.lost,
        points=words.points(p.game_points),
        percent=percent(p.percentage),
        balance=signed(p.colour_balance),
        whites=p.whites,
        blacks=p.blacks,
        byes=row.byes,
        absent=row.absent,
        own=words.number(row.own),
        lines=lines,
        unranked=row.score is None,
        previous=links.card(previous, from_card=True),
        previous_name=previous and shown(previous),
        next=links.card(following, from_card=True),
        next_name=following and shown(following),
        change=change(p.change)[0],
    )


def _tonight(
    report: Report, links: _Links, name: str, tonight: tuple[Game, Stakes], words: Words
) -> View:
    """The player's game of tonight on the card: whom, which colour, what it earns."""
    game, stakes = tonight
    white = game.white == name
    opponent = game.black if white else game.white
    return View(
        round=game.round,
        opponent=shown(opponent),
        rank=report.rank(opponent),
        href=links.card(opponent, from_card=True),
        colour=words.t("white") if white else words.t("black"),
        stakes=stakes_said(stakes, words),
        note=stakes_note(report, words),
    )


def top_chart(report: Report, links: _Links, words: Words) -> Chart | None:
    if report.after_round < 2:
        return None
    top = [p for p in report.players if p.standing.score is not None and links.shown(p.name)][
        :TOP_CHART
    ]
    return rank_chart(
        [(shown(p.name), p.ranks, links.card(p.name)) for p in top],
        len(report.players),
        words.t("Rank after each round: the top {count}", count=len(top)),
    )


def card_chart(report: Report, p: PlayerReport, words: Words) -> Chart | None:
    if not any(r is not None for r in p.ranks):
        return None
    ranked = len(report.players)
    return rank_chart(
        [(shown(p.name), p.ranks, None)],
        ranked,
        words.t("Rank of {name} after each round", name=shown(p.name)),
        width=480,
        height=220,
        worst=ranked,
    )


# -- the site ---------------------------------------------------------------------------------


def build_site(
    report: Report, titles: Titles, fragment: bool = False, only: Collection[str] | None = None
) -> dict[str, str]:
    """Every page of the site by its path in the site folder ("players/anna.html").

    With `fragment` the standings, pairings and crosstable come without page frame (for
    pasting into a club website's editor) and there are no player cards. With `only` (one
    group's players) the pages show those players, with their ranks in the whole field,
    and the games they played; opponents of other groups are named without a link."""
    links = _Links(report, fragment, only)
    words = Words(titles.language)
    common = {
        "titles": titles,
        "after": report.after_round,
        "fragment": fragment,
        "top_value": words.number(report.standings.top_value),
        "note": say(report.standings.note, titles.language),
        "t": words.t,
        "lang": titles.language,
    }
    standings = standings_lines(report, links, words)
    rules = settings_in_force(report.standings, titles.language)
    pages = {
        "index.html": render(
            "index.html.j2",
            page="index",
            root="",
            lines=standings,
            rules=rules,
            chart=None if fragment else top_chart(report, links, words),
            **common,
        ),
        "pairings.html": render(
            "pairings.html.j2",
            page="pairings",
            root="",
            rounds=rounds_view(report, links, words),
            **common,
        ),
        "crosstable.html": render(
            "crosstable.html.j2",
            page="crosstable",
            root="",
            rows=crosstable_view(report, links, words),
            marks=legend_marks(titles.language),
            teams=report.standings.settings.club_games == "result",
            **common,
        ),
    }
    if fragment:
        return {("standings.html" if k == "index.html" else k): v for k, v in pages.items()}
    names = [p.name for p in report.players if links.shown(p.name)]
    card = _environment().get_template("player.html.j2")
    for i, p in enumerate(p for p in report.players if links.shown(p.name)):
        previous = names[i - 1] if i else None
        following = names[i + 1] if i + 1 < len(names) else None
        path = f"{PLAYERS_DIR}/{links.files[p.name]}"
        pages[path] = card.render(
            page="player",
            root="../",
            card=card_view(report, links, p, previous, following, words),
            chart=card_chart(report, p, words),
            **common,
        )
    return pages


def write_site(pages: dict[str, str], folder: Path) -> list[Path]:
    """Write the pages (UTF-8), all of them or none: each is written beside its place first
    and only then are they put in place, so a reader never sees half a page, and a full disk
    leaves the site as it was. What killed earlier runs left behind is cleared once per
    folder, not once per page."""
    files = {folder / relative: html.encode("utf-8") for relative, html in pages.items()}
    write_files_atomically(files, sync=False)
    return list(files)
