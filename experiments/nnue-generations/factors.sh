#!/usr/bin/env bash
# Does training with factors (one kind of piece on any cell, folded into the cells' weights at
# the end) let a standalone Pijersi network play as well as the hand-written evaluation? A
# pilot, written before it was run, after volume.sh's network (20,000 depth-2 games, held-out
# loss 0.653 against the hand-written 0.662) still scored 41.0% against the hand-written
# evaluation at 100,000 nodes a move: a piece's worth was learned cell by cell, each cell from
# its own few positions.
#
# Fixed counts, no early stop:
# 1. Training: the 32/8 standalone network, weight decay 1, 12 passes, forced results left out,
#    with factors (--factorise), on two data sets in turn: (a) generations 1 and 2's depth-4
#    positions; (b) volume.sh's depth-2 positions.
# 2. Match: each network against the hand-written evaluation, both alpha-beta at 100,000 nodes
#    a move, 200 games in colour pairs from classic and half-random setups with 4 random
#    opening plies, seed 303 (neither the generations' gates nor volume.sh use it). Every game
#    is reported. A pilot decides nothing by itself: it chooses the training of the next
#    generations spec, written down before that run starts.
#
#   nice -n 19 experiments/nnue-generations/factors.sh [WORKERS=2]   # PJLAB names the binary
set -euo pipefail
cd "$(dirname "$0")/../.."
workers=${1:-2}
PJLAB=${PJLAB:-target/release/pjlab}
E=experiments/nnue-generations
F=$E/factors
mkdir -p "$F"
train() {
  local name=$1
  shift
  [ -f "$F/$name.nnue" ] || "$PJLAB" nnue train --game pijersi "$@" --out "$F/$name.nnue" \
    --hidden 32 --l2 8 --weight-decay 1 --factorise --epochs 12 --batch 256 --lr 0.001 \
    --lambda 0.5 --label-scale 200 --validation 0.05 --seed 1 --no-forced
}
match() {
  local name=$1
  if [ -f "$F/match-$name/games.parquet" ]; then
    "$PJLAB" match --resume --out "$F/match-$name" --workers "$workers"
    return
  fi
  "$PJLAB" match --game pijersi --a "alphabeta:nodes=100000,eval=nnue:$F/$name.nnue" \
    --b "alphabeta:nodes=100000" --games 200 --variants classic,half-random \
    --opening-plies 4 --seed 303 --workers "$workers" --out "$F/match-$name"
}
train depth4 --data "$E/pijersi/gen-001/data" --data "$E/pijersi/gen-002/data"
train depth2 --data "$E/volume/data"
match depth4
match depth2
