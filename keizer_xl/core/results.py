"""What a Rounds row can hold, in one table: each game result and each reason of a rest,
with every way keizer_xl writes or reads it.

A result is typed by the secretary (in any of the workbook languages), shown as a mark
in the crosstable and on the pages, written to and read from FIDE's TRF and read from
KeizerForClubs. All of those are here, one line per result, and the other modules derive
their own lookups from these tables; so a new result is one line here (see "Adding a
result" in CONTRIBUTING).
"""

from __future__ import annotations

from typing import NamedTuple

from keizer_xl.core.model import Absence, Result

# A side's mark in the crosstable (`12w1`, `5b½`, `7w+`), and what it means.
WIN, DRAW, LOSS = "1", "½", "0"  # over the board
FORFEIT_WIN, NO_SHOW = "+", "-"  # the opponent did not turn up; did not turn up


class GameResult(NamedTuple):
    """A game result: each side's crosstable mark and TRF code (white's, black's), its
    code in KeizerForClubs' Pairing table, and the words a secretary may type for it."""

    marks: tuple[str, str]
    trf: tuple[str, str]
    kfc: int
    words: tuple[str, ...]


class RestReason(NamedTuple):
    """A round without a game: its crosstable cell, its TRF code (one letter: TRF tells a
    bye from an absence, not one absence from another), its code in KeizerForClubs'
    Pairing table and the words a secretary may type for it."""

    mark: str
    trf: str
    kfc: int
    words: tuple[str, ...]


_HALF_WORDS = ("½", "1/2", "0.5", "0,5")
# The words in English, Dutch, German and Italian (each is read in a workbook of any
# language); the docs' word tables list exactly these (a test compares them). Case, spaces
# and the kind of dash do not matter. The first word is the value of the Result or Absence.
# Kept as a table by hand (not formatted): one result a line.
# fmt: off
RESULTS: dict[Result, GameResult] = {
    Result.WHITE_WINS: GameResult((WIN, LOSS), ("1", "0"), 1, ("1-0", "1:0")),
    Result.BLACK_WINS: GameResult((LOSS, WIN), ("0", "1"), 3, ("0-1", "0:1")),
    Result.DRAW: GameResult(
        (DRAW, DRAW), ("=", "="), 2,
        (*(f"{h}{sep}{h}" for sep in "-:" for h in _HALF_WORDS), "½", "1/2", "=", "remise",
         "remis", "draw", "unentschieden", "patta")),
    Result.WHITE_FORFEIT_WIN: GameResult(
        (FORFEIT_WIN, NO_SHOW), ("+", "-"), 8,
        ("+-", "+/-", "+:-", "1-0 kampflos", "1:0 kampflos", "1-0 forfait")),
    Result.BLACK_FORFEIT_WIN: GameResult(
        (NO_SHOW, FORFEIT_WIN), ("-", "+"), 9,
        ("-+", "-/+", "-:+", "0-1 kampflos", "0:1 kampflos", "0-1 forfait")),
    Result.DOUBLE_FORFEIT: GameResult(
        (NO_SHOW, NO_SHOW), ("-", "-"), 10, ("--", "-:-", "0-0 kampflos", "0:0 kampflos",
                                             "0-0 forfait")),
}
RESTS: dict[Absence, RestReason] = {
    Absence.BYE: RestReason("bye", "U", 4, ("bye", "vrij", "oneven", "spielfrei", "frei",
                                            "Freilos", "riposo")),
    Absence.EXCUSED: RestReason("exc", "Z", 6, ("excused", "afgemeld", "afwezig",
                                                "entschuldigt", "abgemeldet", "giustificato",
                                                "giustificata")),
    Absence.CLUB: RestReason("club", "Z", 5, ("club", "club duty", "extern", "clubwedstrijd",
                                              "Mannschaftskampf", "Mannschaft", "squadra",
                                              "impegno di squadra")),
    Absence.UNEXCUSED: RestReason("—", "Z", 7, ("unexcused", "onafgemeld", "unentschuldigt",
                                                "ingiustificato", "ingiustificata")),
}
# fmt: on
