#!/usr/bin/env bash
# One generations run by its name: `pjlab nnue generations` on configs/generations-NAME.toml,
# into experiments/nnue-generations/NAME, with WORKERS workers (default 1); the run-*.sh
# scripts beside it name their runs and say what each was written to test.
#
#   nice -n 19 experiments/nnue-generations/generations.sh NAME [WORKERS=1]
#
# Stop it at any time; run it again to resume (finished games, networks and decisions are
# kept). The run plays on fixed depth and node budgets, so other work slows it but does not
# change its games. PJLAB names the binary (default: the release build of this checkout).
set -euo pipefail
cd "$(dirname "$0")/../.."
name=${1:?usage: generations.sh NAME [WORKERS]}
workers=${2:-1}
PJLAB=${PJLAB:-target/release/pjlab}
[ -x "$PJLAB" ] || cargo build --release -p pjlab-cli
uptime
"$PJLAB" nnue generations --spec "configs/generations-$name.toml" \
  --out "experiments/nnue-generations/$name" --workers "$workers"
uptime
