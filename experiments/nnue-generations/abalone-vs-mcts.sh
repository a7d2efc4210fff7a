#!/usr/bin/env bash
# Abalone's best learned alpha-beta against the Abalone MCTS network at equal time (written
# before any of its games). The learned player: the newest generation promoted by the Abalone
# generations runs (abalone-factors first, then abalone), as alpha-beta with `eval=nnue-int`;
# when neither run has promoted one, the candidate with the highest gate score of the two runs
# (each gate played against the hand-written evaluation at 50,000 nodes), named in the report.
# Its opponent: MCTS with the network of experiments/abalone-vs-alphabeta, which scored 91.7%
# and 93.1% against the hand-written alpha-beta at 100 ms (experiments/abalone-equal-time).
#
# Stopping rule: one match of 200 games (100 colour pairs, the standard and Belgian-daisy
# starts in turn, six opening plies among the moves within 30 centi-units of the best), 100 ms
# a move each, seed 91, no early stop; every game reported with its interval, whatever the
# result. Two workers on the 2-core machine, one game's two players thinking in turn on one
# core, nothing else running (the runs at nice 19 paused with kill -STOP, then kill -CONT).
#
#   experiments/nnue-generations/abalone-vs-mcts.sh
#
# Stop it at any time and run it again: the match resumes with the player it started with.
set -euo pipefail
cd "$(dirname "$0")/../.."
PJLAB=${PJLAB:-target/release/pjlab}
[ -x "$PJLAB" ] || cargo build --release -p pjlab-cli
E=experiments/nnue-generations
out=$E/abalone-vs-mcts
uptime
if [ -f "$out/games.parquet" ]; then
  "$PJLAB" match --out "$out" --resume --workers 2
  uptime
  exit
fi
net=
for run in abalone-factors abalone; do
  gen=$(grep '"promoted":true' "$E/$run/generations.jsonl" 2>/dev/null | tail -n 1 |
    sed -E 's/.*"generation":([0-9]+).*/\1/' || true)
  if [ -n "$gen" ]; then
    net=$E/$run/gen-$(printf %03d "$gen")/net.nnue
    break
  fi
done
if [ -z "$net" ]; then
  # No promoted generation: the candidate whose gate scored highest.
  net=$(for run in abalone-factors abalone; do
    [ -f "$E/$run/generations.jsonl" ] || continue
    sed -E 's/.*"generation":([0-9]+),.*"gate":\{[^}]*"score":\[([0-9.]+),.*/\2 \1/' \
      "$E/$run/generations.jsonl" | while read -r score gen; do
      echo "$score $E/$run/gen-$(printf %03d "$gen")/net.nnue"
    done
  done | sort -g | tail -n 1 | cut -d' ' -f2)
fi
echo "the learned player: $net"
"$PJLAB" match --game abalone --a "alphabeta:eval=nnue-int:$net" \
  --b net:checkpoint=experiments/abalone-vs-alphabeta/checkpoint --time-per-move 100ms \
  --variants standard,belgian-daisy --games 200 --seed 91 --opening-plies 6 \
  --opening-margin 30 --workers 2 --out "$out"
uptime
