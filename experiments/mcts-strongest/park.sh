#!/usr/bin/env bash
# Carries the long run across machines: copies what a resume needs, less the replay window's
# positions files (about 3 MB an iteration), from the run directory into
# experiments/mcts-strongest/carry/, to be committed.
#
#   experiments/mcts-strongest/park.sh [OUT]
#
# An ablation's run (`ablation.sh park NAME`) is parked with CONFIG and CARRY set (defaults: the
# long run's config and carry/, CARRY relative to this directory).
#
# Stop the run first (`kill -INT` on its process: it stops after the iteration in progress and
# its checkpoint). The carry holds the run's manifest, config, provenance, metrics and report
# (training.md, which the experiments test writes again from the metrics), the latest
# checkpoint whole (weights, optimiser, state), and the weights and network file of every kept
# checkpoint at a multiple of 500 iterations (the milestones' players), and keeps the weights
# and network file of every checkpoint it carried before. train.sh seeds a missing
# run directory from it and resumes with --refill-window: the window starts empty and refills
# from new self-play, so the run from there on is not the uninterrupted one, and the command
# lines in provenance.jsonl say where that happened.
set -euo pipefail
cd "$(dirname "$0")"
out=${1:-$HOME/pjlab-runs/mcts-strongest}
carry=${CARRY:-carry}
config=${CONFIG:-configs/mcts-strongest-pijersi.toml}
[ -f "$out/checkpoints/latest" ] || { echo "park: $out has no checkpoint" >&2; exit 1; }
if pgrep -f "train --config $config" > /dev/null; then
  echo "park: the run is still going; stop it first (kill -INT)" >&2
  exit 1
fi
latest=$(cat "$out/checkpoints/latest")
rm -rf "$carry.new"
mkdir -p "$(dirname "$carry")" "$carry.new/checkpoints/$latest"
cp "$out"/{run.json,config.toml,provenance.jsonl,metrics.jsonl,training.md} "$carry.new/"
cp "$out/checkpoints/latest" "$carry.new/checkpoints/"
cp "$out/checkpoints/$latest"/* "$carry.new/checkpoints/$latest/"
for dir in "$out"/checkpoints/iter-*; do
  name=$(basename "$dir")
  n=$((10#${name#iter-}))
  if [ "$name" != "$latest" ] && [ $((n % 500)) -eq 0 ]; then
    mkdir -p "$carry.new/checkpoints/$name"
    cp "$dir"/{model.bpk,network.json} "$carry.new/checkpoints/$name/"
  fi
done
# A checkpoint the carry held before (one a block played, such as 1894) stays, by its weights
# and network file, so that every block's player can still be loaded from the carry.
for dir in "$carry"/checkpoints/iter-*; do
  [ -d "$dir" ] || continue
  name=$(basename "$dir")
  if [ ! -d "$carry.new/checkpoints/$name" ]; then
    mkdir -p "$carry.new/checkpoints/$name"
    cp "$dir"/{model.bpk,network.json} "$carry.new/checkpoints/$name/"
  fi
done
rm -rf "$carry"
mv "$carry.new" "$carry"
echo "park: iteration ${latest#iter-} carried in experiments/mcts-strongest/$carry ($(du -sh "$carry" | cut -f1))"
