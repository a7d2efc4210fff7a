#!/usr/bin/env bash
# The learned Chifoumi player: training with configs/chifoumi.toml (1500 iterations), then
#   - a round robin of every scripted player and the learned one (300 matches a pair), and
#     1000 more matches against the players it is not separated from there,
#   - an exploitability check: a best response trained against the final network alone
#     (400 iterations, the same settings otherwise), evaluated against it.
# The training run lives in runs/chifoumi-learned (resumable); what the README quotes is copied
# here: metrics, training.md, plots, provenance and the final network (final/).
#
#   experiments/chifoumi-learned/run.sh [WORKERS=2]
set -euo pipefail
cd "$(dirname "$0")/../.."
workers=${1:-2}
bin=${PJLAB:-target/release/pjlab}
[ -x "$bin" ] || cargo build --release -p pjlab-cli
E=experiments/chifoumi-learned
run=runs/chifoumi-learned
"$bin" chifoumi train --config configs/chifoumi.toml --out "$run"
mkdir -p "$E/training" "$E/final"
cp "$run/config.toml" "$run/metrics.jsonl" "$run/provenance.jsonl" "$E/training/"
cp -r "$run/plots" "$E/training/"
"$bin" report "$E/training"
latest=$(cat "$run/checkpoints/latest")
cp "$run/checkpoints/$latest/model.bpk" "$run/checkpoints/$latest/state.json" "$E/final/"
players=random,focused:F,focused:P,focused:C,greedy,avoider,counter,counter-reset,observer,lurker,net:checkpoint=$E/final
if [ -f "$E/round-robin/matches.parquet" ]; then
  "$bin" chifoumi tournament --out "$E/round-robin" --resume --workers "$workers"
else
  "$bin" chifoumi tournament --seed 1 --matches 300 --workers "$workers" --out "$E/round-robin" --players "$players"
fi
# The goal's second stage: the scripted players whose match score against the learned player
# has a 95% interval containing 50% over the round robin's 300 matches, played again over
# 1000 fresh matches (another seed).
for b in counter-reset greedy lurker; do
  out="$E/goal/$b"
  if [ -f "$out/matches.parquet" ]; then
    "$bin" chifoumi match --out "$out" --resume --workers "$workers"
  else
    "$bin" chifoumi match --seed 3 --matches 1000 --workers "$workers" --out "$out" \
      --a "net:checkpoint=$E/final" --b "$b"
  fi
done
# The best response: only the final network as opponent.
sed -e 's/^iterations = .*/iterations = 400/' -e 's/^self_play_share = .*/self_play_share = 0.0/' \
  -e "s|^opponents = .*|opponents = [\"net:checkpoint=$E/final\"]|" -e 's/^eval_every = .*/eval_every = 20/' \
  -e 's/^eval_matches = .*/eval_matches = 200/' configs/chifoumi.toml > "$run-best-response.toml"
"$bin" chifoumi train --config "$run-best-response.toml" --out "$run-best-response"
mkdir -p "$E/best-response"
cp "$run-best-response/config.toml" "$run-best-response/metrics.jsonl" "$run-best-response/provenance.jsonl" "$E/best-response/"
cp -r "$run-best-response/plots" "$E/best-response/"
"$bin" report "$E/best-response"
# The learned player against the information-set MCTS player of experiments/chifoumi-round-robin.
if [ -f "$E/versus-ismcts/matches.parquet" ]; then
  "$bin" chifoumi match --out "$E/versus-ismcts" --resume --workers "$workers"
else
  "$bin" chifoumi match --seed 1 --matches 200 --workers "$workers" --out "$E/versus-ismcts" \
    --a "net:checkpoint=$E/final" --b ismcts:sims=100
fi
