"""`keizer-xl new FILE --from TOURNAMENT.s3db`: a KeizerForClubs season brought in."""

from __future__ import annotations

import sys
from pathlib import Path

from keizer_xl.cli.speech import _attempt, _fail, _note, _say, _speak, _t

SUFFIXES = (".s3db",)  # KeizerForClubs' tournament files


def new_from_kfc(file: Path, source: Path, language: str | None) -> None:
    """The tournament's players, rounds, settings and standings in a new workbook, in
    `language` (the one asked for), else in the file's own."""
    from keizer_xl.cli.main import _tune_gc
    from keizer_xl.exchange.kfcfiles import new_from_kfc as make

    _tune_gc()
    outcome, lines = _attempt(lambda: make(source, file, language))
    if outcome is None:
        sys.exit(_fail(lines))
    _speak(workbook=outcome.language)
    for note in outcome.notes:
        _note(note)
    _say(_t("Made {file} from {source}: {count} players, {rounds} rounds, standings written. "
            "Next: keizer-xl pair {file}", file=file, source=source, count=outcome.players,
            rounds=outcome.rounds))
