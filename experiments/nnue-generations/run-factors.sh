#!/usr/bin/env bash
# Pijersi's standalone evaluation by generations, trained with factors (written before the
# run): the spec configs/generations-pijersi-factors.toml, which is configs/generations-pijersi.toml
# (6 generations; 4,000 games of the best player at depth 4 each; a gate of at most 800 games at
# 100,000 nodes a move stopped by an SPRT of 0 against 20 Elo at 5%/5%) with factors and weight
# decay 1 in training, copied into the run's directory before its first game. Every generation
# is reported, promoted or not.
#
#   nice -n 19 experiments/nnue-generations/run-factors.sh [WORKERS=1]
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
"$PJLAB" nnue generations --spec configs/generations-pijersi-factors.toml \
  --out experiments/nnue-generations/pijersi-factors --workers "$workers"
uptime
