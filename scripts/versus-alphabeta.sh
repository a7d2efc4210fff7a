#!/usr/bin/env bash
# Colour-paired games of a trained network against alpha-beta, with the score's 95% Wilson
# interval: each of PAIRS half-random setups (seeds FIRST..FIRST+PAIRS-1) is played twice, the
# network as White then as Black, JOBS games at a time.
#
#   scripts/versus-alphabeta.sh RUN_OR_CHECKPOINT [PAIRS=100] [SIMS=400] [DEPTH=2] [JOBS=2] [FIRST=1000]
#
# Prints one line per game (seed, network colour, result) and a summary. Needs the release
# binary (cargo build --release -p pjlab-cli).
set -euo pipefail
cd "$(dirname "$0")/.."
run=${1:?usage: $0 RUN_OR_CHECKPOINT [PAIRS] [SIMS] [DEPTH] [JOBS] [FIRST]}
pairs=${2:-100}
sims=${3:-400}
depth=${4:-2}
jobs=${5:-2}
first=${6:-1000}
bin=target/release/pjlab
[ -x "$bin" ] || cargo build --release -p pjlab-cli
net="net:checkpoint=$run,sims=$sims"
ab="alphabeta:depth=$depth"
game() {
  local seed=$1 colour=$2 result
  if [ "$colour" = white ]; then
    result=$("$bin" -q play --white "$net" --black "$ab" --variant half-random --seed "$seed" 2>&1 | tail -1)
  else
    result=$("$bin" -q play --white "$ab" --black "$net" --variant half-random --seed "$seed" 2>&1 | tail -1)
  fi
  echo "$seed $colour ${result// /_}"
}
export -f game
export bin net ab
seq "$first" $((first + pairs - 1)) | sed 's/$/ white/; p; s/white/black/' \
  | xargs -P "$jobs" -L 1 bash -c 'game "$0" "$1"' \
  | tee /dev/stderr \
  | awk '
    $3 != "white" && $3 != "black" && $3 != "draw" { bad++; next }
    { n++; if ($3 == "draw") d++; else if ($3 == $2) w++; else l++ }
    END {
      if (bad > 0 || n == 0) { printf "%d games failed to run\n", bad; exit 1 }
      s = (w + d / 2) / n; z = 1.959964
      c = (s + z*z/(2*n)) / (1 + z*z/n); h = z * sqrt(s*(1-s)/n + z*z/(4*n*n)) / (1 + z*z/n)
      printf "games %d  network W/D/L %d/%d/%d  score %.3f  95%% interval %.3f..%.3f\n", n, w, d, l, s, c-h, c+h
    }'
