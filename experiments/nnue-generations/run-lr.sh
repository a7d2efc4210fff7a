#!/usr/bin/env bash
# The Pijersi generations run at the lower learning rate, from the sweep's accepted network
# (configs/generations-pijersi-lr.toml: written before its games; its header says why and gives
# the stopping rule), and the blocks at equal time of a generation it promotes.
#
#   nice -n 19 experiments/nnue-generations/run-lr.sh [WORKERS=1]
#   scripts/alone.sh experiments/nnue-generations/run-lr.sh block G [100ms|1s]
#
# The blocks (block.sh): generation G (promoted) against the hand-written alpha-beta, the same
# time a move each, classic and half-random in turn, 2 opening plies within 30 centi-units of
# the best, every game reported; the claim holds at a time control when the block scores 60%
# or more and each setup's 95% interval lies above 50%.
#   100ms: 1,000 games, seed 3000 + G, into pijersi-lr/standalone-100ms-gen-GGG;
#   1s:    400 games, seed 4000 + G, into pijersi-lr/standalone-1s-gen-GGG. Written after
#          generation 2's 100 ms block (61.4%) and before any 1 s game: the claim asks for
#          both time controls, so a generation whose 100 ms block meets the rule plays this
#          one too (generation 6's 1 s block, 60.2%, was another network's).
# Both resume when run again; PJLAB names the binary.
set -euo pipefail
cd "$(dirname "$0")/../.."
E=experiments/nnue-generations
if [ "${1:-}" != block ]; then
  exec "$E/generations.sh" pijersi-lr "${1:-1}"
fi
gen=${2:?usage: run-lr.sh block G [100ms|1s]}
time=${3:-100ms}
case "$time" in
  100ms) games=1000 seed=$((3000 + gen)) ;;
  1s) games=400 seed=$((4000 + gen)) ;;
  *) echo "usage: run-lr.sh block G [100ms|1s]" >&2; exit 2 ;;
esac
ledger=$E/pijersi-lr/generations.jsonl
if ! grep -q "\"generation\":$gen,.*\"promoted\":true" "$ledger" 2>/dev/null; then
  echo "generation $gen of $E/pijersi-lr is not promoted: no block to play" >&2
  exit 1
fi
g=$(printf %03d "$gen")
exec "$E/block.sh" "$E/pijersi-lr/gen-$g/net.nnue" "lr-gen-$gen" "$time" "$games" "$seed" \
  "$E/pijersi-lr/standalone-$time-gen-$g"
