"""The season's commands on one workbook: `new`, `pair`, `check`, `standings` and
`publish`, and the `demo`; the command group (`main`) loads each only when it runs."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from keizer_xl.cli.prelude import perform, read_as_saved, refuse
from keizer_xl.cli.speech import note, said, say, speak, speaking, t, told, typed
from keizer_xl.cli.tables import print_round, print_standings
from keizer_xl.i18n import LANGUAGES


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--players",
    "players_csv",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The club's member list (CSV or XLSX) with a Name (Naam) "
    "column; Rating, Joined, Left read too, other columns kept as your own.",
)
@click.option(
    "--from",
    "source",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Start from last season's workbook (.xlsx/.xlsm), from a TRF file (.trf) "
    "of a season played elsewhere, or from a KeizerForClubs tournament (.s3db).",
)
@click.option(
    "--order",
    type=click.Choice(["rating", "standings"]),
    default=None,
    help="With --from last season's workbook: initial ranking by rating (default) "
    "or by last season's final standings.",
)
@click.option(
    "--lang",
    "language",
    type=click.Choice(LANGUAGES),
    default=None,
    help="The workbook's language: en (Players, Rounds, ...), nl (Spelers, Ronden, "
    "...), de (Spieler, Runden, ...) or it (Giocatori, Turni, ...). Default: the "
    "global --lang or KEIZER_XL_LANG, else en; from last season's workbook, its "
    "language.",
)
@click.option(
    "--lite",
    is_flag=True,
    help="An .xlsx with buttons for xlwings Lite (Excel on a Mac, on the web, or "
    "where nothing may be installed); then see: keizer-xl lite FILE.",
)
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists.")
def new(
    file: Path,
    players_csv: Path | None,
    source: Path | None,
    order: str | None,
    language: str | None,
    lite: bool,
    force: bool,
) -> None:
    """Make a fresh competition workbook FILE: an .xlsx, or an .xlsm with the buttons Pair
    next round, Recalculate, Undo last pairing and Publish (for Excel); with --lite, an
    .xlsx with those buttons for xlwings Lite."""
    speak(workbook=language)
    suffix = file.suffix.lower()
    if suffix not in (".xlsx", ".xlsm"):
        raise click.UsageError(t("{file}: the name must end in .xlsx or .xlsm", file=file))
    if lite and suffix != ".xlsx":
        raise click.UsageError(
            t("{file}: a workbook for xlwings Lite is an .xlsx (it needs no macros)", file=file)
        )
    if file.exists() and not force:
        refuse([t("{file} already exists; choose another name or add --force", file=file)])
    if order is not None and (source is None or source.suffix.lower() not in SUFFIXES):
        raise click.UsageError(t("--order goes with --from last season's workbook"))
    if source is not None:
        if players_csv is not None:
            raise click.UsageError(t("use --players or --from, not both"))
        from keizer_xl.cli import kfc

        if source.suffix.lower() in SUFFIXES:
            _new_season(file, source, order or "rating", language, lite)
        elif source.suffix.lower() in kfc.SUFFIXES:
            kfc.new_from_kfc(file, source, language or told(), lite)
        else:
            _new_from(file, source, language or told(), lite)
        _lite_next(file, lite)
        return
    language = language or told() or "en"  # the language asked for makes the workbook
    if players_csv is not None:
        from keizer_xl.exchange.members import new_from_members, reading

        members = perform(lambda: new_from_members(players_csv, file, language, lite))
        read_as = "; ".join(said(part) for part in reading(members))
        say(f"{read_as[:1].upper()}{read_as[1:]}.")
        count, own = len(members.players), [title for title, _ in members.own]
        values = {
            "file": typed(file),
            "count": count,
            "list": players_csv.name,
            "columns": ", ".join(own),
        }
        say(
            t(
                "Made {file} with {count} players from {list}. Tick who is present in the "
                "Players sheet, then: keizer-xl pair {file}",
                **values,
            )
            if not own
            else t(
                "Made {file} with {count} players from {list} and your own column "
                "{columns}. Tick who is present in the Players sheet, then: keizer-xl pair "
                "{file}",
                **values,
            )
            if len(own) == 1
            else t(
                "Made {file} with {count} players from {list} and your own columns "
                "{columns}. Tick who is present in the Players sheet, then: keizer-xl pair "
                "{file}",
                **values,
            )
        )
        _lite_next(file, lite)
        return
    from keizer_xl.workbook.newbook import create

    perform(lambda: create(file, [], language=language, lite=lite))
    say(
        t(
            "Made {file}. Fill in the Players sheet, tick who is present, then: keizer-xl "
            "pair {file}",
            file=typed(file),
        )
    )
    _lite_next(file, lite)


def _lite_next(file: Path, lite: bool) -> None:
    """After making a workbook for xlwings Lite: how its buttons come to work."""
    if lite:
        say(
            t(
                "It carries the code of its buttons for xlwings Lite: open it in Excel, add "
                "xlwings Lite (Home ▸ Add-ins), open it and trust the workbook. keizer-xl lite "
                "{file} shows the code.",
                file=typed(file),
            )
        )


SUFFIXES = (".xlsx", ".xlsm")


def _new_season(
    file: Path, last: Path, order: str, language: str | None, lite: bool = False
) -> None:
    """`new NEXT --from LAST.xlsx`: next season from last season's workbook."""
    from keizer_xl.exchange.nextseason import new_from_last

    if language is None:
        speak(last)
    read_as_saved(last)
    outcome = perform(lambda: new_from_last(last, file, order, language, lite))
    for line in outcome.notes:
        note(line)
    if outcome.left_out:
        say(t("Left out (withdrew last season): {names}", names=", ".join(outcome.left_out)))
    values = {"file": typed(file), "last": last, "count": outcome.players}
    say(
        t(
            "Made {file} from {last}: {count} players, ranked by last season's final "
            "standings, with last season's settings. Tick who is present, then: keizer-xl "
            "pair {file}",
            **values,
        )
        if order == "standings"
        else t(
            "Made {file} from {last}: {count} players, ranked by rating, with last season's "
            "settings. Tick who is present, then: keizer-xl pair {file}",
            **values,
        )
    )


def _new_from(file: Path, source: Path, language: str | None, lite: bool = False) -> None:
    """`new FILE --from SEASON.trf`: the season's players, rounds and standings."""
    if source.suffix.lower() not in (".trf", ".txt"):
        raise click.UsageError(
            t(
                "{file}: --from takes a KeizerForClubs tournament (.s3db), "
                "last season's workbook (.xlsx, .xlsm) or a TRF file (.trf)",
                file=source,
            )
        )
    from keizer_xl.cli.kfc import made_from
    from keizer_xl.exchange.trffiles import new_from_trf

    made_from(perform(lambda: new_from_trf(source, file, language, lite))[0], file, source)


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
def pair(file: Path) -> None:
    """Pair the next round in FILE, as the "Pair next round" button does.

    Checks the workbook, computes the standings after the last round (every result must
    be in), pairs the players marked present, appends the round to the Rounds sheet with
    the bye and absence rows, and rewrites the Standings sheet.
    """
    from keizer_xl.workbook import files as workbook

    speak(file)
    outcome = perform(lambda: workbook.pair(file), lambda error: _take_back(error, file))
    assert outcome.next_round is not None
    print_round(outcome.next_round)
    for line in outcome.notes:
        note(line)
    say(t("Round {round} written to {file}.", round=outcome.next_round.round, file=file))
    _warn(outcome)


def _take_back(error: BaseException, file: Path) -> list[str]:
    """After `pair` refused a round that is paired and has no results: the command that
    takes it back."""
    from keizer_xl.core.round import RoundNotPlayed

    cause = error.__cause__
    if not isinstance(cause, RoundNotPlayed):
        return []
    return [
        t(
            "To take round {round} back: keizer-xl unpair {file}",
            round=cause.round,
            file=typed(file),
        )
    ]


def _warn(outcome: Any) -> None:
    """Things allowed but probably not meant, after the work is done (it is done)."""
    _warnings(outcome.standings.cautions)


def _warnings(lines: Any, err: bool = False) -> None:
    """Warnings, each with its cell (on stderr when stdout carries what is published)."""
    for line in lines:
        say(t("Warning: {caution}", caution=said(line)), err=err)


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
def check(file: Path) -> None:
    """Report the problems in FILE (with their cells); change nothing."""
    from keizer_xl.workbook import files as workbook

    speak(file)
    competition, outcome = perform(lambda: workbook.inspect(file))
    season = competition.season
    values = {
        "file": file,
        "count": len(season.players),
        "rounds": season.last_round,
        "warnings": len(outcome.standings.cautions),
    }
    if not values["warnings"]:
        say(t("{file}: no problems found ({count} players, {rounds} rounds).", **values))
    elif values["warnings"] == 1:  # first the count, never "no problems" above a warning
        say(
            t(
                "{file}: 1 warning, below; nothing refused ({count} players, {rounds} rounds).",
                **values,
            )
        )
    else:
        say(
            t(
                "{file}: {warnings} warnings, below; nothing refused ({count} players, "
                "{rounds} rounds).",
                **values,
            )
        )
    for line in outcome.notes:
        note(line)
    _warn(outcome)


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--after",
    type=click.IntRange(0),
    default=None,
    help="Standings after this round (default: the last completed round).",
)
@click.option(
    "--group", default=None, help="Only the players of this group (the Players column Group)."
)
@click.option(
    "--try",
    "trials",
    multiple=True,
    metavar="SETTING=VALUE",
    help="What if: the standings now and with this setting changed, side by side "
    "(repeat it to try several; the setting's name as the Settings sheet writes "
    "it). The file is not changed.",
)
def standings(file: Path, after: int | None, group: str | None, trials: tuple[str, ...]) -> None:
    """Print the standings of FILE in the terminal (the file is not changed)."""
    from keizer_xl.core.final import final_order

    competition, groups, _ = _with_groups(file, group)
    if trials:
        _what_if(file, after, group, groups, trials)
        return
    if after is not None and after > competition.season.completed_rounds:
        refuse(
            [
                t(
                    "{file}: round {round} is not complete yet (the last complete round is {last})",
                    file=file,
                    round=after,
                    last=competition.season.completed_rounds,
                )
            ]
        )
    final = final_order(competition.standings(after))
    table = final.standings
    title = (
        t("Standings after round {round}", round=table.after_round)
        if table.after_round
        else t("Initial ranking")
    )
    if group:
        title = t("{title}, group {group}", title=title, group=group)
    print_standings(table, title, groups, final.short, group)


def _what_if(
    file: Path,
    after: int | None,
    group: str | None,
    groups: dict[str, str],
    trials: tuple[str, ...],
) -> None:
    """`standings --try`: the standings now and with the tried settings, side by side."""
    from keizer_xl.cli.tables import print_tried
    from keizer_xl.core.final import final_order
    from keizer_xl.i18n.names import local_setting
    from keizer_xl.workbook.whatif import tried

    trial = perform(lambda: tried(file, trials))
    completed = trial.now.season.completed_rounds
    if after is not None and after > completed:
        refuse(
            [
                t(
                    "{file}: round {round} is not complete yet (the last complete round is {last})",
                    file=file,
                    round=after,
                    last=completed,
                )
            ]
        )
    now = final_order(trial.now.standings(after)).standings
    with_them = final_order(trial.tried.standings(after)).standings
    title = (
        t("Standings after round {round}", round=now.after_round)
        if now.after_round
        else t("Initial ranking")
    )
    if group:
        title = t("{title}, group {group}", title=title, group=group)
    changes = ", ".join(
        f"{local_setting(name, trial.language)} {value}" for name, value in trial.settings
    )
    print_tried(
        now,
        with_them,
        t("{title}: now and with {changes}", title=title, changes=changes),
        groups,
        group,
    )
    say(t("Nothing was written: {file} is as it was.", file=file))


def _with_groups(file: Path, group: str | None) -> tuple[Any, dict[str, str], tuple[str, ...]]:
    """The workbook's competition, each player's Group and the warnings; exits when `group`
    has nobody."""
    from keizer_xl.workbook import files as workbook

    speak(file)
    read_as_saved(file)
    competition, groups, warnings = perform(lambda: workbook.load_with_groups(file))
    if group is not None and group.casefold() not in {g.casefold() for g in groups.values()}:
        known = sorted(set(groups.values()))
        refuse(
            [
                t(
                    "{file}: no player is in group '{group}' (the Players column Group "
                    "has {groups})",
                    file=file,
                    group=group,
                    groups=", ".join(known),
                )
                if known
                else t(
                    "{file}: no player is in group '{group}' (the Players column Group "
                    "is empty or missing)",
                    file=file,
                    group=group,
                )
            ]
        )
    return competition, groups, warnings


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder to write to (default: FILE's name with _site, beside it).",
)
@click.option(
    "--fragment",
    is_flag=True,
    help="Only the tables, without page frame, to paste into a club website.",
)
@click.option(
    "--text",
    "as_text",
    is_flag=True,
    help="Print standings and pairings as plain text (for a group chat or e-mail).",
)
@click.option(
    "--pdf", is_flag=True, help="standings.pdf and pairings.pdf (A4) for the notice board."
)
@click.option(
    "--group", default=None, help="The web pages of this group only (the Players column Group)."
)
def publish(
    file: Path, out: Path | None, fragment: bool, as_text: bool, pdf: bool, group: str | None
) -> None:
    """Publish FILE's standings, pairings, crosstable and player cards as a small web site.

    The pages need nothing from the internet: open index.html, copy the folder to a USB
    stick or upload it to the club's web host. The file is not changed.
    """
    from keizer_xl.publish.book import competition_report, default_folder
    from keizer_xl.workbook import files as workbook

    only = None
    notes: Sequence[str] = ()
    if group is not None:
        if as_text or pdf:
            raise click.UsageError(t("--group goes with the web pages (not --text or --pdf)"))
        competition, groups, warnings = _with_groups(file, group)
        found: Any = competition_report(competition, speaking())
        only = {n for n, g in groups.items() if g.casefold() == group.casefold()}
        found = (
            found[0],
            dataclasses.replace(
                found[1],
                competition=" · ".join(
                    part for part in (found[1].competition, t("group {group}", group=group)) if part
                ),
            ),
        )
    else:
        language = speak(file)
        competition, outcome = perform(lambda: workbook.survey(file))
        found = competition_report(competition, language)
        warnings, notes = outcome.standings.cautions, outcome.notes
    report, titles = found
    folder = out if out is not None else default_folder(file)
    if as_text:
        from keizer_xl.publish.text import report_text

        click.echo(report_text(report, titles), nl=False)
    if pdf:
        from keizer_xl.publish.pdf import unprintable, write_pdfs

        written = perform(lambda: write_pdfs(report, titles, folder))
        say(t("Wrote {files}: A4, ready to print.", files=t(" and ").join(str(p) for p in written)))
        lacking = unprintable(report)
        if lacking:
            note(
                t(
                    "no font on this computer has every letter of {names}: the PDFs show "
                    "those letters as empty boxes. Install a font that has them (such as "
                    "Noto Sans CJK) and publish again.",
                    names=", ".join(lacking),
                )
            )
    if fragment or not (as_text or pdf):
        from keizer_xl.publish.site import build_site, write_site

        pages = build_site(report, titles, fragment=fragment, only=only)
        perform(lambda: write_site(pages, folder))
        if fragment:
            say(
                t(
                    "Wrote {count} fragments to {folder}: paste their contents into your "
                    "website's editor (as HTML).",
                    count=len(pages),
                    folder=folder,
                )
            )
        else:
            values = {"folder": folder, "cards": len(pages) - 3, "index": folder / "index.html"}
            say(
                t(
                    "Site written to {folder}: standings, pairings, crosstable and {cards} "
                    "player pages of group {group}. Open {index}.",
                    group=group,
                    **values,
                )
                if group
                else t(
                    "Site written to {folder}: standings, pairings, crosstable and {cards} "
                    "player pages. Open {index}.",
                    **values,
                )
            )
    for line in notes:  # what to know before sharing it (beside the text: on stderr)
        say(t("Note: {note}", note=said(line)), err=as_text)
    _unfinished(report, err=as_text)
    _warnings(warnings, err=as_text)


def _unfinished(report: Any, err: bool) -> None:
    """Published standings leave out a round that is not complete: say so, so that nobody
    takes them for the standings after it (the warnings name its games without a result)."""
    season, after = report.season, report.after_round
    if season.last_round <= after:
        return
    standings = t("Standings after round {round}", round=after) if after else t("Initial ranking")
    say(
        t(
            "{standings}; round {round} is paired, its results are not typed yet.",
            standings=standings,
            round=season.last_round,
        )
        if season.awaiting_results
        else t(
            "{standings}: round {round} is not complete yet, so it is left out until every "
            "result is in.",
            standings=standings,
            round=season.last_round,
        ),
        err=err,
    )


@click.command()
@click.option(
    "--folder",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    help="Where to write the demo workbook (default: here).",
)
def demo(folder: Path) -> None:
    """Play Keizer's own published example in a new workbook and print the standings."""
    from keizer_xl.cli.demo import run_demo

    language = speak()
    perform(lambda: run_demo(folder, say, print_round, print_standings, language))
