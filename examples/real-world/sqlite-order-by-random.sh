#!/bin/sh
# Reproduces: shuffling rows in SQL with
#     SELECT v FROM cards ORDER BY random();
# the usual way to "pick in random order" in SQLite (and, as ORDER BY RAND() /
# random(), in MySQL and PostgreSQL), one query per deal.
#
# Expected verdict: FAIR (no bias detected). Each row gets an independent
# 64-bit random() key and the rows are sorted by it: a random-keys sort,
# which is exactly uniform unless two keys tie (probability ~ n^2 / 2^65,
# i.e. ~7e-17 per deck at n = 52; a tie would keep the table order).
#
# Deterministic for a seed: YES for a given SQLite version, through the CLI's
# test hook `.testctrl prng_seed` (normally SQLite seeds random() from
# /dev/urandom and plain SQL cannot seed it). That hook takes a 32-bit int and
# treats 0 as "use OS randomness", so the 64-bit seed is mapped to
# 1 + (seed mod (2^32 - 1)): seeds that are congruent mod 2^32 - 1 give the
# same decks. Set SQLITE_UNSEEDED=1 to skip the hook and get the genuine,
# unseedable OS-seeded behaviour.
#
# Efficiency: all `count` deals are ONE statement. A recursive CTE numbers the
# deals; for each deal a correlated scalar subquery runs
# `SELECT v FROM cards ORDER BY random()` and group_concat joins the result
# with spaces. (group_concat follows the subquery's order in practice;
# SQLite < 3.44 has no ORDER BY inside aggregates to make that official.)
# sqlite3 streams the rows through stdio, fully buffered on a pipe.
#
# Contract: sh examples/real-world/sqlite-order-by-random.sh n count seed
set -eu
if [ $# -ne 3 ]; then
    echo "usage: sqlite-order-by-random.sh n count seed" >&2
    exit 2
fi
n=$1 count=$2 seed=$3
for v in "$n" "$count" "$seed"; do
    case $v in '' | *[!0-9]*) echo "sqlite-order-by-random.sh: not a number: '$v'" >&2; exit 2 ;; esac
done
if [ "${#n}" -gt 7 ] || [ "${#count}" -gt 15 ] || [ "${#seed}" -gt 20 ] || [ "$n" -lt 1 ]; then
    echo "sqlite-order-by-random.sh: n must be 1..9999999, count < 10^15, seed < 2^64" >&2
    exit 2
fi

# 1 + (seed mod (2^32 - 1)) in 64-bit shell arithmetic: seed = hi * 10^9 + lo
# with lo < 10^9, and (hi mod M) * 10^9 < 2^63, so nothing overflows.
# Leading zeros are stripped so that the shell does not read octal.
strip0() { s=${1#"${1%%[!0]*}"}; echo "${s:-0}"; }
lo=$(strip0 "$(printf '%s' "$seed" | tail -c 9)")
if [ "${#seed}" -gt 9 ]; then hi=$(strip0 "$(printf '%s' "$seed" | head -c $((${#seed} - 9)))"); else hi=0; fi
M=4294967295
prng_seed=$(( 1 + ((hi % M) * 1000000000 % M + lo % M) % M ))
if [ "${SQLITE_UNSEEDED:-0}" = 1 ]; then seed_cmd=''; else seed_cmd=".testctrl prng_seed $prng_seed"; fi

exec sqlite3 -batch -noheader -list :memory: <<SQL
$seed_cmd
CREATE TABLE cards(v INTEGER PRIMARY KEY);
WITH RECURSIVE c(v) AS (SELECT 0 UNION ALL SELECT v + 1 FROM c WHERE v + 1 < $n)
INSERT INTO cards SELECT v FROM c;
WITH RECURSIVE deal(k) AS (SELECT 1 WHERE $count > 0
                           UNION ALL SELECT k + 1 FROM deal WHERE k < $count)
SELECT (SELECT group_concat(v, ' ')
          FROM (SELECT v FROM cards WHERE deal.k > 0 ORDER BY random()))
  FROM deal;
SQL
