#!/usr/bin/env bash
# Abalone's learned evaluation by generations, trained with factors (written before the run):
# the spec configs/generations-abalone-factors.toml, which is configs/generations-abalone.toml
# (each generation 200 games of the best player at depth 3 from the standard, Belgian-daisy and
# German-daisy setups, a network trained as a correction to the hand-written evaluation on the
# last three generations' positions, a gate of at most 400 games at 50,000 nodes a move stopped
# by an SPRT of 0 against 20 Elo at 5%/5%) with factors in training and 4 generations, copied
# into the run's directory before its first game. Every generation is reported, promoted or
# not.
#
#   nice -n 19 experiments/nnue-generations/run-abalone-factors.sh [WORKERS=1]
#
# Stop it at any time; run it again to resume (finished games, networks and decisions are
# kept). The run plays on fixed depth and node budgets, so other work slows it but does not
# change its games. PJLAB names the binary (default: the release build of this checkout).
set -euo pipefail
cd "$(dirname "$0")/../.."
workers=${1:-1}
PJLAB=${PJLAB:-target/release/pjlab}
[ -x "$PJLAB" ] || cargo build --release -p pjlab-cli
uptime
"$PJLAB" nnue generations --spec configs/generations-abalone-factors.toml \
  --out experiments/nnue-generations/abalone-factors --workers "$workers"
uptime
