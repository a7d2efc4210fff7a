#!/bin/sh
# Training positions for the first learned evaluation (written before the run).
# Alpha-beta (hand-written evaluation) at depth 5 plays itself from classic and half-random
# setups in turn, 2 to 8 random opening plies, 5% of later moves random; every position after
# the opening is labelled with the depth-5 score and the game's result. Two files, so that
# training can start on the first. Low priority beside the other work on the machine.
set -e
PJLAB=${PJLAB:-target/release/pjlab}
mkdir -p experiments/nnue-first/data
nice -n 19 $PJLAB nnue data --game pijersi --depth 5 --games 600 --seed 1 --workers 2 \
  --variants classic,half-random --opening 2-8 --random-moves 0.05 \
  --out experiments/nnue-first/data/d5-s1.txt
nice -n 19 $PJLAB nnue data --game pijersi --depth 5 --games 1400 --seed 2 --workers 2 \
  --variants classic,half-random --opening 2-8 --random-moves 0.05 \
  --out experiments/nnue-first/data/d5-s2.txt
