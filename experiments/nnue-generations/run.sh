#!/usr/bin/env bash
# Pijersi's learned evaluation by generations (written before the run): the spec
# configs/generations-pijersi.toml (6 generations; each one 4,000 games of the best player at
# depth 4, a standalone network trained on the last six generations' positions, a gate of at
# most 800 games at 100,000 nodes a move stopped by an SPRT of 0 against 20 Elo at 5%/5%),
# copied into the run's directory before its first game. Every generation is reported,
# promoted or not.
#
#   nice -n 19 experiments/nnue-generations/run.sh [WORKERS=1]
#
# Stop it at any time and run it again to resume; PJLAB names the binary (generations.sh).
set -euo pipefail
exec "$(dirname "$0")/generations.sh" pijersi "${1:-1}"
