"""The `keizer-xl` command line (`run`: the program; `main`: its command group) and its
built-in example (`demo`).

The other modules serve these, one job each: `program` (the process set up for one
command), `prelude` (around every command's work), `speech` (its language), `tables` (the
terminal tables), `batch` (recalc of many files), `fixes` (unpair, rename) and `exchange`
(files of the chess world: ratings, export).
"""

__all__ = ["demo", "main", "run"]


def run() -> None:
    """The `keizer-xl` program (the console script's entry): one command, in a process of
    its own, set up for that (`program`) before the command line is imported."""
    from keizer_xl.cli.program import as_program

    as_program()
    from keizer_xl.cli.main import main

    main()
