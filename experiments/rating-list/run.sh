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
#
# LIST 4 (pijersi-4/, seed 44; written after checkpoint 1894 of experiments/mcts-strongest's
# long run passed its 100 ms goal block, and before any of this list's games): list 3's players
# and the long run's network at checkpoints 1000, 1500 and 1894 (its milestones and the goal's
# checkpoint; `reuse=1,batch=8,cpuct=2.5`, the search its blocks play), and checkpoint 1894 as
# the hybrid of its blocks (`leaf=nnue-int:<sweep-r3>,leaf_depth=0,leaf_share=0.5`), at 100 ms.
# Amended after checkpoint 4000's goal blocks and still before any of list 4's games: the long
# run's checkpoints 3000 and 4000 (each passed its 100 ms goal block) and checkpoint 4000 as the
# hybrid (its 1 s goal block reached 55%) join lists 4 and 5, so that the run's latest and
# strongest players are on them.
# LIST 5 (pijersi-5/, seed 45, written with list 4): list 4's players at 1 s a move (the
# fixed-depth players as they are), 20 games a pair, so that the top of the list is also
# measured at the goal's longer time.
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
  4 | 5)
    runs=(pijersi pijersi-factors pijersi-lr)
    sweep=(lr-0.0003-seed-2 r3-lr-0.0001)
    long=(1000 1500 1894 3000 4000)
    if [ "$list" = 4 ]; then
      out=experiments/rating-list/pijersi-4 seed=44
    else
      out=experiments/rating-list/pijersi-5 seed=45 time=1s games=20
    fi
    ;;
  *) echo "usage: $0 [WORKERS] [LIST: 1 to 5]" >&2; exit 2 ;;
esac
time=${time:-100ms}
games=${games:-100}
long=("${long[@]+"${long[@]}"}")
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
  alphabeta:time=$time,name=ab-hand-written
  alphabeta:time=$time,eval=nnue-int:experiments/neural-strongest/nets/all6-32r-quiet.json,name=ab-residual-net
  net:checkpoint=experiments/pijersi-vs-alphabeta/checkpoint,time=$time,name=mcts-net
)
for run in "${runs[@]}"; do
  ledger=experiments/nnue-generations/$run/generations.jsonl
  [ -f "$ledger" ] || continue
  for g in $(grep '"promoted":true' "$ledger" | sed -E 's/.*"generation":([0-9]+).*/\1/'); do
    net=experiments/nnue-generations/$run/gen-$(printf %03d "$g")/net.nnue
    agents+=("alphabeta:time=$time,eval=nnue-int:$net,name=$run-gen-$g")
  done
done
for name in "${sweep[@]}"; do
  agents+=("alphabeta:time=$time,eval=nnue-int:experiments/nnue-generations/sweep/$name/net.nnue,name=sweep-$name")
done
r3=experiments/nnue-generations/sweep/r3-lr-0.0001/net.nnue
for i in "${long[@]}"; do
  checkpoint=experiments/mcts-strongest/carry/checkpoints/iter-$i
  agents+=("net:checkpoint=$checkpoint,reuse=1,batch=8,cpuct=2.5,time=$time,name=mcts-long-$i")
done
if [ ${#long[@]} -gt 0 ]; then
  checkpoint=experiments/mcts-strongest/carry/checkpoints/iter-1894
  for i in 1894 4000; do
    checkpoint=experiments/mcts-strongest/carry/checkpoints/iter-$i
    agents+=("net:checkpoint=$checkpoint,reuse=1,batch=8,cpuct=2.5,leaf=nnue-int:$r3,leaf_depth=0,leaf_share=0.5,time=$time,name=mcts-long-$i-hybrid")
  done
fi
uptime
for a in "${agents[@]}"; do args+=(--agents "$a"); done
"$PJLAB" tournament --game pijersi "${args[@]}" --games "$games" --variants classic,half-random \
  --seed "$seed" --opening-plies 2 --opening-margin 30 --workers "$workers" --out "$out"
uptime
