"""The workbook's buttons in a running Excel, through xlwings (`buttons`), and in
LibreOffice Calc (`libreoffice`, served by the macro `libreoffice_macro` runs there)."""

__all__ = ["buttons"]
