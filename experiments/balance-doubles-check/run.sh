#!/usr/bin/env bash
# Is Abalone doubles without the junction rule a different game for the lab's alpha-beta than the
# two-player Belgian daisy? The two are move for move the same game (../../../shared/specs/
# abalone.md), yet the balance atlas's `ab3` level under its main protocol found Black scoring
# 52.5% in belgian-daisy and 56.8% in doubles-nojunction, a difference shown after Holm's
# correction (p = 0.04). Written before any game below was played:
#
# 1. `replication/`: the same two starts, the same player (alpha-beta depth 3) and protocol (six
#    opening plies within 30 centi-units of the best by a 1-ply search, 1,000 plies at most) as
#    the atlas's `ab3/plies` cell, another seed (41). Stopping rule: 1,100 games a start, as the
#    atlas, no early stop; every game reported. The atlas's gap is replicated if doubles-nojunction
#    scores more than belgian-daisy with a two-sided p under 0.05 (the report's z test on each
#    distinct game's score); otherwise it is read as chance.
# 2. `same-seed/`: how the two part: 20 games of each start with the same seed (5), so that the
#    same game ids get the same openings and the same agents' seeds for seats 0 and 1, compared
#    move by move (`same-seed.txt`: the first ply where each pair of games parts, if any).
#
#   experiments/balance-doubles-check/run.sh [WORKERS=2]
set -euo pipefail
cd "$(dirname "$0")/../.."
workers=${1:-2}
PJLAB=${PJLAB:-target/release/pjlab}
[ -x "$PJLAB" ] || cargo build --release -p pjlab-cli
E=experiments/balance-doubles-check
common=(--game abalone --agent alphabeta:depth=3 --opening-plies 6 --opening-margin 30
  --max-plies 1000)
if [ ! -f "$E/replication/games.parquet" ]; then
  "$PJLAB" balance "${common[@]}" --variants belgian-daisy,doubles-nojunction \
    --games-per-variant 1100 --seed 41 --workers "$workers" --out "$E/replication"
fi
for v in belgian-daisy doubles-nojunction; do
  if [ ! -f "$E/same-seed/$v/games.parquet" ]; then
    "$PJLAB" balance "${common[@]}" --variants "$v" --games-per-variant 20 --seed 5 \
      --workers "$workers" --out "$E/same-seed/$v"
  fi
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for v in belgian-daisy doubles-nojunction; do
  cp -r "$E/same-seed/$v" "$scratch/$v"
  "$PJLAB" --quiet report "$scratch/$v" > /dev/null
done
python3 "$E/part.py" "$scratch/belgian-daisy/games.txt" "$scratch/doubles-nojunction/games.txt" \
  > "$E/same-seed.txt"
cat "$E/same-seed.txt"
