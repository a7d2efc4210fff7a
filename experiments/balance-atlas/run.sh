#!/usr/bin/env bash
# The balance atlas of Pijersi and Abalone, every cell in a fixed order: the cheap levels of both
# games (and their ladders) first, then the strong levels, so that an interrupted atlas answers at
# every level it finished. Written before any game was played; the atlas files
# (configs/atlas-pijersi.toml, configs/atlas-abalone.toml) hold the levels, protocols, games per
# cell and stopping rule (a fixed count of games a cell, no early stop), and are copied into each
# atlas's directory before its first game.
#
#   nice -n 19 experiments/balance-atlas/run.sh [WORKERS=2]
#
# Stop it at any time (Ctrl-C keeps every finished game; a killed run loses only unsaved games)
# and run it again: finished cells are skipped, an interrupted one resumes. Every level plays on
# a fixed depth, node or simulation budget, so other work on the machine slows the atlas but does
# not change its games. PJLAB names the binary (default: the release build of this checkout).
# The committed atlases are complete: their games were played by release builds of commits
# 5013209, 13043fa and 17bbfce (each cell's sessions lines), so this script finds every cell
# finished. A build resumes an unfinished atlas in place only if it plays the recorded games
# exactly, which same-games.sh checks.
set -euo pipefail
cd "$(dirname "$0")/../.."
workers=${1:-2}
PJLAB=${PJLAB:-target/release/pjlab}
[ -x "$PJLAB" ] || cargo build --release -p pjlab-cli
E=experiments/balance-atlas
atlas() {
  local game=$1 only=$2
  uptime
  "$PJLAB" atlas run --spec "configs/atlas-$game.toml" --out "$E/$game" --workers "$workers" \
    --only "$only"
}
atlas pijersi ab1,ab2,ab3,ladder
atlas abalone ab1,ab2,ab3,ladder
atlas pijersi ab-hand
atlas pijersi ab-nnue
atlas abalone mcts-net
uptime
