import sys
print("running", __name__, sys.argv[0].endswith("mainpkg/__main__.py"), sys.argv[1:])
from . import helper
print(helper.VALUE)
