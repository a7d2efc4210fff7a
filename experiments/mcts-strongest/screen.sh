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
#   3 the hybrid of search block 6 (the player above plus leaf=nnue-int:<sweep-r3's net>,
#     leaf_depth=0,leaf_share=0.5: half of each leaf's value from the opponent's own static
#     evaluation) against `sweep-r3-lr-0.0001`, seed 64203. Written after block 6 accepted H1
#     and before any game of its own.
set -euo pipefail
cd "$(dirname "$0")/../.."
screen=${1:?usage: screen.sh SCREEN (1, 2 or 3)}
PJLAB=${PJLAB:-target/release/pjlab}
net="net:checkpoint=experiments/pijersi-vs-alphabeta/checkpoint,reuse=1,batch=8,cpuct=2.5"
case $screen in
  1) name=vs-hand opponent="alphabeta" seed=64201 ;;
  2) name=vs-sweep-r3 seed=64202
     opponent="alphabeta:eval=nnue-int:experiments/nnue-generations/sweep/r3-lr-0.0001/net.nnue" ;;
  3) name=hybrid-vs-sweep-r3 seed=64203
     opponent="alphabeta:eval=nnue-int:experiments/nnue-generations/sweep/r3-lr-0.0001/net.nnue"
     net="$net,leaf=nnue-int:experiments/nnue-generations/sweep/r3-lr-0.0001/net.nnue,leaf_depth=0,leaf_share=0.5" ;;
  *) echo "no screen $screen" >&2; exit 2 ;;
esac
exec "$PJLAB" match --a "$net" --b "$opponent" --time-per-move 100ms --games 200 \
  --variants classic,half-random --opening-plies 2 --seed "$seed" --workers 2 \
  --out "experiments/mcts-strongest/screen/$screen-$name"
