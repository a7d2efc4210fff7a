#!/usr/bin/env bash
# perft(5) from the classic start on every core, checked against the reference count
# (220,561,140,835 leaves, from ../shared/vectors/pijersi/README.md). Takes a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p pjlab-cli
threads=$(nproc)
got=$(target/release/pjlab perft --depth 5 --threads "$threads" | tail -n 1)
expected=220561140835
if [ "$got" = "$expected" ]; then
  echo "perft(5) = $got: matches the reference"
else
  echo "perft(5) = $got, expected $expected" >&2
  exit 1
fi
