#!/usr/bin/env bash
# Does a standalone Pijersi network trained on every generation's positions at once beat
# generation 6? Written before it was run, after generations 7, 8 and 9 of the run with factors
# were kept out against generation 6 (48.5%, 48.4%, 49.7%): each candidate of the run trains on
# its last six generations only (about 170,000 positions); this one trains on all ten (about
# 440,000), the most positions the run has played. Nothing else changes.
#
#   gate:  the candidate, trained with the run's options (configs/generations-pijersi-factors.toml's
#          [train]: 32 accumulator units, 8 second-layer units, factors, weight decay 1, 12
#          passes, lambda 0.5, label scale 200, forced results left out, the last 5% of games
#          held out) on generations 1 to 10's data, training seed 1001; then gated against
#          generation 6 as the run gates (alpha-beta at 100,000 nodes a move with each network,
#          classic and half-random setups, 4 uniform random opening plies, 400-ply cap, an SPRT
#          of 0 against 20 Elo at 5%/5%, at most 800 games) on seed 1101, which no gate used.
#   block: only if the gate accepts H1: the standalone claim's block at equal time against the
#          hand-written alpha-beta, as `standalone.sh 100ms` plays it (1,000 games, 100 ms a
#          move, classic and half-random in turn, 2 opening plies within 30 centi-units of the
#          best, 2 workers on an otherwise idle machine), on seed 1181. The claim holds if it
#          scores 60% or more and each setup's 95% interval lies above 50%.
#
# Stopping rule: the gate stops at its SPRT's decision or 800 games; the block is its 1,000
# games, no early stop. Every game played is reported.
#
#   nice -n 19 experiments/nnue-generations/all-data.sh gate
#   scripts/alone.sh experiments/nnue-generations/all-data.sh block
#
# Both steps resume when run again. PJLAB names the binary.
set -euo pipefail
cd "$(dirname "$0")/../.."
PJLAB=${PJLAB:-target/release/pjlab}
[ -x "$PJLAB" ] || cargo build --release -p pjlab-cli
G=experiments/nnue-generations/pijersi-factors
out=experiments/nnue-generations/all-data
ledger=$G/generations.jsonl
if ! grep -q '"generation":10,' "$ledger"; then
  echo "generation 10 of $G is not decided yet: its data is part of this network's" >&2
  exit 1
fi
net=$out/net.nnue
best=$G/gen-006/net.nnue

case "${1:-}" in
  gate)
    mkdir -p "$out"
    if [ ! -f "$net" ]; then
      data=()
      for g in $(seq 1 10); do data+=(--data "$G/gen-$(printf %03d "$g")/data"); done
      "$PJLAB" nnue train --game pijersi "${data[@]}" --out "$net" --hidden 32 --l2 8 \
        --epochs 12 --batch 256 --lr 0.001 --lambda 0.5 --label-scale 200 --validation 0.05 \
        --weight-decay 1 --factorise --no-forced --seed 1001
    fi
    if [ -f "$out/gate/games.parquet" ]; then
      "$PJLAB" match --out "$out/gate" --resume --workers 2
    else
      "$PJLAB" match --game pijersi \
        --a "alphabeta:nodes=100000,eval=nnue:$net,name=all-data" \
        --b "alphabeta:nodes=100000,eval=nnue:$best,name=gen-006" \
        --variants classic,half-random --games 800 --sprt-elo 20 --seed 1101 \
        --opening-plies 4 --opening-margin -1 --max-plies 400 --workers 2 --out "$out/gate"
    fi
    ;;
  block)
    if ! grep -q "H1 accepted" "$out/gate/report.md" 2>/dev/null; then
      echo "the gate has not accepted H1 (see $out/gate/report.md): no block to play" >&2
      exit 1
    fi
    PJLAB=$PJLAB experiments/nnue-generations/block.sh "$net" all-data 100ms 1000 1181 "$out/standalone-100ms"
    ;;
  *)
    echo "usage: $0 gate|block" >&2
    exit 2
    ;;
esac
