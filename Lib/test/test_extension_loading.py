# C extension modules in shared objects: importlib's ExtensionFileLoader
# with _imp.create_dynamic/exec_dynamic, single- and multi-phase init, and
# the ImportErrors for files that are not loadable extensions.
import importlib
import importlib.machinery
import importlib.util
import os
import shutil
import sys
import tempfile

print("suffixes:", len(importlib.machinery.EXTENSION_SUFFIXES),
      importlib.machinery.EXTENSION_SUFFIXES[-1])
suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
print("first suffix is ours:", suffix.endswith(".so") and suffix.count("-") >= 2)

import _testsinglephase
print("single-phase:", _testsinglephase.answer(), _testsinglephase.init_calls())
print("  loader:", type(_testsinglephase.__loader__).__name__)
print("  spec origin is __file__:", _testsinglephase.__spec__.origin == _testsinglephase.__file__)
print("  file suffix:", _testsinglephase.__file__.endswith(suffix))
del sys.modules["_testsinglephase"]
import _testsinglephase as again
print("  re-import after leaving sys.modules runs init again:", again.init_calls() != 1)

import _testmultiphase
print("multi-phase:", _testmultiphase.answer(), _testmultiphase.made_by,
      _testmultiphase.exec_calls())
print("  doc:", _testmultiphase.__doc__)
del sys.modules["_testmultiphase"]
import _testmultiphase as fresh
print("  re-import makes a new module:", fresh is not _testmultiphase,
      fresh.exec_calls(), _testmultiphase.exec_calls())

def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod

with tempfile.TemporaryDirectory() as d:
    # The file name decides which PyInit_ is looked for.
    renamed = os.path.join(d, "renamed" + suffix)
    shutil.copy(_testmultiphase.__file__, renamed)
    try:
        load(renamed, "renamed")
    except ImportError as e:
        print("renamed:", type(e).__name__, e, "| name:", e.name, "| path ok:", e.path == renamed)

    junk = os.path.join(d, "junk" + suffix)
    with open(junk, "w") as f:
        f.write("not a shared object\n")
    try:
        load(junk, "junk")
    except ImportError as e:
        print("junk:", type(e).__name__, "| name:", e.name, "| path ok:", e.path == renamed.replace("renamed", "junk"),
              "| message names the file:", junk in str(e))

    # A package's extension submodule, found through its __path__.
    pkg = os.path.join(d, "extpkg")
    os.mkdir(pkg)
    open(os.path.join(pkg, "__init__.py"), "w").close()
    shutil.copy(_testmultiphase.__file__, os.path.join(pkg, "_testmultiphase" + suffix))
    sys.path.insert(0, d)
    try:
        from extpkg import _testmultiphase as sub
        print("submodule:", sub.__name__, sub.answer(), sub.__spec__.parent)
    except ImportError as e:
        print("submodule:", type(e).__name__, e)
    finally:
        sys.path.remove(d)

try:
    import _no_such_extension_here
except ModuleNotFoundError as e:
    print("missing:", e)
