#!/usr/bin/env bash
# Abalone's learned evaluation by generations (written before the run): the spec
# configs/generations-abalone.toml (3 generations; each one 200 games of the best player at
# depth 3 from the standard, Belgian-daisy and German-daisy setups, a network trained as a
# correction to the hand-written evaluation on the last three generations' positions, a gate of
# at most 400 games at 50,000 nodes a move stopped by an SPRT of 0 against 20 Elo at 5%/5%),
# copied into the run's directory before its first game. Every generation is reported,
# promoted or not.
#
#   nice -n 19 experiments/nnue-generations/run-abalone.sh [WORKERS=1]
#
# Stop it at any time and run it again to resume; PJLAB names the binary (generations.sh).
set -euo pipefail
exec "$(dirname "$0")/generations.sh" abalone "${1:-1}"
