#!/bin/sh
# Fetch and build libmpdec (the mpdecimal library, BSD-licensed), which does
# the arithmetic behind the _decimal module, into build/mpdecimal.
#
# Debian 12 has no libmpdec-dev, so when the system lacks it we take the
# upstream release tarball from Debian's archive (the orig tarball of the
# mpdecimal source package), check its pinned hash, and build only the C
# library (not libmpdec++) as a static library.  Nothing from it is
# committed: like the stdlib, it is a fetched dependency (Doc/decimal.md).
#
# Usage: fetch_mpdecimal.sh [DEST]   (default build/mpdecimal; safe to rerun)
# Set MPDECIMAL_TARBALL=/path/to/mpdecimal_4.0.1.orig.tar.gz to build offline.
set -e
VERSION=4.0.1
TARBALL=mpdecimal_$VERSION.orig.tar.gz
TARBALL_SHA256=96d33abb4bb0070c7be0fed4246cd38416188325f820468214471938545b1ac8
URL=http://deb.debian.org/debian/pool/main/m/mpdecimal/$TARBALL
top=$(cd "$(dirname "$0")/../.." && pwd)
dest=${1:-"$top/build/mpdecimal"}
stamp="$dest/.mpdecimal-$VERSION"

if [ -f "$stamp" ]; then
    exit 0
fi
# A system libmpdec (libmpdec-dev) is used as it is; configure finds it.
if [ -z "$MPDECIMAL_FORCE" ] && [ -f /usr/include/mpdecimal.h ]; then
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "$MPDECIMAL_TARBALL" ]; then
    cp "$MPDECIMAL_TARBALL" "$work/$TARBALL"
elif command -v curl >/dev/null 2>&1; then
    curl -fsS -o "$work/$TARBALL" "$URL"
else
    # python3 is always there (setup.sh installs it); curl may not be.
    python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' \
        "$URL" "$work/$TARBALL"
fi
echo "$TARBALL_SHA256  $work/$TARBALL" | sha256sum -c --quiet -

tar -xzf "$work/$TARBALL" -C "$work"
rm -rf "$dest"
mkdir -p "$dest"
(
    cd "$work/mpdecimal-$VERSION"
    ./configure -q --prefix="$dest" --disable-cxx --disable-shared \
        --disable-doc --disable-pc CFLAGS="-O2 -g" >/dev/null
    make -s -j2 >/dev/null
    make -s install >/dev/null
)
touch "$stamp"
echo "mpdecimal: libmpdec $VERSION (static) in $dest"
