"""`python -m keizer_xl.cli`: the same as the `keizer-xl` command."""

from keizer_xl.cli import run

run()
