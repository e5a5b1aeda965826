"""Publishing the competition: web pages, plain text for a group chat, PDF for the notice
board. A shell like the command line: it reads through `keizer_xl.workbook`, takes every
number from `keizer_xl.core` (`core.report`), and only lays them out.

Its face: `book` (from a workbook to the report and its titles), `site` (the web pages),
`text` (the group chat), `pdf` (the notice board) and `numbers` (figures in the language's
own decimal mark, which the terminal's tables use too). `charts`, `names` and `rules` serve
them.
"""

__all__ = ["book", "numbers", "pdf", "site", "text"]
