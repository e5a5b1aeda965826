"""The one table of results (`core/results.py`) and what is derived from it: each result and
each rest has one line, and every other place that speaks of results (the typed words,
the crosstable marks, the game points, TRF, KeizerForClubs, the template's dropdown, the
help texts) agrees with it, so that adding a result is adding a line."""

from __future__ import annotations

from fractions import Fraction

import pytest

from keizer_xl.core.model import Absence, Result
from keizer_xl.core.results import DRAW, FORFEIT_WIN, LOSS, NO_SHOW, RESTS, RESULTS, WIN
from keizer_xl.core.words import RESULT_HELP, parse_presence, parse_result
from keizer_xl.exchange import kfc, trf
from keizer_xl.workbook import template

GAME_POINTS = {WIN: Fraction(1), DRAW: Fraction(1, 2), LOSS: Fraction(0)}


def test_every_result_and_every_rest_has_one_line_in_order() -> None:
    assert list(RESULTS) == list(Result)
    assert list(RESTS) == list(Absence)
    for outcome, line in (*RESULTS.items(), *RESTS.items()):
        assert line.words[0] == outcome.value  # the word the template offers comes first


@pytest.mark.parametrize("result", list(Result))
def test_the_marks_say_whether_and_how_a_game_was_played(result: Result) -> None:
    white, black = RESULTS[result].marks
    assert result.played == (white in GAME_POINTS) == (black in GAME_POINTS)
    if result.played:
        assert (result.points(True), result.points(False)) == (
            GAME_POINTS[white],
            GAME_POINTS[black],
        )
        assert GAME_POINTS[white] + GAME_POINTS[black] == 1
    else:
        assert {white, black} <= {FORFEIT_WIN, NO_SHOW}


def test_every_word_means_the_line_it_is_on_and_nothing_else() -> None:
    for outcome, line in (*RESULTS.items(), *RESTS.items()):
        for word in line.words:
            assert parse_result(word) is outcome, word
            assert parse_result(word.upper()) is outcome, word
    for reason, line in RESTS.items():
        if reason is not Absence.BYE:  # nobody is marked absent with a bye
            assert {parse_presence(word) for word in line.words} == {reason}


def test_codes_of_other_programs_are_read_back_as_the_result_they_were_written_for() -> None:
    kfc_codes = [line.kfc for line in (*RESULTS.values(), *RESTS.values())]
    assert len(set(kfc_codes)) == len(kfc_codes)
    assert len({line.trf for line in RESULTS.values()}) == len(RESULTS)
    for result, line in RESULTS.items():
        assert trf.GAME_CODES[result] == line.trf
        assert trf.GAME_RESULTS[line.trf] is result
        assert kfc.GAME_RESULTS[line.kfc] is result
        assert set(line.trf) <= trf.CODES
    for reason, rest in RESTS.items():
        assert kfc.REST_REASONS[rest.kfc] is reason
        # TRF tells only the bye from an absence (the KZP record tells the rest apart)
        assert (trf.NO_OPPONENT[rest.trf] is Absence.BYE) == (reason is Absence.BYE)


def test_the_dropdown_and_the_help_offer_every_result() -> None:
    assert (*(r.value for r in Result), *(a.value for a in Absence)) == template.RESULT_WORDS
    for result in Result:
        assert result.value in RESULT_HELP.template
