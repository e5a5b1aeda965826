"""Ratings from the federation: read a KNSB or FIDE rating list, match it to the players.

Pure functions: the list's text and the core's Season in, the planned changes out; the
files are read and written in `ratingfiles`. Players match by federation id first, then by
name with first/last order, tussenvoegsels, accents and case normalised (`Vries, Anna de`
is `Anna de Vries`), then by last name and first initial (`Vries, A. de`).
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from keizer_xl.core.errors import Problems
from keizer_xl.core.messages import msg
from keizer_xl.core.model import Game, Player, tidy_name
from keizer_xl.core.season import Season
from keizer_xl.core.words import WordError, checked_rating, short_text
from keizer_xl.exchange.csvfile import Record, header_key, records
from keizer_xl.i18n import RECORDS, RatingListHeaders

# Dutch and Flemish tussenvoegsels (and the usual foreign ones), written after the first
# name in `Vries, Anna de`.
PREFIXES = frozenset(
    {
        "van",
        "de",
        "der",
        "den",
        "het",
        "t",
        "ter",
        "ten",
        "te",
        "in",
        "op",
        "la",
        "le",
        "du",
        "des",
        "di",
        "da",
        "von",
        "vom",
        "zu",
        "d",
        "l",
        "uit",
        "onder",
        "over",
        "aan",
        "bij",
        "vd",
    }
)


# The federations' lists, from the language records: a country's own before FIDE's (the
# international list, which no header marks), whose headers are read when no other's are.
_LISTS = sorted(
    (r.rating_list for r in RECORDS.values() if r.rating_list is not None),
    key=lambda headers: not headers.marks,
)
INTERNATIONAL = _LISTS[-1]
# Headers, compared as letters and digits only, case ignored: the id headers by the
# Players column they fill, the name headers (one column, or last and first name), the
# rating headers, preferred first, and a member's club code and number in the club.
ID_HEADERS = {header_key(h): headers.players_column for headers in _LISTS for h in headers.ids}
NAME_HEADERS = frozenset(header_key(h) for headers in _LISTS for h in headers.names)
LAST_NAME_HEADERS = frozenset(header_key(h) for headers in _LISTS for h in headers.last_names)
FIRST_NAME_HEADERS = frozenset(header_key(h) for headers in _LISTS for h in headers.first_names)
RATING_HEADERS = tuple(dict.fromkeys(header_key(h) for headers in _LISTS for h in headers.ratings))
CLUB_HEADERS = frozenset(header_key(h) for headers in _LISTS for h in headers.clubs)
MEMBER_HEADERS = frozenset(header_key(h) for headers in _LISTS for h in headers.members)
# An unmarked list by the Players column its ids fill: FIDE's for FIDE ids (not the DSB's,
# whose lists are marked), the KNSB's for a `Bondsnummer`.
_BY_COLUMN = {h.players_column: h for h in reversed(_LISTS) if not h.id_column}
# A header that begins with one of these makes the list that federation's (`KNSB…`, `ZPS`).
_MARKS = tuple((header_key(mark), headers) for headers in _LISTS for mark in headers.marks)


@dataclass(frozen=True)
class ListedRating:
    """One line of a rating list; `rating` None when the line has none (or an unreadable
    one, kept as typed in `text`, with what is wrong with it in `problem`). `member` is
    the club's code and the member's number in it (`C0327/17`), where the list has them."""

    line: int
    id: str
    name: str
    rating: Fraction | None
    text: str = ""
    problem: str = ""
    member: str = ""


@dataclass(frozen=True)
class RatingList:
    """A federation's list: which Players column its ids match, its lines, and the headers
    of its columns as the file writes them (`id`, `name`, `rating`, `club`, `member`)."""

    kind: str  # "KNSB", "FIDE" or "DSB"
    id_column: str  # "KNSB id" or "FIDE id"
    entries: tuple[ListedRating, ...]
    source: str = "the rating list"  # the file's name, for messages
    headers: Mapping[str, str] = field(default_factory=dict)


def federation_id(value: object) -> str:
    """An id as digits: `12345`, `12345.0` (a number cell) and ` 012345` are one id."""
    word = str(value).strip() if value is not None else ""
    if word.endswith(".0"):
        word = word[:-2]
    return word.lstrip("0") if word.isdigit() else word


def member_key(club: object, number: object) -> str:
    """A member by his club's code and his number in it (`C0327/17`); '' without either
    (a number 0 is a board member who does not play)."""
    code = str(club).strip().upper() if club is not None else ""
    ident = federation_id(number)
    return f"{code}/{ident}" if code and ident else ""


def _rating(word: str) -> Fraction | None:
    """A list's rating: a whole number read and checked as the Players sheet's Rating
    (`checked_rating`); blank, 0 and `-` mean unrated. WordError says what is wrong."""
    rating = checked_rating(word)
    if rating.denominator != 1:
        raise WordError(msg("'{value}' is not a whole number", value=short_text(word)))
    return rating or None


Wanted = Callable[[str, str, str], bool]  # (id, name, member): may the line be a player's?


def parse_rating_list(
    text: str | Iterable[str],
    source: str = "the rating list",
    wanted: Wanted | None = None,
    language: str = "en",
) -> RatingList:
    """A KNSB list (`Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S`), a DSB list (DWZ,
    either shape) or a FIDE list as CSV (`ID Number`/`fideid`, `Name`, `SRtng`/`Rating`,
    …), separator sniffed; its text, or its lines as they are read (see `file_lines`).
    A list without the columns needed is refused naming the headers of its kind, or of
    the workbook's `language`.

    With `wanted` (id, name, member), only the lines it wants are kept: a list of the
    world's players (a million lines) costs the memory of the few that can be the club's."""
    problems = Problems(file=source)
    lines = io.StringIO(text, newline="") if isinstance(text, str) else text
    rows = records(lines, problems)
    columns = _columns(next(rows, None), rows, problems, language)
    entries, listed = _entries(rows, columns, wanted)
    problems.raise_if_any()  # a quote left open may have merged any of the lines
    if not listed:
        problems.add(msg("no players listed under the first line"))

    problems.raise_if_any()
    return RatingList(
        columns.kind.federation,
        columns.kind.players_column,
        tuple(entries),
        source,
        columns.headers,
    )


@dataclass(frozen=True)
class _Columns:
    """Where a list keeps its ids (None: it has none), names (one column, or last and
    first), ratings and members, whose it is, and its headers as the file writes them."""

    width: int
    id: int | None
    name: int | None
    last: int | None
    first: int | None
    rating: int
    club: int | None
    member: int | None
    kind: RatingListHeaders
    headers: dict[str, str]


def _find(header: Sequence[str], own: Iterable[str], others: Iterable[str] = ()) -> int | None:
    """The column of the first of the list's `own` spellings it has, else the first
    column with one of the `others` (header keys)."""
    found = next((header.index(key) for key in map(header_key, own) if key in header), None)
    wanted = frozenset(others)
    return (
        found if found is not None else next((i for i, h in enumerate(header) if h in wanted), None)
    )


def _columns(
    first: Record | None, rows: Iterator[Record], problems: Problems, language: str
) -> _Columns:
    """The columns the header row names, and whose list it is: a marked list is read by
    its own headers first (a DSB list's `ID` is no FIDE id)."""
    header = [header_key(cell) for cell in first.cells] if first else []
    kind = next(
        (headers for mark, headers in _MARKS if any(h.startswith(mark) for h in header)), None
    )
    own = kind or RatingListHeaders("", (), (), (), ())
    id_col = (
        _find(header, own.ids)
        if kind
        else next((i for i, h in enumerate(header) if h in ID_HEADERS), None)
    )
    name_col = _find(header, own.names, NAME_HEADERS)
    last_col = _find(header, own.last_names, LAST_NAME_HEADERS)
    first_col = _find(header, own.first_names, FIRST_NAME_HEADERS)
    named = name_col is not None or (last_col is not None and first_col is not None)
    rating_col = _find(header, (*own.ratings, *RATING_HEADERS))  # the preferred one
    if not named or rating_col is None:
        _refuse(not named, rating_col is None, kind or _listed_in(language), first, rows, problems)
    assert rating_col is not None
    if kind is None:
        column = ID_HEADERS[header[id_col]] if id_col is not None else "FIDE id"
        kind = _BY_COLUMN[column]
    cols = {
        "id": id_col,
        "name": name_col,
        "last": last_col,
        "first": first_col,
        "rating": rating_col,
        "club": _find(header, own.clubs, CLUB_HEADERS),
        "member": _find(header, own.members, MEMBER_HEADERS),
    }
    typed = first.cells if first else []
    return _Columns(
        len(header),
        id_col,
        name_col,
        last_col,
        first_col,
        rating_col,
        cols["club"],
        cols["member"],
        kind,
        {role: typed[i].strip() for role, i in cols.items() if i is not None},
    )


def _listed_in(language: str) -> RatingListHeaders:
    """The list a workbook in this language is most likely given: its federation's, else
    FIDE's."""
    from keizer_xl.i18n import record_of

    return record_of(language).rating_list or INTERNATIONAL


def _refuse(
    no_name: bool,
    no_rating: bool,
    kind: RatingListHeaders,
    first: Record | None,
    rows: Iterator[Record],
    problems: Problems,
) -> None:
    """A list without a name or rating column is refused (FileError) after reading it to
    the end: a quote left open may have merged any of its lines, and that is said first.
    The headers named are those of the list's kind, then FIDE's."""
    for _ in rows:
        pass
    problems.raise_if_any()
    lists = (kind, INTERNATIONAL)
    names = " / ".join(
        dict.fromkeys(
            name
            for headers in lists
            for name in (
                *headers.names[:1],
                *(
                    [f"{headers.last_names[0]} + {headers.first_names[0]}"]
                    if headers.last_names and headers.first_names
                    else []
                ),
            )
        )
    )
    ratings = " / ".join(dict.fromkeys((*kind.ratings[:1], *INTERNATIONAL.ratings[:2])))
    problems.add(
        msg(
            "the first line should name the columns; found no name column "
            "({names}) and no rating column ({ratings})",
            names=names,
            ratings=ratings,
        )
        if no_name and no_rating
        else msg(
            "the first line should name the columns; found no name column ({names})", names=names
        )
        if no_name
        else msg(
            "the first line should name the columns; found no rating column ({ratings})",
            ratings=ratings,
        ),
        line=first.line if first else 1,
    )
    problems.raise_if_any()


def _name(cells: Sequence[str], columns: _Columns) -> str:
    """A line's name as `Last, First`: one column (a title after a second comma, as the
    DSB writes `Müller,Jürgen,Dr.`, left out) or the last and first name columns."""
    if columns.name is not None:
        name = cells[columns.name]
        if name.count(",") >= 1:
            last, first, *_ = name.split(",")
            name = f"{last.strip()}, {first.strip()}"
        return tidy_name(name)
    assert columns.last is not None and columns.first is not None
    last, first = tidy_name(cells[columns.last]), tidy_name(cells[columns.first])
    return f"{last}, {first}" if last and first else last or first


def _entries(
    rows: Iterable[Record], columns: _Columns, wanted: Wanted | None
) -> tuple[list[ListedRating], int]:
    """The lines `wanted` keeps (every line without it), and how many lines name a player:
    blank lines and lines without a name are no player's."""
    entries = []
    listed = 0
    for record in rows:
        cells = [*record.cells, *[""] * (columns.width - len(record.cells))]
        name = _name(cells, columns)
        if not name:
            continue
        listed += 1
        ident = federation_id(cells[columns.id]) if columns.id is not None else ""
        member = (
            member_key(cells[columns.club], cells[columns.member])
            if columns.club is not None and columns.member is not None
            else ""
        )
        if wanted is not None and not wanted(ident, name, member):
            continue
        typed, problem = cells[columns.rating].strip(), ""
        try:
            rating = _rating(typed)
            typed = ""
        except WordError as exc:
            rating, problem = None, exc.message
        entries.append(ListedRating(record.line, ident, name, rating, typed, problem, member))
    return entries, listed


# -- names --------------------------------------------------------------------------------

_JOINERS = str.maketrans("", "", "'’‘`-‐‑–")  # an apostrophe or a hyphen keeps a word whole
_BETWEEN_WORDS = re.compile(r"[\W_]+")  # what is not a letter or digit (`str.isalnum`)


def _words(text: str) -> list[str]:
    """Lower-case words without accents or punctuation; an apostrophe or a hyphen keeps a
    word whole: `Zoë O'Brien-Çelik` gives zoe, obriencelik; `van 't Hof` van, t, hof.
    (Done by the str and re methods: a list of the world's players is a million names.)"""
    plain = unicodedata.normalize("NFKD", text)
    if not plain.isascii():
        plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    return [w for w in _BETWEEN_WORDS.split(plain.casefold().translate(_JOINERS)) if w]


def _parts(name: str) -> tuple[list[str], list[str]]:
    """(first names or initials, last name with its tussenvoegsels) of either way of
    writing a name: `Vries, Anna de` and `Anna de Vries` both give ([anna], [de, vries])."""
    if "," in name:
        last, _, first = name.partition(",")
        words = _words(first)
        cut = len(words)
        while cut > 0 and words[cut - 1] in PREFIXES:
            cut -= 1
        return words[:cut], words[cut:] + _words(last)
    words = _words(name)
    if len(words) < 2:
        return [], words
    start = next((i for i in range(1, len(words) - 1) if words[i] in PREFIXES), len(words) - 1)
    return words[:start], words[start:]


def name_key(name: str) -> tuple[str, ...]:
    """The same for a name written either way, with or without accents and capitals."""
    first, last = _parts(name)
    return (*sorted(last), "|", *first)


def initials_key(name: str) -> tuple[str, ...] | None:
    """Last name and the first initial (`Vries, A.J. de` and `Anna de Vries`)."""
    first, last = _parts(name)
    return (*sorted(last), "|", first[0][0]) if first and last else None


def wanted_for(season: Season, ids: Iterable[str], members: Iterable[str] = ()) -> Wanted:
    """Which lines of a list can match one of the players (`plan_ratings` looks at no
    others): those with one of the players' `ids` or `members` (club code and number), a
    player's name, or a player's last name and first initial."""
    known = {federation_id(ident) for ident in ids} - {""}
    in_club = set(members) - {""}
    names = {name_key(p.name) for p in season.players}
    initials = {initials_key(p.name) for p in season.players} - {None}

    def wanted(ident: str, name: str, member: str) -> bool:
        if (ident and ident in known) or (member and member in in_club):
            return True
        first, last = _parts(name)  # as `name_key` and `initials_key`, taken apart once
        if (*sorted(last), "|", *first) in names:
            return True
        return bool(first and last) and (*sorted(last), "|", first[0][0]) in initials

    return wanted


# -- matching -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """A player found in the list; `how`: `id`, `member` (club code and member number),
    `name` or `initials`."""

    player: Player
    entry: ListedRating
    how: str

    @property
    def by_name(self) -> bool:
        return self.how not in ("id", "member")


@dataclass(frozen=True)
class RatingPlan:
    """What `ratings` does: the changes, and everything the secretary should hear about."""

    rating_list: RatingList
    changes: tuple[Match, ...]  # new ratings to write
    same: tuple[Match, ...]  # found, rating already as listed
    kept: tuple[Match, ...]  # found with another rating, but kept: the player has played
    unrated: tuple[Match, ...]  # found on a line without a (readable) rating
    missing: tuple[Player, ...]  # not in the list
    ambiguous: tuple[tuple[Player, tuple[ListedRating, ...]], ...]  # several lines fit
    paired: bool  # round 1 is paired: ratings set the initial ranking

    @property
    def by_name(self) -> tuple[Match, ...]:
        return tuple(m for m in (*self.changes, *self.same, *self.kept, *self.unrated) if m.by_name)


def plan_ratings(
    season: Season,
    ids: Mapping[str, str],
    rating_list: RatingList,
    everyone: bool = False,
    members: Mapping[str, str] | None = None,
) -> RatingPlan:
    """Match every player (id first, then club code and member number, then name, then
    initials) and decide what changes; `ids` and `members` are each player's, by name.

    Once round 1 is paired the ratings have set the initial ranking and its tie-breaks, so
    only players who are in no round yet change, unless `everyone`."""
    index = _index(rating_list.entries)
    played = {
        name
        for e in season.entries
        for name in ((e.white, e.black) if isinstance(e, Game) else (e.player,))
    }
    paired = season.last_round >= 1
    changes, same, kept, unrated = [], [], [], []
    missing: list[Player] = []
    ambiguous: list[tuple[Player, tuple[ListedRating, ...]]] = []
    for player in season.players:
        keys = {
            "id": federation_id(ids.get(player.name, "")),
            "member": (members or {}).get(player.name, ""),
            "name": name_key(player.name),
            "initials": initials_key(player.name),
        }
        how, found = next(
            ((how, index[how][key]) for how, key in keys.items() if key and index[how].get(key)),
            ("", []),
        )
        if not found:
            missing.append(player)
            continue
        if len(found) > 1:
            ambiguous.append((player, tuple(found)))
            continue
        match = Match(player, found[0], how)
        if found[0].rating is None:
            unrated.append(match)
        elif found[0].rating == player.rating:
            same.append(match)
        elif paired and not everyone and player.name in played:
            kept.append(match)
        else:
            changes.append(match)
    _refuse_unreadable(rating_list, unrated)
    return RatingPlan(
        rating_list,
        tuple(changes),
        tuple(same),
        tuple(kept),
        tuple(unrated),
        tuple(missing),
        tuple(ambiguous),
        paired,
    )


def _index(entries: Iterable[ListedRating]) -> dict[str, dict[Any, list[ListedRating]]]:
    """The list's lines by each way of finding a player, in the order they are tried."""
    index: dict[str, dict[Any, list[ListedRating]]] = {
        how: defaultdict(list) for how in ("id", "member", "name", "initials")
    }
    for entry in entries:
        keys = {
            "id": entry.id,
            "member": entry.member,
            "name": name_key(entry.name),
            "initials": initials_key(entry.name),
        }
        for how, key in keys.items():
            if key:
                index[how][key].append(entry)
    return {how: dict(found) for how, found in index.items()}


def _refuse_unreadable(rating_list: RatingList, unrated: Sequence[Match]) -> None:
    """A player's line whose rating the Players sheet would refuse (99999, 1e308, abc) is
    a problem with its line, and nothing is written: the lines of people who are not in
    the club are never read further."""
    problems = Problems(file=rating_list.source)
    for match in unrated:
        if match.entry.problem:
            problems.add(
                msg(
                    "{name}: {problem} (rating)", name=match.entry.name, problem=match.entry.problem
                ),
                line=match.entry.line,
            )
    problems.raise_if_any()
