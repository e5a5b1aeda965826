"""The languages keizer_xl speaks and writes workbooks in; English is the code's own.

A module of its own so that the name tables (`i18n.names`) and the package's face can both
read it without importing each other."""

from __future__ import annotations

LANGUAGES = ("en", "nl", "de", "it")
