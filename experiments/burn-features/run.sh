#!/usr/bin/env bash
# Does training gain from Burn's `simd` and `rayon` features? (written before it was run)
#
# The lab builds Burn's CPU backend (`flex`) without them. This script builds the binary twice
# from the same checkout, default and `--features burn-simd,burn-rayon` (each in its own target
# directory), then alternates the two for ROUNDS rounds, default first, each running
# `pjlab bench`'s network figures (`--repeat 3`: each figure the median of 3 runs):
#   - `train_samples_per_second`: training steps at batch 256 with batch building, as
#     `pjlab train` runs them (the figure that answers the question);
#   - `net_burn_batch{1,32,128}_positions_per_second`: forward passes through Burn;
#   - `chifoumi_training_decisions_per_second`: the Chifoumi learner's training;
#   - controls that do not use Burn and must not move: `net_batch*` (the packed CPU kernel),
#     `selfplay64_positions_per_second`, `alphabeta_nodes_per_second`.
# The feature build runs twice a round: with rayon's default pool (every core) and with
# `RAYON_NUM_THREADS=1` (one core, as the default build's Burn runs).
#
# Stopping rule: ROUNDS (default 5) rounds, every measurement kept in bench.jsonl; the summary
# (summary.md) gives each figure's median over the rounds and the ratio to the default build's.
# Run it on an otherwise idle machine (stop other runs with kill -STOP, then kill -CONT).
#
#   experiments/burn-features/run.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
out=experiments/burn-features
base_target=${CARGO_TARGET_DIR:-target}
feat_target=${BURN_FEATURES_TARGET:-$base_target-burnfeat}
cargo build --release --quiet -p pjlab-cli
CARGO_TARGET_DIR=$feat_target cargo build --release --quiet -p pjlab-cli \
  --features burn-simd,burn-rayon
base=$base_target/release/pjlab
feat=$feat_target/release/pjlab
args=(bench --json --repeat 3 --no-perft --no-chomp --no-abalone --no-budget)
: > "$out/bench.jsonl"
{
  echo "# $(date -u +%FT%TZ) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
  echo "# default: $("$base" --version); features: $("$feat" --version)"
  uptime
} > "$out/machine.txt"
for round in $(seq 1 "$rounds"); do
  for build in default simd-rayon simd-rayon-1thread; do
    case $build in
      default) line=$("$base" "${args[@]}") ;;
      simd-rayon) line=$("$feat" "${args[@]}") ;;
      simd-rayon-1thread) line=$(RAYON_NUM_THREADS=1 "$feat" "${args[@]}") ;;
    esac
    echo "{\"round\":$round,\"build\":\"$build\",\"figures\":$line}" >> "$out/bench.jsonl"
    echo "round $round: $build" >&2
  done
done
uptime >> "$out/machine.txt"
python3 "$out/summary.py" "$out/bench.jsonl" > "$out/summary.md"
cat "$out/summary.md"
