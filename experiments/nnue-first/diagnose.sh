#!/bin/sh
# Diagnostics at a fixed depth (labelled as such: not strength at equal time): each network's
# alpha-beta at depth 3 against the hand-written evaluation's at depth 3, 100 colour-paired
# games (half-random and classic), seed 7, one worker; the zero correction (the hand-written
# evaluation through the network's plumbing) 40 games. Fixed game counts, no early stop.
# The first five were played with the networks at other paths (/tmp, and this directory
# before nets/); the reports keep the commands as run.
set -e
PJLAB=${PJLAB:-target/release/pjlab}
D=experiments/nnue-first
for net in "$@"; do
  name=$(basename "$net" .json)
  $PJLAB match --game pijersi --a "alphabeta:eval=nnue:$net,depth=3" --b alphabeta:depth=3 \
    --variants half-random,classic --games 100 --seed 7 --workers 1 \
    --out "$D/diagnostics/depth3-$name" -q
done
