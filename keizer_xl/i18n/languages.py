"""The languages keizer_xl speaks and writes workbooks in, one record each; English is the
code's own.

A record holds everything of a language that is not a sentence (those live in its gettext
catalog): the workbook's names (sheets, headers, buttons, settings), the words of bye and
absence rows, the present mark, the decimal and colour marks, and the headers of that
country's member lists and federation rating list. Another language is one record here and
one catalog; the lookups of `i18n.names`, the number formatter and the file doors of
`exchange` are derived from the records.

A module of its own, importing nothing of keizer_xl, so that the name tables, the package's
face and the command's `--lang` choices can all read it cheaply (the rest words are keyed
by the `core.model.Absence` values, not the enum, for that reason).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

DOMAIN = "keizer_xl"
LOCALE = Path(__file__).parent / "locale"


class RatingListHeaders(NamedTuple):
    """The headers of a federation's rating list (matched as letters and digits, case
    ignored): its ids fill the Players column `<federation> id`, or `id_column`."""

    federation: str  # "KNSB", "FIDE", "DSB": the list's kind
    marks: tuple[str, ...]  # header beginnings that make a list this federation's (none:
    # the international list, read when no header marks another)
    ids: tuple[str, ...]
    names: tuple[str, ...]  # one column, `Last, First` or `First Last`
    ratings: tuple[str, ...]  # the preferred one first, when a list has several
    id_column: str = ""  # the Players column its ids fill, when not `<federation> id`
    last_names: tuple[str, ...] = ()  # a name in two columns, when there is no `names` one
    first_names: tuple[str, ...] = ()
    clubs: tuple[str, ...] = ()  # a member known by his club's code and his number in it
    members: tuple[str, ...] = ()

    @property
    def players_column(self) -> str:
        """The Players column whose ids match the list's ids."""
        return self.id_column or f"{self.federation} id"


class Language(NamedTuple):
    """One language: its code, its name, and every word of a workbook in it. English keeps
    the contract's names: its `names`, `settings` and `rest_words` are empty."""

    code: str  # ISO 639-1: `--lang`, KEIZER_XL_LANG and the catalog's folder
    name: str  # as its speakers write it (the docs' tables)
    names: Mapping[str, str]  # sheets, headers, buttons' captions: contract's -> its own
    settings: Mapping[str, str]  # the Settings sheet's names: contract's -> its own
    rest_words: Mapping[str, str]  # a bye or absence row: Absence value -> its word
    present_mark: str  # what the Present dropdown offers first
    decimal_mark: str  # 153.33 or 153,33 on the pages, chat text, PDFs and terminal
    colour_marks: tuple[str, str]  # white, black, as its players abbreviate them
    member_headers: Mapping[str, tuple[str, ...]]  # Players column -> a list's headers;
    # `FIDE rating` is the rating only where a list has no national one (else kept as own)
    name_parts: Mapping[str, tuple[str, ...]]  # first, infix, last -> a list's headers (a
    # header that is also a `Name` one is a part beside the other part: Name;Vorname)
    rating_list: RatingListHeaders | None  # its federation's list (None: FIDE's is read)

    @property
    def catalog(self) -> Path | None:
        """The gettext catalog of its sentences (English has none: the ids are English)."""
        return None if self.code == "en" else LOCALE / self.code / "LC_MESSAGES" / f"{DOMAIN}.po"


ENGLISH = Language(
    code="en",
    name="English",
    names={},
    settings={},
    rest_words={},
    present_mark="x",
    decimal_mark=".",
    colour_marks=("w", "b"),
    member_headers={
        "Name": ("Name", "Player", "Full name"),
        "Rating": ("Rating", "Rtg", "National rating"),
        "FIDE rating": ("FIDE rating", "Elo", "FIDE Elo", "Elo FIDE"),
        "Joined": ("Joined", "From round"),
        "Left": ("Left", "Until round"),
        "Present": ("Present",),
    },
    name_parts={
        "first": ("First name", "Firstname", "Given name"),
        "infix": ("Infix",),
        "last": ("Last name", "Lastname", "Surname", "Family name"),
    },
    # FIDE's lists are in English, and read whatever the workbook's language.
    rating_list=RatingListHeaders(
        federation="FIDE",
        marks=(),
        ids=("FIDE id", "ID Number", "FIDE nr", "FIDE number", "ID"),
        names=("Name", "Player", "Player name"),
        ratings=(
            "Rating",
            "SRtng",
            "Std",
            "Standard",
            "Standard rating",
            "FIDE rating",
            "Elo",
            "Rtg",
        ),
    ),
)

DUTCH = Language(
    code="nl",
    name="Nederlands",
    names={
        # sheets
        "Players": "Spelers",
        "Rounds": "Ronden",
        "Standings": "Stand",
        "Settings": "Instellingen",
        "Pairings": "Indeling",
        "Crosstable": "Kruistabel",
        "Progress": "Verloop",
        # Players and Rounds
        "Name": "Naam",
        "Rating": "Rating",
        "Joined": "Vanaf ronde",
        "Left": "Tot ronde",
        "Present": "Aanwezig",
        "Group": "Groep",
        "Round": "Ronde",
        "Board": "Bord",
        "White": "Wit",
        "Black": "Zwart",
        "Result": "Uitslag",
        # Standings
        "Rank": "Plaats",
        "Score": "Score",
        "Value": "Waarde",
        "Played": "Gespeeld",
        "Won": "Gewonnen",
        "Drawn": "Remise",
        "Lost": "Verloren",
        "Byes": "Vrij",
        "Absent": "Afwezig",
        "Own": "Eigen",
        "Game points": "Partijpunten",
        "Percentage": "Percentage",
        "Colour balance": "Kleursaldo",
        "Change": "Verschil",
        "withdrawn": "teruggetrokken",
        # Settings
        "Setting": "Instelling",
        "Default": "Standaard",
        "What it does": "Uitleg",
        # Pairings, and the buttons' captions
        "Bye": "Vrij",
        "Pair next round": "Volgende ronde indelen",
        "Recalculate": "Herberekenen",
        "Undo last pairing": "Laatste indeling terugdraaien",
        "Publish": "Publiceren",
    },
    settings={
        "Top value": "Topwaarde",
        "Step": "Stap",
        "Initial order": "Beginvolgorde",
        "Bye": "Vrije ronde",
        "Excused absence": "Afwezig met bericht",
        "Club duty": "Clubverplichting",
        "Unexcused absence": "Afwezig zonder bericht",
        "Default absence": "Standaard afwezigheid",
        "Forfeit win": "Reglementaire winst",
        "Forfeit loss": "Reglementair verlies",
        "Late entry": "Late instroom",
        "Late entry rounds": "Ronden voor instroom",
        "Max rewarded absences": "Max beloonde afwezigheid",
        "Ties": "Gelijke stand",
        "Iterate": "Herberekenen",
        "Rematch window": "Geen herhaling binnen",
        "Colours": "Kleuren",
        "Preset": "Voorinstelling",
        "Ratio first to last": "Verhouding eerste tot laatste",
        "Loss": "Verlies",
        "Withdrawn": "Teruggetrokken",
        "Withdrawn opponent": "Teruggetrokken tegenstander",
        "Own value": "Eigen waarde",
        "Values": "Waarden",
        "Rating divisor": "Ratingdeler",
        "Rating K-factor": "Rating K-factor",
        "Pairing": "Indeling",
        "Top-down from round": "Van boven af vanaf ronde",
        "First round white": "Wit in eerste ronde",
        "Max same colour": "Max zelfde kleur",
        "Pricing": "Waardering",
        "Top value rounding": "Afronding topwaarde",
        "Minimum games": "Minimum partijen",
        "Below minimum": "Onder minimum",
        "Rounds in season": "Ronden in seizoen",
        "Club games": "Externe partijen",
        "First round": "Eerste ronde",
        "Clear present": "Aanwezig wissen",
        "Club name": "Clubnaam",
        "Competition name": "Competitienaam",
    },
    rest_words={"bye": "vrij", "excused": "afgemeld", "club": "extern", "unexcused": "onafgemeld"},
    present_mark="ja",
    decimal_mark=",",
    colour_marks=("w", "z"),
    member_headers={
        "Name": ("Naam", "Speler", "Spelersnaam", "Volledige naam"),
        "Rating": ("Rating", "KNSB rating", "Rating KNSB", "Eigen rating", "Clubrating"),
        "FIDE rating": ("FIDE-rating", "Rating FIDE"),
        "Joined": ("Vanaf ronde",),
        "Left": ("Tot ronde",),
        "Present": ("Aanwezig",),
    },
    name_parts={
        "first": ("Voornaam", "Roepnaam"),
        "infix": ("Tussenvoegsel", "Tussenvoegsels", "Voorvoegsel"),
        "last": ("Achternaam",),
    },
    # The KNSB's list: Relatienummer;Naam;Titel;FED;Rating;Nv;Geboren;S
    rating_list=RatingListHeaders(
        federation="KNSB",
        marks=("KNSB", "Relatienummer"),
        ids=("Relatienummer", "KNSB id", "KNSB nr", "KNSB-nummer", "Bondsnummer"),
        names=("Naam", "Spelersnaam"),
        ratings=("Rating", "KNSB rating"),
    ),
)

GERMAN = Language(
    code="de",
    name="Deutsch",
    names={
        # sheets
        "Players": "Spieler",
        "Rounds": "Runden",
        "Standings": "Tabelle",
        "Settings": "Einstellungen",
        "Pairings": "Paarungen",
        "Crosstable": "Kreuztabelle",
        "Progress": "Verlauf",
        # Players and Rounds
        "Name": "Name",
        "Rating": "Wertungszahl",
        "Joined": "Ab Runde",
        "Left": "Bis Runde",
        "Present": "Anwesend",
        "Group": "Gruppe",
        "Round": "Runde",
        "Board": "Brett",
        "White": "Weiß",
        "Black": "Schwarz",
        "Result": "Ergebnis",
        # Standings
        "Rank": "Platz",
        "Score": "Punkte",
        "Value": "Wert",
        "Played": "Gespielt",
        "Won": "Gewonnen",
        "Drawn": "Remis",
        "Lost": "Verloren",
        "Byes": "Spielfrei",
        "Absent": "Abwesend",
        "Own": "Eigen",
        "Game points": "Brettpunkte",
        "Percentage": "Prozent",
        "Colour balance": "Farbbilanz",
        "Change": "Veränderung",
        "withdrawn": "zurückgezogen",
        # Settings
        "Setting": "Einstellung",
        "Default": "Standard",
        "What it does": "Erklärung",
        # Pairings, and the buttons' captions
        "Bye": "Spielfrei",
        "Pair next round": "Nächste Runde auslosen",
        "Recalculate": "Neu berechnen",
        "Undo last pairing": "Letzte Auslosung zurücknehmen",
        "Publish": "Veröffentlichen",
    },
    settings={
        "Top value": "Höchstwert",
        "Step": "Schritt",
        "Initial order": "Startreihenfolge",
        "Bye": "Spielfrei",
        "Excused absence": "Entschuldigte Abwesenheit",
        "Club duty": "Mannschaftskampf",
        "Unexcused absence": "Unentschuldigte Abwesenheit",
        "Default absence": "Standard-Abwesenheit",
        "Forfeit win": "Kampflos gewonnen",
        "Forfeit loss": "Kampflos verloren",
        "Late entry": "Später Einstieg",
        "Late entry rounds": "Runden vor dem Einstieg",
        "Max rewarded absences": "Max. bewertete Abwesenheiten",
        "Ties": "Gleichstand",
        "Iterate": "Iterieren",
        "Rematch window": "Keine Wiederholung innerhalb",
        "Colours": "Farben",
        "Preset": "Voreinstellung",
        "Ratio first to last": "Verhältnis Erster zu Letztem",
        "Loss": "Verlust",
        "Withdrawn": "Zurückgezogen",
        "Withdrawn opponent": "Zurückgezogener Gegner",
        "Own value": "Eigenwert",
        "Values": "Werte",
        "Rating divisor": "Teiler der Wertungszahl",
        "Rating K-factor": "K-Faktor der Wertungszahl",
        "Pairing": "Auslosung",
        "Top-down from round": "Von oben ab Runde",
        "First round white": "Weiß in der ersten Runde",
        "Max same colour": "Max. gleiche Farbe",
        "Pricing": "Bewertung",
        "Top value rounding": "Rundung des Höchstwerts",
        "Minimum games": "Mindestpartien",
        "Below minimum": "Unter Mindestzahl",
        "Rounds in season": "Runden der Saison",
        "Club games": "Mannschaftspartien",
        "First round": "Erste Runde",
        "Clear present": "Anwesend leeren",
        "Club name": "Vereinsname",
        "Competition name": "Turniername",
    },
    rest_words={
        "bye": "spielfrei",
        "excused": "entschuldigt",
        "club": "Mannschaftskampf",
        "unexcused": "unentschuldigt",
    },
    present_mark="ja",
    decimal_mark=",",
    colour_marks=("w", "s"),
    member_headers={
        "Name": ("Name", "Spieler", "Spielername"),
        "Rating": ("DWZ", "Wertungszahl"),
        "FIDE rating": ("FIDE-Elo", "Elo-Zahl", "FIDE-Elozahl"),
        "Joined": ("Ab Runde",),
        "Left": ("Bis Runde",),
        "Present": ("Anwesend",),
    },
    # German forms say Name and Vorname for surname and first name: beside a Vorname, the
    # Name column is the surname.
    name_parts={
        "first": ("Vorname",),
        "infix": (),
        "last": ("Nachname", "Familienname", "Name"),
    },
    # The DSB's DWZ list, both shapes: the older export
    # (ZPS,Mgl-Nr,Status,Spielername,...,DWZ,Index,FIDE-Elo,FIDE-Titel,FIDE-ID,FIDE-Land)
    # and the newer one (ID,ZPS,Mitgliedsnummer,Status,Nachname,Vorname,...,DWZ,...,FIDE-ID).
    rating_list=RatingListHeaders(
        federation="DSB",
        marks=("ZPS",),
        ids=("FIDE-ID",),
        id_column="FIDE id",
        names=("Spielername",),
        ratings=("DWZ",),
        last_names=("Nachname",),
        first_names=("Vorname",),
        clubs=("ZPS",),
        members=("Mgl-Nr", "Mitgliedsnummer"),
    ),
)

ITALIAN = Language(
    code="it",
    name="Italiano",
    names={
        # sheets
        "Players": "Giocatori",
        "Rounds": "Turni",
        "Standings": "Classifica",
        "Settings": "Impostazioni",
        "Pairings": "Abbinamenti",
        "Crosstable": "Tabellone",
        "Progress": "Andamento",
        # Players and Rounds
        "Name": "Nome",
        "Rating": "Elo",
        "Joined": "Dal turno",
        "Left": "Al turno",
        "Present": "Presente",
        "Group": "Gruppo",
        "Round": "Turno",
        "Board": "Scacchiera",
        "White": "Bianco",
        "Black": "Nero",
        "Result": "Risultato",
        # Standings
        "Rank": "Posizione",
        "Score": "Punti",
        "Value": "Valore",
        "Played": "Giocate",
        "Won": "Vinte",
        "Drawn": "Patte",
        "Lost": "Perse",
        "Byes": "Riposi",
        "Absent": "Assenze",
        "Own": "Proprio",
        "Game points": "Punti partita",
        "Percentage": "Percentuale",
        "Colour balance": "Bilancio colori",
        "Change": "Variazione",
        "withdrawn": "ritirato",
        # Settings
        "Setting": "Impostazione",
        "Default": "Predefinito",
        "What it does": "Spiegazione",
        # Pairings, and the buttons' captions
        "Bye": "Riposo",
        "Pair next round": "Abbina il prossimo turno",
        "Recalculate": "Ricalcola",
        "Undo last pairing": "Annulla l'ultimo abbinamento",
        "Publish": "Pubblica",
    },
    settings={
        "Top value": "Valore massimo",
        "Step": "Passo",
        "Initial order": "Ordine iniziale",
        "Bye": "Riposo",
        "Excused absence": "Assenza giustificata",
        "Club duty": "Impegno di squadra",
        "Unexcused absence": "Assenza ingiustificata",
        "Default absence": "Assenza predefinita",
        "Forfeit win": "Vittoria a forfait",
        "Forfeit loss": "Sconfitta a forfait",
        "Late entry": "Ingresso tardivo",
        "Late entry rounds": "Turni prima dell'ingresso",
        "Max rewarded absences": "Max assenze premiate",
        "Ties": "Parità",
        "Iterate": "Iterazione",
        "Rematch window": "Nessuna rivincita entro",
        "Colours": "Colori",
        "Preset": "Preimpostazione",
        "Ratio first to last": "Rapporto primo/ultimo",
        "Loss": "Sconfitta",
        "Withdrawn": "Ritirato",
        "Withdrawn opponent": "Avversario ritirato",
        "Own value": "Valore proprio",
        "Values": "Valori",
        "Rating divisor": "Divisore Elo",
        "Rating K-factor": "Fattore K Elo",
        "Pairing": "Abbinamento",
        "Top-down from round": "Dall'alto dal turno",
        "First round white": "Bianco al primo turno",
        "Max same colour": "Max stesso colore",
        "Pricing": "Valutazione",
        "Top value rounding": "Arrotondamento valore massimo",
        "Minimum games": "Partite minime",
        "Below minimum": "Sotto il minimo",
        "Rounds in season": "Turni nella stagione",
        "Club games": "Partite di squadra",
        "First round": "Primo turno",
        "Clear present": "Svuota presenti",
        "Club name": "Nome del circolo",
        "Competition name": "Nome del torneo",
    },
    rest_words={
        "bye": "riposo",
        "excused": "giustificato",
        "club": "squadra",
        "unexcused": "ingiustificato",
    },
    present_mark="sì",
    decimal_mark=",",
    colour_marks=("b", "n"),
    member_headers={
        "Name": ("Giocatore", "Nominativo", "Nome"),
        "Rating": ("Elo Italia", "Punti Elo", "Elo nazionale"),
        "FIDE rating": ("Elo FIDE",),
        "Joined": ("Dal turno",),
        "Left": ("Al turno",),
        "Present": ("Presente",),
    },
    # An Italian list's Nome is the first name beside its Cognome (alone, the whole name,
    # as the Players sheet's header).
    name_parts={
        "first": ("Nome",),
        "infix": (),
        "last": ("Cognome",),
    },
    rating_list=None,
)

RECORDS: dict[str, Language] = {r.code: r for r in (ENGLISH, DUTCH, GERMAN, ITALIAN)}
"""Every language by its code, English first."""

LANGUAGES = tuple(RECORDS)


def record_of(code: str) -> Language:
    """The record of a language; English's for a code keizer_xl does not speak."""
    return RECORDS.get(code, ENGLISH)
