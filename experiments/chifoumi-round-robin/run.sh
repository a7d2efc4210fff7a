#!/usr/bin/env bash
# Chifoumi round robin: every player of the lab (the scripted ones, the information-set MCTS
# player and the learned player of experiments/chifoumi-learned: run that first), 100 matches of
# 10 games a pair (seats swap every match), the spec's rules. Resumes where it stopped: run this
# script again.
#
#   experiments/chifoumi-round-robin/run.sh [WORKERS=2]
set -euo pipefail
cd "$(dirname "$0")/../.."
workers=${1:-2}
bin=${PJLAB:-target/release/pjlab}
[ -x "$bin" ] || cargo build --release -p pjlab-cli
out=experiments/chifoumi-round-robin/all
if [ -f "$out/matches.parquet" ]; then
  "$bin" chifoumi tournament --out "$out" --resume --workers "$workers"
else
  "$bin" chifoumi tournament --seed 2 --matches 100 --workers "$workers" --out "$out" \
    --players random,focused:F,focused:P,focused:C,greedy,avoider,counter,counter-reset,observer,lurker,ismcts:sims=100,net:checkpoint=experiments/chifoumi-learned/final
fi
