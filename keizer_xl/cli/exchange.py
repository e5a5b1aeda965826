"""Files of the chess world: ratings from the federation's list, the season as a TRF
report for other programs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from keizer_xl.cli.prelude import perform, read_as_saved
from keizer_xl.cli.speech import note, said, say, speak, t, typed


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("rating_list", metavar="LIST", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--all",
    "everyone",
    is_flag=True,
    help="Also change the players who have played (after round 1 is paired).",
)
def ratings(file: Path, rating_list: Path, everyone: bool) -> None:
    """Update the Rating column of FILE from the federation's rating LIST.

    LIST is the KNSB rating list (Relatienummer;Naam;...;Rating), the DSB's DWZ list
    (ZPS,Mgl-Nr,...,Spielername,...,DWZ or the newer ZPS,Mitgliedsnummer,...,Nachname,
    Vorname,...,DWZ) or a FIDE rating list as CSV. Players match by the Players column KNSB
    id (or Relatienummer) or FIDE id first, then by ZPS and Member number, then by name
    (`Vries, Anna de` is `Anna de Vries`). Only the Rating cells change.
    """
    from keizer_xl.exchange.ratingfiles import update_ratings

    speak(file)
    outcome = perform(lambda: update_ratings(file, rating_list, everyone))
    for line in _ratings_report(outcome, file, rating_list):
        say(line)


def _shown_rating(value: Any) -> str:
    from keizer_xl.workbook.cells import shown

    return str(shown(value)) if value else t("none")


def _ratings_report(outcome: Any, file: Path, rating_list: Path) -> list[str]:
    """What `ratings` did, in the order a secretary checks it."""
    plan, places = outcome.plan, outcome.places
    listed = plan.rating_list
    found = len(plan.changes) + len(plan.same) + len(plan.kept) + len(plan.unrated)
    total = found + len(plan.missing) + len(plan.ambiguous)
    out = [
        t(
            "{list}: {kind} rating list; {found} of {count} players found.",
            list=rating_list,
            kind=listed.kind,
            found=found,
            count=total,
        )
    ]
    column = listed.id_column

    def how(match: Any) -> str:
        if match.how == "id":
            return f"{column} {match.entry.id}"
        if match.how == "member":  # as the list's own headers say it: ZPS C0327, Mgl-Nr 17
            club, number = match.entry.member.split("/", 1)
            return f"{listed.headers['club']} {club}, {listed.headers['member']} {number}"
        return t("by name: line {line}, '{name}'", line=match.entry.line, name=match.entry.name)

    def place(name: str) -> str:
        return said(places[name])

    if plan.changes:
        out.append(t("Changed:"))
        out += [
            f"  {m.player.name}: {_shown_rating(m.player.rating)} → "
            f"{_shown_rating(m.entry.rating)} ({how(m)})"
            for m in plan.changes
        ]
    if plan.by_name:
        out.append(t("Matched by name only; check that these are the same people:"))
        out += [
            f"  {place(m.player.name)}: {m.player.name} = "
            + t("line {line}", line=m.entry.line)
            + f" '{m.entry.name}'"
            + (f" ({column} {m.entry.id})" if m.entry.id else "")
            for m in plan.by_name
        ]
    if plan.missing:
        out.append(
            t(
                "Not in the list (add their {column}, or {club} and {member}, to the "
                "Players sheet, or check the spelling):",
                column=column,
                club=listed.headers["club"],
                member=listed.headers["member"],
            )
            if {"club", "member"} <= set(listed.headers)
            else t(
                "Not in the list (add their {column} to the Players sheet, or check the spelling):",
                column=column,
            )
        )
        out += [f"  {place(p.name)}: {p.name}" for p in plan.missing]
    if plan.ambiguous:
        out.append(
            t(
                "More than one line fits; not changed (add their {column} to the Players sheet):",
                column=column,
            )
        )
        out += [
            f"  {place(p.name)}: {p.name}: "
            + t("lines {lines}", lines=", ".join(f"{e.line} '{e.name}'" for e in entries))
            for p, entries in plan.ambiguous
        ]
    if plan.unrated:
        out.append(t("In the list without a rating; not changed:"))
        out += [f"  {m.player.name}: " + t("line {line}", line=m.entry.line) for m in plan.unrated]
    if plan.kept:
        out.append(
            t(
                "Round 1 is paired, so the ratings have set the initial ranking: 1 player "
                "who played keeps their rating (add --all to change it too):"
            )
            if len(plan.kept) == 1
            else t(
                "Round 1 is paired, so the ratings have set the initial ranking: {count} "
                "players who played keep their rating (add --all to change them too):",
                count=len(plan.kept),
            )
        )
        out += [
            f"  {m.player.name}: {_shown_rating(m.player.rating)} ("
            + t("list: {rating}", rating=_shown_rating(m.entry.rating))
            + ")"
            for m in plan.kept
        ]
    if outcome.written:
        out.append(
            t("1 rating written to {file}. Then: keizer-xl recalc {file}", file=typed(file))
            if len(plan.changes) == 1
            else t(
                "{count} ratings written to {file}. Then: keizer-xl recalc {file}",
                count=len(plan.changes),
                file=typed(file),
            )
        )
    else:
        out.append(t("Nothing to change in {file}.", file=file))
    return out


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--trf",
    "trf",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="Write a FIDE TRF-16 report of the season to this file.",
)
@click.option(
    "--name", default=None, help="The competition's name in the report (default: the file's name)."
)
def export(file: Path, trf: Path, name: str | None) -> None:
    """Write the season of FILE for other programs (the file is not changed).

    The TRF report holds every completed round: each player's starting number (place on
    the Players sheet), rating, FIDE id where known, game points and Keizer rank, and per
    round the opponent, colour and result; byes as U, absences as Z.
    """
    from keizer_xl.exchange.trffiles import export_trf

    speak(file)
    read_as_saved(file)
    outcome = perform(lambda: export_trf(file, trf, name))
    for line in outcome.notes:
        note(line)
    say(
        t(
            "Wrote {file}: {count} players, {rounds} rounds (TRF-16).",
            file=trf,
            count=outcome.players,
            rounds=outcome.rounds,
        )
    )
