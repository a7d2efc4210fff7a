#!/usr/bin/env bash
# What a second imperfect-information game would write beside its rules crate, today: the lines
# of every Chifoumi-specific source file outside crates/chifoumi (its run harness, its learner,
# its players, its registry entry, its Python agent, its commands), comments and blank lines
# included. crates/README.md ("Why Chifoumi has a stack of its own") quotes the total.
#
#   scripts/imperfect-cost.sh
set -euo pipefail
cd "$(dirname "$0")/../crates"
total=0
for place in chifoumi-eval/src chifoumi-learn/src players/src/chifoumi registry/src/chifoumi.rs \
  registry/src/chifoumi_view.rs python/src/chifoumi_agent.rs cli/src/cmd/chifoumi; do
  n=$(find "$place" -name '*.rs' -print0 | xargs -0 cat | wc -l)
  printf '%-32s %6d\n' "$place" "$n"
  total=$((total + n))
done
printf '%-32s %6d\n' total "$total"
