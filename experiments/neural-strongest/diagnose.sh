#!/bin/sh
# Diagnostics at a fixed depth (not strength at equal time): each network's alpha-beta at
# depth 3 against the hand-written evaluation's at depth 3, 200 colour-paired games (half-random
# and classic setups in turn), seed 11 (a seed no network here was chosen on), two workers (a
# fixed depth does not depend on the machine's load). Fixed game counts, no early stop, every
# network of train.sh played and reported.
set -e
PJLAB=${PJLAB:-target/release/pjlab}
E=experiments/neural-strongest
for net in "$@"; do
  name=$(basename "$net" .json)
  $PJLAB match --game pijersi --a "alphabeta:eval=nnue:$net,depth=3" --b alphabeta:depth=3 \
    --variants half-random,classic --games 200 --seed 11 --workers 2 \
    --out "$E/diagnostics/depth3-$name" -q
done

# The replication (written after all6-32r-quiet, chosen after seeing the five diagnostics above
# with seed 11, scored 58.0%): the same network, the same match with seed 12, 200 games.
if [ "${REPLICATE:-}" = 1 ]; then
  $PJLAB match --game pijersi --a "alphabeta:eval=nnue:$E/nets/all6-32r-quiet.json,depth=3" \
    --b alphabeta:depth=3 --variants half-random,classic --games 200 --seed 12 --workers 2 \
    --out "$E/diagnostics/depth3-all6-32r-quiet-seed12" -q
fi
