#!/usr/bin/env bash
# Makes the atlases' committed files agree with their games, for a commit while the atlas is
# unfinished: every cell's report written again from its games.parquet (a cell stopped part-way
# has games saved after its last report), then each atlas's report. Run it with no `run.sh`
# playing (stop that with Ctrl-C first: finished games are kept).
#
#   experiments/balance-atlas/snapshot.sh [ATLAS...]    (default: pijersi abalone chomp)
set -euo pipefail
cd "$(dirname "$0")/../.."
PJLAB=${PJLAB:-target/release/pjlab}
E=experiments/balance-atlas
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(pijersi abalone chomp)
for name in "${names[@]}"; do
  atlas="$E/$name"
  [ -f "$atlas/atlas.toml" ] || continue
  find "$atlas" -name games.parquet -print0 | while IFS= read -r -d '' games; do
    "$PJLAB" -q report "$(dirname "$games")" > /dev/null
  done
  "$PJLAB" atlas report "$atlas"
done
