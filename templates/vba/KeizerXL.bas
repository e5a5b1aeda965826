Attribute VB_Name = "KeizerXL"
Option Explicit

' The workbook's buttons run these macros. The work itself happens in Python:
' RunPython comes from the xlwings module stored next to this one; in LibreOffice Calc,
' LibreOfficeBridge hands the work to keizer_xl's Python macro instead.

Sub PairNextRound()
    If HandedToLibreOffice("pair_next_round") Then Exit Sub
    RunPython "import keizer_xl; keizer_xl.pair_next_round()"
End Sub

Sub Recalculate()
    If HandedToLibreOffice("recalculate") Then Exit Sub
    RunPython "import keizer_xl; keizer_xl.recalculate()"
End Sub

Sub UndoLastPairing()
    If HandedToLibreOffice("undo_last_pairing") Then Exit Sub
    RunPython "import keizer_xl; keizer_xl.undo_last_pairing()"
End Sub

Sub PublishSite()
    If HandedToLibreOffice("publish_site") Then Exit Sub
    RunPython "import keizer_xl; keizer_xl.publish_site()"
End Sub
