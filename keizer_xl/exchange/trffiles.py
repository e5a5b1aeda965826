"""TRF files at the edge: `keizer-xl export --trf` and `keizer-xl new --from SEASON.trf`."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from keizer_xl.core.messages import msg
from keizer_xl.core.season import Season
from keizer_xl.core.words import shortened
from keizer_xl.exchange.csvfile import read_text, write_text
from keizer_xl.exchange.trf import (
    NAME_WIDTH,
    Identity,
    ImportedSeason,
    parse_trf,
    report_from_season,
    season_from_report,
    write_trf,
)

NAME_SETTING = "Competition name"  # travels as the TRF's line 012
# Identity fields and the Players columns (workbook.layout.IDENTITY_COLUMNS) they live in.
FIELDS = {
    "sex": "Sex",
    "title": "Title",
    "federation": "Federation",
    "fide_id": "FIDE id",
    "born": "Born",
}


@dataclass
class TrfOutcome:
    """What was written, for the command line to say."""

    path: Path
    players: int
    rounds: int
    notes: list[str] = field(default_factory=list)
    language: str = "en"  # the workbook's


def export_trf(book: Path, out: Path, name: str | None = None) -> TrfOutcome:
    """Write the season's completed rounds to `out` as a TRF-16 report; the workbook is
    only read."""
    from keizer_xl.workbook.files import read_grids
    from keizer_xl.workbook.layout import filled_settings, read_book

    grids = read_grids(book)
    competition, layout = read_book(grids)
    season = competition.season
    identities = read_identities(season, grids[layout.sheet["Players"]])
    standings = competition.standings()
    settings = [
        (setting, value)
        for setting, value in filled_settings(grids, layout)
        if setting != NAME_SETTING
    ]  # the name is line 012
    title = name or competition.settings.competition_name or book.stem
    report = report_from_season(season, standings, title, identities, settings, layout.language)
    write_text(out, write_trf(report))
    notes: list[str] = []
    if season.last_round > standings.after_round:
        notes.append(
            msg(
                "round {round} is not complete yet, so the file ends with round {last}",
                round=season.last_round,
                last=standings.after_round,
            )
        )
    long = [p.name for p in season.players if len(p.name) > NAME_WIDTH]
    if long:
        notes.append(
            msg(
                "names longer than {width} characters were cut short in the file: {names}",
                width=NAME_WIDTH,
                names=", ".join(shortened(n, 2 * NAME_WIDTH) for n in long),
            )
        )
    return TrfOutcome(out, len(season.players), standings.after_round, notes)


def _identity_text(value: object) -> str:
    if isinstance(value, dt.datetime | dt.date):
        return f"{value:%Y/%m/%d}"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else " ".join(str(value).split())


def _sex(word: str) -> str:
    """TRF writes m or w; a club may have typed M, F, V (vrouw), man, female, …"""
    first = word[:1].lower()
    return "m" if first == "m" else "w" if first in ("w", "f", "v") else ""


def read_identities(season: Season, grid: Sequence[Sequence[object]]) -> dict[str, Identity]:
    """Each player's Sex, Title, Federation, FIDE id and Born from the Players sheet's own
    columns (as far as it has them)."""
    from keizer_xl.workbook.layout import identity_columns

    columns = identity_columns(grid[0]) if grid else {}
    wanted = {attr: columns[header] for attr, header in FIELDS.items() if header in columns}
    if not wanted:
        return {}
    out: dict[str, Identity] = {}
    for p in season.players:
        row = grid[int(p.source) - 1] if isinstance(p.source, int) else ()
        values = {
            attr: _identity_text(row[col]) if col < len(row) else "" for attr, col in wanted.items()
        }
        values["sex"] = _sex(values.get("sex", ""))
        out[p.name] = Identity(**values)
    return out


def new_from_trf(
    source: Path, book: Path, language: str | None = None, lite: bool = False
) -> tuple[TrfOutcome, ImportedSeason]:
    """Make the workbook `book` holding the TRF file's players and rounds, with its
    standings, in `language`, else in the language of the workbook the file was made
    from (its `KZL` record), else in English; nothing is written unless all of it can be."""
    from keizer_xl.i18n import LANGUAGES
    from keizer_xl.workbook.newbook import create

    text = read_text(source)
    imported = season_from_report(parse_trf(text, source.name), source.name)
    if language is None:
        language = imported.language if imported.language in LANGUAGES else "en"
    season = imported.season
    players = [
        {
            "Name": p.name,
            "Rating": int(p.rating) if p.rating else None,
            "Joined": p.joined if p.joined > 1 else None,
            "Left": p.left,
        }
        for p in season.players
    ]
    create(book, players, fill=lambda tmp: _fill(tmp, imported), language=language, lite=lite)
    return TrfOutcome(
        book, len(season.players), season.last_round, list(imported.notes), language
    ), imported


def _fill(path: Path, imported: ImportedSeason) -> None:
    """Rounds, own columns and settings into a fresh workbook, then its standings."""
    from keizer_xl.workbook.cells import entry_cells, settings_cells
    from keizer_xl.workbook.files import read_grids
    from keizer_xl.workbook.layout import read_book
    from keizer_xl.workbook.plans import plan_recalc
    from keizer_xl.workbook.xlsx import CellValue, SheetEdit, save_edits

    season, identities = imported.season, imported.identities
    grids = read_grids(path)
    _, layout = read_book(grids)
    edits = [SheetEdit(layout.sheet["Rounds"], dict(entry_cells(season.entries, layout)))]
    settings = list(imported.settings)
    if imported.name and NAME_SETTING not in dict(settings):
        settings.append((NAME_SETTING, imported.name))
    if settings:
        edits.append(SheetEdit(layout.sheet["Settings"], dict(settings_cells(settings, layout))))
    used = [attr for attr in FIELDS if any(getattr(i, attr) for i in identities.values())]
    if used:
        first = len(grids[layout.sheet["Players"]][0]) + 1
        cells: dict[tuple[int, int], CellValue] = {}
        for offset, attr in enumerate(used):
            col = first + offset
            cells[(1, col)] = FIELDS[attr]
            for row, p in enumerate(season.players, start=2):
                value = getattr(identities.get(p.name, Identity()), attr)
                if value:
                    cells[(row, col)] = (
                        int(value) if attr == "fide_id" and value.isdigit() else value
                    )
        edits.append(SheetEdit(layout.sheet["Players"], cells))
    save_edits(path, edits, backup=False)
    _, standings = plan_recalc(read_grids(path))
    save_edits(
        path,
        [SheetEdit(e.sheet, dict(e.cells), clear_below=1 if e.clear else None) for e in standings],
        backup=False,
    )
