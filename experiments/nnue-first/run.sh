#!/bin/sh
# The first learned evaluation inside alpha-beta against the hand-written one, at equal time.
# Written before the matches were played.
#
# Stopping rule: each match is a fixed 200 games (100 colour pairs, half-random and classic
# setups in turn, seed 1), no early stop, every match played is reported with its interval,
# whatever its result. One worker (the machine has 2 cores shared with other builds; the
# report's provenance records the load average at the start and the end).
#
# Arguments: the network file and the output directory, ./run.sh NET OUT [SEED] (seed 1 by
# default; added before the replicate of the third match, which is played with seed 2).
set -e
PJLAB=${PJLAB:-target/release/pjlab}
NET=$1
OUT=$2
SEED=${3:-1}
uptime
$PJLAB match --game pijersi --a "alphabeta:eval=nnue:$NET" --b alphabeta \
  --time-per-move 100ms --variants half-random,classic --games 200 --seed $SEED --workers 1 \
  --out "$OUT"
uptime
