#!/bin/sh
# Abalone at equal time: MCTS with the network of ../abalone-vs-alphabeta/ against the lab's
# alpha-beta (its hand-written evaluation), 100 ms and then 1 s a move each. Written before any
# of these matches was played.
#
# Stopping rule: every match is a fixed 200 games (100 colour pairs), no early stop, and every
# match played is reported with its interval whatever its result. Each start (Belgian daisy,
# standard) is played twice with different seeds; each match is reported alone and the two
# pooled. Two workers on the 2-core machine, one game's two players thinking in turn on one
# core, nothing else running; each report's sessions line records the machine's load at the
# start and at the end, and its "Time per move" table each side's mean simulations or depth.
#
#   experiments/abalone-equal-time/run.sh TIME START SEED    e.g.  run.sh 100ms belgian-daisy 31
#
# The matches, in the order they are played:
#   100ms belgian-daisy 31, 100ms standard 32, 100ms belgian-daisy 33, 100ms standard 34,
#   then at 1s the same starts with seeds 41, 42, 43, 44.
# The doubles (written during the second 100 ms match, before any doubles match): a network
# team against an alpha-beta team, START `doubles` (seats 0, 1, 2, 3, the junction rule), the
# same rule: 100ms doubles 35 and 36, played after the four 100 ms matches above and before the
# 1 s ones; then 1s doubles 45 and 46 after the 1 s matches.
# An interrupted match resumes where it stopped (the same command; --resume keeps its games).
set -e
cd "$(dirname "$0")/../.."
PJLAB=${PJLAB:-target/release/pjlab}
TIME=$1
START=$2
SEED=$3
E=experiments/abalone-equal-time
OUT="$E/$TIME-$START-seed$SEED"
uptime
if [ -f "$OUT/games.parquet" ]; then
  $PJLAB match --out "$OUT" --resume --workers 2
else
  $PJLAB match --game abalone --a net:checkpoint=experiments/abalone-vs-alphabeta/checkpoint \
    --b alphabeta --time-per-move "$TIME" --variants "$START" --games 200 --seed "$SEED" \
    --workers 2 --out "$OUT"
fi
uptime
