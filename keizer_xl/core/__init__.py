"""The rule book as pure code: no files, no Excel, no pandas (stdlib and numpy only).

Everything a club sees is computed here from plain, immutable domain objects; the shells
around it (`keizer_xl.workbook`, `keizer_xl.live`, `keizer_xl.cli`, `keizer_xl.engine`)
only read input into these objects and show what comes out.

The shells use the modules in `__all__`: the domain (`model`, `season`), the one table of
results with their marks and codes (`results`), the secretary's words and settings
(`words`, `settings`), checking the tables (`checks`), a competition and
its next round (`round`), the standings (`scoring`, `final`), the figures for publishing
(`report`), what is said (`errors`, `messages`), and the season's rows as integer arrays
(`rows`), which the workbook searches too, and the rounds whose game rows are gone
(`cautions`), which a pairing must not cover up. The others are how the rule book works
inside (`pairing`, `matching`, `colours`, `ratings`, `newcomers`), reached through those.
Nothing is imported here: each shell imports the module it needs, so a button click loads
no more than it uses.
"""

__all__ = [
    "cautions",
    "checks",
    "errors",
    "final",
    "messages",
    "model",
    "report",
    "results",
    "round",
    "rows",
    "scoring",
    "season",
    "settings",
    "words",
]
