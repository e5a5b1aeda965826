"""Workbook files: the sheet contract, reading, writing only keizer_xl's cells, the template.

Imports `keizer_xl.core` and the Keizer-free `xlsx` package below it; never `live` or `cli`.
Kept empty so that a button click imports only the modules it uses.
"""
