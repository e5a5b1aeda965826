"""The rule book as pure code: no files, no Excel, no pandas (stdlib and numpy only).

Everything a club sees is computed here from plain, immutable domain objects; the shells
around it (`keizer_xl.workbook`, `keizer_xl.live`, `keizer_xl.cli`, `keizer_xl.engine`)
only read input into these objects and show what comes out.
"""
