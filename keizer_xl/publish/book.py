"""From a workbook file to what is published: the report and the names above it."""

from __future__ import annotations

from pathlib import Path

from keizer_xl.core.report import Report, build_report
from keizer_xl.core.round import Competition
from keizer_xl.publish.site import Titles


def competition_report(competition: Competition, language: str = "en") -> tuple[Report, Titles]:
    """The standings after the last completed round, with everything derived from them;
    the pages, PDFs and texts made of them speak `language`."""
    standings = competition.standings()
    return build_report(competition.season, standings), titles_of(competition, language)


def titles_of(competition: Competition, language: str = "en") -> Titles:
    s = competition.settings
    return Titles(s.club_name or "", s.competition_name or "", language)


def workbook_report(path: Path, language: str | None = None) -> tuple[Report, Titles]:
    """Read and check a workbook (BookError lists every problem with its cell); published
    in `language`, by default the workbook's own.

    The workbook is read and checked once, and its standings and report made once: nothing
    is written into it, so the Standings a recalculation would write are not planned."""
    from keizer_xl.workbook.files import language_of_file, load

    competition, _ = load(path)
    return competition_report(competition, language or language_of_file(path) or "en")


def default_folder(workbook: Path) -> Path:
    """The site's folder beside the workbook, named after it: club.xlsm -> club_site/."""
    return workbook.with_name(f"{workbook.stem}_site")
