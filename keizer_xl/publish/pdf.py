"""standings.pdf and pairings.pdf for the club's notice board: A4 portrait, large enough to
read from a step away, 60 players on one page.

fpdf2 writes the PDF in pure Python (nothing to install on Windows or macOS). The text is
set in DejaVu Sans, embedded, so ½, ▲, ▼ and every accent in a name print as typed; the
font files (DejaVu 2.37, regular and bold) ship in `fonts/` beside this module, with their
licence, so a PDF needs nothing else installed. Letters DejaVu lacks (Chinese, Japanese,
Korean names) are taken from a font of the system that has them (`fallbacks`); a name no
font here can print is named to the secretary (`unprintable`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import logging
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from keizer_xl.core.errors import KeizerXLError
from keizer_xl.core.messages import msg
from keizer_xl.core.model import Absence
from keizer_xl.core.report import Report, latest_round
from keizer_xl.i18n import say
from keizer_xl.i18n.names import withdrawn_name
from keizer_xl.i18n.numbers import change, number, percent, points, signed
from keizer_xl.publish.names import shown
from keizer_xl.publish.site import Titles, Words
from keizer_xl.workbook.xlsx import write_files_atomically

FONT = "DejaVu"
_INK, _SOFT, _UP, _DOWN = (27, 31, 36), (89, 99, 110), (26, 127, 55), (207, 34, 46)
_HEAD_FILL, _BAND_FILL = (221, 230, 243), (243, 246, 250)
_PADDING = 1.2  # mm left and right of the text in a table's cell


_MADE = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)


class PdfProblem(KeizerXLError):
    """The PDF cannot be made here (its font is missing)."""


FONTS = Path(__file__).resolve().parent / "fonts"


def font_files() -> dict[str, Path]:
    """DejaVu Sans regular and bold, shipped with keizer_xl (an installation that lost
    them says which are gone)."""
    files = {"": FONTS / "DejaVuSans.ttf", "B": FONTS / "DejaVuSans-Bold.ttf"}
    missing = [str(p) for p in files.values() if not p.is_file()]
    if missing:
        raise PdfProblem(msg("the PDF font is missing: {files}", files=", ".join(missing)))
    return files


# Fonts of the usual systems with the letters DejaVu Sans lacks (Chinese, Japanese, Korean),
# tried in this order when a name needs one: Linux (Noto, Droid, WenQuanYi), macOS, Windows.
FALLBACK_FONTS = tuple(
    Path(p)
    for p in (
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
        "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
        "/System/Library/Fonts/Supplemental/Arial Unicode.ttf",
        "/Library/Fonts/Arial Unicode.ttf",
        "C:/Windows/Fonts/msyh.ttc",
        "C:/Windows/Fonts/malgun.ttf",
        "C:/Windows/Fonts/meiryo.ttc",
        "C:/Windows/Fonts/simsun.ttc",
    )
)


@functools.cache
def _letters(path: Path) -> frozenset[int]:
    """The characters a font file has a glyph for (the first font of a collection)."""
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]  # fpdf2 requires it

    with TTFont(str(path), fontNumber=0, lazy=True) as font:
        return frozenset(font.getBestCmap() or ())


def fallbacks(texts: Iterable[str]) -> tuple[list[Path], list[str]]:
    """The fonts of this system to fall back on for the letters of `texts` that DejaVu
    Sans lacks, and the texts that even they cannot print (each said to the secretary, not
    left to a warning of the PDF library)."""
    own = _letters(FONTS / "DejaVuSans.ttf")
    wanting = {
        text: {ord(c) for c in text if ord(c) not in own and c.isprintable() and not c.isspace()}
        for text in texts
    }
    wanting = {text: lacking for text, lacking in wanting.items() if lacking}
    missing = set().union(*wanting.values())
    chosen: list[Path] = []
    for candidate in FALLBACK_FONTS:
        if not missing:
            break
        try:
            has = _letters(candidate) if candidate.is_file() else frozenset()
        except Exception:  # a font fontTools cannot read is no fallback
            continue
        if missing & has:
            chosen.append(candidate)
            missing -= has
    return chosen, [text for text, lacking in wanting.items() if lacking & missing]


def unprintable(report: Report) -> list[str]:
    """The players whose names the PDFs cannot print whole on this system."""
    return fallbacks(shown(p.name) for p in report.players)[1]


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """fpdf2 logs each font's missing glyphs as a warning of its own; `unprintable` says
    which names they belong to instead."""
    log = logging.getLogger("fpdf.output")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        yield
    finally:
        log.setLevel(level)


def _output(pdf: Any) -> bytes:
    with _quiet():
        return bytes(pdf.output())


def _document(titles: Titles, subtitle: str, names: Iterable[str] = ()) -> Any:
    from fpdf import FPDF

    class Sheet(FPDF):
        def header(self) -> None:
            self.set_font(FONT, "B", 15)
            self.set_text_color(*_INK)
            self.cell(0, 7, titles.heading, new_x="LMARGIN", new_y="NEXT")
            self.set_font(FONT, "", 10.5)
            self.set_text_color(*_SOFT)
            self.cell(0, 5.5, subtitle, new_x="LMARGIN", new_y="NEXT")
            self.ln(2)

        def footer(self) -> None:
            self.set_y(-10)
            self.set_font(FONT, "", 7.5)
            self.set_text_color(*_SOFT)
            self.cell(
                0,
                4,
                Words(titles.language).t(
                    "Page {page} of {pages}", page=self.page_no(), pages="{nb}"
                ),
                align="R",
            )

    pdf = Sheet(orientation="portrait", unit="mm", format="A4")
    pdf.set_margins(12, 10, 12)
    pdf.set_auto_page_break(True, margin=13)
    for style, path in font_files().items():
        pdf.add_font(FONT, style, str(path))
    extra = fallbacks([titles.heading, *names])[0]
    for k, path in enumerate(extra):
        pdf.add_font(f"{FONT}-fallback-{k}", "", str(path))
    if extra:
        pdf.set_fallback_fonts(
            [f"{FONT}-fallback-{k}" for k in range(len(extra))], exact_match=False
        )
    pdf.set_title(f"{subtitle} · {titles.heading}")
    pdf.set_creator("keizer_xl")
    pdf.set_creation_date(_MADE)  # the same season gives the same file
    pdf.alias_nb_pages()
    pdf.add_page()
    return pdf


_NAME_LEAST = 30.0  # mm: a names column never narrower, even beside wide figures


def _fitted(
    pdf: Any,
    headings: Sequence[str],
    rows: Sequence[Sequence[str]],
    least: Sequence[float],
    size: float,
    names: Sequence[int],
) -> list[float]:
    """Column widths (mm): each column as wide as its widest text and its heading's longest
    word, so that no heading breaks inside a word (`Waarde`, not `Waar/de`), and at least
    its `least`; the names' columns share the rest of the page's width, so a name with its
    mark stays on one line."""
    pdf.set_font(FONT, "B", size)
    longest = [max((pdf.get_string_width(w) for w in h.split()), default=0) for h in headings]
    pdf.set_font(FONT, "", size)
    widths = []
    for k, at_least in enumerate(least):
        widest = max([longest[k], *(pdf.get_string_width(row[k]) for row in rows)])
        widths.append(max(at_least, widest + 2 * _PADDING + 0.4))  # room for rounding
    rest = pdf.epw - sum(w for k, w in enumerate(widths) if k not in names)
    for k in names:
        widths[k] = max(rest / len(names), _NAME_LEAST)
    total = sum(widths)  # never wider than the page, be it by a rounding error
    return [w * min(1.0, pdf.epw / total) * (1 - 1e-9) for w in widths]


def _table(
    pdf: Any,
    headings: Sequence[str],
    rows: Sequence[Sequence[str]],
    least: Sequence[float],
    align: Sequence[str],
    size: float,
    height: float,
    names: Sequence[int],
    colours: Sequence[Sequence[tuple[int, int, int] | None]] | None = None,
) -> None:
    """A table across the page with its headings on every page (`_fitted` widths)."""
    from fpdf.fonts import FontFace

    widths = _fitted(pdf, headings, rows, least, size, names)
    pdf.set_font(FONT, "", size)
    pdf.set_text_color(*_INK)
    pdf.set_draw_color(208, 215, 222)
    pdf.set_line_width(0.15)
    with pdf.table(
        col_widths=list(widths),
        width=sum(widths),
        align="LEFT",
        line_height=height,
        text_align=tuple(align),
        borders_layout="HORIZONTAL_LINES",
        cell_fill_mode="ROWS",
        cell_fill_color=_BAND_FILL,
        padding=(0.2, _PADDING),
        headings_style=FontFace(emphasis="BOLD", fill_color=_HEAD_FILL),
        repeat_headings=1,
    ) as table:
        table.row(list(headings))
        for i, cells in enumerate(rows):
            row = table.row()
            for k, text in enumerate(cells):
                colour = colours[i][k] if colours is not None else None
                row.cell(text, style=FontFace(color=colour) if colour else None)


def standings_pdf(report: Report, titles: Titles) -> bytes:
    after = report.after_round
    t = Words(titles.language).t
    pdf = _document(
        titles,
        t("Standings after round {round}", round=after) if after else t("Ranking before round 1"),
        [shown(p.name) for p in report.players],
    )
    headings = (
        "#",
        "",
        t("Name"),
        t("Score"),
        t("Value"),
        t("Pl"),
        t("W"),
        t("D"),
        t("L"),
        t("Pts"),
        "%",
        t("±W"),
        t("Bye"),
        t("Abs"),
    )
    least = (8, 8, 0, 14, 13, 7, 7, 7, 7, 10, 11, 9, 9, 9)  # the name takes the rest
    align = ("R", "L", "L", *["R"] * 11)
    rows, colours = [], []
    language = titles.language
    for p in report.players:
        row = p.standing
        arrow, direction = change(p.change)
        name = shown(row.name)
        name = withdrawn_name(name, language) if report.withdrawn(row.name) else name
        rows.append(
            (
                str(row.rank),
                arrow,
                name,
                number(row.score, language),
                number(row.value, language),
                str(row.played),
                str(row.won),
                str(row.drawn),
                str(row.lost),
                points(p.game_points, language),
                percent(p.percentage),
                signed(p.colour_balance),
                str(row.byes),
                str(row.absent),
            )
        )
        tint = _UP if direction == "up" else _DOWN if direction == "down" else None
        colours.append([None, tint, *[None] * 12])
    n = len(rows)
    # the tallest type that keeps 40, 50 or 60 players on one page; more go on over pages
    size, height = (
        (9.5, 5.2) if n <= 40 else (8.5, 4.3) if n <= 50 else (8, 3.6) if n <= 60 else (8.5, 4.3)
    )
    _table(pdf, headings, rows, least, align, size, height, (2,), colours)
    pdf.ln(2.5)
    pdf.set_font(FONT, "", 7.5)
    pdf.set_text_color(*_SOFT)
    pdf.multi_cell(
        0,
        3.6,
        t(
            "Score: Keizer points. Value: what beating the player is worth next round. Pl W D L: "
            "games played, won, drawn, lost; Pts: game points; %: game points per game; ±W: "
            "games with white minus games with black; Bye: byes and forfeit wins; Abs: "
            "absences; ▲▼: places gained or lost since the previous round. Rules: {rules}.",
            rules=say(report.standings.settings.describe(), titles.language),
        ),
    )
    return _output(pdf)


def pairings_pdf(report: Report, titles: Titles) -> bytes:
    words = Words(titles.language)
    t = words.t
    round_no, games, rests = latest_round(report.season)
    complete = bool(games) and all(g.result is not None for g in games)
    subtitle = (
        (
            t("Round {round}: results", round=round_no)
            if complete
            else t("Round {round}: pairings", round=round_no)
        )
        if round_no
        else t("No round has been paired yet")
    )
    pdf = _document(titles, subtitle, [shown(p.name) for p in report.players])
    if games:

        def who(name: str) -> str:
            rank = report.rank(name)
            return f"{shown(name)} ({rank})" if rank is not None else shown(name)

        rows = [
            (str(g.board or ""), who(g.white), g.result.value if g.result else "", who(g.black))
            for g in games
        ]
        big = len(rows) <= 30
        _table(
            pdf,
            (t("Board"), t("White"), t("Result"), t("Black")),
            rows,
            (18, 0, 22, 0),
            ("C", "L", "C", "L"),
            12 if big else 9.5,
            7.2 if big else 5.2,
            (1, 3),
        )
    pdf.ln(3)
    byes = [shown(r.player) for r in rests if r.reason is Absence.BYE]
    counted = report.standings.settings.club_games == "result"
    absent = [
        f"{shown(r.player)} ({words.rest(r, counted)})"
        for r in rests
        if r.reason is not Absence.BYE
    ]
    pdf.set_text_color(*_INK)
    for label, names in ((t("Bye:"), byes), (t("Absent:"), absent)):
        if names:
            pdf.set_font(FONT, "B", 10.5)
            pdf.write(5.5, f"{label} ")
            pdf.set_font(FONT, "", 10.5)
            pdf.write(5.5, ", ".join(names))
            pdf.ln(7)
    pdf.set_font(FONT, "", 7.5)
    pdf.set_text_color(*_SOFT)
    pdf.multi_cell(
        0, 3.6, t("(n): the player's rank now. +- and -+: won by forfeit; --: neither came.")
    )
    return _output(pdf)


def write_pdfs(report: Report, titles: Titles, folder: Path) -> list[Path]:
    """standings.pdf and pairings.pdf in `folder`, both replaced whole or neither."""
    files = {
        folder / name: make(report, titles)
        for name, make in (("standings.pdf", standings_pdf), ("pairings.pdf", pairings_pdf))
    }
    write_files_atomically(files)
    return list(files)
