#!/usr/bin/env bash
# The Pijersi generations run at the lower learning rate, from the sweep's accepted network
# (configs/generations-pijersi-lr.toml: written before its games; its header says why and gives
# the stopping rule), and the 100 ms block of a generation it promotes.
#
#   nice -n 19 experiments/nnue-generations/run-lr.sh [WORKERS=1]
#   scripts/alone.sh experiments/nnue-generations/run-lr.sh block G
#
# The block: generation G (promoted) against the hand-written alpha-beta, 100 ms a move each,
# 1,000 games (classic and half-random in turn, 2 opening plies within 30 centi-units of the
# best), seed 3000 + G, into pijersi-lr/standalone-100ms-gen-GGG. Both resume when run again;
# PJLAB names the binary.
set -euo pipefail
cd "$(dirname "$0")/../.."
E=experiments/nnue-generations
if [ "${1:-}" != block ]; then
  exec "$E/generations.sh" pijersi-lr "${1:-1}"
fi
PJLAB=${PJLAB:-target/release/pjlab}
[ -x "$PJLAB" ] || cargo build --release -p pjlab-cli
gen=${2:?usage: run-lr.sh block G}
ledger=$E/pijersi-lr/generations.jsonl
if ! grep -q "\"generation\":$gen,.*\"promoted\":true" "$ledger" 2>/dev/null; then
  echo "generation $gen of $E/pijersi-lr is not promoted: no block to play" >&2
  exit 1
fi
g=$(printf %03d "$gen")
out=$E/pijersi-lr/standalone-100ms-gen-$g
uptime
if [ -f "$out/games.parquet" ]; then
  "$PJLAB" match --out "$out" --resume --workers 2
else
  "$PJLAB" match --game pijersi --a "alphabeta:eval=nnue-int:$E/pijersi-lr/gen-$g/net.nnue,name=lr-gen-$gen" \
    --b "alphabeta:name=hand-written" --time-per-move 100ms --variants classic,half-random \
    --games 1000 --seed $((3000 + gen)) --opening-plies 2 --opening-margin 30 --workers 2 \
    --out "$out"
fi
uptime
