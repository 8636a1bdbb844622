#!/bin/sh
# Install what building and testing need on Debian 12 (as root, or through
# sudo when run by another user).  Safe to run more than once.
set -e
PACKAGES="build-essential pkg-config python3 autoconf clang-19 llvm-19 lld-19 libmimalloc-dev libssl-dev libexpat1-dev zlib1g-dev libbz2-dev liblzma-dev libsqlite3-dev libffi-dev unzip"
if [ "$(id -u)" = 0 ]; then
    SUDO=""
else
    SUDO="sudo"
fi
missing=""
for p in $PACKAGES; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi
# npm fetches the standard library; any npm will do (Debian's, or one that
# came with Node.js).
if ! command -v npm >/dev/null 2>&1; then
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq npm
fi
"$(dirname "$0")/fetch_stdlib.sh"
"$(dirname "$0")/fetch_debian_stdlib.sh"
"$(dirname "$0")/fetch_ucd.sh"
"$(dirname "$0")/fetch_mpdecimal.sh"
