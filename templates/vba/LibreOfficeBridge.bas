Attribute VB_Name = "LibreOfficeBridge"
' The buttons in LibreOffice Calc: there each macro of KeizerXL hands its work to
' keizer_xl's Python macro in the user's LibreOffice profile (put there once by
' keizer-xl libreoffice), as RunPython cannot run outside Excel.
'
' No Option Explicit, on purpose: in Excel ThisComponent is then an undeclared, empty
' Variant, while in LibreOffice it is the open document. Only member calls on it are used
' here (late-bound), so Excel compiles this module too and never runs past the first test.
' The messages are filled in, in the workbook's language, when the project is made, and
' so is the language, for the few messages the Python macro says itself.

Private Const NOT_INSTALLED As String = "{NOT_INSTALLED}"
Private Const BUTTON_FAILED As String = "{BUTTON_FAILED}"
Private Const WORKBOOK_LANGUAGE As String = "{WORKBOOK_LANGUAGE}"  ' said to the Python macro

' True in LibreOffice, whatever came of it (a message box says what went wrong): the
' caller must not go on to RunPython, which cannot run there. False at once in Excel.
Function HandedToLibreOffice(entry As String) As Boolean
    If Not IsObject(ThisComponent) Then Exit Function
    HandedToLibreOffice = True
    Dim problem As String
    problem = HandOver(entry)
    If problem <> "" Then MsgBox problem, vbExclamation, "keizer_xl"
End Function

' The click handed to keizer_xl's Python macro: "" once it has run, else what to tell the
' secretary. (invoke's two out parameters must be arrays: as plain Variants LibreOffice
' raises "Object variable not set" after the macro has done its work.)
Function HandOver(entry As String) As String
    Dim buttonMacro As Object, answer As Variant
    Dim outIndexes(), outValues()
    On Error GoTo NotInstalled
    Set buttonMacro = ThisComponent.getScriptProvider().getScript( _
        "vnd.sun.star.script:keizer_xl_buttons.py$" & entry & "?language=Python&location=user")
    On Error GoTo Failed
    answer = buttonMacro.invoke(Array(ThisComponent, WORKBOOK_LANGUAGE), outIndexes, outValues)
    Exit Function
NotInstalled:
    HandOver = NOT_INSTALLED
    Exit Function
Failed:
    HandOver = BUTTON_FAILED & " " & Err.Description
End Function
