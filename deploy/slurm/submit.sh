#!/bin/bash
# Queues a sharded audit on Slurm: the shard array, then the merge, which
# waits for every array task to succeed (afterok on the array's job id).
# Run it from anywhere; the jobs run the scripts of this repository
# ($SLURM_SUBMIT_DIR/deploy). The run comes from the environment, which both
# jobs get (sbatch's default --export=ALL), or from shards.sbatch's defaults:
#   SHARDS=16 RUN_DIR=/scratch/me/run1 AUDIT_ARGS='-a naive-swap -n 52 -t 1e10' \
#       deploy/slurm/submit.sh
# SHARDS also sizes the array (--array=0-15 here). Extra sbatch options go to
# both jobs, e.g. --partition=short, or --chdir=DIR for their logs.
set -eu
cd "$(dirname "$0")/../.."
size=()
if [ -n "${SHARDS:-}" ]; then
    size=(--array="0-$((SHARDS - 1))")
fi
array=$(sbatch --parsable "${size[@]}" "$@" deploy/slurm/shards.sbatch)
array=${array%%;*}
echo "shard array: job $array"
merge=$(sbatch --parsable --dependency=afterok:"$array" "$@" deploy/slurm/merge.sbatch)
echo "merge: job ${merge%%;*} (starts once every task of job $array has succeeded)"
