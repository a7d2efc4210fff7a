#!/usr/bin/env bash
# Kill anywhere: `pjlab train`, `pjlab atlas run`, `pjlab nnue generations` and a tournament,
# each run once uninterrupted, then killed with SIGKILL at random moments (24 kills a kind, the
# moments drawn from seed 66: both fixed in killanywhere.py before it runs) and resumed with the
# same command until it finishes; the finished runs' records are compared with the
# uninterrupted run's (compare.py), and a second process on a busy run directory must be refused.
# Results: results.json, and the tables in README.md are written from it.
#
# Usage: experiments/kill-anywhere/run.sh [train|atlas|generations|tournament ...]
# Needs target/release/pjlab (cargo build --release -p pjlab-cli) or PJLAB=path; Python 3 with
# pyarrow, installed into a virtual environment here (.venv, ignored by git) when missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export PJLAB="${PJLAB:-$root/target/release/pjlab}"
[ -x "$PJLAB" ] || { echo "error: no $PJLAB: cargo build --release -p pjlab-cli" >&2; exit 2; }
py="$here/.venv/bin/python"
if ! [ -x "$py" ] || ! "$py" -c 'import pyarrow' 2>/dev/null; then
  python3 -m venv "$here/.venv"
  "$here/.venv/bin/pip" install -q pyarrow
fi
exec nice -n 10 "$py" "$here/killanywhere.py" "$@"
