#!/usr/bin/env bash
# One block of the standalone claim at equal time: a network alone (`eval=nnue-int`: no
# hand-written term, in integers) inside alpha-beta against alpha-beta with the hand-written
# evaluation, the same time a move each, classic and half-random setups in turn, 2 opening
# plies among the moves within 30 centi-units of the best, two workers. Every game played is
# reported; the claim "at least 60%" holds when the block scores 60% or more and each
# variant's 95% interval lies above 50%.
#
#   experiments/nnue-generations/block.sh NET NAME TIME GAMES SEED OUT
#   experiments/nnue-generations/block.sh pijersi-lr/gen-002/net.nnue lr-gen-2 1s 400 4002 OUT
#
# TIME is 100ms or 1s (the claim's two time controls: 1,000 games at 100 ms, 400 at 1 s).
# Stop it at any time and run the same command again: the block resumes from OUT. Run it with
# the machine to itself (scripts/alone.sh); PJLAB names the binary.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -ne 6 ]; then
  echo "usage: $0 NET NAME TIME GAMES SEED OUT" >&2
  exit 2
fi
net=$1 name=$2 time=$3 games=$4 seed=$5 out=$6
PJLAB=${PJLAB:-target/release/pjlab}
[ -x "$PJLAB" ] || cargo build --release -p pjlab-cli
[ -f "$net" ] || { echo "no network at $net" >&2; exit 2; }
uptime
if [ -f "$out/games.parquet" ]; then
  "$PJLAB" match --out "$out" --resume --workers 2
else
  "$PJLAB" match --game pijersi --a "alphabeta:eval=nnue-int:$net,name=$name" \
    --b "alphabeta:name=hand-written" --time-per-move "$time" --variants classic,half-random \
    --games "$games" --seed "$seed" --opening-plies 2 --opening-margin 30 --workers 2 \
    --out "$out"
fi
uptime
