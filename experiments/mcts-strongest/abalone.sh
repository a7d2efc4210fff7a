#!/usr/bin/env bash
# The same recipe on Abalone (README, "The same recipe on Abalone"), written before any of its
# iterations: configs/mcts-strongest-abalone.toml (today's Abalone network's config with the
# long Pijersi run's two changes: searches of 256 and 32 simulations, half of each value label
# from the hand-written evaluation searched one ply deep) trained to 600 iterations, then one
# match of its checkpoint 600 against today's Abalone network.
#
#   experiments/mcts-strongest/abalone.sh train     # at nice 19; resumes; spans sessions
#   experiments/mcts-strongest/abalone.sh park      # stop the run first (kill -INT)
#   scripts/alone.sh experiments/mcts-strongest/abalone.sh match
#
# The match (one block, played whole, reported whatever it shows): `net:checkpoint=<the new
# run's iter-0600>` against `net:checkpoint=experiments/abalone-vs-alphabeta/checkpoint`, both
# with the lab's default search (the one abalone-equal-time played), so that the network is
# the only difference; 400 colour-paired games at 100 ms a move, Belgian daisy and standard
# starts in turn, 2 random opening plies, seed 6601; 2 workers, one core each, the machine
# otherwise idle (alone.sh). The bar: at least 60% for the new network (a draw counts half).
# Results under abalone/match/.
set -euo pipefail
cd "$(dirname "$0")/../.."
action=${1:?usage: abalone.sh train|park|match}
E=experiments/mcts-strongest
run=${RUN:-$HOME/pjlab-runs/mcts-strongest-abalone}
config=configs/mcts-strongest-abalone.toml
PJLAB=${PJLAB:-target/release/pjlab}
export PJLAB
case $action in
  train)
    CONFIG=$config ITERATIONS=600 CARRY=$E/abalone/carry exec "$E/train.sh" "$run"
    ;;
  park)
    CONFIG=$config CARRY=abalone/carry exec "$E/park.sh" "$run"
    ;;
  match)
    new=$run/checkpoints/iter-0600
    [ -f "$new/model.bpk" ] || new=$E/abalone/carry/checkpoints/iter-0600
    [ -f "$new/model.bpk" ] || { echo "abalone.sh: no checkpoint iter-0600" >&2; exit 1; }
    out=$E/abalone/match
    if [ -f "$out/games.parquet" ]; then
      exec "$PJLAB" match --out "$out" --resume --workers 2
    fi
    exec "$PJLAB" match --game abalone --a "net:checkpoint=$new" \
      --b net:checkpoint=experiments/abalone-vs-alphabeta/checkpoint --time-per-move 100ms \
      --games 400 --variants belgian-daisy,standard --opening-plies 2 --seed 6601 \
      --workers 2 --out "$out"
    ;;
  *) echo "abalone.sh: no action $action" >&2; exit 2 ;;
esac
