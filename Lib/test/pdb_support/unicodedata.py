# Stand-in used by test_pdb_session.py only while this runtime has no
# unicodedata module: pdb imports _pyrepl.utils, which imports unicodedata
# at module level but needs it only to measure characters on a terminal.
# The session under test never reaches those functions.
def combining(c):
    return 0

def category(c):
    return "Cc" if ord(c) < 32 else "Ll"

def east_asian_width(c):
    return "N"
