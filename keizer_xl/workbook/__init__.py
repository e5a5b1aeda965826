"""Workbook files: reading the sheets, writing only keizer_xl's cells, the template.

Imports `keizer_xl.core`, `keizer_xl.i18n` and the Keizer-free `xlsx` package below it;
never the layers above (`exchange`, `publish`, `live`, `cli`). Its face is its modules,
each imported where it is needed; nothing is imported here, so that a button click imports
only the modules it uses:

- `layout`: reading a workbook's sheets and headers, in any language, as the core's tables;
- `cells`: rendering the cells keizer_xl owns (Standings, new rounds, Settings, Crosstable,
  Progress);
- `plans`: what each command writes (pair, recalculate, undo the last pairing, rename);
- `files`: workbook files opened, checked, planned and saved (the command line's door);
- `pairings`: the Pairings sheet (the latest round's boards), its formulas and their values;
- `buttons`: the one table of the workbook's buttons, for the desktop and for xlwings Lite;
- `sheetbuttons`: the buttons of xlwings Lite on that sheet, and the cells of their messages;
- `liteparts`: the code an xlwings Lite workbook carries (its main.py and requirements.txt);
- `newbook` and `template`: a fresh workbook, and the template it is made from;
- `whatif`: the standings with some settings tried, the file only read;
- `vba`: the VBA project of an .xlsm, which runs the buttons;
- `xlsx`: editing cells inside an .xlsx/.xlsm package, knowing nothing of Keizer.
"""

__all__ = [
    "buttons",
    "cells",
    "files",
    "layout",
    "liteparts",
    "newbook",
    "pairings",
    "plans",
    "sheetbuttons",
    "template",
    "vba",
    "whatif",
    "xlsx",
]
