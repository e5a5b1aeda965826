"""The workbook's buttons in a running Excel, through xlwings (`buttons`)."""

__all__ = ["buttons"]
