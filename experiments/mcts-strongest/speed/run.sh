#!/usr/bin/env bash
# The network player's search speed before and after Pijersi's board-level answer to "does this
# move win at once" (commit fe210d4): the same search (same simulations, same move, same tree
# size) timed with two binaries in alternation, on three half-random setups, five times each.
#
#   scripts/alone.sh experiments/mcts-strongest/speed/run.sh BEFORE AFTER > speed/times.txt
#
# BEFORE and AFTER are pjlab binaries (here: built from db4c9fe and from a commit after fe210d4).
# Each line: setup seed, binary (before/after), simulations, best move, seconds.
set -euo pipefail
cd "$(dirname "$0")/../../.."
before=${1:?usage: run.sh BEFORE AFTER}
after=${2:?usage: run.sh BEFORE AFTER}
net="net:checkpoint=experiments/pijersi-vs-alphabeta/checkpoint,sims=20000"
for seed in 5 6 7; do
  psn=$("$after" setup --variant half-random --seed "$seed")
  for rep in 1 2 3 4 5; do
    for which in before after; do
      bin=$before
      [ "$which" = after ] && bin=$after
      "$bin" analyse --psn "$psn" --agent "$net" --json | python3 -c "
import json, sys
d = json.load(sys.stdin)
print($seed, '$which', d['effort'], d['best_move'], round(d['seconds'], 3))"
    done
  done
done
