#!/bin/sh
# Replace the ssl.py stub in build/stdlib by CPython 3.14's real Lib/ssl.py.
#
# Pyodide's stdlib (fetch_stdlib.sh) carries a browser stub in place of
# ssl.py.  The real module comes from Debian's libpython3.14-minimal package
# (suite forky): apt checks the package against the suite's signed index,
# and we check the extracted ssl.py against the hashes below.  Nothing is
# installed on the system: apt works in a private directory.  See Doc/ssl.md.
#
# Usage: fetch_ssl_py.sh [DEST]   (default build/stdlib; safe to rerun)
set -e
SUITE=forky
PACKAGE=libpython3.14-minimal
# sha256 of ssl.py from the 3.14 releases checked so far (3.14.8-1 first).
# A newer Debian upload with a changed ssl.py is refused until its hash is
# reviewed and added here.
KNOWN_SHA256="dc44dc9a0b041790b2527e3613bc97e7f268ac369cef2e69ad563e7bda5ecf2a"
top=$(cd "$(dirname "$0")/../.." && pwd)
dest=${1:-"$top/build/stdlib"}

if [ -f "$dest/ssl.py" ]; then
    have=$(sha256sum "$dest/ssl.py" | cut -d' ' -f1)
    for h in $KNOWN_SHA256; do
        [ "$have" = "$h" ] && exit 0
    done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/etc"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
     "http://deb.debian.org/debian $SUITE main" > "$work/etc/sources.list"
chmod -R a+rwx "$work"
set -- -q -o Dir::Etc::SourceList="$work/etc/sources.list" \
       -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$work/lists" \
       -o Dir::Cache="$work/cache" -o Dir::State::Status=/dev/null
apt-get "$@" update >/dev/null
(cd "$work" && apt-get "$@" download "$PACKAGE" >/dev/null 2>&1)
deb=$(ls "$work"/"$PACKAGE"_*.deb)
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" ./usr/lib/python3.14/ssl.py
got=$(sha256sum "$work/usr/lib/python3.14/ssl.py" | cut -d' ' -f1)
ok=no
for h in $KNOWN_SHA256; do
    [ "$got" = "$h" ] && ok=yes
done
if [ "$ok" != yes ]; then
    echo "fetch_ssl_py: ssl.py from $(basename "$deb") has sha256 $got," >&2
    echo "  which is not in KNOWN_SHA256 of $0; review it and add it." >&2
    exit 1
fi
cp "$work/usr/lib/python3.14/ssl.py" "$dest/ssl.py"
echo "stdlib: CPython 3.14 ssl.py ($(basename "$deb")) in $dest"
