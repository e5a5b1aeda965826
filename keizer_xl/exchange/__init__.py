"""Files of the chess world: FIDE tournament reports (TRF), federation rating lists and
member lists.

Each format is read and written by pure functions over the core's domain objects; the
`*files` modules are the thin shells that read and write the files themselves.
"""
