#!/usr/bin/env bash
# Checks that the Python package's build (maturin builds crates/python alone, with its `python`
# feature) and the binary's build (`-p pjlab-cli`) give every shared dependency the features the
# workspace's build gives it, so that they reuse the workspace's compiled Burn, tract and
# parquet instead of compiling them a second time. Prints each dependency whose features differ
# and exits 1 if there is one. Needs only `cargo tree` (no build).
set -euo pipefail
cd "$(dirname "$0")/.."

features() {
  cargo tree --quiet -e features --prefix none -f '{p} {f}' "$@" | awk '$2 != "feature"' |
    sed 's/ (\*)$//' | sort -u
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
features --workspace > "$tmp/workspace"
features -p pjlab-python --features python > "$tmp/python"
features -p pjlab-cli > "$tmp/cli"
status=0
for build in python cli; do
  # Lines "name version features" of packages both builds have, whose features differ.
  differ=$(awk 'NR == FNR { ws[$1 " " $2] = ws[$1 " " $2] "|" $3; next }
                ($1 " " $2) in ws && index(ws[$1 " " $2] "|", "|" $3 "|") == 0 { print }' \
    "$tmp/workspace" "$tmp/$build")
  if [ -n "$differ" ]; then
    echo "check-features: the $build build gives these dependencies other features than the workspace's:" >&2
    echo "$differ" >&2
    status=1
  fi
done
exit "$status"
