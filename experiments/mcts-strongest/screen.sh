#!/usr/bin/env bash
# Screens of the tuned search on the old network against the alpha-beta players, at 100 ms a
# move. Written after search block 5 and before any game of its own; each screen is reported
# whatever it shows, and none is one of the goal's blocks (those are for the long run's network,
# in match.sh when it comes).
#
#   scripts/alone.sh experiments/mcts-strongest/screen.sh SCREEN
#
# The player: `net:checkpoint=experiments/pijersi-vs-alphabeta/checkpoint,reuse=1,batch=8,
# cpuct=2.5` (the search blocks' accepted changes). Each screen: 200 games, no early stop,
# colour pairs on classic and half-random setups in turn, 2 random opening plies within 30
# centi-units of the best, 100 ms a move each, 2 workers (one core each), the long run paused.
#   1 against the hand-written alpha-beta (`alphabeta`), seed 64201: milestone 1's bar is 60%
#   2 against the strongest learned alpha-beta (`sweep-r3-lr-0.0001`), seed 64202
set -euo pipefail
cd "$(dirname "$0")/../.."
screen=${1:?usage: screen.sh SCREEN (1 or 2)}
PJLAB=${PJLAB:-target/release/pjlab}
net="net:checkpoint=experiments/pijersi-vs-alphabeta/checkpoint,reuse=1,batch=8,cpuct=2.5"
case $screen in
  1) name=vs-hand opponent="alphabeta" seed=64201 ;;
  2) name=vs-sweep-r3 seed=64202
     opponent="alphabeta:eval=nnue-int:experiments/nnue-generations/sweep/r3-lr-0.0001/net.nnue" ;;
  *) echo "no screen $screen" >&2; exit 2 ;;
esac
exec "$PJLAB" match --a "$net" --b "$opponent" --time-per-move 100ms --games 200 \
  --variants classic,half-random --opening-plies 2 --seed "$seed" --workers 2 \
  --out "experiments/mcts-strongest/screen/$screen-$name"
