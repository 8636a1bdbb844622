# Importing source modules and packages found on sys.path (the script's
# directory comes first): absolute, relative and from-imports.
import sys
import mainpkg.helper
from mainpkg import helper as h2
from mainpkg.helper import VALUE

print(mainpkg.helper.VALUE, h2 is mainpkg.helper, VALUE)
print("mainpkg" in sys.modules, "mainpkg.helper" in sys.modules, mainpkg.__package__)
print(type(mainpkg).__name__, mainpkg.__name__, hasattr(mainpkg, "__path__"))
try:
    import no_such_module_here
except ModuleNotFoundError as e:
    print("ModuleNotFoundError:", e, e.name)
try:
    from mainpkg import missing_name
except ImportError as e:
    print("ImportError:", str(e).replace(sys.path[0] + "/", ""))
import _testinternalcapi
print(_testinternalcapi.__name__, repr(_testinternalcapi).startswith("<module '_testinternalcapi'"))
