#!/usr/bin/env bash
# What width and weight decay let a standalone Pijersi network fit its held-out games better
# than the hand-written evaluation? Written before it was run, after generations 1 and 2 of the
# spec in configs/generations-pijersi.toml (32 accumulator units, 8 second-layer units, no weight
# decay) were kept out: their training loss fell below the hand-written evaluation's from the
# second pass while their held-out loss stayed above it (they fit their own games, not the game).
#
# The data: the positions of generations 1 and 2 (88,730 positions, forced results left out as
# in the run's spec), the same held-out share (the last 5% of games), the same seed, lambda,
# label scale, learning rate and 12 passes. The grid: widths 32/8 (the run's) and 128/16, each
# with decoupled weight decay 0 (the run's), 1 and 10. Each line of capacity.csv: the width,
# the decay, the best pass, its training and held-out losses and the hand-written evaluation's
# on the same held-out positions. No match is played here: the settings are compared on
# held-out loss only, and the one taken for a next run is the one of lowest held-out loss.
#
#   nice -n 19 experiments/nnue-generations/capacity.sh      # PJLAB names the binary
set -euo pipefail
cd "$(dirname "$0")/../.."
PJLAB=${PJLAB:-target/release/pjlab}
G=experiments/nnue-generations/pijersi
out=$(mktemp -d)
echo "hidden,l2,weight_decay,best_pass,train_loss,held_out_loss,hand_written_loss,seconds" > "$out/capacity.csv"
for width in 32/8 128/16; do
for decay in 0 1 10; do
  hidden=${width%/*} l2=${width#*/}
  start=$(date +%s.%N)
  "$PJLAB" nnue train --game pijersi --data "$G/gen-001/data" --data "$G/gen-002/data" \
    --out "$out/net.nnue" --hidden "$hidden" --l2 "$l2" --weight-decay "$decay" --epochs 12 --batch 256 \
    --lr 0.001 --lambda 0.5 --label-scale 200 --validation 0.05 --seed 1 --no-forced \
    2> "$out/train.log"
  seconds=$(echo "$(date +%s.%N) - $start" | bc)
  # The card holds every pass's losses; the kept pass is the one with the lowest held-out loss.
  python3 - "$out/net.nnue.card.json" "$hidden" "$l2" "$decay" "$seconds" >> "$out/capacity.csv" <<'PY'
import json, sys
card = json.load(open(sys.argv[1]))
best = min(card["training"]["losses"], key=lambda e: e["validation"])
print(f'{sys.argv[2]},{sys.argv[3]},{sys.argv[4]},{best["epoch"]},{best["train"]:.4f},'
      f'{best["validation"]:.4f},{best["reference"]:.4f},{float(sys.argv[5]):.1f}')
PY
done
done
cp "$out/capacity.csv" experiments/nnue-generations/capacity.csv
cat experiments/nnue-generations/capacity.csv
