"""Files of the chess world: FIDE tournament reports (TRF), federation rating lists and
member lists.

Each format is read and written by pure functions over the core's domain objects; the
`*files` modules are the thin shells that read and write the files themselves.

The face is in `__all__`: the formats (`trf`, `ratings`), the commands' work on files
(`trffiles`, `ratingfiles`, `members`, `nextseason`, `kfcfiles`) and the text files other
programs make (`csvfile`). Nothing is imported here, so that a command loads only the
format it uses.
"""

__all__ = [
    "csvfile",
    "kfcfiles",
    "members",
    "nextseason",
    "ratingfiles",
    "ratings",
    "trf",
    "trffiles",
]
