#!/usr/bin/env bash
# The standalone network's claim at equal time (written before any of its games): the newest
# generation that the run with factors (experiments/nnue-generations/pijersi-factors) has
# promoted when a block starts, as alpha-beta with `eval=nnue-int` (the network alone, no
# hand-written term, in integers), against alpha-beta with the hand-written evaluation, the
# same time a move each:
#
#   100ms: one block of 1,000 games (500 colour pairs, classic and half-random setups in turn,
#          2 opening plies among the moves within 30 centi-units of the best), seed 81;
#   1s:    one block of 400 games, the same setups and openings, seed 82.
#
# Stopping rule: each block is its fixed count of games, no early stop, and every game played
# is reported (pjlab report: the score, each variant's score with its 95% Wilson interval).
# The claim "at least 60%" holds at a time control when the block scores 60% or more and each
# variant's 95% interval lies above 50%; a block short of it is reported as it is.
#
# Two workers on the 2-core machine, one game's two players thinking in turn on one core,
# nothing else running (the runs at nice 19 are paused first, kill -STOP, and go on after,
# kill -CONT); each report's sessions line records the machine's load at the start and the end.
#
#   experiments/nnue-generations/standalone.sh 100ms|1s [GEN]
#
# GEN (default: the newest promoted) names the generation. Generation 6's blocks, the first
# played, are `standalone-100ms` and `standalone-1s` with seeds 81 and 82; a later generation
# G plays its own blocks, `standalone-100ms-gen-G` and `standalone-1s-gen-G` (G in three
# digits), on seeds 100 G + 81 and 100 G + 82, which no block, network or gate has used.
# Stop it at any time and run the same command (with the same GEN) again: the block resumes.
set -euo pipefail
cd "$(dirname "$0")/../.."
PJLAB=${PJLAB:-target/release/pjlab}
[ -x "$PJLAB" ] || cargo build --release -p pjlab-cli
case "${1:-}" in
  100ms) games=1000 seed=81 ;;
  1s) games=400 seed=82 ;;
  *) echo "usage: $0 100ms|1s [GEN]" >&2; exit 2 ;;
esac
time=$1
E=experiments/nnue-generations
ledger=$E/pijersi-factors/generations.jsonl
gen=${2:-$(grep '"promoted":true' "$ledger" 2>/dev/null | tail -n 1 |
  sed -E 's/.*"generation":([0-9]+).*/\1/' || true)}
if [ -z "$gen" ]; then
  echo "no generation of $E/pijersi-factors is promoted yet: nothing to play" >&2
  exit 1
fi
if ! grep -q "\"generation\":$gen,.*\"promoted\":true" "$ledger"; then
  echo "generation $gen of $E/pijersi-factors is not promoted: nothing to play" >&2
  exit 1
fi
net=$E/pijersi-factors/gen-$(printf %03d "$gen")/net.nnue
out="$E/standalone-$time"
if [ "$gen" != 6 ]; then
  out="$out-gen-$(printf %03d "$gen")"
  seed=$((100 * gen + seed))
fi
uptime
if [ -f "$out/games.parquet" ]; then
  "$PJLAB" match --out "$out" --resume --workers 2
else
  "$PJLAB" match --game pijersi --a "alphabeta:eval=nnue-int:$net" --b alphabeta \
    --time-per-move "$time" --variants classic,half-random --games "$games" --seed "$seed" \
    --opening-plies 2 --opening-margin 30 --workers 2 --out "$out"
fi
uptime
