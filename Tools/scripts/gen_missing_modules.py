"""Write a stand-in for each optional C module the build left out.

configure builds an optional module (zlib, _ssl, ...) only when it finds
the library behind it.  For each one it left out, this script writes
DYNLOAD_DIR/NAME.py, whose import raises ModuleNotFoundError saying that the
module was not built and which library (and Debian package) it lacks, so
`import zlib` explains itself instead of looking like a typo.  Stand-ins of
modules that are now built are removed (an extension module is found before
a .py of the same name anyway).

usage: gen_missing_modules.py DYNLOAD_DIR "BUILT MODULES" "OPTIONAL MODULES"
"""

import os
import sys

# module -> (library, Debian package)
NEEDS = {
    "_hashlib": ("OpenSSL's libcrypto", "libssl-dev"),
    "_ssl": ("OpenSSL's libssl", "libssl-dev"),
    "pyexpat": ("expat", "libexpat1-dev"),
    "zlib": ("zlib", "zlib1g-dev"),
    "_bz2": ("libbz2", "libbz2-dev"),
    "_lzma": ("liblzma", "liblzma-dev"),
    "_sqlite3": ("libsqlite3", "libsqlite3-dev"),
    "_ctypes": ("libffi", "libffi-dev"),
    "_ctypes_test": ("libffi", "libffi-dev"),
}

MARK = "# stand-in written by gen_missing_modules.py"

STUB = '''{mark}: the module was not built.
raise ModuleNotFoundError(
    "module {name!r} was not built: configure found no {lib} "
    "(install {pkg}, then re-run ./configure and make)",
    name={name!r})
'''


def stub_path(dynload, name):
    return os.path.join(dynload, name + ".py")


def is_our_stub(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.readline().startswith(MARK)
    except OSError:
        return False


def main(argv):
    dynload, built, optional = argv[1], set(argv[2].split()), argv[3].split()
    os.makedirs(dynload, exist_ok=True)
    for name in optional:
        path = stub_path(dynload, name)
        if name in built:
            if is_our_stub(path):
                os.remove(path)
            continue
        lib, pkg = NEEDS.get(name, ("library it needs", "its -dev package"))
        with open(path, "w", encoding="utf-8") as f:
            f.write(STUB.format(mark=MARK, name=name, lib=lib, pkg=pkg))


if __name__ == "__main__":
    main(sys.argv)
