#!/usr/bin/env bash
# Reproduces: shuffling with GNU coreutils `shuf`, as in shell scripts:
#     shuf -i 0-51                  # one deck, one item per line
# made reproducible the way the coreutils manual recommends: by giving shuf a
# deterministic byte stream with --random-source=FILE.
#
# Expected verdict: FAIR (no bias detected). shuf performs a Fisher-Yates
# style shuffle and draws each index from the random source by rejection
# (randint), so every step is exactly uniform given uniform bytes.
#
# Deterministic for a seed: YES, for a given coreutils version (how many bytes
# shuf reads per draw is an implementation detail). The random source is
# SHA-256 in counter mode, written by perl's core Digest::SHA:
#     sha256("<seed>:<stream>:0") . sha256("<seed>:<stream>:1") . ...
# so all 64 bits of the seed are used (as a decimal string). The manual's
# `openssl enc -aes-256-ctr` recipe is not used because openssl may be missing
# and its key derivation differs between versions.
#
# Two modes:
#  * default, "block" mode (fast): one shuf process per block of B decks
#    (B = SHUF_BLOCK, default 5000). The block's B*n lines "deck card" are
#    shuffled together by one `shuf --random-source=...`, and awk then
#    collects each deck's cards in the order in which they come out. The
#    relative order of any deck's cards within a uniform random permutation
#    of all B*n lines is itself uniform and independent of the other decks',
#    so this yields B independent uniform decks: same law as one shuf per
#    deck, but ~100x faster. Stream id = block index.
#  * SHUF_PER_DECK=1 (literal, slow): one `shuf -i 0-(n-1)` per deck, exactly
#    as a shell script would deal; two processes per deck (shuf + the byte
#    generator), a few hundred decks/s. Stream id = deck index. Use it for
#    small counts only.
#
# Needs bash (process substitution), shuf, awk and perl.
# Contract: bash examples/real-world/shuf.sh n count seed
set -euo pipefail
if [ $# -ne 3 ]; then
    echo "usage: shuf.sh n count seed" >&2
    exit 2
fi
n=$1 count=$2 seed=$3
for v in "$n" "$count" "$seed"; do
    case $v in '' | *[!0-9]*) echo "shuf.sh: not a number: '$v'" >&2; exit 2 ;; esac
done
if [ "${#n}" -gt 7 ] || [ "${#count}" -gt 15 ] || [ "${#seed}" -gt 20 ] || [ "$((10#$n))" -lt 1 ]; then
    echo "shuf.sh: n must be 1..9999999, count < 10^15, seed < 2^64" >&2
    exit 2
fi
n=$((10#$n)) count=$((10#$count))
seed=${seed#"${seed%%[!0]*}"}; seed=${seed:-0}   # canonical decimal, no leading zeros
block=${SHUF_BLOCK:-5000}

# Endless deterministic byte stream for stream id $1 (perl dies of SIGPIPE
# once shuf has read what it needs).
random_bytes() {
    perl -MDigest::SHA=sha256 -e '
        binmode STDOUT; my ($k, $i) = ($ARGV[0], 0);
        while (1) { print join "", map { sha256("$k:" . $i++) } 1 .. 256 }' "$seed:$1"
}

if [ "${SHUF_PER_DECK:-0}" = 1 ]; then
    for ((d = 0; d < count; d++)); do
        mapfile -t deck < <(shuf -i "0-$((n - 1))" --random-source=<(random_bytes "$d"))
        echo "${deck[*]}"
    done
    exit 0
fi

for ((dealt = 0, b = 0; dealt < count; dealt += m, b++)); do
    m=$((count - dealt < block ? count - dealt : block))
    awk -v m="$m" -v n="$n" 'BEGIN { for (k = 0; k < m; k++) for (v = 0; v < n; v++) print k, v }' |
        shuf --random-source=<(random_bytes "$b") |
        awk -v m="$m" '{ if ($1 in r) r[$1] = r[$1] " " $2; else r[$1] = $2 }
                       END { for (k = 0; k < m; k++) print r[k] }'
done
