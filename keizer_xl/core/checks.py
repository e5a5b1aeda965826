"""Checking the secretary's tables and turning them into a `Season`.

This is the one place that decides what input is acceptable. It reads plain rows (from
pandas DataFrames, the workbook or xlwings), collects *every* problem with its row and
column, and raises them together, so the workbook layer can name each cell at once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from keizer_xl.core.errors import Problems
from keizer_xl.core.messages import Message, Name, msg
from keizer_xl.core.model import (
    Absence,
    Entry,
    Game,
    Player,
    Rest,
    Result,
    name_key,
    no_result,
    tidy_name,
)
from keizer_xl.core.rows import (
    ABSENCE_CODE,
    NO_RESULT,
    NOBODY,
    RESULT_CODE,
    SeasonRows,
    group_sizes,
)
from keizer_xl.core.season import Season
from keizer_xl.core.settings import Settings, parse_settings
from keizer_xl.core.words import (
    DEFAULT_ABSENCE,
    MAX_BOARD,
    MAX_NAME,
    MAX_ROUND,
    PRESENT,
    CellError,
    WordError,
    checked_rating,
    not_a_date,
    parse_board,
    parse_presence,
    parse_result,
    parse_round,
    parse_team,
    text,
)

PLAYER_COLUMNS = ("Name", "Rating", "Joined", "Left", "Present")
ROUND_COLUMNS = ("Round", "Board", "White", "Black", "Result")
SUGGESTIONS = 100  # names not found that get a "did you mean": each searches every name

Row = tuple[Hashable, Mapping[str, Any]]  # (row label, {canonical column: cell value})


class Table(NamedTuple):
    """One input table by columns: each canonical column's cells, one per row, and the
    labels that name the rows in messages.

    Cells are already tidied: a blank cell is None (see `tidy`), rows with nothing in them
    are left out. Kept by columns because a season's Rounds table has tens of
    thousands of rows: a record for each would cost more than checking them. A record on
    every command's path, so a NamedTuple (see "Records" in docs/architecture.md)."""

    name: str
    labels: Sequence[Hashable]
    cells: Mapping[str, Sequence[Any]]

    @property
    def columns(self) -> frozenset[str]:
        return frozenset(self.cells)

    def column(self, name: str) -> Sequence[Any]:
        """A column's cells; all None when the table has no such column."""
        found = self.cells.get(name)
        return found if found is not None else [None] * len(self.labels)

    @property
    def rows(self) -> list[Row]:
        """Row by row, for the short tables: (label, {column: cell})."""
        return [
            (label, {col: cells[n] for col, cells in self.cells.items()})
            for n, label in enumerate(self.labels)
        ]


def tidy(value: object) -> object:
    """A cell as the checks want it: blank (None, "", only spaces) as None; a number that is
    none (NaN, infinite) as the error value it is, never a blank."""
    if value is None:
        return None
    if isinstance(value, str):
        return value if value.strip() else None
    if isinstance(value, float) and not math.isfinite(value):
        return CellError("NaN" if value != value else str(value))
    return value


def error_cell(error: str) -> Message:
    """What is said of a cell holding an error value."""
    return msg(
        "the cell shows the error {error}: correct its formula, or type the value (or "
        "clear the cell)",
        error=error,
    )


ERROR_CELL = error_cell("").template


def without_errors(table: Table, problems: Problems) -> Table:
    """The table with each cell holding an error value (`#N/A`, NaN) named as a problem, and
    then read as blank (see `said_once`)."""
    bad = [col for col, cells in table.cells.items() if CellError in set(map(type, cells))]
    if not bad:
        return table
    cells = dict(table.cells)
    for col in bad:
        column = list(cells[col])
        for n, cell in enumerate(column):
            if type(cell) is CellError:
                problems.add(error_cell(str(cell)), table.name, table.labels[n], col)
                column[n] = None
        cells[col] = column
    return Table(table.name, table.labels, cells)


def said_once(problems: Problems) -> None:
    """A cell named for its error value is not named again for being blank ("this row has no
    player under 'White'"): the error is what the secretary must fix."""
    errors = {
        (p.table, p.row, p.column)
        for p in problems.items
        if getattr(p.message, "template", None) == ERROR_CELL
    }
    if errors:
        problems.items[:] = [
            p
            for p in problems.items
            if (p.table, p.row, p.column) not in errors
            or getattr(p.message, "template", None) == ERROR_CELL
        ]


def find_columns(headers: Iterable[object], wanted: Sequence[str]) -> dict[str, int]:
    """Positions of the wanted headers, matched ignoring case and surrounding spaces."""
    want = {w.casefold(): w for w in wanted}
    found: dict[str, int] = {}
    for i, header in enumerate(headers):
        key = " ".join(text(header).split()).casefold()
        if key in want and want[key] not in found:
            found[want[key]] = i
    return found


def did_you_mean(word: str, names: Iterable[str]) -> str:
    """`; did you mean 'Anna'?` when a name is close to the one typed, else nothing."""
    import difflib  # only when something is misspelled

    close = difflib.get_close_matches(word, list(names), n=1, cutoff=0.6)
    if not close:
        lowered = {n.casefold(): n for n in names}
        close = difflib.get_close_matches(word.casefold(), list(lowered), n=1, cutoff=0.6)
        close = [lowered[c] for c in close]
    return msg("; did you mean '{name}'?", name=close[0]) if close else ""


def _require(table: Table, required: Sequence[str], problems: Problems) -> bool:
    missing = [c for c in required if c not in table.columns]
    for col in missing:
        problems.add(
            msg(
                "no column headed '{header}' in row 1 (headers are matched by their text)",
                header=Name(col),
            ),
            table.name,
            None,
            None,
        )
    return not missing


def read_players(
    table: Table, settings: Settings, problems: Problems, unset: list[int] | None = None
) -> list[Player]:
    """The Players table: names unique, ratings numbers, rounds whole numbers."""
    if not _require(table, ("Name",), problems):
        return []
    players: list[Player] = []
    first_row: dict[str, Hashable] = {}
    columns = [
        (col, table.column(col))
        for col in ("Rating", "Joined", "Left", "Present")
        if col in table.columns
    ]  # by column, not a dict per row: 2,000 rows and more
    has_present = "Present" in table.columns
    # the column repeats a few words (x, excused, ...): each read once
    presence_of: Callable[[Any], Absence | str] = _once(parse_presence)
    for n, (label, cell) in enumerate(zip(table.labels, table.column("Name"), strict=True)):
        row = {col: cells[n] for col, cells in columns}
        name = tidy_name(text(cell))
        if not name:
            problems.add(msg("this row has no name"), table.name, label, "Name")
            continue
        if len(name) > MAX_NAME:
            problems.add(
                msg(
                    "a name of {length} characters; at most {most}",
                    length=f"{len(name):,}",
                    most=MAX_NAME,
                ),
                table.name,
                label,
                "Name",
            )
            continue
        key = name_key(name)
        if key in first_row:
            problems.add(
                msg(
                    "'{name}' is listed twice (also in row {row}); names must be unique",
                    name=name,
                    row=first_row[key],
                ),
                table.name,
                label,
                "Name",
            )
            continue
        first_row[key] = label
        rating, joined, left, present = Fraction(0), 1, None, None
        if unset is not None and row.get("Joined") is None:
            unset.append(len(players))
        for col in ("Rating", "Joined", "Left", "Present"):
            value = row.get(col)
            if value is None and col != "Present":
                continue
            try:
                if col != "Present":
                    not_a_date(value)
                if col == "Rating":
                    rating = checked_rating(value)
                elif col == "Joined":
                    joined = parse_round(value)
                elif col == "Left":
                    left = parse_round(value)
                else:
                    word = presence_of(value)
                    present = (
                        settings.default_absence
                        if word == DEFAULT_ABSENCE
                        else None
                        if word == PRESENT
                        else word
                    )
            except WordError as exc:
                what: Message | str = {
                    "Rating": msg("{problem} (rating)", problem=exc.message),
                    "Joined": msg("{problem} (round)", problem=exc.message),
                    "Left": msg("{problem} (round)", problem=exc.message),
                }.get(col, exc.message)
                problems.add(what, table.name, label, col)
        if left is not None and left < joined:
            problems.add(
                msg(
                    "{name} leaves after round {left} but joins in round {joined}",
                    name=name,
                    left=left,
                    joined=joined,
                ),
                table.name,
                label,
                "Left",
            )
        if not has_present:
            present = settings.default_absence
        players.append(
            Player(
                name,
                rating,
                joined,
                left,
                present,  # type: ignore[arg-type]
                len(players),
                label,
            )
        )
    if not players and not problems:
        problems.add(
            msg("no players yet: write their names under 'Name'"), table.name, None, "Name"
        )
    return players


def _once(read: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """`read`, remembering what it made of each text and number (a column of 5,000 cells
    may hold a few different ones); values of other kinds are read each time."""
    known: dict[tuple[type, object], Any] = {}

    def reader(value: Any) -> Any:
        if type(value) not in (str, int, float):
            return read(value)
        key = (type(value), value)
        found = known.get(key, known)
        if found is known:
            found = known[key] = read(value)  # a WordError is raised for every row
        return found

    return reader


def read_entries(table: Table, players: Sequence[Player], problems: Problems) -> list[Entry]:
    """The Rounds table: every row a game, a bye or an absence, all checked."""
    if not _require(table, ("Round", "White", "Black", "Result"), problems):
        return []
    by_key = {name_key(p.name): p for p in players}
    names = [p.name for p in players]
    entries: list[Entry] = []
    seen: dict[tuple[int, str], Hashable] = {}

    typed: dict[object, Player] = {}  # the same name typed the same way: looked up once

    plain: dict[str, list[Player]] = {}
    for p in players:
        plain.setdefault(_without_accents(name_key(p.name)), []).append(p)

    suggested: dict[str, str] = {}  # a name not found -> its "did you mean" (or "")

    def player(value: object, label: Hashable, col: str) -> Player | None:
        """The player a cell names (not yet in `typed`); None, with a problem, if nobody.

        A name that differs from a player's only by case, or only by accents (when that
        leaves one player), is that player, with a caution at its first cell."""
        name = tidy_name(text(value))
        found = by_key.get(name_key(name))
        if found is None:
            alike = plain.get(_without_accents(name_key(name)), [])
            found = alike[0] if len(alike) == 1 else None
        if found is not None:
            typed[value] = found
            if name != found.name:
                problems.caution(
                    msg(
                        "'{typed}' is taken to be {name} (as written on the Players sheet)",
                        typed=name,
                        name=found.name,
                    ),
                    table.name,
                    label,
                    col,
                )
        if found is None:
            # a suggestion searches every name: for the first few names not found only (a
            # sheet whose columns slid has a problem in every row, and a check stays quick)
            guessed = suggested.get(name)
            if guessed is None:
                guessed = did_you_mean(name, names) if len(suggested) < SUGGESTIONS else ""
                suggested[name] = guessed
            problems.add(
                msg(
                    "'{name}' is not on the Players sheet{suggestion}",
                    name=name,
                    suggestion=guessed,
                ),
                table.name,
                label,
                col,
            )
        return found

    def once(round_no: int, p: Player, label: Hashable, col: str) -> None:
        key = (round_no, p.name)
        if key in seen:
            problems.add(
                msg(
                    "{name} is in round {round} twice (also row {row})",
                    name=p.name,
                    round=round_no,
                    row=seen[key],
                ),
                table.name,
                label,
                col,
            )
        else:
            seen[key] = label
        if not p.takes_part_in(round_no):
            problems.add(
                msg(
                    "{name} joins in round {joined}, so cannot be in round {round}",
                    name=p.name,
                    joined=p.joined,
                    round=round_no,
                )
                if round_no < p.joined
                else msg(
                    "{name} left after round {left}, so cannot be in round {round}",
                    name=p.name,
                    left=p.left,
                    round=round_no,
                ),
                table.name,
                label,
                col,
            )

    columns = [table.column(col) for col in ROUND_COLUMNS]
    for label, round_cell, board_cell, white_cell, black_cell, result_cell in zip(
        table.labels, *columns, strict=True
    ):
        try:
            round_no = parse_round(round_cell)
        except WordError as exc:
            problems.add(
                msg("{problem}; a round number is 1, 2, 3, ...", problem=exc.message)
                if round_cell is not None
                else msg("this row has no round number"),
                table.name,
                label,
                "Round",
            )
            continue
        board: int | None = None
        if board_cell is not None:
            try:
                board = parse_board(board_cell)
            except WordError as exc:
                problems.add(
                    msg("{problem} (board number)", problem=exc.message), table.name, label, "Board"
                )
        team: Result | None = None
        try:
            result = parse_result(result_cell)
        except WordError as exc:
            team = parse_team(result_cell)  # club duty with its team-match result
            if team is None:
                problems.add(exc.message, table.name, label, "Result")
                continue
            result = Absence.CLUB
        if white_cell is None:
            problems.add(msg("this row has no player under 'White'"), table.name, label, "White")
            continue
        white = typed.get(white_cell) or player(white_cell, label, "White")
        if black_cell is None:
            if not isinstance(result, Absence):
                what = (
                    msg("a game result needs a player under 'Black'")
                    if result
                    else msg("no opponent and no reason: write bye, excused, club or unexcused")
                )
                problems.add(what, table.name, label, "Result" if result is None else "Black")
                continue
            if white is not None:
                once(round_no, white, label, "White")
                entries.append(Rest(round_no, white.name, result, label, team))
            continue
        black = typed.get(black_cell) or player(black_cell, label, "Black")
        if isinstance(result, Absence):
            problems.add(
                msg(
                    "'{value}' is for a row with one player; a game needs 1-0, 0-1, "
                    "½-½, +-, -+, -- or blank",
                    value=text(result_cell),
                ),
                table.name,
                label,
                "Result",
            )
            continue
        if white is None or black is None:
            continue
        if white is black:
            problems.add(
                msg("{name} cannot play himself", name=white.name), table.name, label, "Black"
            )
            continue
        once(round_no, white, label, "White")
        once(round_no, black, label, "Black")
        entries.append(Game(round_no, board, white.name, black.name, result, label))
    _check_round_numbers(table, entries, problems)
    return entries


def read_rows(table: Table, players: Sequence[Player]) -> SeasonRows | None:
    """The Rounds table straight into integer rows when it is all in order; None when any
    row might need a word (a problem or a caution): `read_entries` then says it.

    Each different cell text is read once (a season repeats a few hundred names and
    numbers tens of thousands of times), and the rules that tie rows together (a player once
    a round, registered for it, rounds without a gap, results in all but the last round)
    are checked on the whole columns at once."""
    if not {"Round", "White", "Black", "Result"} <= table.columns:
        return None
    exact = {p.name: i for i, p in enumerate(players)}

    def read(
        column: str, plain: tuple[type, ...], word: Callable[[Any], int], high: int | None = None
    ) -> np.ndarray:
        cells = table.column(column)
        kinds = set(map(type, cells)) if int in plain else None
        if kinds == {int} and high is not None:  # plain whole numbers (as pandas keeps them)
            numbers = np.array(cells, dtype=np.int64)
            if numbers.min(initial=1) >= 1 and numbers.max(initial=1) <= high:
                return numbers
        distinct = set(cells)
        # equal cells of other kinds (1, 1.0, True) would share one reading: only texts,
        # blanks and numbers that are not True or False
        if not (kinds or set(map(type, distinct))) <= set(plain):
            raise WordError("")
        found = {cell: word(cell) for cell in distinct}
        return np.fromiter(map(found.__getitem__, cells), dtype=np.int64, count=len(cells))

    def player(cell: object) -> int:
        if cell is None:
            return NOBODY
        found = exact.get(cell) if isinstance(cell, str) else None
        if found is None:  # a name as written on the sheet is tidy already
            found = exact.get(tidy_name(cell))  # type: ignore[arg-type]
        if found is None:  # not on the sheet, or not as written there: a word to say
            raise WordError("")
        return found

    def outcome(cell: object) -> int:
        result = parse_result(cell)
        return (
            NO_RESULT
            if result is None
            else RESULT_CODE[result]
            if isinstance(result, Result)
            else ABSENCE_CODE[result]
        )

    try:
        rnd = read("Round", (int, float, str), parse_round, MAX_ROUND)
        board = read(
            "Board",
            (int, float, str, type(None)),
            lambda cell: 0 if cell is None else parse_board(cell),
            MAX_BOARD,
        )
        white = read("White", (str,), player)
        black = read("Black", (str, type(None)), player)
        result = read("Result", (str, type(None)), outcome)
    except (WordError, TypeError):  # TypeError: a cell that cannot be a key
        return None
    game = black != NOBODY
    if (game == (result >= ABSENCE_CODE[Absence.BYE])).any() or (white == black).any():
        return None  # a game with a reason or a reason with an opponent; self-play
    last = int(rnd.max(initial=0))
    if last > len(rnd) or (last and not group_sizes(rnd, last + 1)[1:].all()):
        return None  # a round without rows
    who = np.concatenate([white, black[game]])
    when = np.concatenate([rnd, rnd[game]])
    keys = who * (last + 1)
    keys += when  # in place: at 5,000 players each of these arrays is a megabyte
    if _repeats(keys, len(players) * (last + 1)):
        return None  # a player twice in a round
    joined = np.array([p.joined for p in players], dtype=np.int64)
    left = np.array([last if p.left is None else p.left for p in players], dtype=np.int64)
    if ((when < joined[who]) | (when > left[who])).any():
        return None  # in a round the player is not registered for
    if (game & (result == NO_RESULT) & (rnd < last)).any():
        return None  # no result in an earlier round
    return SeasonRows(
        tuple(p.name for p in players),
        len(players),
        rnd,
        board,
        white.astype(np.intp, copy=False),
        black.astype(np.intp, copy=False),
        result.astype(np.int8),
    )


def _repeats(keys: np.ndarray, size: int) -> bool:
    """Is any of these whole numbers (0 <= key < size) there twice?"""
    if size <= 4 * len(keys) + 1024:
        return bool(group_sizes(keys, size).max(initial=0) > 1)
    ordered = np.sort(keys)
    return bool((ordered[1:] == ordered[:-1]).any())


def _without_accents(name: str) -> str:
    """`zoë` -> `zoe`: the letters without their accents, to find a name typed without."""
    import unicodedata

    return "".join(ch for ch in unicodedata.normalize("NFD", name) if not unicodedata.combining(ch))


def _check_round_numbers(table: Table, entries: Sequence[Entry], problems: Problems) -> None:
    """Rounds are 1, 2, 3, ... with no gap, and only the last may still miss results."""
    rounds = sorted({e.round for e in entries})
    for expected, actual in enumerate(rounds, start=1):
        if actual != expected:
            first = next(e for e in entries if e.round == actual)
            problems.add(
                msg(
                    "round {round} follows round {before}; round {missing} has no rows",
                    round=actual,
                    before=expected - 1,
                    missing=expected,
                ),
                table.name,
                first.source,
                "Round",
            )
            break
    last = rounds[-1] if rounds else 0
    for e in entries:
        if isinstance(e, Game) and e.result is None and e.round < last:
            problems.add(
                msg(
                    "{game}, but round {round} is already there; enter it (or -- if "
                    "it was not played)",
                    game=no_result(e),
                    round=last,
                ),
                table.name,
                e.source,
                "Result",
            )


def settings_from_table(table: Table, problems: Problems | None = None) -> Settings:
    """The Settings table (Setting and Value columns) read as settings."""
    if "Setting" not in table.columns or "Value" not in table.columns:
        found = problems if problems is not None else Problems()
        for col in ("Setting", "Value"):
            if col not in table.columns:
                found.add(msg("no column headed '{header}' in row 1", header=Name(col)), table.name)

        if problems is None:
            found.raise_if_any()
        return Settings()
    own = problems is None
    found = problems if problems is not None else Problems()
    table = without_errors(table, found)
    triples = zip(table.labels, table.column("Setting"), table.column("Value"), strict=True)
    settings = parse_settings(triples, table.name, found)
    said_once(found)
    if own:
        found.raise_if_any()
    return settings


def build_season(
    players: Table, rounds: Table, settings: Settings, problems: Problems | None = None
) -> Season:
    """Check both tables and return the Season; raises KeizerError with every problem."""
    own = problems is None
    found = problems if problems is not None else Problems()
    players, rounds = without_errors(players, found), without_errors(rounds, found)
    unset: list[int] = []  # the players whose Joined is blank
    plist = read_players(players, settings, found, unset)
    rows = read_rows(rounds, plist) if plist else None
    entries = read_entries(rounds, plist, found) if plist and rows is None else []
    _team_results_uncounted(entries, settings, rounds.name, found)
    said_once(found)
    if own:
        found.raise_if_any()
    season = (
        Season(tuple(plist), tuple(entries))
        if rows is None
        else Season.from_rows(tuple(plist), rows, rounds.labels)
    )
    _check_size(season, rounds.name, found)
    if own:
        found.raise_if_any()
    if not found:
        from keizer_xl.core.cautions import find_cautions
        from keizer_xl.core.newcomers import join_at_next_round

        season = join_at_next_round(season, unset, found)
        find_cautions(season, settings, found)
    return season


def _team_results_uncounted(
    entries: Sequence[Entry], settings: Settings, table: str, found: Problems
) -> None:
    """A team-match result typed while Club games is `share` does not count: said once, at
    the first such row, so that the club either sets `result` or knows the row earns the
    Club duty share."""
    if settings.club_games == "result":
        return
    first = next((e for e in entries if isinstance(e, Rest) and e.team is not None), None)
    if first is not None:
        found.caution(
            msg(
                "a team-match result counts only with {setting} result; until "
                "then this row earns the {share} share",
                setting=Name("Club games", "setting"),
                share=Name("Club duty", "setting"),
            ),
            table,
            first.source,
            "Result",
        )


# The most players times rounds a season may have. Its standings, crosstable and progress
# tables hold a number for each, which a small file can declare by the million: 20,000
# players over 1,000 rounds take a few rows of Rounds and would need gigabytes. The
# largest season keizer_xl is made for, 10,000 players over 100 rounds, is a million,
# with room for 20 more rounds.
MAX_SEASON = 1_200_000


def _check_size(season: Season, table: str, problems: Problems) -> None:
    """A season past `MAX_SEASON` is refused, at the first row of its last round, before
    anything is computed from it."""
    rows, players = season.rows, len(season.players)
    last = rows.last_round
    if players * last <= MAX_SEASON:
        return
    first = int(np.argmax(rows.round == last))
    problems.add(
        msg(
            "{players} players over {rounds} rounds are more than keizer_xl "
            "computes: at most {most} players times rounds (10,000 players over 120 "
            "rounds, or 20,000 over 60)",
            players=f"{players:,}",
            rounds=f"{last:,}",
            most=f"{MAX_SEASON:,}",
        ),
        table,
        season.entries[first].source,
        "Round",
    )
