"""The `keizer-xl` command: the buttons' work without Excel, and a batch recalculation.

Exit codes: 0 all went well, 1 a workbook has problems (each listed with its cell) or could
not be used, 2 the command was typed wrongly. The secretary never sees a traceback.
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import os
import sys
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import click

from keizer_xl import __version__
from keizer_xl.cli.speech import (
    PROBLEMS,
    _attempt,
    _fail,
    _note,
    _said,
    _say,
    _speak,
    _speaking,
    _t,
    _told,
)

OK, USAGE = 0, 2
LONG_ROUND = 80  # rows: a longer round is summed up rather than listed
PARALLEL_FROM = 8  # files; below this one process is quicker than starting workers


def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


@functools.cache
def _tune_gc() -> None:
    """Set the garbage collector for one short command, once pandas and keizer_xl are in.

    Reading a large season makes a few hundred thousand objects and hardly any garbage
    cycles, yet the collector, tuned for long-running programs, would walk them (and the
    imports' as many) hundreds of times: some 70 ms of a large pairing. The objects alive
    now are left out of its walks (`freeze`) and it runs every 50,000 new objects, not 700."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="keizer-xl")
@click.option("--lang", "language", type=click.Choice(["en", "nl"]), default=None,
              help="The language of the messages: en or nl (default: KEIZER_XL_LANG, else the "
              "workbook's own language).")
def main(language: str | None) -> None:
    """Run a Keizer club competition in its Excel workbook.

    \b
    Typical season:
      keizer-xl new club.xlsx           a fresh workbook; fill in the Players sheet
      keizer-xl pair club.xlsx          pair the players marked present
      (type the results in the Rounds sheet)
      keizer-xl recalc club.xlsx        standings after the results
    """


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--players", "players_csv", type=click.Path(exists=True, dir_okay=False,
              path_type=Path), help="The club's member list (CSV or XLSX) with a Name (Naam) "
              "column; Rating, Joined, Left read too, other columns kept as your own.")
@click.option("--from", "source", type=click.Path(dir_okay=False, path_type=Path),
              help="Start from last season's workbook (.xlsx/.xlsm) or from a TRF file (.trf) "
              "of a season played elsewhere.")
@click.option("--order", type=click.Choice(["rating", "standings"]), default=None,
              help="With --from last season's workbook: initial ranking by rating (default) "
              "or by last season's final standings.")
@click.option("--lang", "language", type=click.Choice(["en", "nl"]), default=None,
              help="The workbook's language: en (Players, Rounds, ...) or nl (Spelers, "
              "Ronden, ...). Default: the global --lang or KEIZER_XL_LANG, else en; from "
              "last season's workbook, its language.")
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists.")
def new(file: Path, players_csv: Path | None, source: Path | None, order: str | None,
        language: str | None, force: bool) -> None:
    """Make a fresh competition workbook FILE (.xlsx, or .xlsm with the two buttons)."""
    _speak(workbook=language)
    suffix = file.suffix.lower()
    if suffix not in (".xlsx", ".xlsm"):
        raise click.UsageError(_t("{file}: the name must end in .xlsx or .xlsm", file=file))
    if file.exists() and not force:
        sys.exit(_fail([_t("{file} already exists; choose another name or add --force",
                           file=file)]))
    if order is not None and (source is None or source.suffix.lower() not in SUFFIXES):
        raise click.UsageError(_t("--order goes with --from last season's workbook"))
    if source is not None:
        if players_csv is not None:
            raise click.UsageError(_t("use --players or --from, not both"))
        if source.suffix.lower() in SUFFIXES:
            _new_season(file, source, order or "rating", language)
        else:
            _new_from(file, source, language or _told() or "en")
        return
    language = language or _told() or "en"  # the language asked for makes the workbook
    if players_csv is not None:
        from keizer_xl.exchange.members import new_from_members

        members, lines = _attempt(lambda: new_from_members(players_csv, file, language))
        if members is None:
            sys.exit(_fail(lines))
        count, own = len(members.players), [title for title, _ in members.own]
        values = {"file": file, "count": count, "list": players_csv.name,
                  "columns": ", ".join(own)}
        _say(_t("Made {file} with {count} players from {list}. Tick who is present in the "
                "Players sheet, then: keizer-xl pair {file}", **values) if not own else
             _t("Made {file} with {count} players from {list} and your own column "
                "{columns}. Tick who is present in the Players sheet, then: keizer-xl pair "
                "{file}", **values) if len(own) == 1 else
             _t("Made {file} with {count} players from {list} and your own columns "
                "{columns}. Tick who is present in the Players sheet, then: keizer-xl pair "
                "{file}", **values))
        return
    from keizer_xl.workbook.newbook import create

    _, lines = _attempt(lambda: create(file, [], language=language))
    if lines:
        sys.exit(_fail(lines))
    _say(_t("Made {file}. Fill in the Players sheet, tick who is present, then: keizer-xl "
            "pair {file}", file=file))


SUFFIXES = (".xlsx", ".xlsm")


def _new_season(file: Path, last: Path, order: str, language: str | None) -> None:
    """`new NEXT --from LAST.xlsx`: next season from last season's workbook."""
    from keizer_xl.exchange.nextseason import new_from_last

    _tune_gc()
    if language is None:
        _speak(last)
    outcome, lines = _attempt(lambda: new_from_last(last, file, order, language))
    if outcome is None:
        sys.exit(_fail(lines))
    for note in outcome.notes:
        _note(note)
    if outcome.left_out:
        _say(_t("Left out (withdrew last season): {names}", names=", ".join(outcome.left_out)))
    values = {"file": file, "last": last, "count": outcome.players}
    _say(_t("Made {file} from {last}: {count} players, ranked by last season's final "
            "standings, with last season's settings. Tick who is present, then: keizer-xl "
            "pair {file}", **values) if order == "standings" else
         _t("Made {file} from {last}: {count} players, ranked by rating, with last season's "
            "settings. Tick who is present, then: keizer-xl pair {file}", **values))


def _new_from(file: Path, source: Path, language: str) -> None:
    """`new FILE --from SEASON.trf`: the season's players, rounds and standings."""
    if source.suffix.lower() not in (".trf", ".txt"):
        raise click.UsageError(_t("{file}: --from takes last season's workbook (.xlsx, "
                                  ".xlsm) or a TRF file (.trf)", file=source))
    from keizer_xl.exchange.trffiles import new_from_trf

    _tune_gc()
    made, lines = _attempt(lambda: new_from_trf(source, file, language))
    if made is None:
        sys.exit(_fail(lines))
    outcome, _ = made
    for note in outcome.notes:
        _note(note)
    _say(_t("Made {file} from {source}: {count} players, {rounds} rounds, standings written. "
            "Next: keizer-xl pair {file}", file=file, source=source, count=outcome.players,
            rounds=outcome.rounds))


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
def pair(file: Path) -> None:
    """Pair the next round in FILE, as the "Pair next round" button does.

    Checks the workbook, computes the standings after the last round (every result must
    be in), pairs the players marked present, appends the round to the Rounds sheet with
    the bye and absence rows, and rewrites the Standings sheet.
    """
    from keizer_xl.workbook import files as workbook

    _tune_gc()
    _speak(file)
    outcome, lines = _attempt(lambda: workbook.pair(file))
    if outcome is None:
        sys.exit(_fail(lines))
    assert outcome.next_round is not None
    _print_round(outcome.next_round)
    for note in outcome.notes:
        _note(note)
    _say(_t("Round {round} written to {file}.", round=outcome.next_round.round, file=file))
    _warn(outcome)


def _warn(outcome: Any) -> None:
    """Things allowed but probably not meant, after the work is done (it is done)."""
    for line in outcome.standings.cautions:
        _say(_t("Warning: {caution}", caution=_said(line)))


def _print_round(next_round: Any) -> None:
    """The new round as a table; a big club's round (hundreds of rows, which nobody reads
    in a terminal and which take rich a while to lay out) as a summary instead."""
    from keizer_xl.i18n.names import local_name, rest_word

    language = _speaking[0]
    rows = [(str(g.board), g.white, g.black) for g in next_round.games]
    rows += [("", r.player, rest_word(r.reason, language)) for r in next_round.rests]
    if len(rows) <= LONG_ROUND:
        headers = [local_name(h, language) for h in ("Board", "White", "Black")]
        _print_table(_t("Round {round}", round=next_round.round), headers, {headers[0]}, rows)
        return
    games = len(next_round.games)
    byes = [r.player for r in next_round.rests if r.reason.value == "bye"]
    absent = len(next_round.rests) - len(byes)
    values = {"round": next_round.round, "games": games, "absent": absent}
    _say(_t("Round {round}: {games} games (boards 1–{games}), bye for {bye}, {absent} absent. "
            "The full list is in the Rounds sheet.", bye=byes[0], **values) if byes else
         _t("Round {round}: {games} games (boards 1–{games}), {absent} absent. The full list "
            "is in the Rounds sheet.", **values))


def _print_standings(standings: Any, title: str, groups: dict[str, str] | None = None,
                     short: Collection[str] = (), only: str | None = None) -> None:
    """The standings table; a Group column when players have groups (`only`: one group's
    rows); ranks marked * for players listed last for too few games."""
    from keizer_xl.workbook.cells import shown

    headers = ("#", _t("Name"), *((_t("Group"),) if groups else ()), _t("Score"), _t("Value"),
               _t("Pl"), _t("W"), _t("D"), _t("L"), _t("Bye"), _t("Abs"))
    rows = [(f"{row.rank}{'*' if row.name in short else ''}", row.name,
             *((groups.get(row.name, ""),) if groups else ()),
             "" if row.score is None else f"{shown(row.score)}",
             f"{shown(row.value)}", str(row.played), str(row.won), str(row.drawn),
             str(row.lost), str(row.byes), str(row.absent)) for row in standings.rows
            if only is None or (groups or {}).get(row.name, "").casefold() == only.casefold()]
    _print_table(_said(title), headers, set(headers) - {_t("Name"), _t("Group")}, rows)
    if standings.note:
        _note(standings.note)


def _print_table(title: str, headers: Sequence[str], right: Collection[str],
                 rows: Sequence[Sequence[str]]) -> None:
    """A table in the terminal; `right`: the headers of the right-aligned columns."""
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for header in headers:
        table.add_column(header, justify="right" if header in right else "left")
    for row in rows:
        table.add_row(*row)
    _console().print(table)


@main.command()
@click.argument("files", nargs=-1, required=True,
                type=click.Path(path_type=Path))
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
              help="Processes to use (default: all cores for large batches).")
def recalc(files: Sequence[Path], jobs: int | None) -> None:
    """Recalculate the Standings sheet of one or many workbook FILES.

    A file with problems is reported and left untouched; the others go on.
    """
    if len(files) == 1:
        _speak(files[0])
    results = _run_batch(list(files), jobs)
    batch = len(files) > 1
    bad: list[Path] = []
    for path, (summary, lines) in zip(files, results, strict=True):
        if lines:
            bad.append(path)
            # in a batch every line names its file, so a problem is never taken for another's
            _fail([f"{path}: {line.strip()}" for text in lines
                   for line in text.splitlines()] if batch else lines)
        elif not batch:
            _say(summary)
        else:
            for line in summary.splitlines()[1:]:  # the notes and warnings, with the file
                _say(line if line.startswith(f"{path}: ") else f"{path}: {line}")
    if batch:
        _speak()
        done = {"done": len(files) - len(bad), "count": len(files)}
        _say(_t("{done} of {count} workbooks recalculated, {bad} with problems (listed above): "
                "{files}.", bad=len(bad), files=", ".join(map(str, bad)), **done) if bad else
             _t("{done} of {count} workbooks recalculated.", **done))
    sys.exit(PROBLEMS if bad else OK)


def _recalc_one(path: Path, asked: str | None = None) -> tuple[str, list[str]]:
    """One file of `recalc`, in the language of that workbook (or the one `asked`)."""
    from keizer_xl.workbook import files as workbook

    _tune_gc()
    if asked is not None:
        _speaking[0] = asked
    else:
        _speak(path)
    outcome, lines = _attempt(lambda: workbook.recalc(path))
    if outcome is None:
        return "", lines
    after, count = outcome.standings.after_round, len(outcome.standings.rows)
    if outcome.written:
        head = _t("{file}: Standings updated (after round {round}, {count} players).",
                  file=path, round=after, count=count) if after else \
            _t("{file}: Standings updated (before round 1, {count} players).", file=path,
               count=count)
    else:
        head = _t("{file}: Standings already up to date (after round {round}, {count} "
                  "players).", file=path, round=after, count=count) if after else \
            _t("{file}: Standings already up to date (before round 1, {count} players).",
               file=path, count=count)
    extra = "".join("\n" + _t("Note: {note}", note=_said(n)) for n in outcome.notes)
    extra += "".join("\n" + _t("Warning: {caution}", caution=_said(line))
                     for line in outcome.standings.cautions)
    return head + extra, lines


def _run_batch(files: list[Path], jobs: int | None) -> list[tuple[str, list[str]]]:
    """Recalculate files, in parallel processes for large batches, with a progress bar."""
    if len(files) == 1:
        return [_recalc_one(files[0], _speaking[0])]
    from rich.progress import Progress

    asked = _told()

    workers = jobs or (os.cpu_count() or 1 if len(files) >= PARALLEL_FROM else 1)
    results: dict[int, tuple[str, list[str]]] = {}
    with Progress(console=_console(stderr=True), transient=True) as progress:
        _speak()
        task = progress.add_task(_t("Recalculating"), total=len(files))
        if workers == 1:
            for i, path in enumerate(files):
                results[i] = _recalc_one(path, asked)
                progress.advance(task)
        else:
            from concurrent.futures import ProcessPoolExecutor, as_completed

            with ProcessPoolExecutor(max_workers=workers) as pool:
                futures = {pool.submit(_recalc_one, path, asked): i
                           for i, path in enumerate(files)}
                for future in as_completed(futures):
                    results[futures[future]] = future.result()
                    progress.advance(task)
    return [results[i] for i in range(len(files))]


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
def check(file: Path) -> None:
    """Report the problems in FILE (with their cells); change nothing."""
    from keizer_xl.workbook import files as workbook

    _tune_gc()

    _speak(file)
    checked, lines = _attempt(lambda: workbook.inspect(file))
    if checked is None:
        sys.exit(_fail(lines))
    competition, notes = checked
    season = competition.season
    _say(_t("{file}: no problems found ({count} players, {rounds} rounds).", file=file,
            count=len(season.players), rounds=season.last_round))
    for note in notes:
        _note(note)


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--after", type=click.IntRange(0), default=None,
              help="Standings after this round (default: the last completed round).")
@click.option("--group", default=None,
              help="Only the players of this group (the Players column Group).")
def standings(file: Path, after: int | None, group: str | None) -> None:
    """Print the standings of FILE in the terminal (the file is not changed)."""
    from keizer_xl.core.final import final_order

    _tune_gc()

    competition, groups = _with_groups(file, group)
    if after is not None and after > competition.season.completed_rounds:
        sys.exit(_fail([_t("{file}: round {round} is not complete yet (the last complete "
                           "round is {last})", file=file, round=after,
                           last=competition.season.completed_rounds)]))
    final = final_order(competition.standings(after))
    table = final.standings
    title = _t("Standings after round {round}", round=table.after_round) \
        if table.after_round else _t("Initial ranking")
    if group:
        title = _t("{title}, group {group}", title=title, group=group)
    _print_standings(table, title, groups, final.short, group)


def _with_groups(file: Path, group: str | None) -> tuple[Any, dict[str, str]]:
    """The workbook's competition and each player's Group; exits when `group` has nobody."""
    from keizer_xl.workbook import files as workbook

    _speak(file)
    loaded, lines = _attempt(lambda: workbook.load_with_groups(file))
    if loaded is None:
        sys.exit(_fail(lines))
    competition, groups = loaded
    if group is not None and group.casefold() not in {g.casefold() for g in groups.values()}:
        known = sorted(set(groups.values()))
        sys.exit(_fail([_t("{file}: no player is in group '{group}' (the Players column Group "
                           "has {groups})", file=file, group=group, groups=", ".join(known))
                        if known else
                        _t("{file}: no player is in group '{group}' (the Players column Group "
                           "is empty or missing)", file=file, group=group)]))
    return competition, groups


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder to write to (default: FILE's name with _site, beside it).")
@click.option("--fragment", is_flag=True,
              help="Only the tables, without page frame, to paste into a club website.")
@click.option("--text", "as_text", is_flag=True,
              help="Print standings and pairings as plain text (for a group chat or e-mail).")
@click.option("--pdf", is_flag=True,
              help="standings.pdf and pairings.pdf (A4) for the notice board.")
@click.option("--group", default=None,
              help="The web pages of this group only (the Players column Group).")
def publish(file: Path, out: Path | None, fragment: bool, as_text: bool, pdf: bool,
            group: str | None) -> None:
    """Publish FILE's standings, pairings, crosstable and player cards as a small web site.

    The pages need nothing from the internet: open index.html, copy the folder to a USB
    stick or upload it to the club's web host. The file is not changed.
    """
    from keizer_xl.publish.book import competition_report, default_folder, workbook_report

    _tune_gc()
    only = None
    if group is not None:
        if as_text or pdf:
            raise click.UsageError(_t("--group goes with the web pages (not --text or --pdf)"))
        competition, groups = _with_groups(file, group)
        found: Any = competition_report(competition, _speaking[0])
        only = {n for n, g in groups.items() if g.casefold() == group.casefold()}
        found = (found[0], dataclasses.replace(
            found[1], competition=" · ".join(t for t in (found[1].competition,
                                                          _t("group {group}", group=group))
                                              if t)))
    else:
        language = _speak(file)
        found, lines = _attempt(lambda: workbook_report(file, language))
        if found is None:
            sys.exit(_fail(lines))
    report, titles = found
    folder = out if out is not None else default_folder(file)
    if as_text:
        from keizer_xl.publish.text import report_text

        click.echo(report_text(report, titles), nl=False)
    if pdf:
        from keizer_xl.publish.pdf import write_pdfs

        written, lines = _attempt(lambda: write_pdfs(report, titles, folder))
        if written is None:
            sys.exit(_fail(lines))
        _say(_t("Wrote {files}: A4, ready to print.", files=_t(" and ").join(
            str(p) for p in written)))
    if fragment or not (as_text or pdf):
        from keizer_xl.publish.site import build_site, write_site

        pages = build_site(report, titles, fragment=fragment, only=only)
        done, lines = _attempt(lambda: write_site(pages, folder))
        if done is None:
            sys.exit(_fail(lines))
        if fragment:
            _say(_t("Wrote {count} fragments to {folder}: paste their contents into your "
                    "website's editor (as HTML).", count=len(pages), folder=folder))
        else:
            values = {"folder": folder, "cards": len(pages) - 3,
                      "index": folder / "index.html"}
            _say(_t("Site written to {folder}: standings, pairings, crosstable and {cards} "
                    "player pages of group {group}. Open {index}.", group=group, **values)
                 if group else
                 _t("Site written to {folder}: standings, pairings, crosstable and {cards} "
                    "player pages. Open {index}.", **values))


@main.command()
@click.option("--folder", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              help="Where to write the demo workbook (default: here).")
def demo(folder: Path) -> None:
    """Play Keizer's own published example in a new workbook and print the standings."""
    from keizer_xl.cli.demo import run_demo

    language = _speak()
    _, lines = _attempt(lambda: run_demo(folder, _say, _print_round, _print_standings,
                                         language))
    if lines:
        sys.exit(_fail(lines))


def _add_commands() -> None:
    """Commands kept in their own modules, registered on the group."""
    from keizer_xl.cli.exchange import export, ratings
    from keizer_xl.cli.fixes import rename, unpair

    for command in (ratings, export, unpair, rename):
        main.add_command(command)


_add_commands()


if __name__ == "__main__":  # pragma: no cover
    main()
