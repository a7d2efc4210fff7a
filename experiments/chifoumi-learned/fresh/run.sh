#!/usr/bin/env bash
# Pre-registered: the learned Chifoumi player (../final, unchanged) on fresh seeds. This script
# was committed before it was first run; the commit order is the evidence.
#
# Fixed game counts and no early stop, every sample reported whatever it shows:
#   - 1000 matches against each of the ten scripted players, seeds 101 to 110 in the order below,
#   - 400 matches against ismcts:sims=100 (seed 111).
# Seeds 1 and 3 are taken in this directory (../run.sh) and 201-211 by ../held-out/run.sh. A run's
# match seeds are mix2(seed, pair + 1, k) (pjlab_core::seed); none of these runs' match seeds is
# one of the seeds of the round robin, the goal's second stage, the match against ismcts, or the
# training's matches and evaluations (checked by ../seeds.py).
#
# One directory per opponent (records and report.md).
#
#   experiments/chifoumi-learned/fresh/run.sh [WORKERS=2]
set -euo pipefail
cd "$(dirname "$0")/../../.."
workers=${1:-2}
bin=${PJLAB:-target/release/pjlab}
[ -x "$bin" ] || cargo build --release -p pjlab-cli
E=experiments/chifoumi-learned/fresh
net="net:checkpoint=experiments/chifoumi-learned/final"
# play DIR SEED MATCHES OPPONENT: a match run, resumed if it was interrupted.
play() {
  if [ -f "$1/matches.parquet" ]; then
    "$bin" chifoumi match --out "$1" --resume --workers "$workers"
  else
    "$bin" chifoumi match --seed "$2" --matches "$3" --workers "$workers" --out "$1" \
      --a "$net" --b "$4"
  fi
}
seed=101
for b in random focused:F focused:P focused:C greedy avoider counter counter-reset observer lurker; do
  play "$E/versus-${b/:/-}" "$seed" 1000 "$b"
  seed=$((seed + 1))
done
play "$E/versus-ismcts" 111 400 ismcts:sims=100
