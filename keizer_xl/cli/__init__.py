"""The `keizer-xl` command line (`main`: the program `run` and its command group) and its
built-in example (`demo`).

The other modules serve these, one job each: `prelude` (around every command's work),
`speech` (its language), `tables` (the terminal tables), `batch` (recalc of many files),
`fixes` (unpair, rename) and `exchange` (files of the chess world: ratings, export).
"""

__all__ = ["demo", "main"]
