#!/usr/bin/env bash
# Pijersi's standalone evaluation by generations, trained with factors (written before the
# run): the spec configs/generations-pijersi-factors.toml, which is configs/generations-pijersi.toml
# (6 generations; 4,000 games of the best player at depth 4 each; a gate of at most 800 games at
# 100,000 nodes a move stopped by an SPRT of 0 against 20 Elo at 5%/5%) with factors and weight
# decay 1 in training, copied into the run's directory before its first game. Every generation
# is reported, promoted or not. After generation 6, the first promoted, the spec's
# `generations` was raised to 10 before any game of generation 7 (the spec's header says why).
#
#   nice -n 19 experiments/nnue-generations/run-factors.sh [WORKERS=1]
#
# Stop it at any time and run it again to resume; PJLAB names the binary (generations.sh).
set -euo pipefail
exec "$(dirname "$0")/generations.sh" pijersi-factors "${1:-1}"
