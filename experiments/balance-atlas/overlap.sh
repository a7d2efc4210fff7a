#!/usr/bin/env bash
# Which games of an atlas cell an earlier study already played: for each variant, the games of
# CELL whose moves (openings included) are those of a game of STUDY. The atlas's seed is the
# earlier studies' (1), so a cell with the same player and openings replays their games.
#
#   experiments/balance-atlas/overlap.sh CELL STUDY
#   experiments/balance-atlas/overlap.sh abalone/ab3/plies ../balance-abalone
#   experiments/balance-atlas/overlap.sh pijersi/ab3/plies ../balance-power/margin
#
# STUDY is relative to this directory. Prints one line a variant: its games in the cell, in the
# study, and how many of the cell's are games of the study.
set -euo pipefail
cd "$(dirname "$0")"
PJLAB=${PJLAB:-../../target/release/pjlab}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r "$1" "$scratch/cell"
cp -r "$2" "$scratch/study"
for d in cell study; do "$PJLAB" --quiet report "$scratch/$d" > /dev/null; done
python3 - "$scratch/cell/games.txt" "$scratch/study/games.txt" <<'PY'
import re, sys
def games(path):
    """Variant -> the set of its games' move texts (from games.txt)."""
    out = {}
    for block in re.split(r"(?m)^(?=\[game )", open(path).read()):
        head = re.match(r"\[game \d+ \| ([a-z0-9-]+) \|", block)
        if head:
            moves = "\n".join(block.splitlines()[1:]).strip()
            out.setdefault(head.group(1), []).append(moves)
    return out
cell, study = games(sys.argv[1]), games(sys.argv[2])
for variant, played in cell.items():
    known = set(study.get(variant, []))
    print(f"{variant}: {len(played)} games in the cell, {len(known)} distinct in the study, "
          f"{sum(g in known for g in played)} of the cell's are the study's")
PY
