"""The FIDE Tournament Report File (TRF-16): a Keizer season out to other programs and in.

TRF is fixed-width text (FIDE handbook C.04 Annex 2): header lines, then one `001` line
per player with a ten-column block per round (opponent, colour, result). Pairing programs
and rating offices read and write it, so a club can hand its season over or bring one in
mid-season. These functions are pure: text and the core's domain objects in and out; the
files are read and written in `trffiles`.

Keizer in TRF terms: the starting rank is the player's place on the Players sheet, the
points are game points (1 for a win or a forfeit win, ½ for a draw, nothing for a bye or an
absence, which earn a share of one's own value instead), the rank is the Keizer rank. The
bye is `U`; an absence, and a round before a player joined or after he left, is `Z`. The
settings the club changed travel in extension records `KZS Name = value`, and what TRF
cannot tell apart (a late entrant's rounds, a player who left, club duty and unexcused
absences, all `Z`) in `KZP start joined 3 left 12 club 4 7 unexcused 9`, and the language
of a workbook that is not English in `KZL nl`. Other programs pass over records they do
not know, as they do with their own `XX?` extensions; keizer_xl reads them back, so a
season exported and imported again ranks the same, in a workbook of the same language.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from keizer_xl.core.errors import KeizerError, KeizerXLError, Problems
from keizer_xl.core.messages import Message, msg
from keizer_xl.core.model import Absence, Entry, Game, Player, Rest, Result, tidy_name
from keizer_xl.core.results import RESTS, RESULTS
from keizer_xl.core.scoring import Standings
from keizer_xl.core.season import Season
from keizer_xl.core.words import MAX_ROUND, WordError, parse_round
from keizer_xl.exchange.csvfile import text_lines
from keizer_xl.exchange.doors import NameRegister, open_games_note

TOURNAMENT_TYPE = "Keizer (internal competition)"
NAME_WIDTH = 33
SETTING_RECORD = "KZS"
PLAYER_RECORD = "KZP"
LANGUAGE_RECORD = "KZL"
REASON_WORDS = {"club": Absence.CLUB, "unexcused": Absence.UNEXCUSED}
FIRST_BLOCK = 91  # 0-based column of round 1's block (column 92 on paper)
BLOCK_WIDTH = 10
MAX_NUMBER = 9999  # starting ranks, ratings and ranks have four columns
MAX_POINTS = Fraction(199, 2)  # points have four columns: 99.5

# Result codes: over the board, forfeits, and rounds without an opponent.
PLAYED = {"1": Fraction(1), "=": Fraction(1, 2), "0": Fraction(0)}
UNRATED = {"W": "1", "D": "=", "L": "0"}  # unrated games, read as the results they are
NO_OPPONENT = {
    "U": Absence.BYE,
    "+": Absence.BYE,
    "Z": Absence.EXCUSED,
    "H": Absence.EXCUSED,
    "F": Absence.EXCUSED,
    "-": Absence.UNEXCUSED,
}
CODES = frozenset("10=+-UZHFWDL ")

# (white's code, black's code) of each game result, and back: from the table of results.
GAME_CODES: dict[Result, tuple[str, str]] = {r: line.trf for r, line in RESULTS.items()}
GAME_RESULTS: dict[tuple[str, str], Result | None] = {
    **{codes: result for result, codes in GAME_CODES.items()},
    (" ", " "): None,
}


class TrfLimit(KeizerXLError):
    """The season does not fit the format's fixed columns."""


@dataclass(frozen=True)
class Identity:
    """What the chess world knows of a player beyond the Keizer columns (Players' own
    columns Sex, Title, Federation, FIDE id, Born); blank when unknown."""

    sex: str = ""
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    born: str = ""


@dataclass(frozen=True)
class TrfRound:
    """One round's block of a player line. `opponent` 0: no opponent; `colour` w, b or -;
    `result` one of `CODES` (a blank block: no information at all)."""

    opponent: int
    colour: str
    result: str

    @property
    def blank(self) -> bool:
        return self.opponent == 0 and self.colour in "- " and self.result == " "


ABSENT = TrfRound(0, "-", "Z")
BLANK = TrfRound(0, " ", " ")


@dataclass(frozen=True)
class TrfPlayer:
    """A `001` line."""

    start: int
    name: str
    rating: int  # 0: none
    identity: Identity
    points: Fraction
    rank: int | None
    rounds: tuple[TrfRound, ...]
    line: int = field(default=0, compare=False)  # where it was read, for messages
    joined: int = 1  # from the KZP record: rounds outside joined..left are no absences
    left: int | None = None
    reasons: tuple[tuple[int, Absence], ...] = ()  # rounds of Z that were club or unexcused

    @property
    def keizer_record(self) -> str:
        """The KZP record, or "" when the 001 line says it all."""
        words = [f"joined {self.joined}"] if self.joined > 1 else []
        words += [f"left {self.left}"] if self.left is not None else []
        for word, reason in REASON_WORDS.items():
            rounds = [str(k) for k, r in self.reasons if r is reason]
            words += [word, *rounds] if rounds else []
        return f"{PLAYER_RECORD} {self.start:>4} {' '.join(words)}" if words else ""


@dataclass(frozen=True)
class TrfReport:
    """A whole file: the header lines (code, text) in file order and the players."""

    header: tuple[tuple[str, str], ...]
    players: tuple[TrfPlayer, ...]
    settings: tuple[tuple[str, str], ...] = ()  # (setting name, value as typed)
    language: str = ""  # the workbook's language when not English ("nl"), else ""

    @property
    def rounds(self) -> int:
        return max((len(p.rounds) for p in self.players), default=0)

    def header_text(self, code: str) -> str:
        return next((text for c, text in self.header if c == code), "")


def game_points(rounds: Iterable[TrfRound]) -> Fraction:
    """Game points as this module writes them: wins and forfeit wins 1, draws ½."""
    total = Fraction(0)
    for r in rounds:
        code = UNRATED.get(r.result, r.result)
        total += PLAYED.get(code, Fraction(1) if code == "+" and r.opponent else Fraction(0))
    return total


# -- out ----------------------------------------------------------------------------------


def report_from_season(
    season: Season,
    standings: Standings,
    name: str,
    identities: Mapping[str, Identity] | None = None,
    settings: Sequence[tuple[str, str]] = (),
    language: str = "en",
) -> TrfReport:
    """The season up to the round of `standings` (its completed rounds) as a TRF report;
    `settings` are the (name, value) pairs the club filled in, `language` the workbook's."""
    rounds = standings.after_round
    start = {p.name: n for n, p in enumerate(season.players, start=1)}
    if len(start) > MAX_NUMBER:
        raise TrfLimit(
            msg(
                "a TRF file holds at most {most} players, not {count}",
                most=MAX_NUMBER,
                count=len(start),
            )
        )
    blocks: dict[tuple[int, str], TrfRound] = {}
    for e in season.entries:
        if e.round > rounds:
            continue
        if isinstance(e, Game):
            assert e.result is not None, "completed rounds have every result"
            white, black = GAME_CODES[e.result]
            blocks[(e.round, e.white)] = TrfRound(start[e.black], "w", white)
            blocks[(e.round, e.black)] = TrfRound(start[e.white], "b", black)
        else:
            blocks[(e.round, e.player)] = TrfRound(0, "-", RESTS[e.reason].trf)
    ranks = {row.name: row.rank for row in standings.rows}
    ids = identities or {}
    players = []
    for p in season.players:
        played = tuple(blocks.get((r, p.name), ABSENT) for r in range(1, rounds + 1))
        points = game_points(played)
        if points > MAX_POINTS:
            raise TrfLimit(
                msg(
                    "{name} has {points} game points; a TRF file holds at most {most}",
                    name=p.name,
                    points=float(points),
                    most=float(MAX_POINTS),
                )
            )
        reasons = tuple(
            sorted(
                (e.round, e.reason)
                for e in season.entries
                if isinstance(e, Rest)
                and e.player == p.name
                and e.round <= rounds
                and e.reason in REASON_WORDS.values()
            )
        )
        players.append(
            TrfPlayer(
                start[p.name],
                p.name,
                _rating(p.rating),
                ids.get(p.name, Identity()),
                points,
                ranks.get(p.name),
                played,
                0,
                p.joined,
                p.left,
                reasons,
            )
        )
    rated = sum(1 for p in players if p.rating)
    header = (
        ("012", _one_line(name)),
        ("062", str(len(players))),
        ("072", str(rated)),
        ("092", TOURNAMENT_TYPE),
    )
    return TrfReport(header, tuple(players), tuple(settings), "" if language == "en" else language)


def _rating(rating: Fraction) -> int:
    whole = round(rating)
    return whole if 0 < whole <= MAX_NUMBER else 0


def _digits(word: str) -> bool:
    """Only the digits 0-9 (not ² or ٣, which `str.isdigit` takes but `int` may not)."""
    return word.isascii() and word.isdigit()


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def write_trf(report: TrfReport) -> str:
    """The report as TRF-16 text, lines ending in a newline, no trailing spaces."""
    lines = [f"{code} {text}".rstrip() for code, text in report.header]
    lines += [f"{LANGUAGE_RECORD} {report.language}"] if report.language else []
    lines += [f"{SETTING_RECORD} {name} = {_one_line(value)}" for name, value in report.settings]
    for p in sorted(report.players, key=lambda p: p.start):
        ident = p.identity
        rank = "" if p.rank is None else str(p.rank)
        head = (
            f"001 {p.start:>4} {_cut(ident.sex, 1):1}{_cut(ident.title, 3):<3} "
            f"{_cut(p.name, NAME_WIDTH):<{NAME_WIDTH}} {p.rating or '':>4} "
            f"{_cut(ident.federation, 3):<3} {_cut(ident.fide_id, 11):>11} "
            f"{_cut(ident.born, 10):<10} {float(p.points):>4.1f} {rank:>4}  "
        )
        lines.append((head + "".join(_block(r) for r in p.rounds)).rstrip())
    lines += [
        p.keizer_record for p in sorted(report.players, key=lambda p: p.start) if p.keizer_record
    ]
    return "\n".join(lines) + "\n"


def _cut(text: str, width: int) -> str:
    return _one_line(text)[:width]


def _block(r: TrfRound) -> str:
    opponent = f"{r.opponent:>4}" if r.opponent else ("0000" if not r.blank else "    ")
    return f"{opponent} {r.colour} {r.result}  "


# -- in -----------------------------------------------------------------------------------


def parse_trf(text: str, source: str = "the TRF file") -> TrfReport:
    """Read TRF-16 text; a FileError lists every problem with its line.

    Header lines (`012` … `132`) are kept as they are; other records (teams, program
    extensions such as `XXR`) are passed over. Each pairing must be written the same way in
    both players' lines."""
    problems = Problems(file=source)
    header: list[tuple[str, str]] = []
    players: list[TrfPlayer] = []
    settings: list[tuple[str, str]] = []
    records: list[tuple[int, str]] = []
    language = ""
    for n, line in enumerate(text_lines(text.lstrip("\ufeff")), start=1):
        code = line[:3]
        if code == PLAYER_RECORD:
            records.append((n, line))
        elif code == LANGUAGE_RECORD:
            language = line[4:].strip().lower()
        elif code == SETTING_RECORD:
            setting = _setting_line(line, n, problems)
            if setting is not None:
                settings.append(setting)
        elif code == "001":
            player = _player_line(line, n, problems)
            if player is not None:
                players.append(player)
        elif len(code) == 3 and _digits(code) and code.endswith("2"):
            header.append((code, line[4:].rstrip()))
    if not players and not problems:
        problems.add(msg("no player lines (starting with 001): is this a TRF file?"))
    players = _with_records(players, records, problems)
    _check_pairings(players, problems)
    problems.raise_if_any()
    return TrfReport(tuple(header), tuple(players), tuple(settings), language)


def _with_records(
    players: list[TrfPlayer], records: Sequence[tuple[int, str]], problems: Problems
) -> list[TrfPlayer]:
    """The players with what their KZP records say (joined, left, absence reasons)."""
    import dataclasses

    by_start = {p.start: i for i, p in enumerate(players)}
    for n, line in records:
        words = line[3:].split()
        if not words or not _digits(words[0]) or int(words[0]) not in by_start:
            problems.add(
                msg(
                    "'{word}' is not the starting rank of a player line",
                    word=words[0] if words else "",
                ),
                line=n,
            )
            continue
        i = by_start[int(words[0])]
        changes: dict[str, object] = {}
        reasons: list[tuple[int, Absence]] = []
        key = ""
        for word in words[1:]:
            if word in ("joined", "left", *REASON_WORDS):
                key = word
            elif not _digits(word) or not key or int(word) < 1:
                problems.add(
                    msg(
                        "'{word}' is not understood here; write e.g. joined 3 left 12 "
                        "club 4 7 unexcused 9",
                        word=word,
                    ),
                    line=n,
                )
                break
            else:
                try:
                    number = parse_round(word)
                except WordError as exc:
                    problems.add(msg("{problem} (round)", problem=exc.message), line=n)
                    break
                if key in REASON_WORDS:
                    reasons.append((number, REASON_WORDS[key]))
                else:
                    changes[key] = number
        players[i] = dataclasses.replace(players[i], reasons=tuple(sorted(reasons)), **changes)  # type: ignore[arg-type]
        for k, _ in reasons:
            block = players[i].rounds[k - 1] if k <= len(players[i].rounds) else BLANK
            if block.result not in "Z ":
                problems.add(
                    msg(
                        "round {round} is listed as an absence, but the player line "
                        "has '{result}' in it",
                        round=k,
                        result=block.result,
                    ),
                    line=n,
                )
    return players


def _setting_line(line: str, n: int, problems: Problems) -> tuple[str, str] | None:
    """A `KZS Name = value` record, checked as the Settings sheet would check it."""
    from keizer_xl.core.settings import parse_settings, setting_name

    raw_name, _, value = line[4:].partition("=")
    name = setting_name(raw_name)
    if name is None:
        problems.add(msg("'{name}' is not a setting", name=raw_name.strip()), line=n)
        return None
    try:
        parse_settings({name: value.strip()})
    except KeizerError as exc:
        for p in exc.problems:
            problems.add(p.message, line=n)
        return None
    return (name, value.strip())


def _number(
    text: str, what: Message, columns: str, line: int, problems: Problems, blank: int | None = None
) -> int | None:
    word = text.strip()
    if not word:
        if blank is None:
            problems.add(
                msg("no {what} (columns {columns})", what=what, columns=columns), line=line
            )
        return blank
    if not _digits(word):
        problems.add(
            msg(
                "'{word}' is not a {what} (columns {columns})",
                word=word,
                what=what,
                columns=columns,
            ),
            line=line,
        )
        return None
    return int(word)


def _player_line(line: str, n: int, problems: Problems) -> TrfPlayer | None:
    padded = line.ljust(FIRST_BLOCK)
    start = _number(padded[4:8], msg("starting rank"), "5–8", n, problems)
    name = tidy_name(padded[14:47])
    if not name:
        problems.add(msg("no name (columns 15–47)"), line=n)
    rating = _number(padded[48:52], msg("rating"), "49–52", n, problems, blank=0)
    rank = _number(padded[85:89], msg("rank"), "86–89", n, problems, blank=0)
    points_text = padded[80:84].strip().replace(",", ".")
    try:
        points = Fraction(points_text) if points_text else Fraction(0)
    except ValueError:
        problems.add(
            msg("'{value}' is not a number of points (columns 81–84)", value=points_text), line=n
        )
        points = Fraction(0)
    rounds: list[TrfRound] = []
    rest = line[FIRST_BLOCK:].rstrip()
    if len(rest) > MAX_ROUND * BLOCK_WIDTH:
        problems.add(
            msg(
                "the line has more than {most} rounds; a season has at most {most}",
                most=f"{MAX_ROUND:,}",
            ),
            line=n,
        )
        rest = rest[: MAX_ROUND * BLOCK_WIDTH]
    for k in range(0, len(rest), BLOCK_WIDTH):
        rounds.append(_round_block(rest[k : k + BLOCK_WIDTH], k // BLOCK_WIDTH + 1, n, problems))
    while rounds and rounds[-1].blank:
        rounds.pop()
    if start is None:
        return None  # a line without its number cannot be checked against the others
    identity = Identity(
        padded[9].strip(),
        padded[10:13].strip(),
        padded[53:56].strip(),
        padded[57:68].strip(),
        padded[69:79].strip(),
    )
    return TrfPlayer(start, name, rating or 0, identity, points, rank or None, tuple(rounds), n)


def _round_block(block: str, round_no: int, n: int, problems: Problems) -> TrfRound:
    block = block.ljust(BLOCK_WIDTH)
    first = FIRST_BLOCK + 1 + (round_no - 1) * BLOCK_WIDTH
    where = msg(
        "round {round} (columns {first}–{last})",
        round=round_no,
        first=first,
        last=first + BLOCK_WIDTH - 1,
    )
    if not block.strip():
        return BLANK
    opponent_text, colour, result = block[0:4].strip(), block[5].lower(), block[7].upper()
    opponent = 0
    if opponent_text:
        if not _digits(opponent_text):
            problems.add(
                msg("{where}: '{value}' is not a starting rank", where=where, value=opponent_text),
                line=n,
            )
        else:
            opponent = int(opponent_text)
    if colour not in "wb- ":
        problems.add(
            msg("{where}: '{value}' is not a colour; use w, b or -", where=where, value=colour),
            line=n,
        )
    if result not in CODES:
        problems.add(
            msg(
                "{where}: '{value}' is not a result; use 1, 0, =, +, -, U, Z, H or F",
                where=where,
                value=block[7],
            ),
            line=n,
        )
    if not opponent and result in "10=WDL":
        problems.add(
            msg(
                "{where}: a game result '{result}' without an opponent", where=where, result=result
            ),
            line=n,
        )
    if opponent and result in "UZHF":
        problems.add(
            msg(
                "{where}: '{result}' is for a round without an opponent, but "
                "opponent {opponent} is given",
                where=where,
                result=result,
                opponent=opponent,
            ),
            line=n,
        )
    return TrfRound(opponent, "-" if colour == " " else colour, result)


_OPPOSITE = {"w": "b", "b": "w", "-": "-"}


def _check_pairings(players: Sequence[TrfPlayer], problems: Problems) -> None:
    """Starting ranks unique; every opponent exists and has the same game in his line."""
    by_start: dict[int, TrfPlayer] = {}
    for p in players:
        if p.start in by_start:
            problems.add(
                msg(
                    "starting rank {start} is used twice (also line {line})",
                    start=p.start,
                    line=by_start[p.start].line,
                ),
                line=p.line,
            )
        else:
            by_start[p.start] = p
    for p in players:
        for k, r in enumerate(p.rounds, start=1):
            if not r.opponent:
                continue
            q = by_start.get(r.opponent)
            if q is None or q is p:
                problems.add(
                    msg(
                        "round {round}: opponent {opponent} has no player line",
                        round=k,
                        opponent=r.opponent,
                    )
                    if q is None
                    else msg("round {round}: {name} cannot play himself", round=k, name=p.name),
                    line=p.line,
                )
                continue
            back = q.rounds[k - 1] if k <= len(q.rounds) else BLANK
            if back.opponent != p.start:
                problems.add(
                    msg(
                        "round {round}: {name} plays {other} (number {start}), but "
                        "line {line} does not have that game",
                        round=k,
                        name=p.name,
                        other=q.name,
                        start=q.start,
                        line=q.line,
                    ),
                    line=p.line,
                )
            elif p.start < q.start and (
                back.colour != _OPPOSITE.get(r.colour) or _codes(r, back) not in GAME_RESULTS
            ):
                problems.add(
                    msg(
                        "round {round}: {name} ({colour} {result}) and {other} "
                        "({back_colour} {back_result}, line {line}) do not agree",
                        round=k,
                        name=p.name,
                        colour=r.colour,
                        result=r.result,
                        other=q.name,
                        back_colour=back.colour,
                        back_result=back.result,
                        line=q.line,
                    ),
                    line=p.line,
                )


def _codes(a: TrfRound, b: TrfRound) -> tuple[str, str]:
    """The result codes of a game, `a`'s first, unrated games read as the results they are."""
    return (UNRATED.get(a.result, a.result), UNRATED.get(b.result, b.result))


@dataclass(frozen=True)
class ImportedSeason:
    """A season read from a TRF file, ready to become a workbook."""

    name: str  # the tournament's name (line 012)
    season: Season
    identities: dict[str, Identity]
    notes: tuple[str, ...]
    settings: tuple[tuple[str, str], ...] = ()
    language: str = ""  # the language of the workbook it came from, if told ("nl")


def season_from_report(report: TrfReport, source: str = "the TRF file") -> ImportedSeason:
    """Players in starting-rank order, every round's games, byes and absences.

    Blank blocks before a player's first round and after his last are rounds he took no
    part in (Joined, Left). A bye without an opponent (`U`, or `+`) is the pairing's bye;
    the absences (`Z`, `H`, `F`, a blank block in between) become excused, `-` unexcused.
    """
    problems = Problems(file=source)
    players = sorted(report.players, key=lambda p: p.start)
    names: NameRegister[TrfPlayer] = NameRegister()
    for p in players:
        first = names.take(p.name, p)
        if first is not None:
            problems.add(
                msg(
                    "'{name}' is on line {line} too; each player needs a name of their own",
                    name=p.name,
                    line=first.line,
                ),
                line=p.line,
            )
    problems.raise_if_any()
    people = [_person(order, p, report.rounds, problems) for order, p in enumerate(players)]
    problems.raise_if_any()
    rounds = _Rounds(report, players, problems)
    entries = [entry for k in range(1, report.rounds + 1) for entry in rounds.entries(k, people)]
    problems.raise_if_any()
    identities = {p.name: p.identity for p in players if p.identity != Identity()}
    return ImportedSeason(
        report.header_text("012"),
        Season(tuple(people), tuple(entries)),
        identities,
        rounds.notes(),
        report.settings,
        report.language,
    )


def _person(order: int, p: TrfPlayer, rounds: int, problems: Problems) -> Player:
    """One player line as a player of the season: joined at the first round he took part
    in (or as his KZP record says), left after his last when that was not the last round."""
    taken = [k for k, r in enumerate(p.rounds, start=1) if not r.blank]
    joined = p.joined if p.joined > 1 else taken[0] if taken else rounds + 1
    left = p.left if p.left is not None else (taken[-1] if taken and taken[-1] < rounds else None)
    if joined > MAX_ROUND:
        problems.add(
            msg(
                "the player takes part in no round of the {most} a season has",
                most=f"{MAX_ROUND:,}",
            ),
            line=p.line,
        )
    elif left is not None and left < joined:
        problems.add(
            msg(
                "{name} leaves after round {left} but joins in round {joined}",
                name=p.name,
                left=left,
                joined=joined,
            ),
            line=p.line,
        )
    for k, r in enumerate(p.rounds, start=1):
        if (k < joined or (left is not None and k > left)) and r.result not in "Z ":
            problems.add(
                msg(
                    "round {round} has a game or a bye, but the player joined in "
                    "round {joined} and left after round {left}",
                    round=k,
                    joined=joined,
                    left=left,
                )
                if left
                else msg(
                    "round {round} has a game or a bye, but the player joined in round {joined}",
                    round=k,
                    joined=joined,
                ),
                line=p.line,
            )
    return Player(p.name, Fraction(p.rating), joined, left, None, order)


class _Rounds:
    """The report's rounds read one at a time, counting what the notes say afterwards."""

    def __init__(self, report: TrfReport, players: Sequence[TrfPlayer], problems: Problems) -> None:
        self.last = report.rounds
        self.players = players
        self.by_start = {p.start: p for p in players}  # unique: checked by parse_trf
        self.ours = report.header_text("092") == TOURNAMENT_TYPE  # Z is excused, KZP the rest
        self.problems = problems
        self.guessed = 0  # absences entered as excused without the file saying so
        self.unplayed = 0  # games of the last round without a result

    def entries(self, k: int, people: Sequence[Player]) -> list[Entry]:
        """Round `k`'s games in starting-rank order, then its bye and its absences."""
        games: list[Game] = []
        rests: list[Rest] = []
        for person, p in zip(people, self.players, strict=True):
            if not person.takes_part_in(k):
                continue
            r = p.rounds[k - 1] if k <= len(p.rounds) else BLANK
            if not r.opponent:
                reason = dict(p.reasons).get(k) or NO_OPPONENT.get(r.result, Absence.EXCUSED)
                self.guessed += r.result in "HF" or (reason is Absence.EXCUSED and not self.ours)
                rests.append(Rest(k, p.name, reason))
            elif r.opponent > p.start:  # else made from the other player's line
                games.append(self._game(k, len(games) + 1, p, r))
        rests.sort(key=lambda rest: rest.reason is not Absence.BYE)
        return [*games, *rests]

    def _game(self, k: int, board: int, p: TrfPlayer, r: TrfRound) -> Game:
        q = self.by_start[r.opponent]
        back = q.rounds[k - 1]
        white, black, w, b = (q, p, back, r) if r.colour == "b" else (p, q, r, back)
        result = GAME_RESULTS[_codes(w, b)]  # the codes agree: checked by parse_trf
        if result is None and k < self.last:
            self.problems.add(
                msg(
                    "round {round}: the game {white}–{black} has no result, "
                    "but round {last} follows",
                    round=k,
                    white=white.name,
                    black=black.name,
                    last=self.last,
                ),
                line=p.line,
            )
        self.unplayed += result is None
        return Game(k, board, white.name, black.name, result)

    def notes(self) -> tuple[str, ...]:
        """What the secretary should check after the import."""
        notes = []
        if self.guessed:
            notes.append(
                msg(
                    "1 absence (Z, H or F in the TRF file) entered as excused; change "
                    "it to club or unexcused in the Rounds sheet if that is what it "
                    "was"
                )
                if self.guessed == 1
                else msg(
                    "{count} absences (Z, H or F in the TRF file) entered as excused; "
                    "change them to club or unexcused in the Rounds sheet where that "
                    "is what they were",
                    count=self.guessed,
                )
            )
        unplayed = open_games_note(self.unplayed, self.last)
        return (*notes, unplayed) if unplayed else tuple(notes)
