#!/bin/sh
# One task of a sharded audit, the same on every batch engine: counts shard
# INDEX of COUNT into RUN_DIR/shard-INDEX-of-COUNT.tally, which doubles as
# the task's checkpoint (saved every CHECKPOINT_EVERY seconds, default 300).
# A task the engine runs again (a preempted node, a retry) resumes from it;
# a task whose shard is complete rewrites the same tally and succeeds.
#
# usage: shard-task.sh INDEX COUNT RUN_DIR AUDIT-OPTION...
#   e.g. shard-task.sh 3 64 /shared/runs/mod-bias -a fisher-yates -n 10 -t 2.1e9
# SHUFFLE_AUDIT names the binary (default: shuffle-audit on the PATH).
set -eu
if [ $# -lt 3 ]; then
    echo "usage: $0 INDEX COUNT RUN_DIR AUDIT-OPTION..." >&2
    exit 2
fi
index=$1
count=$2
dir=$3
shift 3
mkdir -p "$dir"
tally="$dir/shard-$index-of-$count.tally"
set -- "$@" --shard "$index/$count" --tally "$tally" \
    --checkpoint "$tally" --checkpoint-every "${CHECKPOINT_EVERY:-300}"
if [ -f "$tally" ]; then
    set -- "$@" --resume "$tally"
fi
exec "${SHUFFLE_AUDIT:-shuffle-audit}" audit "$@"
