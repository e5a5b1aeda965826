"""keizer_xl: run a chess club's Keizer competition inside the club's Excel workbook.

Importing this package stays light (every Excel button click starts a fresh Python):
pandas, xlwings and the workbook code are imported only inside the functions that need them.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.2.0"

__all__ = ["__version__", "pair_next_round", "publish_site", "recalculate", "undo_last_pairing"]


def pair_next_round(book: Any = None) -> None:
    """The "Pair next round" button: check, compute standings, pair, write back."""
    from keizer_xl.live.buttons import pair_next_round as run

    run(book)


def recalculate(book: Any = None) -> None:
    """The "Recalculate" button: check and rewrite the Standings sheet."""
    from keizer_xl.live.buttons import recalculate as run

    run(book)


def undo_last_pairing(book: Any = None) -> None:
    """The "Undo last pairing" button: take back the last round while it has no results."""
    from keizer_xl.live.buttons import undo_last_pairing as run

    run(book)


def publish_site(book: Any = None) -> None:
    """The "Publish" button: the web pages in a folder beside the workbook, named after it."""
    from keizer_xl.live.buttons import publish_site as run

    run(book)
