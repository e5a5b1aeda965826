"""The workbook's names in each language: sheets, headers, settings, absence words.

A workbook is read in any language (sheets and headers found in either) and written in its
own. A language more is one dictionary more here (and one gettext catalog for the texts).
The tables live with the catalogs, below the workbook layer, so that the shells' `say`
writes a workbook's names as its workbooks do without reaching up into that layer.
"""

from __future__ import annotations

from collections.abc import Sequence

from keizer_xl.core.model import Absence
from keizer_xl.core.words import text
from keizer_xl.i18n.languages import LANGUAGES

# Every name keizer_xl reads or writes in a workbook, in each language besides the
# contract's own English: sheets, headers, setting names and the words of bye and absence
# rows. A workbook is read in any of them (sheets and headers found in either) and written
# in its own. A language more is one dictionary more here.
TRANSLATIONS: dict[str, dict[str, str]] = {
    "nl": {
        # sheets
        "Players": "Spelers", "Rounds": "Ronden", "Standings": "Stand",
        "Settings": "Instellingen", "Pairings": "Indeling", "Crosstable": "Kruistabel",
        "Progress": "Verloop",
        # Players and Rounds
        "Name": "Naam", "Rating": "Rating", "Joined": "Vanaf ronde", "Left": "Tot ronde",
        "Present": "Aanwezig", "Group": "Groep",
        "Round": "Ronde", "Board": "Bord", "White": "Wit", "Black": "Zwart",
        "Result": "Uitslag",
        # Standings
        "Rank": "Plaats", "Score": "Score", "Value": "Waarde", "Played": "Gespeeld",
        "Won": "Gewonnen", "Drawn": "Remise", "Lost": "Verloren", "Byes": "Vrij",
        "Absent": "Afwezig", "Own": "Eigen", "Game points": "Partijpunten",
        "Percentage": "Percentage", "Colour balance": "Kleursaldo", "Change": "Verschil",
        "withdrawn": "teruggetrokken",
        # Settings
        "Setting": "Instelling", "Default": "Standaard", "What it does": "Uitleg",
        # Pairings, and the buttons' captions
        "Bye": "Vrij", "Pair next round": "Volgende ronde indelen",
        "Recalculate": "Herberekenen", "Undo last pairing": "Laatste indeling terugdraaien",
        "Publish": "Publiceren",
    },
    "de": {
        # sheets
        "Players": "Spieler", "Rounds": "Runden", "Standings": "Tabelle",
        "Settings": "Einstellungen", "Pairings": "Paarungen", "Crosstable": "Kreuztabelle",
        "Progress": "Verlauf",
        # Players and Rounds
        "Name": "Name", "Rating": "Wertungszahl", "Joined": "Ab Runde", "Left": "Bis Runde",
        "Present": "Anwesend", "Group": "Gruppe",
        "Round": "Runde", "Board": "Brett", "White": "Weiß", "Black": "Schwarz",
        "Result": "Ergebnis",
        # Standings
        "Rank": "Platz", "Score": "Punkte", "Value": "Wert", "Played": "Gespielt",
        "Won": "Gewonnen", "Drawn": "Remis", "Lost": "Verloren", "Byes": "Spielfrei",
        "Absent": "Abwesend", "Own": "Eigen", "Game points": "Brettpunkte",
        "Percentage": "Prozent", "Colour balance": "Farbbilanz", "Change": "Veränderung",
        "withdrawn": "zurückgezogen",
        # Settings
        "Setting": "Einstellung", "Default": "Standard", "What it does": "Erklärung",
        # Pairings, and the buttons' captions
        "Bye": "Spielfrei", "Pair next round": "Nächste Runde auslosen",
        "Recalculate": "Neu berechnen", "Undo last pairing": "Letzte Auslosung zurücknehmen",
        "Publish": "Veröffentlichen",
    },
    "it": {
        # sheets
        "Players": "Giocatori", "Rounds": "Turni", "Standings": "Classifica",
        "Settings": "Impostazioni", "Pairings": "Abbinamenti", "Crosstable": "Tabellone",
        "Progress": "Andamento",
        # Players and Rounds
        "Name": "Nome", "Rating": "Elo", "Joined": "Dal turno", "Left": "Al turno",
        "Present": "Presente", "Group": "Gruppo",
        "Round": "Turno", "Board": "Scacchiera", "White": "Bianco", "Black": "Nero",
        "Result": "Risultato",
        # Standings
        "Rank": "Posizione", "Score": "Punti", "Value": "Valore", "Played": "Giocate",
        "Won": "Vinte", "Drawn": "Patte", "Lost": "Perse", "Byes": "Riposi",
        "Absent": "Assenze", "Own": "Proprio", "Game points": "Punti partita",
        "Percentage": "Percentuale", "Colour balance": "Bilancio colori",
        "Change": "Variazione", "withdrawn": "ritirato",
        # Settings
        "Setting": "Impostazione", "Default": "Predefinito", "What it does": "Spiegazione",
        # Pairings, and the buttons' captions
        "Bye": "Riposo", "Pair next round": "Abbina il prossimo turno",
        "Recalculate": "Ricalcola", "Undo last pairing": "Annulla l'ultimo abbinamento",
        "Publish": "Pubblica",
    },
}
SETTING_TRANSLATIONS: dict[str, dict[str, str]] = {
    "nl": {
        "Top value": "Topwaarde", "Step": "Stap", "Initial order": "Beginvolgorde",
        "Bye": "Vrije ronde", "Excused absence": "Afwezig met bericht",
        "Club duty": "Clubverplichting", "Unexcused absence": "Afwezig zonder bericht",
        "Default absence": "Standaard afwezigheid", "Forfeit win": "Reglementaire winst",
        "Forfeit loss": "Reglementair verlies", "Late entry": "Late instroom",
        "Late entry rounds": "Ronden voor instroom",
        "Max rewarded absences": "Max beloonde afwezigheid", "Ties": "Gelijke stand",
        "Iterate": "Herberekenen", "Rematch window": "Geen herhaling binnen",
        "Colours": "Kleuren", "Preset": "Voorinstelling",
        "Ratio first to last": "Verhouding eerste tot laatste", "Loss": "Verlies",
        "Withdrawn": "Teruggetrokken", "Withdrawn opponent": "Teruggetrokken tegenstander",
        "Own value": "Eigen waarde", "Values": "Waarden", "Rating divisor": "Ratingdeler",
        "Rating K-factor": "Rating K-factor", "Pairing": "Indeling",
        "Top-down from round": "Van boven af vanaf ronde",
        "First round white": "Wit in eerste ronde", "Max same colour": "Max zelfde kleur",
        "Pricing": "Waardering", "Top value rounding": "Afronding topwaarde",
        "Minimum games": "Minimum partijen", "Rounds in season": "Ronden in seizoen",
        "Club name": "Clubnaam", "Competition name": "Competitienaam",
    },
    "de": {
        "Top value": "Höchstwert", "Step": "Schritt", "Initial order": "Startreihenfolge",
        "Bye": "Spielfrei", "Excused absence": "Entschuldigte Abwesenheit",
        "Club duty": "Mannschaftskampf", "Unexcused absence": "Unentschuldigte Abwesenheit",
        "Default absence": "Standard-Abwesenheit", "Forfeit win": "Kampflos gewonnen",
        "Forfeit loss": "Kampflos verloren", "Late entry": "Später Einstieg",
        "Late entry rounds": "Runden vor dem Einstieg",
        "Max rewarded absences": "Max. bewertete Abwesenheiten", "Ties": "Gleichstand",
        "Iterate": "Iterieren", "Rematch window": "Keine Wiederholung innerhalb",
        "Colours": "Farben", "Preset": "Voreinstellung",
        "Ratio first to last": "Verhältnis Erster zu Letztem", "Loss": "Verlust",
        "Withdrawn": "Zurückgezogen", "Withdrawn opponent": "Zurückgezogener Gegner",
        "Own value": "Eigenwert", "Values": "Werte",
        "Rating divisor": "Teiler der Wertungszahl",
        "Rating K-factor": "K-Faktor der Wertungszahl", "Pairing": "Auslosung",
        "Top-down from round": "Von oben ab Runde",
        "First round white": "Weiß in der ersten Runde",
        "Max same colour": "Max. gleiche Farbe",
        "Pricing": "Bewertung", "Top value rounding": "Rundung des Höchstwerts",
        "Minimum games": "Mindestpartien", "Rounds in season": "Runden der Saison",
        "Club name": "Vereinsname", "Competition name": "Turniername",
    },
    "it": {
        "Top value": "Valore massimo", "Step": "Passo", "Initial order": "Ordine iniziale",
        "Bye": "Riposo", "Excused absence": "Assenza giustificata",
        "Club duty": "Impegno di squadra", "Unexcused absence": "Assenza ingiustificata",
        "Default absence": "Assenza predefinita", "Forfeit win": "Vittoria a forfait",
        "Forfeit loss": "Sconfitta a forfait", "Late entry": "Ingresso tardivo",
        "Late entry rounds": "Turni prima dell'ingresso",
        "Max rewarded absences": "Max assenze premiate", "Ties": "Parità",
        "Iterate": "Iterazione", "Rematch window": "Nessuna rivincita entro",
        "Colours": "Colori", "Preset": "Preimpostazione",
        "Ratio first to last": "Rapporto primo/ultimo", "Loss": "Sconfitta",
        "Withdrawn": "Ritirato", "Withdrawn opponent": "Avversario ritirato",
        "Own value": "Valore proprio", "Values": "Valori", "Rating divisor": "Divisore Elo",
        "Rating K-factor": "Fattore K Elo", "Pairing": "Abbinamento",
        "Top-down from round": "Dall'alto dal turno",
        "First round white": "Bianco al primo turno", "Max same colour": "Max stesso colore",
        "Pricing": "Valutazione", "Top value rounding": "Arrotondamento valore massimo",
        "Minimum games": "Partite minime", "Rounds in season": "Turni nella stagione",
        "Club name": "Nome del circolo", "Competition name": "Nome del torneo",
    },
}
# How keizer_xl writes a bye or absence row in each language (all are read in every one).
REST_WORDS: dict[str, dict[Absence, str]] = {
    "nl": {Absence.BYE: "vrij", Absence.EXCUSED: "afgemeld", Absence.CLUB: "extern",
           Absence.UNEXCUSED: "onafgemeld"},
    "de": {Absence.BYE: "spielfrei", Absence.EXCUSED: "entschuldigt",
           Absence.CLUB: "Mannschaftskampf", Absence.UNEXCUSED: "unentschuldigt"},
    "it": {Absence.BYE: "riposo", Absence.EXCUSED: "giustificato", Absence.CLUB: "squadra",
           Absence.UNEXCUSED: "ingiustificato"},
}
# The word a workbook's Present dropdown offers first for "here this week".
PRESENT_MARKS: dict[str, str] = {"nl": "ja", "de": "ja", "it": "sì"}


def name_key(name: object) -> str:
    """A name as matched: spaces and case ignored."""
    return " ".join(text(name).split()).casefold()


# Any language's name (as matched: spaces and case ignored) -> the contract's name.
_TO_CONTRACT = {name_key(local): name for names in TRANSLATIONS.values()
                for name, local in names.items()}
SETTINGS_TO_CONTRACT = {name_key(local): name for names in SETTING_TRANSLATIONS.values()
                         for name, local in names.items()}


def local_name(name: str, language: str) -> str:
    """A sheet name, header or caption as a workbook in `language` writes it."""
    return TRANSLATIONS.get(language, {}).get(name) or name


def withdrawn_mark(language: str) -> str:
    """`(withdrawn)`: what follows the name of a player who has left, on every output."""
    return f"({local_name('withdrawn', language)})"


def withdrawn_name(name: str, language: str) -> str:
    """`Anna de Vries (withdrawn)`: a player who has left, as the Standings sheet, the
    pages, the chat text and the PDFs all write the name."""
    return f"{name} {withdrawn_mark(language)}"


def local_setting(name: str, language: str) -> str:
    """A setting's name as a workbook in `language` writes it."""
    return SETTING_TRANSLATIONS.get(language, {}).get(name) or name


def sheet_names(sheet: str) -> set[str]:
    """Every language's name of one of the contract's sheets, as matched (case folded)."""
    return {name_key(local_name(sheet, language)) for language in LANGUAGES}


def contract_headers(header: Sequence[object]) -> list[object]:
    """A header row with every language's names turned into the contract's."""
    return [_TO_CONTRACT.get(name_key(cell), cell) for cell in header]


def present_mark(language: str) -> str:
    """The word for present a workbook in `language` offers first (English: x)."""
    return PRESENT_MARKS.get(language, "x")


def rest_word(reason: Absence, language: str) -> str:
    """The word of a bye or absence row as a workbook in `language` writes it."""
    return REST_WORDS.get(language, {}).get(reason, reason.value)
