"""KeizerForClubs files at the edge: `keizer-xl new FILE --from TOURNAMENT.s3db`.

The tournament file is an SQLite database, opened read-only (it is never changed, not even
its journal). A file that is no SQLite database, a damaged one, or one of another program
is refused as a whole before anything is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from keizer_xl.core.errors import KeizerXLError, Problems
from keizer_xl.core.messages import msg
from keizer_xl.core.scoring import Standings
from keizer_xl.exchange.kfc import (
    LANGUAGE_KEY,
    KfcPairing,
    KfcPlayer,
    KfcSeason,
    KfcTournament,
    season_from_tournament,
)

if TYPE_CHECKING:
    import sqlite3

SQLITE_HEADER = b"SQLite format 3\x00"
# The tables and columns read (formats.md); Keizer_SumPts is read when it is there.
TABLES: dict[str, tuple[str, ...]] = {
    "Player": ("id", "name", "rating", "state"),
    "Pairing": ("Rnd", "board", "PID_W", "PID_B", "Result"),
    "ConfigTab": ("CfgKey", "CfgText", "CfgValue"),
}
TOTAL = "Keizer_SumPts"
NAME_SETTING = "Competition name"
CENT = Fraction(1, 200)  # two totals closer than half a cent agree to the cent
LOCK_WAIT = 2.0  # seconds to wait for a file KeizerForClubs is writing before saying so


class KfcFileProblem(KeizerXLError):
    """A file that cannot be read as a KeizerForClubs tournament at all."""


@dataclass
class KfcOutcome:
    """What was made, for the command line to say."""

    path: Path
    players: int
    rounds: int
    language: str  # the workbook's
    notes: list[str] = field(default_factory=list)


def workbook_language(code: str) -> str | None:
    """The workbook language for the file's LANGCODE (EN, NL, DE, …): the same language
    when keizer_xl makes workbooks in it, else None. A language added to `i18n.names`
    (German for DE) is taken from then on without a change here."""
    from keizer_xl.i18n import LANGUAGES

    language = code.strip().lower()
    return language if language in LANGUAGES else None


def read_tournament(path: Path) -> KfcTournament:
    """The Player, Pairing and ConfigTab rows of a tournament file; KfcFileProblem if it is
    no tournament file or is damaged, FileError for rows that make no sense."""
    import sqlite3  # not in xlwings Lite's Python, which never reads these files

    _check_header(path)
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=LOCK_WAIT)
    except sqlite3.Error as exc:
        raise KfcFileProblem(
            msg("{file}: could not be read ({reason})", file=path, reason=exc)
        ) from None
    db.text_factory = _text  # a damaged file may hold bytes that are no UTF-8
    with closing(db):
        try:
            return _read(db, path)
        except sqlite3.OperationalError as exc:  # e.g. locked while KeizerForClubs writes
            if "locked" in str(exc) or "busy" in str(exc):
                raise KfcFileProblem(
                    msg(
                        "{file}: the file is locked; KeizerForClubs may still have it open. "
                        "Close the tournament in KeizerForClubs and try again",
                        file=path,
                    )
                ) from None
            raise KfcFileProblem(
                msg("{file}: could not be read ({reason})", file=path, reason=exc)
            ) from None
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # bytes that are no text
            raise _damaged(path, str(exc)) from None


def _text(data: bytes) -> str:
    """A text of the file; bytes that are no UTF-8 as the replacement character."""
    return data.decode("utf-8", "replace")


def _check_header(path: Path) -> None:
    if path.is_dir():
        raise KfcFileProblem(msg("{file}: this is a folder, not a file", file=path))
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        raise KfcFileProblem(msg("{file}: there is no such file", file=path)) from None
    except OSError as exc:
        raise KfcFileProblem(
            msg("{file}: could not be read ({reason})", file=path, reason=exc.strerror or exc)
        ) from None
    if head != SQLITE_HEADER:
        raise KfcFileProblem(
            msg(
                "{file}: not a KeizerForClubs tournament file (it is not an SQLite database)",
                file=path,
            )
        )


def _damaged(path: Path, reason: str) -> KfcFileProblem:
    return KfcFileProblem(
        msg(
            "{file}: the file is damaged ({reason}); open it in "
            "KeizerForClubs or use a backup copy",
            file=path,
            reason=reason,
        )
    )


def _read(db: sqlite3.Connection, path: Path) -> KfcTournament:
    check = db.execute("PRAGMA quick_check").fetchone()
    if check is None or check[0] != "ok":
        raise _damaged(path, str(check[0] if check else ""))
    columns = {
        table: {row[1].casefold() for row in db.execute(f"PRAGMA table_info({table})")}
        for table in TABLES
    }
    missing = [table for table in TABLES if not columns[table]]
    if missing:
        raise KfcFileProblem(
            msg(
                "{file}: not a KeizerForClubs tournament file (it has no table {tables})",
                file=path,
                tables=", ".join(missing),
            )
        )
    for table, wanted in TABLES.items():
        lacking = [c for c in wanted if c.casefold() not in columns[table]]
        if lacking:
            raise KfcFileProblem(
                msg(
                    "{file}: not a KeizerForClubs tournament file (the "
                    "table {table} has no column {columns})",
                    file=path,
                    table=table,
                    columns=", ".join(lacking),
                )
            )
    problems = Problems(file=path.name)
    total = TOTAL if TOTAL.casefold() in columns["Player"] else "NULL"
    players = [
        KfcPlayer(pid, "" if name is None else str(name), rating, state or 0, _number(sum_pts))
        for pid, name, rating, state, sum_pts in _rows(
            db,
            f"SELECT id, name, rating, state, {total} FROM Player ORDER BY id",
            "Player",
            ("id", "name", "rating", "state", TOTAL),
            (0, 2, 3),
            problems,
        )
    ]
    pairings = [
        KfcPairing(*values)
        for values in _rows(
            db,
            "SELECT Rnd, board, PID_W, PID_B, Result FROM Pairing ORDER BY Rnd, board",
            "Pairing",
            TABLES["Pairing"],
            (0, 1, 2, 3, 4),
            problems,
        )
    ]
    config = {
        str(key): (None if text is None else str(text), _number(value))
        for key, text, value in db.execute("SELECT CfgKey, CfgText, CfgValue FROM ConfigTab")
    }
    problems.raise_if_any()
    return KfcTournament(tuple(players), tuple(pairings), config)


def _rows(
    db: sqlite3.Connection,
    query: str,
    table: str,
    names: Sequence[str],
    whole: Sequence[int],
    problems: Problems,
) -> list[list[Any]]:
    """The query's rows with the columns `whole` as whole numbers (blank: 0, except the
    first, the row's key); a row with anything else is a problem, and left out."""
    out = []
    for n, row in enumerate(db.execute(query), start=1):
        values = list(row)
        bad = False
        for i in whole:
            value = values[i]
            if value is None and i > 0:
                values[i] = 0
            elif isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
                values[i] = int(value)
            else:
                bad = True
                problems.add(
                    msg(
                        "table {table}, row {row}: '{value}' in column {column} is not "
                        "a whole number",
                        table=table,
                        row=n,
                        value=value,
                        column=names[i],
                    )
                )
        if not bad:
            out.append(values)
    return out


def _number(value: object) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    try:
        return float(str(value).replace(",", ".")) if value is not None else None
    except ValueError:
        return None


def new_from_kfc(
    source: Path, book: Path, language: str | None = None, lite: bool = False
) -> KfcOutcome:
    """Make the workbook `book` holding the tournament's players, rounds and settings, with
    its standings; in `language`, else the file's own. Nothing is written unless all of it
    can be."""
    from keizer_xl.workbook.newbook import create

    tournament = read_tournament(source)
    if not tournament.players:
        raise _no_players(source)
    imported = season_from_tournament(tournament, source.name)
    if not imported.season.players:  # only players retired or deleted before they played
        raise _no_players(source)
    notes: list[str] = []
    if language is None:
        language = workbook_language(tournament.language) or "en"
        if tournament.language and workbook_language(tournament.language) is None:
            notes.append(
                msg(
                    "the file's language ({code}) has no workbooks in keizer_xl yet; "
                    "the workbook is in English",
                    code=tournament.language,
                )
            )
    season = imported.season
    players = [
        {
            "Name": p.name,
            "Rating": int(p.rating) or None,
            "Joined": p.joined if p.joined > 1 else None,
            "Left": p.left,
        }
        for p in season.players
    ]
    made: list[Standings] = []
    create(
        book,
        players,
        fill=lambda tmp: made.append(_fill(tmp, imported, source.stem)),
        language=language,
        lite=lite,
    )
    notes += imported.notes
    notes.append(_settings_note(imported.settings))
    if made and imported.totals and season.last_round and made[0].after_round == season.last_round:
        notes.append(_agreement(made[0], imported.totals))
    return KfcOutcome(book, len(season.players), season.last_round, language, notes)


def _no_players(source: Path) -> KfcFileProblem:
    return KfcFileProblem(
        msg(
            "{file}: the tournament has no players; enter them in KeizerForClubs first", file=source
        )
    )


def file_language(path: Path) -> str | None:
    """The workbook language of a tournament file's LANGCODE, read before anything else so
    that even a refusal speaks it; None when the file does not say (or cannot be read, which
    `read_tournament` then explains)."""
    import sqlite3

    try:
        with path.open("rb") as f:
            if f.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
                return None
        # immutable: no lock taken or waited for, so even a file KeizerForClubs is writing
        # (whose refusal this language is for) says its language
        with closing(
            sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True, timeout=0)
        ) as db:
            row = db.execute(
                "SELECT CfgText FROM ConfigTab WHERE CfgKey = ?", (LANGUAGE_KEY,)
            ).fetchone()
    except (OSError, sqlite3.Error):
        return None
    return workbook_language(str(row[0])) if row and row[0] is not None else None


def _settings_note(settings: Sequence[tuple[str, str]]) -> str:
    from keizer_xl.core.settings import parse_settings

    return msg(
        "settings from the file: {settings}", settings=parse_settings(dict(settings)).describe()
    )


def _agreement(standings: Standings, totals: Mapping[str, float]) -> str:
    """Whether keizer_xl's scores are KeizerForClubs' own (Keizer_SumPts), to the cent."""
    from keizer_xl.workbook.cells import shown

    scores = {row.name: row.score for row in standings.rows if row.score is not None}
    both = [name for name in scores if name in totals]
    differ = [
        f"{name} {shown(scores[name])} (KeizerForClubs {totals[name]:.2f})"
        for name in both
        if abs(scores[name] - Fraction(totals[name])) >= CENT
    ]
    if differ:
        return msg(
            "the standings differ from KeizerForClubs' own totals for {players}",
            players=", ".join(differ),
        )
    return msg(
        "the standings agree with KeizerForClubs' own totals to the cent ({count} players)",
        count=len(both),
    )


def _fill(path: Path, imported: KfcSeason, name: str) -> Standings:
    """Rounds and settings into a fresh workbook, then its standings."""
    from keizer_xl.workbook.cells import entry_cells, settings_cells
    from keizer_xl.workbook.files import read_grids
    from keizer_xl.workbook.layout import read_book
    from keizer_xl.workbook.plans import plan_recalc
    from keizer_xl.workbook.xlsx import SheetEdit, save_edits

    grids = read_grids(path)
    _, layout = read_book(grids)
    settings = [*imported.settings, (NAME_SETTING, name)]
    save_edits(
        path,
        [
            SheetEdit(layout.sheet["Rounds"], dict(entry_cells(imported.season.entries, layout))),
            SheetEdit(layout.sheet["Settings"], dict(settings_cells(settings, layout))),
        ],
        backup=False,
    )
    standings, edits = plan_recalc(read_grids(path))
    save_edits(
        path,
        [SheetEdit(e.sheet, dict(e.cells), clear_below=1 if e.clear else None) for e in edits],
        backup=False,
    )
    return standings
