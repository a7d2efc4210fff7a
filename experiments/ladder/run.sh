#!/usr/bin/env bash
# The Pijersi ladder: one round robin of reference players (random, greedy, alpha-beta at depths
# 1 to 6 and at 100 ms and 1 s a move) and the lab's network (at 100 ms, 1 s and 800
# simulations a move), 16 colour-paired games a pair on classic and half-random setups. Timed
# players need a core each: one worker, nothing else at normal priority on the machine. Resumes
# where it stopped: run this script again.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=target/release/pjlab
[ -x "$bin" ] || cargo build --release -p pjlab-cli
out=experiments/ladder/pijersi
if [ -f "$out/games.parquet" ]; then
  exec "$bin" tournament --out "$out" --resume --workers 1
fi
N=experiments/pijersi-vs-alphabeta/checkpoint
exec "$bin" tournament --agents random --agents greedy \
  --agents alphabeta:depth=1 --agents alphabeta:depth=2 --agents alphabeta:depth=3 \
  --agents alphabeta:depth=4 --agents alphabeta:depth=5 --agents alphabeta:depth=6 \
  --agents alphabeta:time=100ms --agents alphabeta:time=1s \
  --agents net:checkpoint=$N,time=100ms --agents net:checkpoint=$N,time=1s \
  --agents net:checkpoint=$N,sims=800 \
  --variants classic,half-random --games 16 --seed 1 --workers 1 --out "$out"
