#!/bin/sh
# Equal-time matches: the learned evaluation inside alpha-beta against the hand-written one,
# 100 ms a move each. Written before the matches were played.
#
# Stopping rule: each match is a fixed 200 games (100 colour pairs, half-random and classic
# setups in turn), no early stop; every match played is reported with its interval, whatever
# its result. Two matches with different seeds (21 and 22), reported each and pooled. Two
# workers on the 2-core machine, one game's two players thinking in turn on one core, nothing
# else running (the background data generation is stopped first); each report's sessions line
# records the machine's load at the start and at the end, and its "Time per move" table each
# side's mean depth and nodes per move.
#
# Arguments: ./run.sh NET OUT SEED.
set -e
PJLAB=${PJLAB:-target/release/pjlab}
NET=$1
OUT=$2
SEED=$3
uptime
$PJLAB match --game pijersi --a "alphabeta:eval=nnue:$NET" --b alphabeta \
  --time-per-move 100ms --variants half-random,classic --games 200 --seed "$SEED" --workers 2 \
  --out "$OUT"
uptime
