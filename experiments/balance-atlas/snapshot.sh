#!/usr/bin/env bash
# Makes the atlases' committed files agree with their games, for a commit while the atlas is
# unfinished: every cell's report written again from its games.parquet (a cell stopped part-way
# has games saved after its last report), then each atlas's report. Run it with no `run.sh`
# playing (stop that with Ctrl-C first: finished games are kept).
#
#   experiments/balance-atlas/snapshot.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
PJLAB=${PJLAB:-target/release/pjlab}
E=experiments/balance-atlas
for atlas in "$E"/*/; do
  [ -f "$atlas/atlas.toml" ] || continue
  find "$atlas" -name games.parquet -print0 | while IFS= read -r -d '' games; do
    "$PJLAB" -q report "$(dirname "$games")" > /dev/null
  done
  "$PJLAB" atlas report "$atlas"
done
