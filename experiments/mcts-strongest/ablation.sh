#!/usr/bin/env bash
# What the long run's changes bought (README, "What the run's changes bought"), written before
# any iteration of its runs: each ablation is the long run's config with one change taken back,
# trained to 1,000 iterations (the same seed, 11), then its checkpoint 1000 against the long
# run's checkpoint 1000 in one SPRT match at 100 ms a move. Every ablation is reported whatever
# its match decides.
#
#   experiments/mcts-strongest/ablation.sh train NAME      # at nice 19; resumes; spans sessions
#   experiments/mcts-strongest/ablation.sh park NAME       # stop the run first (kill -INT)
#   scripts/alone.sh experiments/mcts-strongest/ablation.sh match NAME
#
# The ablations, in the order they are trained (one at a time):
#   scratch  configs/mcts-strongest-scratch.toml: no evaluation's share in the value targets
#            (every target the game's result): self-play alone from random weights, what the
#            bootstrap from the learned alpha-beta bought; seed 6501
#   labels   configs/mcts-strongest-labels.toml: half of each value target from the
#            hand-written evaluation's static score (the earlier long run's labels), what the
#            learned labels bought; seed 6502
#   sims     configs/mcts-strongest-sims.toml: full and cheap searches of 128 and 24
#            simulations (the earlier run's), what the deeper self-play searches bought; seed 6503
#
# The match: `net:checkpoint=<long run's iter-1000>,reuse=1,batch=8,cpuct=2.5` (the blocks'
# player) against the same player on the ablation's iter-1000; an SPRT of "the long run's
# network is at least 20 Elo better" (H0 0 Elo, H1 20 Elo, 5% error rates), undecided at 2,000
# games; colour pairs on classic and half-random setups in turn, 2 random opening plies within
# 30 centi-units of the best; 100 ms a move each, 2 workers (one core each), the machine
# otherwise idle (alone.sh pauses the runs at nice 19). Results under ablation/NAME/match/.
#
# Differences from the long run that are not the change: the long run's window was refilled
# once, at iteration 545 (it moved machines; README), where an ablation that never moves runs
# uninterrupted; and the builds differ (the long run's first 1,894 iterations were trained by
# commit 1951817's, an ablation by the binary PJLAB names, recorded in its provenance.jsonl).
set -euo pipefail
cd "$(dirname "$0")/../.."
usage="usage: ablation.sh train|park|match scratch|labels|sims"
action=${1:?$usage}
name=${2:?$usage}
case $name in
  scratch) seed=6501 ;;
  labels) seed=6502 ;;
  sims) seed=6503 ;;
  *) echo "ablation.sh: no ablation $name ($usage)" >&2; exit 2 ;;
esac
E=experiments/mcts-strongest
run=${RUN:-$HOME/pjlab-runs/mcts-ablation-$name}
config=configs/mcts-strongest-$name.toml
PJLAB=${PJLAB:-target/release/pjlab}
export PJLAB
case $action in
  train)
    CONFIG=$config ITERATIONS=1000 CARRY=$E/ablation/$name/carry exec "$E/train.sh" "$run"
    ;;
  park)
    CONFIG=$config CARRY=ablation/$name/carry exec "$E/park.sh" "$run"
    ;;
  match)
    checkpoint() {
      local dir=$1/checkpoints/iter-1000
      [ -f "$dir/model.bpk" ] || { echo "ablation.sh: no checkpoint $dir" >&2; exit 1; }
      echo "$dir"
    }
    long=$(checkpoint "$E/carry")
    if [ -f "$run/checkpoints/iter-1000/model.bpk" ]; then
      ablated=$run/checkpoints/iter-1000
    else
      ablated=$(checkpoint "$E/ablation/$name/carry")
    fi
    search=reuse=1,batch=8,cpuct=2.5
    out=$E/ablation/$name/match
    if [ -f "$out/games.parquet" ]; then
      exec "$PJLAB" match --out "$out" --resume --workers 2
    fi
    exec "$PJLAB" match --a "net:checkpoint=$long,$search" --b "net:checkpoint=$ablated,$search" \
      --time-per-move 100ms --games 2000 --sprt-elo 20 --variants classic,half-random \
      --opening-plies 2 --seed "$seed" --workers 2 --out "$out"
    ;;
  *) echo "ablation.sh: no action $action ($usage)" >&2; exit 2 ;;
esac
