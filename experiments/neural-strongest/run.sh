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
# Arguments: ./run.sh NET OUT SEED [EVAL], EVAL `nnue` (the float network, the default) or
# `nnue-int` (the same network in integers, within 1 centi-unit of it; see speed/).
#
# The second round (written before it was played, after the faster evaluation of speed/):
# the quiet network as nnue-int at 100 ms with seeds 23 and 24 (match-100ms-int-seed23/,
# match-100ms-int-seed24/), the same rule as above. If the two pooled reach 55%, the same at
# 1 s with seeds 25 and 26 (`--time-per-move 1s`, TIME=1s below); otherwise no 1 s match.
#
# A third 100 ms match (written after the 1 s round, before it was played): the two 100 ms
# matches of the second round hold 396 distinct games of 400 (two repeats each), under the
# goal's 400 distinct at each time control. One more match, seed 27 (match-100ms-int-seed27/),
# the same rule and build; the 100 ms figure is then the three matches pooled, whatever the
# third one scores. No further match at 100 ms.
#
# A third 1 s match (written after the third 100 ms match, before it was played): counting each
# game once across matches (`pjlab report --pool`), the two 1 s matches hold 399 distinct games,
# one classic game being played in both. One more match, seed 28 (match-1s-int-seed28/, TIME=1s),
# the same rule and build; the 1 s figure is then the three matches pooled, whatever the third
# one scores. No further match at 1 s.
set -e
PJLAB=${PJLAB:-target/release/pjlab}
NET=$1
OUT=$2
SEED=$3
EVAL=${4:-nnue}
TIME=${TIME:-100ms}
uptime
$PJLAB match --game pijersi --a "alphabeta:eval=$EVAL:$NET" --b alphabeta \
  --time-per-move "$TIME" --variants half-random,classic --games 200 --seed "$SEED" --workers 2 \
  --out "$OUT"
uptime
