#!/usr/bin/env bash
# Does a standalone Pijersi network fit and play better when it trains on many positions
# labelled by a shallow search than on few labelled by a deeper one? A pilot, written before it
# was run, after the width and decay sweep (capacity.sh) found no setting whose held-out loss
# beats the hand-written evaluation's on generations 1 and 2's 56,533 depth-4 positions.
#
# Fixed counts, no early stop:
# 1. Data: 20,000 games of the hand-written alpha-beta against itself at depth 2 (the run's
#    variants, openings and random moves; seed 101, which no generation uses), every searched
#    position labelled by its depth-2 score and the game's result.
# 2. Training: the 32/8 standalone network with weight decay 1 (capacity.sh's best at 32/8),
#    12 passes, forced results left out, on these positions alone.
# 3. Match: that network against the hand-written evaluation, both alpha-beta at 100,000 nodes a
#    move (the generations' gate), 200 games in colour pairs from classic and half-random setups
#    with 4 random opening plies, seed 202. Every game is reported; a pilot decides nothing by
#    itself: it chooses the data step of the next generations spec, written down before that
#    run starts.
#
#   nice -n 19 experiments/nnue-generations/volume.sh [WORKERS=2]    # PJLAB names the binary
set -euo pipefail
cd "$(dirname "$0")/../.."
workers=${1:-2}
PJLAB=${PJLAB:-target/release/pjlab}
V=experiments/nnue-generations/volume
mkdir -p "$V"
resume=()
[ -f "$V/data/positions.parquet" ] && resume=(--resume)
"$PJLAB" nnue data --game pijersi --out "$V/data" "${resume[@]}" --games 20000 --depth 2 \
  --variants classic,half-random,full-random --opening 2-8 --random-moves 0.05 \
  --max-plies 400 --seed 101 --workers "$workers"
[ -f "$V/net.nnue" ] || "$PJLAB" nnue train --game pijersi --data "$V/data" --out "$V/net.nnue" \
  --hidden 32 --l2 8 --weight-decay 1 --epochs 12 --batch 256 --lr 0.001 --lambda 0.5 \
  --label-scale 200 --validation 0.05 --seed 1 --no-forced
if [ -f "$V/match/games.parquet" ]; then
  exec "$PJLAB" match --resume --out "$V/match" --workers "$workers"
fi
"$PJLAB" match --game pijersi --a "alphabeta:nodes=100000,eval=nnue:$V/net.nnue" \
  --b "alphabeta:nodes=100000" --games 200 --variants classic,half-random --opening-plies 4 \
  --seed 202 --workers "$workers" --out "$V/match"
