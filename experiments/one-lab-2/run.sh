#!/usr/bin/env bash
# The second step of one lab changes the code's shape, not its behaviour. This compares a binary
# built before it (BEFORE, commit 862a0dd) with one built after (AFTER) on one machine:
#
#   experiments/one-lab-2/run.sh BEFORE_BINARY AFTER_BINARY OUT_DIR [ROUNDS]
#
# 1. `pjlab bench --json` in alternation (after, before, ...) ROUNDS times (default 3): the
#    signatures (perft leaves, alpha-beta nodes, MCTS tree size, self-play plies, Chomp
#    P-positions, Chifoumi decisions) must be equal, the speeds equal within noise (compare.py
#    prints each figure's medians, ratio and spread).
# 2. A Pijersi training run (tiny.toml: 3 iterations, evaluation at 2 and 3) and a Chifoumi
#    training run (chifoumi-tiny.toml) with each binary: metrics.jsonl lines equal once the
#    timings are taken out, and the networks equal (the exported ONNX bytes for Pijersi; for
#    Chifoumi, whose weight files carry random parameter ids, the tables of 20 seeded matches
#    of the trained player against random).
# 3. Every committed report of experiments/ written again by AFTER's `pjlab report`: `git diff`
#    must show nothing.
#
# BEFORE can be built with:
#   git worktree add /tmp/before 862a0dd && (cd /tmp/before && cargo build --release -p pjlab-cli)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
before=$1
after=$2
out=$3
rounds=${4:-3}
mkdir -p "$out"

# 1. Bench signatures and speed, in alternation.
for i in $(seq 1 "$rounds"); do
  "$after" bench --json --repeat 3 --no-budget > "$out/after-$i.json"
  "$before" bench --json --repeat 3 --no-budget > "$out/before-$i.json"
done
python3 "$here/../bench-one-lab/compare.py" "$out" > "$out/bench.md"
python3 "$here/signatures.py" "$out" > "$out/signatures.txt"

# 2. Training runs.
for which in before after; do
  bin=$before
  [ "$which" = after ] && bin=$after
  rm -rf "$out/train-$which" "$out/chifoumi-$which"
  "$bin" -q train --config "$here/tiny.toml" --out "$out/train-$which" > /dev/null
  "$bin" -q export --checkpoint "$out/train-$which" --out "$out/train-$which/model.onnx" > /dev/null
  "$bin" -q chifoumi train --config "$here/chifoumi-tiny.toml" --out "$out/chifoumi-$which" > /dev/null
  # Burn's weight files carry random parameter ids, so the Chifoumi network is compared by its
  # play: 20 seeded matches against random, one worker.
  "$bin" -q chifoumi match --a "net:checkpoint=$out/chifoumi-$which" --b random --matches 20 \
    --seed 5 --workers 1 --out "$out/chifoumi-$which/match" > /dev/null
done
python3 "$here/same_runs.py" "$out" > "$out/runs.txt"

# 3. Reports: every committed run directory (one with Parquet records or metrics; the reports of
#    experiments/scale are written by its own script).
for dir in $(git -C "$here/../.." ls-files 'experiments/*report.md' 'experiments/*training.md' \
    | xargs -n1 dirname | sort -u); do
  d="$here/../../$dir"
  if ! compgen -G "$d/*.parquet" > /dev/null && [ ! -e "$d/metrics.jsonl" ]; then continue; fi
  "$after" -q report "$d" > /dev/null
done
# `pjlab report` also writes games.csv and games.txt, which the experiments do not commit.
git -C "$here/../.." clean -fq -- 'experiments/*games.csv' 'experiments/*games.txt'
git -C "$here/../.." diff --stat -- experiments > "$out/reports-diff.txt"
echo "reports changed (empty: none):" && cat "$out/reports-diff.txt"
cat "$out/signatures.txt" "$out/runs.txt"
