#!/bin/sh
# Add to build/stdlib the parts of CPython 3.14's Lib/ that Pyodide's copy
# (fetch_stdlib.sh) stubs or leaves out: the real ssl.py (Pyodide ships a
# browser stub), dbm/ (shelve and pickle's tests need it), pydoc_data/
# (help('topics'), help('if')) and venv/.
#
# They come from Debian's CPython 3.14 packages (suite forky):
# libpython3.14-minimal for ssl.py, libpython3.14-stdlib for the rest.  apt
# checks the packages against the suite's signed index, and we check what
# we copy against the manifest hashes below (the sha256 of the sorted
# `sha256sum` lines of those files).  Nothing is installed on the system:
# apt works in a private directory.  See Doc/ssl.md and Doc/imports.md.
#
# Usage: fetch_debian_stdlib.sh [DEST]   (default build/stdlib; safe to rerun)
set -e
SUITE=forky
# Manifest hashes of the Debian uploads checked so far (3.14.8-1 first).  A
# newer upload whose files changed is refused until it is reviewed and its
# hash added here.
KNOWN_MANIFESTS="bea059af93b336dd050b74a6100b6febe7457683e8c25225f43e4eb26bdfde53"
FILES="ssl.py dbm pydoc_data venv"
top=$(cd "$(dirname "$0")/../.." && pwd)
dest=${1:-"$top/build/stdlib"}

manifest_of() {  # DIR: the manifest hash of $FILES under DIR
    (cd "$1" && find $FILES -type f ! -name '*.pyc' | LC_ALL=C sort | xargs sha256sum) |
        sha256sum | cut -d' ' -f1
}
known() {
    for h in $KNOWN_MANIFESTS; do
        [ "$1" = "$h" ] && return 0
    done
    return 1
}

if [ -f "$dest/.debian-stdlib" ] && known "$(cat "$dest/.debian-stdlib")"; then
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/etc" "$work/root"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
     "http://deb.debian.org/debian $SUITE main" > "$work/etc/sources.list"
chmod -R a+rwx "$work"
set -- -q -o Dir::Etc::SourceList="$work/etc/sources.list" \
       -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$work/lists" \
       -o Dir::Cache="$work/cache" -o Dir::State::Status=/dev/null
apt-get "$@" update >/dev/null
(cd "$work" && apt-get "$@" download libpython3.14-minimal libpython3.14-stdlib >/dev/null 2>&1)
for deb in "$work"/libpython3.14-minimal_*.deb "$work"/libpython3.14-stdlib_*.deb; do
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work/root" ./usr/lib/python3.14
done
lib="$work/root/usr/lib/python3.14"
got=$(manifest_of "$lib")
if ! known "$got"; then
    echo "fetch_debian_stdlib: $(ls "$work"/*.deb | xargs -n1 basename | tr '\n' ' ')" >&2
    echo "  give manifest $got, which is not in KNOWN_MANIFESTS of $0;" >&2
    echo "  review the files ($FILES) and add it." >&2
    exit 1
fi
for f in $FILES; do
    rm -rf "$dest/$f"
    cp -R "$lib/$f" "$dest/$f"
done
find "$dest" -name '__pycache__' -path '*/venv/*' -prune -exec rm -rf {} +
echo "$got" > "$dest/.debian-stdlib"
echo "stdlib: ssl.py, dbm, pydoc_data, venv from Debian $SUITE ($(ls "$work"/libpython3.14-stdlib_*.deb | xargs basename)) in $dest"
