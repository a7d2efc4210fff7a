#!/usr/bin/env bash
# The balance study at power: alpha-beta depth 3 on both sides, 4,320 games a variant (enough to
# detect a 3-point difference between two variants at 80% power), with the default margin
# openings and with none. Each run resumes where it stopped: run this script again.
#
#   experiments/balance-power/run.sh [WORKERS=2]
set -euo pipefail
cd "$(dirname "$0")/../.."
workers=${1:-2}
bin=target/release/pjlab
[ -x "$bin" ] || cargo build --release -p pjlab-cli
E=experiments/balance-power
run() {
  local dir=$1
  shift
  if [ -f "$E/$dir/games.parquet" ]; then
    "$bin" balance --out "$E/$dir" --resume --workers "$workers"
  else
    "$bin" balance --agent alphabeta:depth=3 --seed 1 --workers "$workers" --out "$E/$dir" "$@"
  fi
}
# Two opening plies, each within 30 centi-units of the best (the default).
run margin --variants classic,full-random,half-random,pijersi-24,pijersi-36,pijersi-1296,pijersi-8100 \
  --games-per-variant 4320 --per-setup
# No opening plies: deterministic players replay one game per setup, so the enumerable variants
# (1, 24 and 36 setups) get 72 games each (every setup at least twice) and the random ones 4,320.
run no-opening-random --variants full-random,half-random,pijersi-1296,pijersi-8100 \
  --games-per-variant 4320 --opening-plies 0
run no-opening-enumerable --variants classic,pijersi-24,pijersi-36 --games-per-variant 72 \
  --per-setup --opening-plies 0
