#!/usr/bin/env bash
# Pijersi figures of `pjlab bench` before and after the one-lab refactor, in alternation on one
# machine: after, before, after, before, ... ROUNDS times each, 3 timed runs per figure a round.
#
#   experiments/bench-one-lab/run.sh BEFORE_BINARY AFTER_BINARY OUT_DIR [ROUNDS]
#
# BEFORE_BINARY is built from commit 0b93512 (the last before the Abalone work), for example:
#   git worktree add /tmp/before 0b93512 && (cd /tmp/before && cargo build --release -p pjlab-cli)
# The after binary skips the Abalone figures, which the before binary does not have.
set -euo pipefail
before=$1
after=$2
out=$3
rounds=${4:-2}
mkdir -p "$out"
for i in $(seq 1 "$rounds"); do
  "$after" bench --json --repeat 3 --no-abalone > "$out/after-$i.json"
  "$before" bench --json --repeat 3 > "$out/before-$i.json"
done
python3 "$(dirname "$0")/compare.py" "$out"
