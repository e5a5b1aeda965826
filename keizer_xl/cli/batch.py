"""`keizer-xl recalc`: the Standings of one workbook or of many at once, in parallel
processes for a large batch, each file in its own language."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

import click

from keizer_xl.cli.prelude import OK, PROBLEMS, attempt
from keizer_xl.cli.program import as_program
from keizer_xl.cli.speech import said, say, speak, speak_in, speaking, t, told

PARALLEL_FROM = 8  # files; below this one process is quicker than starting workers


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1, 64),
    default=None,
    help="Processes to use (default: all cores for large batches).",
)
def recalc(files: Sequence[Path], jobs: int | None) -> None:
    """Recalculate the Standings sheet of one or many workbook FILES.

    A file with problems is reported and left untouched; the others go on.
    """
    if len(files) == 1:
        speak(files[0])
    results = recalc_all(list(files), jobs)
    batch = len(files) > 1
    bad: list[Path] = []
    for path, (summary, lines) in zip(files, results, strict=True):
        if lines:
            bad.append(path)
            # in a batch every line names its file, so a problem is never taken for another's
            for line in (
                [f"{path}: {line.strip()}" for text in lines for line in text.splitlines()]
                if batch
                else lines
            ):
                say(line, err=True)
        elif not batch:
            say(summary)
        else:
            for line in summary.splitlines()[1:]:  # the notes and warnings, with the file
                say(line if line.startswith(f"{path}: ") else f"{path}: {line}")
    if batch:
        speak()
        done = {"done": len(files) - len(bad), "count": len(files)}
        say(
            t(
                "{done} of {count} workbooks recalculated, {bad} with problems (listed above): "
                "{files}.",
                bad=len(bad),
                files=", ".join(map(str, bad)),
                **done,
            )
            if bad
            else t("{done} of {count} workbooks recalculated.", **done)
        )
    sys.exit(PROBLEMS if bad else OK)


def recalc_one(path: Path, asked: str | None = None) -> tuple[str, list[str]]:
    """One file of `recalc`, in the language of that workbook (or the one `asked`)."""
    from keizer_xl.workbook import files as workbook

    if asked is not None:
        speak_in(asked)
    else:
        speak(path)
    outcome, lines = attempt(lambda: workbook.recalc(path))
    if outcome is None:
        return "", lines
    after, count = outcome.standings.after_round, len(outcome.standings.rows)
    if outcome.written:
        head = (
            t(
                "{file}: Standings updated (after round {round}, {count} players).",
                file=path,
                round=after,
                count=count,
            )
            if after
            else t(
                "{file}: Standings updated (before round 1, {count} players).",
                file=path,
                count=count,
            )
        )
    else:
        head = (
            t(
                "{file}: Standings already up to date (after round {round}, {count} players).",
                file=path,
                round=after,
                count=count,
            )
            if after
            else t(
                "{file}: Standings already up to date (before round 1, {count} players).",
                file=path,
                count=count,
            )
        )
    extra = "".join("\n" + t("Note: {note}", note=said(n)) for n in outcome.notes)
    extra += "".join(
        "\n" + t("Warning: {caution}", caution=said(line)) for line in outcome.standings.cautions
    )
    return head + extra, lines


def recalc_all(files: list[Path], jobs: int | None) -> list[tuple[str, list[str]]]:
    """Recalculate files, in parallel processes for large batches, with a progress bar."""
    if len(files) == 1:
        return [recalc_one(files[0], speaking())]
    from rich.progress import Progress

    from keizer_xl.cli.tables import console

    asked = told()

    workers = jobs or (os.cpu_count() or 1 if len(files) >= PARALLEL_FROM else 1)
    results: dict[int, tuple[str, list[str]]] = {}
    with Progress(console=console(stderr=True), transient=True) as progress:
        speak()
        task = progress.add_task(t("Recalculating"), total=len(files))
        if workers == 1:
            for i, path in enumerate(files):
                results[i] = recalc_one(path, asked)
                progress.advance(task)
        else:
            from concurrent.futures import ProcessPoolExecutor, as_completed

            # a worker is a process of the program's own, which ends with the batch
            with ProcessPoolExecutor(max_workers=workers, initializer=as_program) as pool:
                futures = {pool.submit(recalc_one, path, asked): i for i, path in enumerate(files)}
                for future in as_completed(futures):
                    results[futures[future]] = future.result()
                    progress.advance(task)
    return [results[i] for i in range(len(files))]
