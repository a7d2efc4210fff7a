#!/bin/sh
# Each side's effort at 100 ms a move (the match records keep no depth or nodes): the agent's
# completed depth and nodes on 40 positions of the training data (every 500th line of
# d4-s1.txt, not positions of the matches), one `pjlab analyse` a position, one at a time.
# Usage: ./effort.sh SPEC...   Prints, per spec: mean completed depth, mean nodes, nodes/s.
PJLAB=${PJLAB:-target/release/pjlab}
for spec in "$@"; do
  awk -F'\t' 'NR % 500 == 1 {print $1}' experiments/nnue-first/data/d4-s1.txt | while read -r psn; do
    $PJLAB analyse --agent "$spec" --psn "$psn" --json -q < /dev/null
  done | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.startswith("{")]
d = sum(r["effort"] for r in rows) / len(rows)
n = sum(r["nodes"] for r in rows) / len(rows)
s = sum(r["seconds"] for r in rows)
rate = n * len(rows) / s
print(f"{sys.argv[1]}: {len(rows)} positions, mean depth {d:.2f}, mean nodes {n:.0f}, {rate:.0f} nodes/s")
' "$spec"
done
