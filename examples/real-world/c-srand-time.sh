#!/bin/sh
# Wrapper for c-srand-time.c (see the header there for what it reproduces, the expected
# verdict and determinism).
#
# Usage: sh examples/real-world/c-srand-time.sh n count seed
#
# Compiles c-srand-time.c with `gcc -O2` into ${TMPDIR:-/tmp}/shuffle-audit-real-world/
# on first use, then execs the binary with the arguments. The binary's name
# carries a checksum of the source, so an edited source is recompiled (and a
# binary is never older than its source). Safe when several workers start at
# once: each compiles to a private temporary name and renames it into place
# atomically (rename within one directory), so no worker ever runs a
# half-written binary.
set -eu
src=$(dirname "$0")/c-srand-time.c
[ -r "$src" ] || { echo "c-srand-time.sh: cannot read $src" >&2; exit 2; }
cache=${TMPDIR:-/tmp}/shuffle-audit-real-world
sum=$(cksum < "$src" | cut -d ' ' -f 1)
bin=$cache/c-srand-time-$sum
if [ ! -x "$bin" ]; then
    mkdir -p "$cache"
    tmp=$bin.tmp.$$
    if ! gcc -O2 -Wall -o "$tmp" "$src" >&2; then
        rm -f "$tmp"
        echo "c-srand-time.sh: compiling $src failed" >&2
        exit 1
    fi
    mv -f "$tmp" "$bin"
fi
exec "$bin" "$@"
