# A syntax error: reported with file, line and caret; exit status 1.
x = 1
if x == 1
    print("no colon")
