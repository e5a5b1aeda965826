Attribute VB_Name = "KeizerXL"
Option Explicit

' The workbook's buttons run these macros. The work itself happens in Python:
' RunPython comes from the xlwings module stored next to this one.

Sub PairNextRound()
    RunPython "import keizer_xl; keizer_xl.pair_next_round()"
End Sub

Sub Recalculate()
    RunPython "import keizer_xl; keizer_xl.recalculate()"
End Sub

Sub UndoLastPairing()
    RunPython "import keizer_xl; keizer_xl.undo_last_pairing()"
End Sub

Sub PublishSite()
    RunPython "import keizer_xl; keizer_xl.publish_site()"
End Sub
