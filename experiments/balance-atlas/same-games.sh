#!/usr/bin/env bash
# Does another build play an atlas's games exactly as the recorded ones? Plays one shard of one
# cell into a scratch directory with the build PJLAB names, for at most SECONDS seconds, then
# compares every game it finished with the recorded game of the same id in the atlas: the setup,
# every move and the result must be the same. Every level plays on a fixed depth, node or
# simulation budget, so a build that searches as the recorded one did plays the same games.
#
#   experiments/balance-atlas/same-games.sh GAME CELL SHARD SECONDS
#   experiments/balance-atlas/same-games.sh pijersi ab-hand/plies 1/100 300
#   experiments/balance-atlas/same-games.sh pijersi ladder 1/25 300
#
# CELL is LEVEL/PROTOCOL or `ladder`; SHARD is K/N (`pjlab atlas run --shard`). Prints one line
# a compared game and a last line "same: A of B"; exits 1 if a game differs or none was compared.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -ne 4 ]; then
  echo "usage: $0 GAME CELL SHARD SECONDS (e.g. pijersi ab-hand/plies 1/100 300)" >&2
  exit 2
fi
game=$1 cell=$2 shard=$3 seconds=$4
PJLAB=${PJLAB:-target/release/pjlab}
atlas=experiments/balance-atlas/$game
[ -f "$atlas/$cell/games.parquet" ] || { echo "no recorded games in $atlas/$cell" >&2; exit 2; }
level=${cell%%/*}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The shard's games, with a time limit (an interrupted run keeps its finished games).
timeout -s INT "$seconds" "$PJLAB" --quiet atlas run --spec "$atlas/atlas.toml" \
  --out "$scratch/atlas" --only "$level" --shard "$shard" --workers 1 >/dev/null || true

# Both cells' games as text (`pjlab report` writes games.txt: a header line with the setup, the
# players and the result, then the moves), compared game by game: each block must be the same.
"$PJLAB" --quiet report "$scratch/atlas/$cell" >/dev/null
cp -r "$atlas/$cell" "$scratch/recorded"
"$PJLAB" --quiet report "$scratch/recorded" >/dev/null
python3 - "$scratch/atlas/$cell/games.txt" "$scratch/recorded/games.txt" <<'EOF'
import re, sys
def games(path):
    # A game's block runs from its "[game N | ...]" line to the next one (a setup and its moves
    # may be apart by a blank line).
    blocks = re.split(r"(?m)^(?=\[game )", open(path).read())
    return {int(re.match(r"\[game (\d+) ", b).group(1)): b.strip() for b in blocks if b.startswith("[game ")}
replayed, recorded = games(sys.argv[1]), games(sys.argv[2])
same = compared = 0
for gid in sorted(replayed):
    if gid not in recorded:
        continue
    compared += 1
    equal = replayed[gid] == recorded[gid]
    same += equal
    print(f"game {gid}: {'same' if equal else 'DIFFERS'}, {len(replayed[gid])} characters, {replayed[gid].splitlines()[0]}")
print(f"same: {same} of {compared}")
sys.exit(0 if compared and same == compared else 1)
EOF
