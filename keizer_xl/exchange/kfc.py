"""A KeizerForClubs tournament brought in: its players, rounds and settings as a season.

KeizerForClubs (an open-source Windows program for Keizer competitions) keeps one
tournament in one SQLite file: a Player table, a Pairing table with one row per game and
one per round a player had no game, and a ConfigTab of settings (`formats.md`). This module
turns those rows, already read (`kfcfiles` reads the file), into the core's objects: pure
functions, every problem with its place in the file, all reported together.

What the codes mean in keizer_xl's terms: results 1, 2, 3 are 1-0, ½-½, 0-1; 8, 9, 10 the
forfeits +-, -+, --; 0 (or none, or -1) and 11 (adjourned) a game without a result yet; 4 a
bye, 5 club duty, 6 excused, 7 unexcused; 12 a round before a late starter joined (Joined).
A game without a result in an earlier round comes in as KeizerForClubs counts it (its
RankingCalculator): adjourned as a draw (it is among its "drawish" results), no result as
nothing for either player, which `--` gives with preset kfc (Forfeit loss 0); each such
game is named in a note.
A retired player (state 9) leaves after his last round (Left); Preset `kfc` then drops him
from the ranking as KeizerForClubs does. The file's percentages and ratio become settings.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from keizer_xl.core.errors import KeizerError, Problems
from keizer_xl.core.messages import msg
from keizer_xl.core.model import (
    Entry,
    Game,
    Player,
    Rest,
    Result,
    tidy_name,
)
from keizer_xl.core.results import RESTS, RESULTS
from keizer_xl.core.season import Season
from keizer_xl.core.words import (
    MAX_NAME,
    MAX_ROUND,
    MAX_TEXT,
    WordError,
    checked_rating,
    parse_board,
    parse_round,
    shortened,
)
from keizer_xl.exchange.doors import NameRegister, open_games_note

PRESET = "kfc"
ADJOURNED = 11
# Pairing.Result codes, from the table of results; 0 (or none) and 11 (adjourned): a game
# without a result yet.
GAME_RESULTS: dict[int, Result | None] = {
    -1: None,
    0: None,
    **{line.kfc: r for r, line in RESULTS.items()},
    ADJOURNED: None,
}
# How KeizerForClubs scores a game without a result in a round that is over: an adjourned
# game as a draw, one without any result as nothing for either player.
COUNTED_AS = {ADJOURNED: Result.DRAW}
NOT_PLAYED = Result.DOUBLE_FORFEIT
REST_REASONS = {line.kfc: a for a, line in RESTS.items()}
LATE_START = 12  # a round before the player joined
RETIRED, DELETED = 9, 10  # player states

# ConfigTab keys and the settings they fill: (setting, how the number is written).
CONFIG_SETTINGS: dict[str, tuple[str, str]] = {
    "BONUS.Freilos": ("Bye", "percent"),
    "BONUS.Excused": ("Excused absence", "percent"),
    "BONUS.Clubgame": ("Club duty", "percent"),
    "BONUS.Unexcused": ("Unexcused absence", "percent"),
    "BONUS.Retired": ("Withdrawn opponent", "percent"),
    "BONUS.Verlust": ("Loss", "percent"),
    "OPTION.RatioFirst2Last": ("Ratio first to last", "number"),
    "OPTION.GameRepeat": ("Rematch window", "whole"),  # rounds before a pairing may repeat
}
LANGUAGE_KEY = "LANGCODE"


@dataclass(frozen=True)
class KfcPlayer:
    """A row of the Player table. `total` is KeizerForClubs' own score (Keizer_SumPts)."""

    id: int
    name: str
    rating: int
    state: int
    total: float | None = None


@dataclass(frozen=True)
class KfcPairing:
    """A row of the Pairing table: a game, or (black < 0) a round without a game."""

    round: int
    board: int
    white: int
    black: int
    result: int

    @property
    def game(self) -> bool:
        return self.black >= 0


@dataclass(frozen=True)
class KfcTournament:
    """The rows of a tournament file that matter; `config`: key -> (text, number)."""

    players: tuple[KfcPlayer, ...]
    pairings: tuple[KfcPairing, ...]
    config: Mapping[str, tuple[str | None, float | None]]

    @property
    def language(self) -> str:
        """The file's LANGCODE (EN, NL, DE, …), "" when it has none."""
        text = self.config.get(LANGUAGE_KEY, (None, None))[0]
        return (text or "").strip()


@dataclass(frozen=True)
class KfcSeason:
    """A tournament as a season, ready to become a workbook."""

    season: Season
    settings: tuple[tuple[str, str], ...]  # (setting, value as typed), Preset first
    totals: dict[str, float]  # KeizerForClubs' scores of the players it still ranks
    notes: tuple[str, ...]


def decimal_text(number: float) -> str:
    """A number of the file as the secretary typed it: KeizerForClubs keeps its settings in
    single precision (2.2 is stored as 2.2000000477), so seven digits say it all."""
    text = f"{number:.7g}"
    return text if "e" not in text else f"{number:.7f}".rstrip("0").rstrip(".")


def kfc_settings(
    config: Mapping[str, tuple[str | None, float | None]], problems: Problems
) -> list[tuple[str, str]]:
    """Preset kfc, and each percentage or number of the file that differs from it (one that
    equals the preset would only be said back as "the default anyway")."""
    from keizer_xl.core.settings import parse_settings

    out = [("Preset", PRESET)]
    preset = parse_settings({"Preset": PRESET})
    for key, (setting, kind) in CONFIG_SETTINGS.items():
        number = config.get(key, (None, None))[1]
        if number is None:
            continue
        if not math.isfinite(number):
            problems.add(
                msg(
                    "ConfigTab {key}: {problem}",
                    key=key,
                    problem=msg("'{value}' is not a number", value=str(number)),
                )
            )
            continue
        value = (
            str(round(number))
            if kind == "whole"
            else decimal_text(number) + ("%" if kind == "percent" else "")
        )
        try:
            settings = parse_settings({"Preset": PRESET, setting: value})
        except KeizerError as exc:
            for p in exc.problems:
                problems.add(msg("ConfigTab {key}: {problem}", key=key, problem=p.message))
            continue
        if settings != preset:
            out.append((setting, value))
    return out


def season_from_tournament(tournament: KfcTournament, source: str) -> KfcSeason:
    """The players in the file's order (by id), every round's games and rounds without a
    game, and the settings; FileError lists everything that does not fit."""
    problems = Problems(file=source)
    by_id = {p.id: p for p in tournament.players}
    rows: dict[int, list[KfcPairing]] = defaultdict(list)  # player id -> his rows
    pairings = [row for row in tournament.pairings if _pairing(row, by_id, rows, problems)]
    played = {row.round for row in pairings if row.result != LATE_START}
    last = max(played, default=0)
    for k in range(1, last):
        if k not in played:
            problems.add(msg("round {round} has no rows, but round {last} has", round=k, last=last))
    roll = _Roll(last)
    for p in tournament.players:
        roll.take(p, rows[p.id], problems)
    settings = kfc_settings(tournament.config, problems)
    counted: list[str] = []
    entries = _entries(
        pairings, {p.id: tidy_name(p.name) for p in tournament.players}, last, problems, counted
    )
    problems.raise_if_any()
    open_games = sum(1 for e in entries if isinstance(e, Game) and e.result is None)
    notes = [*roll.notes(), *counted, open_games_note(open_games, last)]
    return KfcSeason(
        Season(tuple(roll.people), tuple(entries)),
        tuple(settings),
        roll.totals,
        tuple(note for note in notes if note),
    )


def _pairing(
    row: KfcPairing,
    by_id: Mapping[int, KfcPlayer],
    rows: dict[int, list[KfcPairing]],
    problems: Problems,
) -> bool:
    """Check one row of the Pairing table and file it under its players; False when its
    round or board is out of range, so that it is read no further."""
    place = msg("round {round}, board {board}", round=row.round, board=row.board)
    try:
        parse_round(row.round)
        if row.game:
            parse_board(row.board)
    except WordError as exc:
        problems.add(msg("{place}: {problem}", place=place, problem=exc.message))
        return False
    for pid in (row.white, row.black) if row.game else (row.white,):
        if pid not in by_id:
            problems.add(
                msg("{place}: player {id} is not in the Player table", place=place, id=pid)
            )
        else:
            rows[pid].append(row)
    known = GAME_RESULTS if row.game else {**REST_REASONS, LATE_START: None}
    if row.result not in known:
        problems.add(
            msg(
                "{place}: result {code} is not one KeizerForClubs writes for a game",
                place=place,
                code=row.result,
            )
            if row.game
            else msg(
                "{place}: result {code} is not one KeizerForClubs writes for a "
                "round without a game",
                place=place,
                code=row.result,
            )
        )
    if row.game and row.white == row.black and row.white in by_id:
        problems.add(
            msg(
                "round {round}: {name} cannot play himself",
                round=row.round,
                name=by_id[row.white].name,
            )
        )
    return True


class _Roll:
    """The players taken in so far, one row of the Player table at a time, and what the
    notes say of those left out or retired."""

    def __init__(self, last: int) -> None:
        self.last = last  # the last round with rows
        self.people: list[Player] = []
        self.totals: dict[str, float] = {}
        self.left_out: list[str] = []
        self.retired_last: list[str] = []
        self.names: NameRegister[KfcPlayer] = NameRegister()

    def take(self, p: KfcPlayer, rows: Sequence[KfcPairing], problems: Problems) -> None:
        """Take in one player with his rows of the Pairing table, or say why not."""
        name = tidy_name(p.name)
        taken = sorted({row.round for row in rows if row.result != LATE_START})
        if not name:
            problems.add(msg("player {id} has no name", id=p.id))
            return
        if p.state in (RETIRED, DELETED) and not taken:
            self.left_out.append(name)  # gone before his first round: KeizerForClubs forgets him
            return
        try:
            rating = checked_rating(p.rating)
        except WordError as exc:
            problems.add(
                msg(
                    "player {id} ({name}): {problem} (rating)",
                    id=p.id,
                    name=shortened(name, 40),
                    problem=exc.message,
                )
            )
            return
        if not self._name_fits(p, name, problems):
            return
        joined = taken[0] if taken else self.last + 1
        if joined > MAX_ROUND:
            problems.add(
                msg(
                    "player {id} ({name}): the player takes part in no round of the "
                    "{most} a season has",
                    id=p.id,
                    name=shortened(name, 40),
                    most=f"{MAX_ROUND:,}",
                )
            )
            return
        for row in rows:
            if row.result == LATE_START and row.round >= joined:
                problems.add(
                    msg(
                        "round {round}: {name} has a late start (result 12) but "
                        "played in round {joined}",
                        round=row.round,
                        name=name,
                        joined=joined,
                    )
                )
        left = taken[-1] if p.state == RETIRED else None
        if left is not None and left == self.last:
            self.retired_last.append(name)
        if p.state != RETIRED and p.total is not None:
            self.totals[name] = p.total
        self.people.append(
            Player(name, rating, joined if joined > 1 else 1, left, None, len(self.people))
        )

    def _name_fits(self, p: KfcPlayer, name: str, problems: Problems) -> bool:
        """The name fits a cell and the Players sheet, and no player before has it."""
        if len(name) > MAX_TEXT:
            problems.add(
                msg(
                    "player {id}: the name is longer than a cell holds ({most} characters)",
                    id=p.id,
                    most=f"{MAX_TEXT:,}",
                )
            )
            return False
        if len(name) > MAX_NAME:  # as the Players sheet holds it (`checks.read_players`)
            problems.add(
                msg(
                    "player {id}: a name of {length} characters; at most {most}",
                    id=p.id,
                    length=f"{len(name):,}",
                    most=MAX_NAME,
                )
            )
            return False
        first = self.names.take(name, p)
        if first is not None:
            problems.add(
                msg(
                    "players {first} and {second} are both called '{name}'; give "
                    "each a name of their own in KeizerForClubs",
                    first=first.id,
                    second=p.id,
                    name=name,
                )
            )
            return False
        return True

    def notes(self) -> list[str]:
        """What the secretary should know of the players left out or retired."""
        notes: list[str] = []
        if self.left_out:
            notes.append(
                msg(
                    "left out, retired or deleted in KeizerForClubs before they played: {names}",
                    names=", ".join(self.left_out),
                )
            )
        if self.retired_last:
            notes.append(
                msg(
                    "retired after round {round}, the last so far: {names}; "
                    "KeizerForClubs takes them out of the ranking at once, keizer_xl "
                    "once round {next} is complete",
                    names=", ".join(self.retired_last),
                    round=self.last,
                    next=self.last + 1,
                )
            )
        return notes


def _entries(
    pairings: Sequence[KfcPairing],
    names: Mapping[int, str],
    last: int,
    problems: Problems,
    notes: list[str],
) -> list[Entry]:
    """Each round's games in board order, then its bye and its absences; a game without a
    result only in the last round (keizer_xl scores a round once all of it is in): one in
    an earlier round as KeizerForClubs counts it, said in `notes`."""
    entries: list[Entry] = []
    seen: dict[tuple[int, int], int] = {}  # (round, player id) -> board
    ordered = sorted(
        pairings, key=lambda row: (row.round, not row.game, row.result != 4, row.board)
    )
    for row in ordered:
        ids = (row.white, row.black) if row.game else (row.white,)
        if (
            row.result == LATE_START
            or any(pid not in names for pid in ids)
            or row.result not in (GAME_RESULTS if row.game else REST_REASONS)
            or (row.game and row.white == row.black)
        ):
            continue  # a late start sets Joined; the rest is among the problems already
        for pid in ids:
            if (row.round, pid) in seen:
                problems.add(
                    msg(
                        "round {round}: {name} is on board {first} and on board {board}",
                        round=row.round,
                        name=names[pid],
                        first=seen[(row.round, pid)],
                        board=row.board,
                    )
                )
            seen[(row.round, pid)] = row.board
        if not row.game:
            entries.append(Rest(row.round, names[row.white], REST_REASONS[row.result]))
            continue
        result = GAME_RESULTS[row.result]
        white, black = names[row.white], names[row.black]
        if result is None and row.round < last:
            result = COUNTED_AS.get(row.result, NOT_PLAYED)
            notes.append(_counted_note(row, white, black))
        entries.append(Game(row.round, row.board, white, black, result))
    return entries


def _counted_note(row: KfcPairing, white: str, black: str) -> str:
    """What an earlier round's game without a result came in as, and what to do."""
    game = msg(
        "round {round}, board {board} ({white} – {black})",
        round=row.round,
        board=row.board,
        white=white,
        black=black,
    )
    if row.result == ADJOURNED:
        return msg(
            "{game} is adjourned: KeizerForClubs counts it as a draw until its result "
            "is entered, and so it came in as ½-½; type the result into round {round} "
            "when it is known, then recalc",
            game=game,
            round=row.round,
        )
    return msg(
        "{game} has no result: KeizerForClubs gives neither player anything for it, "
        "and so it came in as -- (nothing for either with preset kfc); type the "
        "result into round {round} when it is known, then recalc",
        game=game,
        round=row.round,
    )
