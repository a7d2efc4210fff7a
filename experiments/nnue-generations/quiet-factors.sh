#!/usr/bin/env bash
# Does a standalone Pijersi network play as well as the hand-written evaluation when it trains
# on quiet positions only, or with factors, or both? A pilot, written before it was run (it
# replaces factors.sh, which tested factors alone and was never run), after:
# - volume.sh's network (20,000 depth-2 games, held-out loss 0.653 against the hand-written
#   0.662) still scored 41.0% against the hand-written evaluation at 100,000 nodes a move;
# - Abalone's three residual generations, two of which fit their held-out games better than
#   the hand-written evaluation, all lost their gates (32.4%, 25.0%, 39.6%).
# Lower losses that play worse point at what the evaluation is asked inside the search: it
# scores the leaves of the quiescence search, which are quiet, while the networks trained on
# every position (tactical ones too, whose score holds a capture the search still plays). The
# residual network that beats the hand-written alpha-beta (55.4% at 100 ms, 57.7% at 1 s) was
# trained on quiet positions only. Factors (one kind of piece on any cell) are the other
# candidate: a piece's worth was learned cell by cell, each cell from its own few positions.
#
# Fixed counts, no early stop. Data: generations 1 and 2's depth-4 positions (forced results
# left out); arm (d) adds volume.sh's depth-2 positions. Networks: 32/8, weight decay 1,
# 12 passes, the run's other training options:
#   (a) quiet        --quiet
#   (b) factors      --factorise
#   (c) quiet+factors  --quiet --factorise
#   (d) quiet+factors on both data sets
# Match: each network against the hand-written evaluation, both alpha-beta at 100,000 nodes a
# move, 200 games in colour pairs from classic and half-random setups with 4 random opening
# plies, seed 303 (neither the generations' gates nor volume.sh use it). Every game of every
# arm is reported. A pilot decides nothing by itself: it chooses the training of the next
# generations spec, written down before that run starts.
#
#   nice -n 19 experiments/nnue-generations/quiet-factors.sh [WORKERS=2]   # PJLAB: the binary
set -euo pipefail
cd "$(dirname "$0")/../.."
workers=${1:-2}
PJLAB=${PJLAB:-target/release/pjlab}
E=experiments/nnue-generations
P=$E/quiet-factors
mkdir -p "$P"
depth4=(--data "$E/pijersi/gen-001/data" --data "$E/pijersi/gen-002/data")
train() {
  local name=$1
  shift
  [ -f "$P/$name.nnue" ] || "$PJLAB" nnue train --game pijersi "$@" --out "$P/$name.nnue" \
    --hidden 32 --l2 8 --weight-decay 1 --epochs 12 --batch 256 --lr 0.001 --lambda 0.5 \
    --label-scale 200 --validation 0.05 --seed 1 --no-forced
}
match() {
  local name=$1
  if [ -f "$P/match-$name/games.parquet" ]; then
    "$PJLAB" match --resume --out "$P/match-$name" --workers "$workers"
    return
  fi
  "$PJLAB" match --game pijersi --a "alphabeta:nodes=100000,eval=nnue:$P/$name.nnue" \
    --b "alphabeta:nodes=100000" --games 200 --variants classic,half-random \
    --opening-plies 4 --seed 303 --workers "$workers" --out "$P/match-$name"
}
train quiet "${depth4[@]}" --quiet
train factors "${depth4[@]}" --factorise
train quiet-factors "${depth4[@]}" --quiet --factorise
train quiet-factors-both "${depth4[@]}" --data "$E/volume/data" --quiet --factorise
for arm in quiet factors quiet-factors quiet-factors-both; do
  match "$arm"
done
