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
# Stop it at any time and run it again to resume; PJLAB names the binary (generations.sh).
set -euo pipefail
exec "$(dirname "$0")/generations.sh" abalone-factors "${1:-1}"
