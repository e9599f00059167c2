#!/bin/bash
# Queues a sharded audit on Slurm: the shard array, then the merge, which
# waits for every array task to succeed (afterok on the array's job id).
# Run it from anywhere; extra sbatch options go to both jobs, e.g.
#   deploy/slurm/submit.sh --partition=short --export=ALL,RUN_DIR=/scratch/me/run1
set -eu
cd "$(dirname "$0")/../.."
array=$(sbatch --parsable "$@" deploy/slurm/shards.sbatch)
sbatch --dependency=afterok:"${array%%;*}" "$@" deploy/slurm/merge.sbatch
