#!/usr/bin/env bash
# The strength curve of the long Pijersi run (configs/pijersi-long.toml): its checkpoints 200,
# 400 and 600 (under checkpoints/, weights and state only), each with MCTS against the lab's
# alpha-beta at 100 ms a move each, 200 colour-paired games on half-random and classic setups, on
# one core (the players think in turn). Resumes where it stopped: run this script again.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=target/release/pjlab
[ -x "$bin" ] || cargo build --release -p pjlab-cli
E=experiments/strength-curve
for it in 0200 0400 0600; do
  out=$E/iter-$it
  if [ -f "$out/games.parquet" ]; then
    "$bin" match --out "$out" --resume --workers 1
  else
    "$bin" match --a "net:checkpoint=$E/checkpoints/iter-$it" --b alphabeta --time-per-move 100ms \
      --variants half-random,classic --games 200 --seed 1 --workers 1 --out "$out"
  fi
done
