"""`keizer-xl new FILE --from TOURNAMENT.s3db`: a KeizerForClubs season brought in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from keizer_xl.cli.prelude import perform
from keizer_xl.cli.speech import note, say, speak, t, typed

SUFFIXES = (".s3db",)  # KeizerForClubs' tournament files


def new_from_kfc(file: Path, source: Path, language: str | None, lite: bool = False) -> None:
    """The tournament's players, rounds, settings and standings in a new workbook, in
    `language` (the one asked for), else in the file's own."""
    from keizer_xl.exchange.kfcfiles import file_language
    from keizer_xl.exchange.kfcfiles import new_from_kfc as make

    speak(workbook=language or file_language(source))  # a refusal in the file's language
    made_from(perform(lambda: make(source, file, language, lite)), file, source)


def made_from(outcome: Any, file: Path, source: Path) -> None:
    """Say what a workbook made from another program's file holds, in its language (a
    season brought in from KeizerForClubs or from a TRF file)."""
    speak(workbook=outcome.language)
    for line in outcome.notes:
        note(line)
    say(
        t(
            "Made {file} from {source}: {count} players, {rounds} rounds, standings written. "
            "Next: keizer-xl pair {file}",
            file=typed(file),
            source=source,
            count=outcome.players,
            rounds=outcome.rounds,
        )
    )
