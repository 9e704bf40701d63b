#!/bin/bash
# A bot match split over a Slurm job array: task i plays the games k with (k - 1) mod N = i.
# Run from a checkout of qijudge with `qijudge` on PATH (cargo install --path .):
#   sbatch --array=0-15 examples/shards/slurm-match.sh
# then, once every task is done:
#   qijudge tournament results/shard-*/games --format markdown
# Every task must use the same --games and --seed, so the shards are parts of one match; a task
# that is stopped or fails can be submitted again and plays only its games not yet finished.
# QIJUDGE_GAMES and QIJUDGE_SEED (exported to the tasks) change the games per encounter and the
# seed. Each task's log is slurm-qijudge-JOB_TASK.log in the folder sbatch was run from.
#SBATCH --job-name=qijudge-match
#SBATCH --cpus-per-task=2
#SBATCH --time=04:00:00
#SBATCH --output=slurm-qijudge-%A_%a.log
set -euo pipefail

tasks=${SLURM_ARRAY_TASK_COUNT:?run with sbatch --array=0-N}
task=${SLURM_ARRAY_TASK_ID:?run with sbatch --array=0-N}

# Slurm sends SIGTERM before its time limit: qijudge then finishes the games in flight and
# exits 130, and the task can be submitted again to go on.
qijudge match --game luzhanqi \
  --bot example="/usr/bin/python3 examples/bots/random_bot.py" --bot builtin:greedy --bot builtin:random \
  --games "${QIJUDGE_GAMES:-500}" --seed "${QIJUDGE_SEED:-7}" \
  --concurrency "${SLURM_CPUS_PER_TASK:-1}" \
  --shard "$task/$tasks" --out "results/shard-$task"
