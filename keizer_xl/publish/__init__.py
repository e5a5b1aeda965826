"""Publishing the competition: web pages, plain text for a group chat, PDF for the notice
board. A shell like the command line: it reads through `keizer_xl.workbook`, takes every
number from `keizer_xl.core` (`core.report`), and only lays them out.

Its face: `book` (from a workbook to the report and its titles), `site` (the web pages),
`text` (the group chat) and `pdf` (the notice board). `charts`, `names` and `rules` serve
them; figures are written by `keizer_xl.i18n.numbers`, in the language's decimal mark.
"""

__all__ = ["book", "pdf", "site", "text"]
