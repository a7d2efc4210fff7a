#!/usr/bin/env bash
# The long run's blocks, fixed before any game of its network (README, "What it will be judged
# by"). Every block is played whole (no early stop) and reported whatever it shows.
#
#   scripts/alone.sh experiments/mcts-strongest/match.sh KIND ITERATION
#
# ITERATION names the run's kept checkpoint (`checkpoints/iter-NNNN` of RUN, default
# ~/pjlab-runs/mcts-strongest, or of experiments/mcts-strongest/carry once committed there).
# The player: `net:checkpoint=CHECKPOINT,reuse=1,batch=8,cpuct=2.5`. All blocks: colour pairs
# on classic and half-random setups in turn, 2 random opening plies within 30 centi-units of
# the best, one worker a core (2), the long run paused (alone.sh). Seeds grow with the
# checkpoint so that no two blocks share one: seed = BASE + ITERATION / 100.
#
#   milestone  200 games at 100 ms against the hand-written alpha-beta (`alphabeta`),
#              BASE 64000 (seed 64010 at iteration 1000); passes at 60% or more. From
#              checkpoint 1000 on, at each kept checkpoint.
#   screen     200 games at 100 ms against `sweep-r3-lr-0.0001`, BASE 64100; the goal blocks
#              are played only for a checkpoint whose screen is at 50% or more.
#   goal-1s    400 games at 1 s against `sweep-r3-lr-0.0001`, BASE 64300; the goal needs 55%.
#   goal-100ms 1,000 games at 100 ms against `sweep-r3-lr-0.0001`, BASE 64400; the goal needs
#              50%.
#
# The hybrid (added before any game of the run's network): the same player with search block
# 6's blend, `leaf=nnue-int:<sweep-r3>,leaf_depth=0,leaf_share=0.5` (half of each leaf's value
# from the learned evaluation's static score), in blocks of its own seeds:
#   hybrid-screen     200 games at 100 ms against `sweep-r3-lr-0.0001`, BASE 64500; its goal
#                     blocks are played only for a checkpoint whose hybrid screen is at 50% or more.
#   hybrid-goal-1s    400 games at 1 s against `sweep-r3-lr-0.0001`, BASE 64600; needs 55%.
#   hybrid-goal-100ms 1,000 games at 100 ms against `sweep-r3-lr-0.0001`, BASE 64700; needs 50%.
set -euo pipefail
cd "$(dirname "$0")/../.."
kind=${1:?usage: match.sh [hybrid-]screen|[hybrid-]goal-1s|[hybrid-]goal-100ms|milestone ITERATION}
iteration=${2:?usage: match.sh KIND ITERATION}
run=${RUN:-$HOME/pjlab-runs/mcts-strongest}
PJLAB=${PJLAB:-target/release/pjlab}
name=$(printf 'iter-%04d' "$iteration")
checkpoint=$run/checkpoints/$name
[ -d "$checkpoint" ] || checkpoint=experiments/mcts-strongest/carry/checkpoints/$name
[ -f "$checkpoint/model.bpk" ] || { echo "match.sh: no checkpoint $name" >&2; exit 1; }
net="net:checkpoint=$checkpoint,reuse=1,batch=8,cpuct=2.5"
sweep="alphabeta:eval=nnue-int:experiments/nnue-generations/sweep/r3-lr-0.0001/net.nnue"
leaf="leaf=nnue-int:experiments/nnue-generations/sweep/r3-lr-0.0001/net.nnue,leaf_depth=0,leaf_share=0.5"
step=$((iteration / 100))
case $kind in
  milestone) opponent=alphabeta time=100ms games=200 seed=$((64000 + step)) ;;
  screen) opponent=$sweep time=100ms games=200 seed=$((64100 + step)) ;;
  goal-1s) opponent=$sweep time=1s games=400 seed=$((64300 + step)) ;;
  goal-100ms) opponent=$sweep time=100ms games=1000 seed=$((64400 + step)) ;;
  hybrid-screen) opponent=$sweep time=100ms games=200 seed=$((64500 + step)) net="$net,$leaf" ;;
  hybrid-goal-1s) opponent=$sweep time=1s games=400 seed=$((64600 + step)) net="$net,$leaf" ;;
  hybrid-goal-100ms) opponent=$sweep time=100ms games=1000 seed=$((64700 + step)) net="$net,$leaf" ;;
  *) echo "match.sh: no kind $kind" >&2; exit 2 ;;
esac
exec "$PJLAB" match --a "$net" --b "$opponent" --time-per-move "$time" --games "$games" \
  --variants classic,half-random --opening-plies 2 --seed "$seed" --workers 2 \
  --out "experiments/mcts-strongest/blocks/$kind-$name"
