"""Publishing the competition: web pages, plain text for a group chat, PDF for the notice
board. A shell like the command line: it reads through `keizer_xl.workbook`, takes every
number from `keizer_xl.core` (`core.report`), and only lays them out.
"""
