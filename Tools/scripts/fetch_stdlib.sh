#!/bin/sh
# Fetch CPython 3.14's pure-Python standard library into build/stdlib.
#
# The stdlib is a dependency, never committed (DESIGN section 10): it comes
# from the npm package pyodide (npm checks the package's integrity hash),
# whose python_stdlib.zip is CPython's Lib/ without test/, venv, ensurepip
# and tkinter.  Its browser-only files are left out; ours replace them.
#
# Usage: fetch_stdlib.sh [DEST]   (default build/stdlib; safe to rerun)
set -e
VERSION=314.0.7
ZIP_SHA256=fa1957e5777068fc4f7437f96d860ae2fbe9c19732ba06c84e004ec16dd7dd7a
top=$(cd "$(dirname "$0")/../.." && pwd)
dest=${1:-"$top/build/stdlib"}
stamp="$dest/.pyodide-$VERSION"

if [ -f "$stamp" ]; then
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "pyodide@$VERSION" >/dev/null)
tar -xzf "$work/pyodide-$VERSION.tgz" -C "$work" package/python_stdlib.zip
echo "$ZIP_SHA256  $work/package/python_stdlib.zip" | sha256sum -c --quiet -

rm -rf "$dest"
mkdir -p "$dest"
(cd "$dest" && unzip -q "$work/package/python_stdlib.zip")
# Browser-only parts: pyodide's own packages, the emscripten sysconfig data
# and the stub that stands in for the missing _ssl.
rm -rf "$dest/_pyodide" "$dest/pyodide" "$dest/_ssl.py" \
       "$dest"/_sysconfigdata__emscripten_*.py
touch "$stamp"
echo "stdlib: CPython 3.14 Lib/ (pyodide $VERSION) in $dest"
