#!/bin/sh
# The last step of a sharded audit, the same on every batch engine: judges
# the tallies of all shards in RUN_DIR as one run and writes its report to
# OUT (default RUN_DIR/report). merge refuses, naming the file, a missing,
# unfinished, damaged or foreign shard: nothing is written then.
#
# usage: merge.sh RUN_DIR [OUT [MERGE-OPTION...]]
# SHUFFLE_AUDIT names the binary (default: shuffle-audit on the PATH).
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 RUN_DIR [OUT [MERGE-OPTION...]]" >&2
    exit 2
fi
dir=$1
out=${2:-$dir/report}
shift
if [ $# -gt 0 ]; then
    shift
fi
exec "${SHUFFLE_AUDIT:-shuffle-audit}" merge "$dir"/shard-*-of-*.tally --out "$out" "$@"
