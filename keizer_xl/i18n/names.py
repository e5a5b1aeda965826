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
from keizer_xl.i18n import LANGUAGES

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
        "Minimum games": "Minimum partijen", "Rounds in season": "Ronden in seizoen",
        "Club name": "Clubnaam", "Competition name": "Competitienaam",
    },
}
# How keizer_xl writes a bye or absence row in each language (all are read in every one).
REST_WORDS: dict[str, dict[Absence, str]] = {
    "nl": {Absence.BYE: "vrij", Absence.EXCUSED: "afgemeld", Absence.CLUB: "extern",
           Absence.UNEXCUSED: "onafgemeld"},
}


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


def rest_word(reason: Absence, language: str) -> str:
    """The word of a bye or absence row as a workbook in `language` writes it."""
    return REST_WORDS.get(language, {}).get(reason, reason.value)
