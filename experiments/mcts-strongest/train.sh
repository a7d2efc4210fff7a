#!/usr/bin/env bash
# The long run of this experiment: `pjlab train` on configs/mcts-strongest-pijersi.toml (committed
# before the run's first iteration; the config names its changes and expected cost), at the
# lowest priority, a checkpoint kept every 100 iterations.
#
#   experiments/mcts-strongest/train.sh [OUT]
#
# The ablations (`ablation.sh`) run through this script too, with CONFIG, ITERATIONS and CARRY
# set (defaults: the long run's config, 5000 and experiments/mcts-strongest/carry).
#
# OUT (default ~/pjlab-runs/mcts-strongest, outside the checkout so that a fresh checkout keeps
# it) is the run directory; run the script again to resume from the newest checkpoint (on a new
# machine, from the carry that park.sh left in experiments/mcts-strongest/carry/). The run
# plays on fixed simulation budgets, so other work on the machine slows it but does not change
# it. PJLAB names the binary (default: the release build of this checkout). On a kernel that
# groups processes by session (/proc/sys/kernel/sched_autogroup_enabled = 1), nice alone does
# not yield to other sessions: see experiments/README.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-$HOME/pjlab-runs/mcts-strongest}
config=${CONFIG:-configs/mcts-strongest-pijersi.toml}
iterations=${ITERATIONS:-5000}
carry=${CARRY:-experiments/mcts-strongest/carry}
PJLAB=${PJLAB:-target/release/pjlab}
[ -x "$PJLAB" ] || cargo build --release -p pjlab-cli
mkdir -p "$(dirname "$out")"
# A machine without the run directory takes it from the carry that park.sh committed, and
# resumes with the window refilled (the positions files are not carried).
refill=()
if [ ! -e "$out/checkpoints/latest" ] && [ -f "$carry/checkpoints/latest" ]; then
  mkdir -p "$out"
  cp -r "$carry"/. "$out"/
  refill=(--refill-window)
  echo "train.sh: $out seeded from $carry ($(cat "$carry/checkpoints/latest")), window refilled"
fi
# The extension (fixed before any game of a checkpoint past 3000; README, "The extension"): the
# config planned 3,000 iterations; after checkpoint 3000's two 1 s blocks (54.1%, and 53.8% with
# the hybrid, both short of 55%) the same run goes on to 5,000 with nothing else changed.
exec nice -n 19 "$PJLAB" train --config "$config" --out "$out" \
  --keep-every 100 --iterations "$iterations" "${refill[@]+"${refill[@]}"}"
