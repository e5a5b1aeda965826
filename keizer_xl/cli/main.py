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
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from keizer_xl import __version__

T = TypeVar("T")
OK, PROBLEMS, USAGE = 0, 1, 2
LONG_ROUND = 80  # rows: a longer round is summed up rather than listed
PARALLEL_FROM = 8  # files; below this one process is quicker than starting workers


def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def _attempt(action: Callable[[], T]) -> tuple[T | None, list[str]]:
    """Run one file's work; return its result or the lines that explain what was wrong."""
    from keizer_xl.core.errors import KeizerXLError

    try:
        return action(), []
    except KeizerXLError as exc:
        return None, [str(exc)]
    except OSError as exc:
        return None, [f"{exc.filename or ''}: {exc.strerror or exc}"]
    except Exception as exc:  # a bug: say so plainly, without a traceback
        return None, [f"keizer-xl could not finish ({type(exc).__name__}: {exc}). "
                      "Your file was not changed. Please report this."]


@functools.cache
def _tune_gc() -> None:
    """Set the garbage collector for one short command, once pandas and keizer_xl are in.

    Reading a large season makes a few hundred thousand objects and hardly any garbage
    cycles, yet the collector, tuned for long-running programs, would walk them (and the
    imports' as many) hundreds of times: some 70 ms of a large pairing. The objects alive
    now are left out of its walks (`freeze`) and it runs every 50,000 new objects, not 700."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


def _say(line: str, err: bool = False) -> None:
    """Plain lines go through click (rich is imported only for progress bars and for the
    tables `_box_lines` leaves to it)."""
    click.echo(line, err=err)


def _fail(lines: list[str]) -> int:
    for line in lines:
        _say(line, err=True)
    return PROBLEMS


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="keizer-xl")
def main() -> None:
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
              "Ronden, ...). Default en; from last season's workbook, its language.")
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists.")
def new(file: Path, players_csv: Path | None, source: Path | None, order: str | None,
        language: str | None, force: bool) -> None:
    """Make a fresh competition workbook FILE (.xlsx, or .xlsm with the two buttons)."""
    suffix = file.suffix.lower()
    if suffix not in (".xlsx", ".xlsm"):
        raise click.UsageError(f"{file}: the name must end in .xlsx or .xlsm")
    if file.exists() and not force:
        sys.exit(_fail([f"{file} already exists; choose another name or add --force"]))
    if order is not None and (source is None or source.suffix.lower() not in SUFFIXES):
        raise click.UsageError("--order goes with --from last season's workbook")
    if source is not None:
        if players_csv is not None:
            raise click.UsageError("use --players or --from, not both")
        if source.suffix.lower() in SUFFIXES:
            _new_season(file, source, order or "rating", language)
        else:
            _new_from(file, source, language or "en")
        return
    language = language or "en"
    if players_csv is not None:
        from keizer_xl.exchange.members import new_from_members

        members, lines = _attempt(lambda: new_from_members(players_csv, file, language))
        if members is None:
            sys.exit(_fail(lines))
        count, own = len(members.players), [title for title, _ in members.own]
        kept = (f" and your own column{'s' if len(own) > 1 else ''} {', '.join(own)}"
                if own else "")
        _say(f"Made {file} with {count} players from {players_csv.name}{kept}. Tick who is "
             f"present in the Players sheet, then: keizer-xl pair {file}")
        return
    from keizer_xl.workbook.newbook import create

    _, lines = _attempt(lambda: create(file, [], language=language))
    if lines:
        sys.exit(_fail(lines))
    _say(f"Made {file}. Fill in the Players sheet, tick who is present, then: "
         f"keizer-xl pair {file}")


SUFFIXES = (".xlsx", ".xlsm")


def _new_season(file: Path, last: Path, order: str, language: str | None) -> None:
    """`new NEXT --from LAST.xlsx`: next season from last season's workbook."""
    from keizer_xl.exchange.nextseason import new_from_last

    _tune_gc()
    outcome, lines = _attempt(lambda: new_from_last(last, file, order, language))
    if outcome is None:
        sys.exit(_fail(lines))
    for note in outcome.notes:
        _say(f"Note: {note}")
    if outcome.left_out:
        _say("Left out (withdrew last season): " + ", ".join(outcome.left_out))
    what = "last season's final standings" if order == "standings" else "rating"
    _say(f"Made {file} from {last}: {outcome.players} players, ranked by {what}, with last "
         f"season's settings. Tick who is present, then: keizer-xl pair {file}")


def _new_from(file: Path, source: Path, language: str) -> None:
    """`new FILE --from SEASON.trf`: the season's players, rounds and standings."""
    if source.suffix.lower() not in (".trf", ".txt"):
        raise click.UsageError(f"{source}: --from takes last season's workbook (.xlsx, "
                               ".xlsm) or a TRF file (.trf)")
    from keizer_xl.exchange.trffiles import new_from_trf

    _tune_gc()
    made, lines = _attempt(lambda: new_from_trf(source, file, language))
    if made is None:
        sys.exit(_fail(lines))
    outcome, _ = made
    for note in outcome.notes:
        _say(f"Note: {note}")
    _say(f"Made {file} from {source}: {outcome.players} players, {outcome.rounds} rounds, "
         f"standings written. Next: keizer-xl pair {file}")


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

    outcome, lines = _attempt(lambda: workbook.pair(file))
    if outcome is None:
        sys.exit(_fail(lines))
    assert outcome.next_round is not None
    _print_round(outcome.next_round)
    for note in outcome.notes:
        _say(f"Note: {note}")
    _say(f"Round {outcome.next_round.round} written to {file}.")
    _warn(outcome)


def _warn(outcome: Any) -> None:
    """Things allowed but probably not meant, after the work is done (it is done)."""
    for line in outcome.standings.cautions:
        _say(f"Warning: {line}")


def _print_round(next_round: Any) -> None:
    """The new round as a table; a big club's round (hundreds of rows, which nobody reads
    in a terminal and which take rich a while to lay out) as a summary instead."""
    rows = [(str(g.board), g.white, g.black) for g in next_round.games]
    rows += [("", r.player, r.reason.value) for r in next_round.rests]
    if len(rows) <= LONG_ROUND:
        _print_table(f"Round {next_round.round}", ("Board", "White", "Black"), {"Board"}, rows)
        return
    games = len(next_round.games)
    byes = [r.player for r in next_round.rests if r.reason.value == "bye"]
    absent = len(next_round.rests) - len(byes)
    _say(f"Round {next_round.round}: {games} games (boards 1–{games})"
         + (f", bye for {byes[0]}" if byes else "") + f", {absent} absent. "
         "The full list is in the Rounds sheet.")


def _print_standings(standings: Any, title: str, groups: dict[str, str] | None = None,
                     short: Collection[str] = (), only: str | None = None) -> None:
    """The standings table; a Group column when players have groups (`only`: one group's
    rows); ranks marked * for players listed last for too few games."""
    from keizer_xl.workbook.contract import shown

    headers = ("#", "Name", *(("Group",) if groups else ()), "Score", "Value", "Pl", "W", "D",
               "L", "Bye", "Abs")
    rows = [(f"{row.rank}{'*' if row.name in short else ''}", row.name,
             *((groups.get(row.name, ""),) if groups else ()),
             "" if row.score is None else f"{shown(row.score)}",
             f"{shown(row.value)}", str(row.played), str(row.won), str(row.drawn),
             str(row.lost), str(row.byes), str(row.absent)) for row in standings.rows
            if only is None or (groups or {}).get(row.name, "").casefold() == only.casefold()]
    _print_table(title, headers, set(headers) - {"Name", "Group"}, rows)
    if standings.note:
        _say(f"Note: {standings.note}")


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
        _say(f"{len(files) - len(bad)} of {len(files)} workbooks recalculated"
             + (f", {len(bad)} with problems (listed above): {', '.join(map(str, bad))}"
                if bad else "")
             + ".")
    sys.exit(PROBLEMS if bad else OK)


def _recalc_one(path: Path) -> tuple[str, list[str]]:
    from keizer_xl.workbook import files as workbook

    _tune_gc()

    outcome, lines = _attempt(lambda: workbook.recalc(path))
    if outcome is None:
        return "", lines
    what = (f"after round {outcome.standings.after_round}" if outcome.standings.after_round
            else "before round 1")
    change = "Standings updated" if outcome.written else "Standings already up to date"
    extra = "".join(f"\nNote: {n}" for n in outcome.notes)
    extra += "".join(f"\nWarning: {line}" for line in outcome.standings.cautions)
    return f"{path}: {change} ({what}, {len(outcome.standings.rows)} players).{extra}", lines


def _run_batch(files: list[Path], jobs: int | None) -> list[tuple[str, list[str]]]:
    """Recalculate files, in parallel processes for large batches, with a progress bar."""
    if len(files) == 1:
        return [_recalc_one(files[0])]
    from rich.progress import Progress

    workers = jobs or (os.cpu_count() or 1 if len(files) >= PARALLEL_FROM else 1)
    results: dict[int, tuple[str, list[str]]] = {}
    with Progress(console=_console(stderr=True), transient=True) as progress:
        task = progress.add_task("Recalculating", total=len(files))
        if workers == 1:
            for i, path in enumerate(files):
                results[i] = _recalc_one(path)
                progress.advance(task)
        else:
            from concurrent.futures import ProcessPoolExecutor, as_completed

            with ProcessPoolExecutor(max_workers=workers) as pool:
                futures = {pool.submit(_recalc_one, path): i for i, path in enumerate(files)}
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

    checked, lines = _attempt(lambda: workbook.inspect(file))
    if checked is None:
        sys.exit(_fail(lines))
    competition, notes = checked
    season = competition.season
    _say(f"{file}: no problems found ({len(season.players)} players, "
                     f"{season.last_round} rounds).")
    for note in notes:
        _say(f"Note: {note}")


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
        sys.exit(_fail([f"{file}: round {after} is not complete yet (the last complete round "
                        f"is {competition.season.completed_rounds})"]))
    final = final_order(competition.standings(after))
    table = final.standings
    title = (f"Standings after round {table.after_round}" if table.after_round
             else "Initial ranking") + (f", group {group}" if group else "")
    _print_standings(table, title, groups, final.short, group)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("rating_list", metavar="LIST", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--all", "everyone", is_flag=True,
              help="Also change the players who have played (after round 1 is paired).")
def ratings(file: Path, rating_list: Path, everyone: bool) -> None:
    """Update the Rating column of FILE from the federation's rating LIST.

    LIST is the KNSB rating list (Relatienummer;Naam;...;Rating) or a FIDE rating list as
    CSV. Players match by the Players column KNSB id (or Relatienummer) or FIDE id first,
    then by name (`Vries, Anna de` is `Anna de Vries`). Only the Rating cells change.
    """
    from keizer_xl.exchange.ratingfiles import update_ratings

    _tune_gc()
    outcome, lines = _attempt(lambda: update_ratings(file, rating_list, everyone))
    if outcome is None:
        sys.exit(_fail(lines))
    for line in _ratings_report(outcome, file, rating_list):
        _say(line)


def _shown_rating(value: Any) -> str:
    from keizer_xl.workbook.contract import shown

    return str(shown(value)) if value else "none"


def _ratings_report(outcome: Any, file: Path, rating_list: Path) -> list[str]:
    """What `ratings` did, in the order a secretary checks it."""
    plan, places = outcome.plan, outcome.places
    listed = plan.rating_list
    found = len(plan.changes) + len(plan.same) + len(plan.kept) + len(plan.unrated)
    total = found + len(plan.missing) + len(plan.ambiguous)
    out = [f"{rating_list}: {listed.kind} rating list; {found} of {total} players found."]

    def how(match: Any) -> str:
        if match.how == "id":
            return f"{listed.id_column} {match.entry.id}"
        return f"by name: line {match.entry.line}, '{match.entry.name}'"

    if plan.changes:
        out.append("Changed:")
        out += [f"  {m.player.name}: {_shown_rating(m.player.rating)} → "
                f"{_shown_rating(m.entry.rating)} ({how(m)})" for m in plan.changes]
    if plan.by_name:
        out.append("Matched by name only; check that these are the same people:")
        out += [f"  {places[m.player.name]}: {m.player.name} = line {m.entry.line} "
                f"'{m.entry.name}'" + (f" ({listed.id_column} {m.entry.id})"
                                       if m.entry.id else "") for m in plan.by_name]
    if plan.missing:
        out.append(f"Not in the list (add their {listed.id_column} to the Players sheet, or "
                   "check the spelling):")
        out += [f"  {places[p.name]}: {p.name}" for p in plan.missing]
    if plan.ambiguous:
        out.append("More than one line fits; not changed (add their "
                   f"{listed.id_column} to the Players sheet):")
        out += [f"  {places[p.name]}: {p.name}: lines "
                + ", ".join(f"{e.line} '{e.name}'" for e in entries)
                for p, entries in plan.ambiguous]
    if plan.unrated:
        out.append("In the list without a rating; not changed:")
        out += [f"  {m.player.name}: line {m.entry.line}" for m in plan.unrated]
    if plan.kept:
        out.append(f"Round 1 is paired, so the ratings have set the initial ranking: "
                   f"{len(plan.kept)} player{'s' if len(plan.kept) != 1 else ''} who "
                   "played keep their rating (add --all to change them too):")
        out += [f"  {m.player.name}: {_shown_rating(m.player.rating)} (list: "
                f"{_shown_rating(m.entry.rating)})" for m in plan.kept]
    if outcome.written:
        out.append(f"{len(plan.changes)} rating{'s' if len(plan.changes) != 1 else ''} "
                   f"written to {file}. Then: keizer-xl recalc {file}")
    else:
        out.append(f"Nothing to change in {file}.")
    return out


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--trf", "trf", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Write a FIDE TRF-16 report of the season to this file.")
@click.option("--name", default=None,
              help="The competition's name in the report (default: the file's name).")
def export(file: Path, trf: Path, name: str | None) -> None:
    """Write the season of FILE for other programs (the file is not changed).

    The TRF report holds every completed round: each player's starting number (place on
    the Players sheet), rating, FIDE id where known, game points and Keizer rank, and per
    round the opponent, colour and result; byes as U, absences as Z.
    """
    from keizer_xl.exchange.trffiles import export_trf

    _tune_gc()
    outcome, lines = _attempt(lambda: export_trf(file, trf, name))
    if outcome is None:
        sys.exit(_fail(lines))
    for note in outcome.notes:
        _say(f"Note: {note}")
    _say(f"Wrote {trf}: {outcome.players} players, {outcome.rounds} rounds (TRF-16).")


def _with_groups(file: Path, group: str | None) -> tuple[Any, dict[str, str]]:
    """The workbook's competition and each player's Group; exits when `group` has nobody."""
    from keizer_xl.workbook import files as workbook

    loaded, lines = _attempt(lambda: workbook.load_with_groups(file))
    if loaded is None:
        sys.exit(_fail(lines))
    competition, groups = loaded
    if group is not None and group.casefold() not in {g.casefold() for g in groups.values()}:
        known = sorted(set(groups.values()))
        sys.exit(_fail([f"{file}: no player is in group '{group}' (the Players column Group"
                        + (f" has {', '.join(known)})" if known else " is empty or missing)")]))
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
            raise click.UsageError("--group goes with the web pages (not --text or --pdf)")
        competition, groups = _with_groups(file, group)
        found: Any = competition_report(competition)
        only = {n for n, g in groups.items() if g.casefold() == group.casefold()}
        found = (found[0], dataclasses.replace(
            found[1], competition=" · ".join(t for t in (found[1].competition,
                                                          f"group {group}") if t)))
    else:
        found, lines = _attempt(lambda: workbook_report(file))
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
        _say(f"Wrote {' and '.join(str(p) for p in written)}: A4, ready to print.")
    if fragment or not (as_text or pdf):
        from keizer_xl.publish.site import build_site, write_site

        pages = build_site(report, titles, fragment=fragment, only=only)
        done, lines = _attempt(lambda: write_site(pages, folder))
        if done is None:
            sys.exit(_fail(lines))
        if fragment:
            _say(f"Wrote {len(pages)} fragments to {folder}: paste their contents into your "
                 "website's editor (as HTML).")
        else:
            cards = len(pages) - 3
            whose = f" of group {group}" if group else ""
            _say(f"Site written to {folder}: standings, pairings, crosstable and {cards} "
                 f"player pages{whose}. Open {folder / 'index.html'}.")


@main.command()
@click.option("--folder", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              help="Where to write the demo workbook (default: here).")
def demo(folder: Path) -> None:
    """Play Keizer's own published example in a new workbook and print the standings."""
    from keizer_xl.cli.demo import run_demo

    _, lines = _attempt(lambda: run_demo(folder, _say, _print_round, _print_standings))
    if lines:
        sys.exit(_fail(lines))


def _add_commands() -> None:
    """Commands kept in their own modules, registered on the group."""
    from keizer_xl.cli.fixes import rename, unpair

    main.add_command(unpair)
    main.add_command(rename)


_add_commands()


if __name__ == "__main__":  # pragma: no cover
    main()
