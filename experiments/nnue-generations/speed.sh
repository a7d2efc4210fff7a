#!/usr/bin/env bash
# Alpha-beta's nodes a second and time to depth 5 with a generation's standalone network in
# integers (`eval=nnue-int`, as the equal-time matches run it) beside the hand-written
# evaluation: the examples of crates/nnue (32 positions of seeded random games, a fresh table
# each), the two run in turn ROUNDS times; compare medians, by processor time.
#
#   experiments/nnue-generations/speed.sh NET [ROUNDS=5] > OUT
set -euo pipefail
cd "$(dirname "$0")/../.."
net=$1
rounds=${2:-5}
cargo build --release -q -p pjlab-nnue --examples
bin=${CARGO_TARGET_DIR:-target}/release/examples
grep -m1 "model name" /proc/cpuinfo
echo "net $net, $(git rev-parse --short HEAD), load: $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$rounds"); do
  "$bin/search_speed" "$net" 5 hand
  "$bin/search_speed_int" "$net" 5 quant
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
