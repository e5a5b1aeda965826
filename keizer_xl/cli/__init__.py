"""The `keizer-xl` command line (`run`: the program; `main`: its command group) and its
built-in example (`demo`).

The commands live in modules by kind, each imported only when its command runs:
`commands` (new, pair, check, standings, publish, demo), `batch` (recalc of one file or
many), `fixes` (unpair, rename, unlock), `exchange` (files of the chess world: ratings,
export) and `lite`. The other modules serve them, one job each: `program` (the process set
up for one command), `prelude` (around every command's work), `speech` (its language) and
`tables` (the terminal tables).
"""

__all__ = ["demo", "main", "run"]


def run() -> None:
    """The `keizer-xl` program (the console script's entry): one command, in a process of
    its own, set up for that (`program`) before the command line is imported; click ends
    the process with the command's exit code."""
    from keizer_xl.cli.program import as_program

    as_program()
    from keizer_xl.cli.main import main

    main()
