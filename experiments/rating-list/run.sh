#!/usr/bin/env bash
# The rating list of the lab's Pijersi players (written before any of its games): a round robin
# at 100 ms a move, one core each, 100 colour-paired games a pair (classic and half-random
# setups in turn, 2 opening plies among moves within 30 centi-units of the best, the list's
# seed: 41, 42 or 43), no early stop; the ratings with their intervals are the tournament report's (`report.md`).
#
#   scripts/alone.sh experiments/rating-list/run.sh [WORKERS=2] [LIST=3]   # runs at nice 19 paused
#
# The players: random, greedy, alpha-beta with the hand-written evaluation at depths 1 to 4
# and at 100 ms, the residual learned evaluation (experiments/neural-strongest) at 100 ms, the
# MCTS network (experiments/pijersi-vs-alphabeta) at 100 ms, and every generation the
# generations runs have promoted when this script starts, at 100 ms, each network in integers
# (nnue-int, as the residual one). Fixed-depth players take the time their depth takes. Stop
# it at any time and run it again: it resumes (a resumed run keeps the players it started with).
#
# LIST 1, the first list (pijersi/, seed 41): the runs pijersi and pijersi-factors. LIST 2
# (pijersi-2/, seed 42; written after the run at the lower learning rate, pijersi-lr, promoted
# its generation 2, and before any of this list's games): the same players with the three runs
# pijersi, pijersi-factors and pijersi-lr, so that every promoted generation is on it. LIST 3
# (pijersi-3/, seed 43; written after the sweep's round 3 network met the standalone claim at
# 100 ms and 1 s, and before any of this list's games): list 2's players and the two networks of
# experiments/nnue-generations/sweep.sh accepted at their gates (round 2's lr-0.0003-seed-2,
# round 3's r3-lr-0.0001), so that the strongest standalone network is on it.
set -euo pipefail
cd "$(dirname "$0")/../.."
workers=${1:-2}
list=${2:-3}
sweep=()
case "$list" in
  1) out=experiments/rating-list/pijersi seed=41 runs=(pijersi pijersi-factors) ;;
  2) out=experiments/rating-list/pijersi-2 seed=42 runs=(pijersi pijersi-factors pijersi-lr) ;;
  3)
    out=experiments/rating-list/pijersi-3 seed=43 runs=(pijersi pijersi-factors pijersi-lr)
    sweep=(lr-0.0003-seed-2 r3-lr-0.0001)
    ;;
  *) echo "usage: $0 [WORKERS] [LIST: 1, 2 or 3]" >&2; exit 2 ;;
esac
PJLAB=${PJLAB:-target/release/pjlab}
[ -x "$PJLAB" ] || cargo build --release -p pjlab-cli
if [ -f "$out/games.parquet" ]; then
  exec "$PJLAB" tournament --resume --out "$out" --workers "$workers"
fi
# Each agent's `name=` is its label in the report (the spec it was built from is beside it).
agents=(
  random:name=random greedy:name=greedy
  alphabeta:depth=1,name=ab-depth-1 alphabeta:depth=2,name=ab-depth-2
  alphabeta:depth=3,name=ab-depth-3 alphabeta:depth=4,name=ab-depth-4
  alphabeta:time=100ms,name=ab-hand-written
  alphabeta:time=100ms,eval=nnue-int:experiments/neural-strongest/nets/all6-32r-quiet.json,name=ab-residual-net
  net:checkpoint=experiments/pijersi-vs-alphabeta/checkpoint,time=100ms,name=mcts-net
)
for run in "${runs[@]}"; do
  ledger=experiments/nnue-generations/$run/generations.jsonl
  [ -f "$ledger" ] || continue
  for g in $(grep '"promoted":true' "$ledger" | sed -E 's/.*"generation":([0-9]+).*/\1/'); do
    net=experiments/nnue-generations/$run/gen-$(printf %03d "$g")/net.nnue
    agents+=("alphabeta:time=100ms,eval=nnue-int:$net,name=$run-gen-$g")
  done
done
for name in "${sweep[@]}"; do
  agents+=("alphabeta:time=100ms,eval=nnue-int:experiments/nnue-generations/sweep/$name/net.nnue,name=sweep-$name")
done
uptime
for a in "${agents[@]}"; do args+=(--agents "$a"); done
"$PJLAB" tournament --game pijersi "${args[@]}" --games 100 --variants classic,half-random \
  --seed "$seed" --opening-plies 2 --opening-margin 30 --workers "$workers" --out "$out"
uptime
